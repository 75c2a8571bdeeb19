// chwire/web: the same client over WHATWG fetch, for browsers, Deno, Bun, Cloudflare Workers and
// other edge runtimes. Invariant: nothing in this module's graph imports a `node:` module or uses
// a Node global (test/web.bundle.test.ts bundles it for the browser and checks); options that only
// exist with node:http or the embedded engine are a ChwireConfigError naming them, never ignored.
import { createClientWith, type Client } from './client/client.js';
import { createQueryClientWith, type QueryClient } from './client/query-client.js';
import type { ClientOptions, TransportFactory, TransportTarget } from './client/config.js';
import type { TracingOptions, TracingTracer } from './client/observe/tracing.js';
import { ChwireConfigError } from './errors.js';
import { FetchTransport, type FetchFunction } from './transport/fetch.js';
import { requestStreamsSupported } from './transport/request-streams.js';
import type { Transport } from './transport/types.js';

/** The client options of chwire/web: those of `chwire` less the Node-only ones (NODE_ONLY below). */
export interface WebClientOptions extends Omit<ClientOptions, 'tls' | 'agent' | 'proxy' | 'maxOpenConnections' | 'keepAlive' | 'idleSocketTtl' | 'tracing'> {
  /**
   * OpenTelemetry spans with your tracer: `{ tracer: trace.getTracer('my-app'), includeQueryText? }`
   * (chwire/web imports no OpenTelemetry package itself, so there is no `tracing: true` here).
   */
  tracing?: false | (TracingOptions & { tracer: TracingTracer });
  /**
   * The fetch to use (default: `globalThis.fetch`), e.g. a Worker's service binding or a fetch
   * with a proxy of the runtime's own.
   */
  fetch?: FetchFunction;
  /**
   * Stream insert bodies (`duplex: 'half'`). Default: where the runtime can (Node, Deno, Bun,
   * workerd); browsers stream request bodies over HTTP/2 only, so there each insert block goes as
   * its own request. `true` in a browser needs the server (or a proxy before it) on HTTP/2.
   */
  requestStreams?: boolean;
}

/** Node-only options, and why each cannot exist here. */
const NODE_ONLY: Readonly<Record<string, string>> = {
  tls: 'TLS is the runtime\'s (its trust store and certificates); files and keys cannot be passed to fetch',
  agent: 'fetch has no http.Agent',
  proxy: 'proxies are the runtime\'s concern under fetch (pass option fetch to use your own)',
  maxOpenConnections: 'the runtime\'s fetch owns the connection pool',
  keepAlive: 'the runtime\'s fetch owns the connection pool',
  idleSocketTtl: 'the runtime\'s fetch owns the connection pool',
};

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

/** The options common to every entry, and the factory of fetch transports for them. */
function onFetch(options: WebClientOptions): { common: ClientOptions; makeTransport: TransportFactory } {
  if (typeof options !== 'object' || options === null) throw new ChwireConfigError('createClient takes an options object');
  for (const [name, why] of Object.entries(NODE_ONLY)) {
    if ((options as Record<string, unknown>)[name] !== undefined) throw new ChwireConfigError(`option ${name} is not available in chwire/web: ${why}`);
  }
  const { fetch: customFetch, requestStreams, ...common } = options;
  if (customFetch !== undefined && typeof customFetch !== 'function') throw new ChwireConfigError('option fetch must be a function');
  if (requestStreams !== undefined && typeof requestStreams !== 'boolean') throw new ChwireConfigError('option requestStreams must be a boolean');
  const fetchFn: FetchFunction | undefined = customFetch ?? (typeof globalThis.fetch === 'function' ? (input, init) => globalThis.fetch(input, init) : undefined);
  if (fetchFn === undefined) throw new ChwireConfigError('chwire/web needs fetch: this runtime has no globalThis.fetch (pass option fetch)');
  const makeTransport = (target: TransportTarget): Transport => {
    if (target.kind === 'chdb') throw new ChwireConfigError('option url: chdb:// (the embedded engine) needs Node; chwire/web connects to http(s):// servers only');
    // The runtime's fetch chooses (and decodes) the response encoding; a browser forbids setting
    // Accept-Encoding. Request bodies: what CompressionStream makes.
    if (target.compression !== false && target.compression !== 'gzip') {
      throw new ChwireConfigError(`option compression: chwire/web cannot ask for ${target.compression} responses (the runtime's fetch chooses the encoding); use compression: true`);
    }
    const rc = target.requestCompression;
    if (rc !== undefined && rc !== 'gzip' && rc !== 'deflate') throw new ChwireConfigError(`option compression.request: chwire/web compresses request bodies with CompressionStream, which has gzip and deflate, not ${rc}`);
    return new FetchTransport({
      urls: target.urls, username: target.username, password: target.password, database: target.database,
      requestTimeout: target.requestTimeout, compression: target.compression !== false, requestCompression: rc,
      accessToken: target.accessToken, httpHeaders: target.httpHeaders,
      requestStreams: requestStreams ?? requestStreamsSupported(), fetch: fetchFn,
    });
  };
  return { common, makeTransport };
}

export type { Client, QueryClient, QueryOptions, ExecOptions, Rows, ExecResult, ObjectRow, QueryParams, QueryParamValue, CloseOptions } from './client/client.js';
export { insert, refreshSchema } from './client/insert-call.js';
export { fetchColumns, streamColumns } from './client/columns-call.js';
export type { Settings, SettingValue } from './client/config.js';
export type { FetchFunction } from './transport/fetch.js';
export type { RowStream } from './client/row-stream.js';
export type { RawStream, RawOptions } from './client/raw-stream.js';
export type { InsertBytes, InsertInput, InsertOptions, InsertResult, InsertRow, TableColumn } from './client/insert.js';
export type { ColumnsResult, ColumnsOptions } from './client/columns.js';
export type { ColumnStream, ColumnBatch } from './client/column-stream.js';
export type { HostStatus, LoadBalancing } from './transport/hosts.js';
export type { RetryOptions } from './transport/retry.js';
export type { TracingOptions, TracingTracer, TracingSpan } from './client/observe/tracing.js';
export type { Logger, LogLevel } from './client/observe/logger.js';
export { tuple, QueryTuple } from './client/query-tuple.js';
export { precompiledHits, precompiledCount, type PrecompiledKind } from './codegen/precompiled.js';
export { sqlLiteral, sqlInteger } from './client/literal.js';
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
