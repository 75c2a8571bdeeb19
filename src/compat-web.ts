// chwire/compat/web: @clickhouse/client-web 1.x's API (createClient, query/exec/command/insert/
// ping/close, ResultSet over WHATWG ReadableStreams, ClickHouseError) over chwire/web's fetch
// transport, so a browser app (or a library's browser path) moves with one import changed
// (docs/migrating.md). Invariant: nothing in this module's graph imports a `node:` module or uses
// a Node global (test/web.bundle.test.ts bundles it for the browser and checks).
import { createClient } from './compat/web/client.js';
import { ResultSet } from './compat/web/result-set.js';
import { ClickHouseError, parseError } from './compat/errors.js';
import {
  RecordsJSONFormats, SingleDocumentJSONFormats, StreamableFormats, StreamableJSONFormats, SupportedJSONFormats, SupportedRawFormats,
} from './compat/formats.js';
import { ClickHouseLogLevel } from './compat/log.js';
import { SettingsMap, TupleParam } from './compat/params.js';
import { defaultJSONHandling, isException, isProgressRow, isRow } from './compat/rows.js';
import { ClickHouseSpanKind, ClickHouseSpanNames, ClickHouseSpanStatusCode, EXCEPTION_TAG_HEADER_NAME, SimpleColumnTypes } from './compat/constants.js';
import { parseColumnType } from './compat/column-type.js';
import { extractErrorAtTheEndOfChunk } from './compat/stream-error.js';

export {
  createClient, ResultSet, ClickHouseError, parseError, ClickHouseLogLevel, SettingsMap, TupleParam,
  RecordsJSONFormats, SingleDocumentJSONFormats, StreamableFormats, StreamableJSONFormats, SupportedJSONFormats, SupportedRawFormats,
  defaultJSONHandling, isException, isProgressRow, isRow,
  ClickHouseSpanKind, ClickHouseSpanNames, ClickHouseSpanStatusCode, EXCEPTION_TAG_HEADER_NAME, SimpleColumnTypes,
  parseColumnType, extractErrorAtTheEndOfChunk,
};
export type {
  WebClickHouseClient as ClickHouseClient, ExecParams, CommandParams, InsertParams, ExecResult, InsertResult, WebCommandResult as CommandResult,
} from './compat/web/client.js';
export type { WebClickHouseClientConfigOptions as ClickHouseClientConfigOptions } from './compat/web/config.js';
export type { BaseQueryParams, QueryParams, PingResult } from './compat/call-types.js';
export type { Row, ResponseHeaders, ResponseJSON } from './compat/result-types.js';
export type { ProgressRow } from './compat/rows.js';
export type { ParsedColumnType, ParsedColumnSimple, ParsedColumnEnum, ParsedColumnFixedString, ParsedColumnNullable, ParsedColumnDecimal, ParsedColumnDateTime, ParsedColumnDateTime64, ParsedColumnArray, ParsedColumnTuple, ParsedColumnMap, DecimalParams } from './compat/column-type.js';
export type { ClickHouseClientConfigOptions as BaseClickHouseClientConfigOptions, ClickHouseSettings, JSONHandling, OfficialLogger as Logger, LogParams } from './compat/options.js';
export type { ErrorLogParams, WarnLogParams } from './compat/log.js';
export type { DataFormat, RawFormat as RawDataFormat, StreamableJSONFormat as StreamableJSONDataFormat, SingleDocumentJSONFormat } from './compat/formats.js';

/** The module as one object, as `import client from '@clickhouse/client-web'` gives it (the official build is CommonJS). */
export default {
  createClient, ResultSet, ClickHouseError, parseError, ClickHouseLogLevel, SettingsMap, TupleParam,
  RecordsJSONFormats, SingleDocumentJSONFormats, StreamableFormats, StreamableJSONFormats, SupportedJSONFormats, SupportedRawFormats,
  defaultJSONHandling, isException, isProgressRow, isRow,
  ClickHouseSpanKind, ClickHouseSpanNames, ClickHouseSpanStatusCode, EXCEPTION_TAG_HEADER_NAME, SimpleColumnTypes,
  parseColumnType, extractErrorAtTheEndOfChunk,
};
