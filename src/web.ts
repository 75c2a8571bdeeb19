// chwire/web: the same client over WHATWG fetch, for browsers, Deno, Bun, Cloudflare Workers and
// other edge runtimes. Invariant: nothing in this module's graph imports a `node:` module or uses
// a Node global (test/web.bundle.test.ts bundles it for the browser and checks); options that only
// exist with node:http or the embedded engine are a ChwireConfigError naming them, never ignored.
import { createClientWith, type Client } from './client/client.js';
import { createQueryClientWith, type QueryClient } from './client/query-client.js';
import { onFetch, type WebClientOptions } from './client/web-transport.js';

export type { WebClientOptions } from './client/web-transport.js';

/** A client on fetch: `http(s)://` URLs only (the embedded engine, `chdb://`, needs Node). */
export function createClient(options: WebClientOptions = {}): Client {
  const { common, makeTransport } = onFetch(options);
  return createClientWith(common, makeTransport);
}

/**
 * A client on fetch with the queries and statements only (fetch, stream, streamRaw, execute, …):
 * pass it to the functions `insert`, `fetchColumns`, `streamColumns` for those calls. An app
 * bundles only the calls it imports: a page that only reads ships no insert encoders.
 */
export function createQueryClient(options: WebClientOptions = {}): QueryClient {
  const { common, makeTransport } = onFetch(options);
  return createQueryClientWith(common, makeTransport);
}

export type { Client, QueryClient, QueryOptions, ExecOptions, Rows, ExecResult, ObjectRow, QueryParams, QueryParamValue, CloseOptions } from './client/client.js';
export { insert, refreshSchema } from './client/insert/insert-call.js';
export { fetchColumns, streamColumns } from './client/read/columns-call.js';
export { jsonReplacer, toJson, type JsonReplacerOptions, type JsonReplacer } from './values/json.js';
export type { Settings, SettingValue } from './client/options/config.js';
export type { FetchFunction } from './transport/fetch.js';
export type { RowStream } from './client/read/row-stream.js';
export type { RawStream, RawOptions } from './client/read/raw-stream.js';
export type { InsertBytes, InsertInput, InsertOptions, InsertResult, InsertRow, TableColumn } from './client/insert/insert.js';
export type { ColumnsResult, ColumnsOptions } from './client/read/columns.js';
export type { ColumnStream, ColumnBatch } from './client/read/column-stream.js';
export type { HostStatus, LoadBalancing } from './transport/hosts.js';
export type { RetryOptions } from './transport/retry.js';
export type { TracingOptions, TracingTracer, TracingSpan } from './client/observe/tracing.js';
export type { Logger, LogLevel } from './client/observe/logger.js';
export { tuple, QueryTuple } from './client/sql/query-tuple.js';
export { precompiledHits, precompiledCount, type PrecompiledKind } from './codegen/precompiled.js';
export { sqlLiteral, sqlInteger } from './client/sql/literal.js';
export type { NativeColumns, NativeColumn } from './native/index.js';
export {
  columnType, columnTypes, epochMillis, decimalNumbers, decimalStrings, nullableNumbers, nullableValues, enumLabels, lowCardinalityValues,
  type ColumnType,
} from './columns/helpers.js';
export type { QuerySummary } from './transport/types.js';
export type { DecodeOptions, ValueOptions } from './plan/options.js';
export type { ColumnInfo, Row } from './stream-decoder.js';
export {
  ChwireError, ChwireTypeError, ChwireDecodeError, ChwireEncodeError, ChwireServerError,
  ChwireConnectionError, ChwireTimeoutError, ChwireAbortError, ChwireConfigError, ChwireLimitError,
  isChwireError, ERROR_CODES,
} from './errors.js';
export type { ChwireErrorCode, CallTimings } from './errors.js';
