// chwire/compat: @clickhouse/client 1.x's API (createClient, query/exec/command/insert/ping/close,
// ClickHouseError) over chwire's transport, so a service moves with one import changed
// (docs/migrating.md). Node-only: results are node:stream Readables, as the official Node client's.
import { ClickHouseClient, createClient } from './compat/client.js';
import { ClickHouseError, parseError } from './compat/errors.js';
import {
  RecordsJSONFormats, SingleDocumentJSONFormats, StreamableFormats, StreamableJSONFormats, SupportedJSONFormats, SupportedRawFormats,
} from './compat/formats.js';
import { ClickHouseLogLevel } from './compat/options.js';
import { SettingsMap, TupleParam } from './compat/params.js';
import { ResultSet } from './compat/result-set.js';
import { defaultJSONHandling, isException, isProgressRow, isRow } from './compat/rows.js';
import { drainStream } from './compat/drain.js';
import { parseColumnType } from './compat/column-type.js';
import { extractErrorAtTheEndOfChunk } from './compat/stream-error.js';
import { ClickHouseSpanKind, ClickHouseSpanNames, ClickHouseSpanStatusCode, EXCEPTION_TAG_HEADER_NAME, SimpleColumnTypes } from './compat/constants.js';

export {
  ClickHouseClient, createClient, ClickHouseError, parseError, ClickHouseLogLevel, SettingsMap, TupleParam, ResultSet,
  RecordsJSONFormats, SingleDocumentJSONFormats, StreamableFormats, StreamableJSONFormats, SupportedJSONFormats, SupportedRawFormats,
  defaultJSONHandling, drainStream, isException, isProgressRow, isRow,
  ClickHouseSpanKind, ClickHouseSpanNames, ClickHouseSpanStatusCode, EXCEPTION_TAG_HEADER_NAME, SimpleColumnTypes,
  parseColumnType, extractErrorAtTheEndOfChunk,
};
export type {
  BaseQueryParams, QueryParams, ExecParams, CommandParams, InsertParams,
  CommandResult, ExecResult, InsertResult, PingResult, PingParams,
} from './compat/client.js';
export type { Row, ResponseHeaders, ResponseJSON } from './compat/result-set.js';
export type { ProgressRow } from './compat/rows.js';
export type { ParsedColumnType, ParsedColumnSimple, ParsedColumnEnum, ParsedColumnFixedString, ParsedColumnNullable, ParsedColumnDecimal, ParsedColumnDateTime, ParsedColumnDateTime64, ParsedColumnArray, ParsedColumnTuple, ParsedColumnMap, DecimalParams } from './compat/column-type.js';
export type { ClickHouseSummary, InputJSON, InputJSONObjectEachRow, InsertValues } from './compat/official-types.js';
export type { ClickHouseClientConfigOptions, ClickHouseClientConfigOptions as BaseClickHouseClientConfigOptions, ClickHouseSettings, JSONHandling, OfficialLogger as Logger, LogParams } from './compat/options.js';
export type { ErrorLogParams, WarnLogParams } from './compat/log.js';
export type { DataFormat, RawFormat as RawDataFormat, StreamableJSONFormat as StreamableJSONDataFormat, SingleDocumentJSONFormat } from './compat/formats.js';

/** The module as one object, as `import client from '@clickhouse/client'` gives it (the official build is CommonJS). */
export default {
  ClickHouseClient, createClient, ClickHouseError, parseError, ClickHouseLogLevel, SettingsMap, TupleParam, ResultSet,
  RecordsJSONFormats, SingleDocumentJSONFormats, StreamableFormats, StreamableJSONFormats, SupportedJSONFormats, SupportedRawFormats,
  defaultJSONHandling, drainStream, isException, isProgressRow, isRow,
  ClickHouseSpanKind, ClickHouseSpanNames, ClickHouseSpanStatusCode, EXCEPTION_TAG_HEADER_NAME, SimpleColumnTypes,
  parseColumnType, extractErrorAtTheEndOfChunk,
};
