// The `chwire` entry point: createClient, the option and result types, and the error classes
// (the I/O-free codecs are in `chwire/codec`).
import { createClientWith, type Client } from './client/client.js';
import { createQueryClientWith, type QueryClient } from './client/query-client.js';
import type { ClientOptions } from './client/options/config.js';
import { nodeTransport } from './node-transports.js';
import { withGlobalTracer } from './client/observe/otel-global.js';

/** A client for `http(s)://` servers (node:http, pooled) or the embedded engine (`chdb://`). */
export function createClient(options: ClientOptions = {}): Client {
  // tracing: true finds the global tracer of @opentelemetry/api here only (chwire/web takes { tracer }).
  return createClientWith(withGlobalTracer(options), nodeTransport);
}

/**
 * The same client with the queries and statements only; insert, fetchColumns and streamColumns
 * are the functions of those names over it (as in chwire/web, where this keeps bundles small).
 */
export function createQueryClient(options: ClientOptions = {}): QueryClient {
  return createQueryClientWith(withGlobalTracer(options), nodeTransport);
}

export type { Client, QueryClient, QueryOptions, ExecOptions, Rows, ExecResult, ObjectRow, QueryParams, QueryParamValue, CloseOptions } from './client/client.js';
export { insert, refreshSchema } from './client/insert/insert-call.js';
export { fetchColumns, streamColumns } from './client/read/columns-call.js';
export { jsonReplacer, toJson, type JsonReplacerOptions, type JsonReplacer } from './values/json.js';
export type { ClientOptions, Settings, SettingValue } from './client/options/config.js';
export type { RowStream } from './client/read/row-stream.js';
export type { RawStream, RawOptions } from './client/read/raw-stream.js';
export type { InsertBytes, InsertInput, InsertOptions, InsertResult, InsertRow, TableColumn } from './client/insert/insert.js';
export type { ColumnsResult, ColumnsOptions } from './client/read/columns.js';
export type { ColumnStream, ColumnBatch } from './client/read/column-stream.js';
export { tuple, QueryTuple } from './client/sql/params.js';
export { precompiledHits, precompiledCount, type PrecompiledKind } from './codegen/precompiled.js';
export { sqlLiteral, sqlInteger } from './client/sql/literal.js';
export type { NativeColumns, NativeColumn } from './native/index.js';
export {
  columnType, columnTypes, epochMillis, decimalNumbers, decimalStrings, nullableNumbers, nullableValues, enumLabels, lowCardinalityValues,
  type ColumnType,
} from './columns/helpers.js';
export type { TlsOptions } from './transport/tls-options.js';
export type { QuerySummary } from './transport/types.js';
export type { HostStatus, LoadBalancing } from './transport/hosts.js';
export type { RetryOptions } from './transport/retry.js';
export type { TracingOptions, TracingTracer, TracingSpan } from './client/observe/tracing.js';
export type { Logger, LogLevel } from './client/observe/logger.js';
export type { RetryBudgetOptions } from './transport/retry-budget.js';
export type { DecodeOptions, ValueOptions } from './plan/options.js';
export type { ColumnInfo, Row } from './stream-decoder.js';
export {
  ChwireError, ChwireTypeError, ChwireDecodeError, ChwireEncodeError, ChwireServerError,
  ChwireConnectionError, ChwireTimeoutError, ChwireAbortError, ChwireConfigError, ChwireLimitError,
  isChwireError, ERROR_CODES,
} from './errors.js';
export type { ChwireErrorCode, CallTimings } from './errors.js';
