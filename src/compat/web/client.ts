// chwire/compat/web's client: @clickhouse/client-web 1.x's calls (query, exec, command, insert,
// ping, close) over chwire's client core and its fetch transport. Runtime-neutral (WHATWG fetch,
// streams and Web Crypto only): results are ReadableStreams, as the official web client's. Query ids
// are v4 UUIDs from client/query-id.ts, which also works on a plain http:// page (where the official
// web client's crypto.randomUUID does not exist).
// Invariants: each call sends the official client's SQL text, settings, query id, session, role and
// headers (the same body for inserts) through chwire's fetch transport (send.ts, shared with
// chwire/compat), so every response is the server's own bytes, handed out in the official shapes;
// what the official web client refuses (streamed insert values, exec values) is refused here too,
// with a ChwireConfigError; errors are the official shapes (../errors.ts), chwire's error as `cause`.
import type { ClientCore } from '../../client/client.js';
import { createQueryClientWith, type QueryClient } from '../../client/query-client.js';
import { DEFAULT_MAX_RESULT_BYTES } from '../../client/read/result-limits.js';
import { newQueryId } from '../../client/query-id.js';
import { onFetch } from '../../client/web-transport.js';
import { ChwireAbortError, ChwireConfigError } from '../../errors.js';
import { AuthClients } from '../auth.js';
import type { BaseQueryParams, PingResult, QueryParams } from '../call-types.js';
import { toOfficialError } from '../errors.js';
import { insertText, queryText, statementText } from '../formats.js';
import type { JSONHandling } from '../options.js';
import type { ResponseHeaders } from '../result-types.js';
import { bodyBytes, sendCall } from '../send.js';
import { bodyOf, checkValues } from '../values.js';
import { webCompatConfig, type WebClickHouseClientConfigOptions } from './config.js';
import { readableOf } from './readable.js';
import { ResultSet } from './result-set.js';

// The explicit-resource-management symbols (see ../client.ts): declarations merge with the lib's.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
    readonly asyncDispose: unique symbol;
  }
}

/** exec() of the web client: no request body (the official web client sends none). */
export interface ExecParams extends BaseQueryParams {
  query: string;
}
export type CommandParams = ExecParams;

/** insert() of the web client: arrays (or one object for JSON / JSONObjectEachRow), never a stream. */
export interface InsertParams<T = unknown> extends BaseQueryParams {
  table: string;
  values: readonly T[] | Record<string, unknown>;
  /** Default 'JSONCompactEachRow'. */
  format?: string;
  columns?: readonly string[] | { except: readonly string[] };
}

/** What command() gives (the official web client's: no summary). */
export interface WebCommandResult {
  query_id: string;
  response_headers: ResponseHeaders;
  http_status_code?: number;
}
export interface ExecResult<Stream = ReadableStream<Uint8Array>> extends WebCommandResult {
  stream: Stream;
}
export interface InsertResult extends WebCommandResult {
  executed: boolean;
}

export interface WebClickHouseClient {
  query<F extends string = 'JSON'>(params: QueryParams & { format?: F }): Promise<ResultSet<F>>;
  exec(params: ExecParams): Promise<ExecResult>;
  command(params: CommandParams): Promise<WebCommandResult>;
  insert<T = unknown>(params: InsertParams<T>): Promise<InsertResult>;
  /** `SELECT 'ping'`, as the official web client pings (a server's /ping answers no CORS). */
  ping(): Promise<PingResult>;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** A client with the options and calls of @clickhouse/client-web 1.x, on chwire's fetch transport. */
export function createClient(options: WebClickHouseClientConfigOptions = {}): WebClickHouseClient {
  return new WebCompatClient(options);
}

class WebCompatClient implements WebClickHouseClient {
  private readonly client: QueryClient;
  private readonly sessionId: string | undefined;
  private readonly json: JSONHandling;
  private readonly auth: AuthClients<QueryClient>;

  constructor(options: WebClickHouseClientConfigOptions) {
    const cfg = webCompatConfig(options);
    this.sessionId = cfg.sessionId;
    this.json = cfg.json;
    const { common, makeTransport } = onFetch(cfg.chwire);
    // The query client: the calls here need chwire's core only, not its insert encoders.
    this.client = createQueryClientWith(common, makeTransport);
    this.auth = new AuthClients(common, makeTransport, createQueryClientWith);
  }

  async query<F extends string = 'JSON'>(params: QueryParams & { format?: F }): Promise<ResultSet<F>> {
    const format = (params.format ?? 'JSON') as F;
    const queryId = params.query_id || newQueryId();
    const { headers, body } = await this.send(queryText(params.query, format), params, queryId, format);
    const limits = (this.client as unknown as ClientCore).resultLimits;
    return new ResultSet(body, format, queryId, headers, this.json, limits.bytes ?? DEFAULT_MAX_RESULT_BYTES);
  }

  async exec(params: ExecParams): Promise<ExecResult> {
    if ((params as { values?: unknown }).values !== undefined) throw new ChwireConfigError('chwire/compat/web: exec() takes no values (neither does @clickhouse/client-web); use insert()');
    const queryId = params.query_id || newQueryId();
    const { headers, body } = await this.send(statementText(params.query), params, queryId, undefined);
    return { stream: body, query_id: queryId, response_headers: headers, http_status_code: 200 };
  }

  async command(params: CommandParams): Promise<WebCommandResult> {
    const queryId = params.query_id || newQueryId();
    const { headers, body } = await this.send(statementText(params.query), params, queryId, undefined);
    await drained(body);
    return { query_id: queryId, response_headers: headers, http_status_code: 200 };
  }

  async insert<T = unknown>(params: InsertParams<T>): Promise<InsertResult> {
    if (Array.isArray(params.values) && params.values.length === 0) return { executed: false, query_id: '', response_headers: {} };
    const format = params.format || 'JSONCompactEachRow';
    if (isAnyStream(params.values)) throw new ChwireConfigError('chwire/compat/web: insert values cannot be a stream (neither can @clickhouse/client-web\'s): pass an array');
    checkValues(params.values, format);
    // Encoded before the request: a value JSON cannot take fails with nothing sent.
    const values = bodyOf(params.values, format, this.json);
    const queryId = params.query_id || newQueryId();
    const { headers, body } = await this.send(insertText(params.table, format, params.columns), params, queryId, undefined, values);
    await drained(body);
    return { query_id: queryId, response_headers: headers, http_status_code: 200, executed: true };
  }

  async ping(): Promise<PingResult> {
    try {
      const { body } = await this.send('SELECT \'ping\'', {}, newQueryId(), undefined);
      await drained(body);
      return { success: true };
    } catch (e) {
      return { success: false, error: e instanceof Error ? e : new Error(String(e)) };
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.client.close(), this.auth.close()]);
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** Sends one statement (send.ts) and opens its body as a ReadableStream that releases the response when it ends or is cancelled. */
  private async send(sql: string, p: BaseQueryParams, queryId: string, format: string | undefined, values?: AsyncIterable<Uint8Array>): Promise<{ headers: ResponseHeaders; body: ReadableStream<Uint8Array> }> {
    // A per-call auth's client is held from here to the end of the body (auth.ts): never closed under the call.
    const lease = p.auth !== undefined ? this.auth.acquire(p.auth) : undefined;
    const core = (lease?.client ?? this.client) as unknown as ClientCore;
    let response;
    try {
      response = await sendCall(core, sql, p, queryId, p.session_id ?? this.sessionId, format, values);
    } catch (e) {
      lease?.release();
      throw toOfficialError(e);
    }
    // No summary: the official web client hands none out (the X-ClickHouse-Summary header is in response_headers).
    return { headers: response.headers ?? {}, body: readableOf(bodyBytes(response, queryId, bodyError, false, lease?.release)) };
  }
}

/**
 * An error while a body is read, as the official web client's reader rejects: an abort is the
 * runtime's own abort reason (Chromium's DOMException AbortError "signal is aborted without reason"),
 * what the fetch body it reads rejects with; anything else in the official shapes (../errors.ts).
 */
function bodyError(e: unknown): unknown {
  if (e instanceof ChwireAbortError) {
    const c = new AbortController();
    c.abort();
    return c.signal.reason;
  }
  return toOfficialError(e);
}

/** A WHATWG ReadableStream (what the official web client checks for) or a Node stream. */
function isAnyStream(v: unknown): boolean {
  return typeof v === 'object' && v !== null && (typeof (v as { pipeThrough?: unknown }).pipeThrough === 'function' || typeof (v as { pipe?: unknown }).pipe === 'function');
}

/** Reads a body to its end (the statement's output is of no use), failing as it fails. */
async function drained(body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader();
  for (;;) if ((await reader.read()).done) return;
}
