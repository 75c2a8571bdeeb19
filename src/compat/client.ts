// chwire/compat's client: @clickhouse/client 1.x's calls (query, exec, command, insert, ping,
// close) over chwire's client core and transport. Node-only (results are node:stream Readables).
// Invariants: each call sends what the official client sends (the same SQL text, settings, query
// id, session, role and headers; the same body for inserts) through chwire's transport, so every
// response is the server's own bytes, handed out in the official shapes; an official option or
// parameter chwire cannot honour is refused with a ChwireConfigError saying so; errors are the
// official shapes (errors.ts) with chwire's typed error as `cause`. requestTimeout counts from the
// socket's assignment (the wait for a pooled socket apart), as the official client counts it.
// The one exception to "sends what the official client sends": query() of JSONEachRow may ask for
// the rows in a binary format, where json-fast/ proves the values the same (docs/migrating.md).
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { createClientWith, type Client, type ClientCore } from '../client/client.js';
import type { TransportTarget } from '../client/options/config.js';
import { DEFAULT_MAX_RESULT_BYTES } from '../client/read/result-limits.js';
import { ChwireAbortError, ChwireConfigError, ChwireServerError } from '../errors.js';
import { AuthClients, type AuthLease } from './auth.js';
import { heldBody } from '../client/read/tail-hold.js';
import type { OfficialLogger } from './log.js';
import { HttpTransport } from '../transport/http.js';
import type { Transport, TransportRequest, TransportResponse } from '../transport/types.js';
import { ClickHouseError, toOfficialError } from './errors.js';
import { insertText, queryText, statementText } from './formats.js';
import { compatConfig, settingsOf, type ClickHouseClientConfigOptions, type JSONHandling } from './options.js';
import { ResultSet } from './result-set.js';
import type { BaseQueryParams, CommandResult, PingParams, PingResult, QueryParams } from './call-types.js';
import { bodyBytes, sendCall } from './send.js';
import { bodyOf, checkValues } from './values.js';
import { JsonFastPath, type FastQuery } from './json-fast/fast-query.js';
import type { ProbeAnswer } from './json-fast/probe.js';

export type { BaseQueryParams, CommandResult, PingParams, PingResult, QueryParams } from './call-types.js';

// The explicit-resource-management symbols, declared as @types/node declares them, so that these
// declarations type-check under a `lib` without esnext.disposable (ES2020, ES2022; with or without
// DOM; with or without @types/node: test/package.types.test.ts). Declarations merge with the lib's.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
    readonly asyncDispose: unique symbol;
  }
}

export interface ExecParams extends BaseQueryParams {
  query: string;
  /** The request body (e.g. rows in the format the query names), sent as it is. */
  values?: Readable | AsyncIterable<Uint8Array | string>;
  decompress_response_stream?: boolean;
  ignore_error_response?: boolean;
}

export type CommandParams = Omit<ExecParams, 'values' | 'decompress_response_stream'>;

/** The official InsertParams<Stream, T>: `Stream` is the stream type values may be (a Node Readable). */
export interface InsertParams<Stream = Readable, T = unknown> extends BaseQueryParams {
  table: string;
  values: readonly T[] | Stream | T;
  /** Default 'JSONCompactEachRow'. */
  format?: string;
  columns?: readonly string[] | { except: readonly string[] };
}

export interface ExecResult extends CommandResult {
  stream: Readable;
  http_status_code?: number;
}
export interface InsertResult extends CommandResult {
  executed: boolean;
  http_status_code?: number;
}
/** `Stream`: the official type's stream parameter (a Node Readable here), kept so `ClickHouseClient<Stream>` type-checks as there. */
// eslint-disable-next-line @typescript-eslint/no-unused-vars
export interface ClickHouseClient<Stream = Readable> {
  query<F extends string = 'JSON'>(params: QueryParams & { format?: F }): Promise<ResultSet<F>>;
  exec(params: ExecParams): Promise<ExecResult>;
  command(params: CommandParams): Promise<CommandResult>;
  insert<T = unknown>(params: InsertParams<Readable, T>): Promise<InsertResult>;
  ping(params?: PingParams): Promise<PingResult>;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

const USER_AGENT = `chwire-compat (lv:nodejs/${process.version}; os:${process.platform})`;

/** A client with the options and calls of @clickhouse/client 1.x, on chwire's transport. */
export function createClient(options: ClickHouseClientConfigOptions = {}): ClickHouseClient {
  return new CompatClient(options);
}

type Op = 'Query' | 'Exec' | 'Command' | 'Insert';

class CompatClient implements ClickHouseClient {
  private readonly client: Client;
  private readonly sessionId: string | undefined;
  private readonly json: JSONHandling;
  private readonly responseCompression: boolean;
  private readonly log: OfficialLogger | undefined;
  private readonly auth: AuthClients<Client>;
  private readonly fast: JsonFastPath;

  constructor(options: ClickHouseClientConfigOptions = {}) {
    const cfg = compatConfig(options, (app) => (app !== undefined ? `${app} ${USER_AGENT}` : USER_AGENT));
    this.sessionId = cfg.sessionId;
    this.json = cfg.json;
    this.responseCompression = cfg.responseCompression;
    this.log = cfg.errorLog;
    const transport = compatTransport(cfg.maxHeaderSize);
    this.client = createClientWith(cfg.chwire, transport);
    this.auth = new AuthClients(cfg.chwire, transport, createClientWith);
    this.fast = new JsonFastPath(cfg.jsonFastPath);
  }

  async query<F extends string = 'JSON'>(params: QueryParams & { format?: F }): Promise<ResultSet<F>> {
    const format = (params.format ?? 'JSON') as F;
    const queryId = params.query_id || randomUUID();
    const limits = (this.client as unknown as ClientCore).resultLimits;
    const fast = this.fastPlan(params, format);
    if (fast !== undefined) {
      // Re-sent after query() resolved: an abort by then is one of a request under way (as the official client's read would meet it).
      const underWay = (): void => { if (params.abort_signal?.aborted === true) throw this.failed('Query', queryId, params, new ChwireAbortError('the query was aborted while it was being read')); };
      // JSON fast path (json-fast/): the rows in a binary format, the server's JSON only if they cannot be served.
      const asJson = () => { underWay(); return this.fast.resend(params.query, () => this.send('Query', queryText(params.query, format), params, queryId, format)); };
      let sent: { response: TransportResponse; body: Readable };
      try {
        sent = await this.send('Query', queryText(params.query, fast.plan.wireFormat), params, queryId, fast.plan.wireFormat, undefined, {}, (e) => !JsonFastPath.namesFormat(e, fast.plan));
      } catch (e) {
        if (!JsonFastPath.namesFormat(e, fast.plan)) throw e;
        const { response, body } = await asJson();
        return new ResultSet(body, format, queryId, response.headers ?? {}, this.json, limits.bytes ?? DEFAULT_MAX_RESULT_BYTES);
      }
      const resend = async (): Promise<Readable> => (await asJson()).body;
      return new ResultSet(sent.body, format, queryId, { ...sent.response.headers, ...fast.facts.jsonHeaders }, this.json, limits.bytes ?? DEFAULT_MAX_RESULT_BYTES, { plan: fast.plan, resend });
    }
    const { response, body } = await this.send('Query', queryText(params.query, format), params, queryId, format);
    return new ResultSet(body, format, queryId, response.headers ?? {}, this.json, limits.bytes ?? DEFAULT_MAX_RESULT_BYTES);
  }

  /** The JSON fast path's plan for a query (json-fast/plan.ts), or undefined: send it as the official client does. */
  private fastPlan(p: QueryParams, format: string): FastQuery | undefined {
    // The plan's probe runs on the auth's client: held for as long as the client is kept idle (auth.ts).
    const lease = p.auth !== undefined ? this.auth.acquire(p.auth) : undefined;
    lease?.release();
    const core = (lease?.client ?? this.client) as unknown as ClientCore;
    return this.fast.plan(core, p.query, format, () => core.settingsFor({ settings: settingsOf(p.clickhouse_settings) }),
      (p.session_id ?? this.sessionId) !== undefined, this.json.parse === JSON.parse, (sql, maxBytes) => probeOf(core, sql, maxBytes));
  }

  async exec(params: ExecParams): Promise<ExecResult> {
    const queryId = params.query_id || randomUUID();
    const values = params.values === undefined ? undefined : bytesOf(params.values);
    // decompress_response_stream: false hands the body over as the server compressed it (an error
    // answer is still decompressed to be read, unless ignore_error_response hands it over too).
    const { response, body } = await this.send('Exec', statementText(params.query), params, queryId, undefined, values, {
      encodedBody: params.decompress_response_stream === false && this.responseCompression,
      errorAnswers: params.ignore_error_response === true ? 'return' : 'throw',
    });
    return { stream: body, query_id: queryId, summary: response.summary, response_headers: response.headers ?? {}, http_status_code: response.status ?? 200 };
  }

  async command(params: CommandParams): Promise<CommandResult> {
    const queryId = params.query_id || randomUUID();
    const { response, body } = await this.send('Command', statementText(params.query), params, queryId, undefined, undefined, {
      errorAnswers: params.ignore_error_response === true ? 'return' : 'throw',
    });
    await drained(body);
    return { query_id: queryId, summary: response.summary, response_headers: response.headers ?? {} };
  }

  async insert<T = unknown>(params: InsertParams<Readable, T>): Promise<InsertResult> {
    if (Array.isArray(params.values) && params.values.length === 0) return { executed: false, query_id: '', response_headers: {} };
    const format = params.format || 'JSONCompactEachRow';
    checkValues(params.values, format);
    const sql = insertText(params.table, format, params.columns);
    // Encoded before the request: a value JSON cannot take fails with nothing sent.
    const values = bodyOf(params.values, format, this.json);
    const queryId = params.query_id || randomUUID();
    const { response, body } = await this.send('Insert', sql, params, queryId, undefined, values);
    await drained(body);
    return { executed: true, query_id: queryId, summary: response.summary, response_headers: response.headers ?? {}, http_status_code: 200 };
  }

  async ping(params: PingParams = {}): Promise<PingResult> {
    try {
      if (params.select === true) {
        const { body } = await this.send('Query', 'SELECT \'ping\'', { query_id: params.query_id, abort_signal: params.abort_signal, http_headers: params.http_headers }, params.query_id || randomUUID(), undefined);
        await drained(body);
      } else {
        if (params.http_headers !== undefined) throw new ChwireConfigError('chwire/compat cannot send http_headers with ping() (chwire\'s /ping takes the client\'s headers only); use ping({ select: true, http_headers })');
        await this.client.ping(params.abort_signal === undefined ? {} : { signal: params.abort_signal });
      }
      return { success: true };
    } catch (e) {
      const error = toOfficialError(e);
      return { success: false, error: error instanceof Error ? error : new Error(String(error)) };
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.client.close(), this.auth.close()]);
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /**
   * Sends one statement through chwire's core (parameters, roles, headers, the transport's retries
   * for reads) and opens its body as a byte Readable that releases the response when it ends or is
   * destroyed. `format`: the result format of query() (a read, retried under chwire's policy);
   * undefined for exec/command/insert (sent once). No client-side session lock: as with the
   * official client, the server refuses a second query in a busy session. A failure is written to
   * the client's log (the console by default), as the official client writes it.
   */
  private async send(op: Op, sql: string, p: BaseQueryParams, queryId: string, format: string | undefined, values?: AsyncIterable<Uint8Array>,
    answer: Pick<TransportRequest, 'encodedBody' | 'errorAnswers'> = {}, logged: (officialError: unknown) => boolean = () => true): Promise<{ response: TransportResponse; body: Readable }> {
    let response: TransportResponse;
    // A per-call auth's client is held from here to the end of the body (auth.ts): never closed under the call.
    let lease: AuthLease<Client> | undefined;
    try {
      if (p.auth !== undefined) lease = this.auth.acquire(p.auth);
      const core = (lease?.client ?? this.client) as unknown as ClientCore;
      response = await sendCall(core, sql, p, queryId, p.session_id ?? this.sessionId, format, values, answer);
    } catch (e) {
      lease?.release();
      // `logged`: a failure the caller meets by sending again (the JSON fast path) is not the call's failure.
      throw this.failed(op, queryId, p, e, logged);
    }
    // No byte of an exception an older server appends after the data is looked for in bytes still
    // compressed, nor in an error answer (which is the exception).
    const bytes = bodyBytes(response, queryId, (e) => this.failed(op, queryId, p, e), answer.encodedBody === true || response.status !== undefined, lease?.release);
    const body = Readable.from(bytes, { objectMode: false });
    // A body destroyed before it was read never runs the generator's finally: its close releases the client too.
    if (lease !== undefined) body.once('close', lease.release);
    return { response, body };
  }

  /**
   * The official error for chwire's `e`, written to the log as the official client writes a failed
   * request; when the call sent parameter or body values, which a server message may quote, the
   * logged error keeps its class and code but not the server's text.
   */
  private failed(op: Op, queryId: string, p: BaseQueryParams & { values?: unknown }, e: unknown, logged: (officialError: unknown) => boolean = () => true): unknown {
    const out = toOfficialError(e);
    if (this.log !== undefined && logged(out)) {
      const quotes = op === 'Insert' || p.values !== undefined || (p.query_params !== undefined && Object.keys(p.query_params).length > 0);
      let err = out instanceof Error ? out : new Error(String(out));
      if (quotes && out instanceof ClickHouseError) err = new ClickHouseError({ code: out.code, type: out.type, message: 'the server\'s message is withheld from the log (it may quote parameter or inserted values)' });
      else if (quotes && isServerText(e)) err = new Error('the server\'s message is withheld from the log (it may quote parameter or inserted values)');
      this.log.error({
        module: 'Connection', message: `${op}: HTTP request error.`, err,
        args: { operation: op, query_id: queryId, with_abort_signal: p.abort_signal !== undefined, session_id: p.session_id ?? this.sessionId },
      });
    }
    return out;
  }
}

/**
 * The official client's class name for its client: `new ClickHouseClient(options)` is
 * createClient(options), and `instanceof ClickHouseClient` holds for every chwire/compat client.
 */
export const ClickHouseClient: { new (options?: ClickHouseClientConfigOptions): ClickHouseClient; prototype: ClickHouseClient } = CompatClient;

/** The fast path's probe (json-fast/probe.ts) sent as the client's own query: JSONEachRow, read to at most `maxBytes`. */
async function probeOf(core: ClientCore, sql: string, maxBytes: number): Promise<ProbeAnswer> {
  const queryId = randomUUID();
  const response = await core.request({ sql: queryText(sql, 'JSONEachRow'), format: 'JSONEachRow', settings: core.settingsFor({}), queryId, idempotent: true, whole: true });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const c of heldBody(response, queryId)) {
      size += c.byteLength;
      if (size > maxBytes) throw new ChwireConfigError('the fast path\'s probe answered more than it can');
      chunks.push(c);
    }
  } finally {
    response.cancel();
  }
  return { text: Buffer.concat(chunks).toString('utf8'), headers: response.headers ?? {} };
}

/** Whether chwire's error carries a server's text. */
function isServerText(e: unknown): boolean {
  return e instanceof ChwireServerError;
}

/** Reads a body to its end (the statement's output is of no use), failing as its stream fails. */
async function drained(body: Readable): Promise<void> {
  for await (const _ of body) { /* drained to free the socket */ }
}

/** exec()'s values as request body bytes (strings as UTF-8). */
function bytesOf(values: Readable | AsyncIterable<Uint8Array | string>): AsyncIterable<Uint8Array> {
  return (async function* () {
    for await (const c of values as AsyncIterable<Uint8Array | string>) yield typeof c === 'string' ? Buffer.from(c) : c;
  })();
}

/** chwire's HTTP transport, with requestTimeout counted from the socket's assignment (options.ts admits http(s) URLs only). */
function compatTransport(maxHeaderSize: number | undefined): (target: TransportTarget) => Transport {
  return (target) => {
    if (target.kind !== 'http') throw new ChwireConfigError('chwire/compat connects to http:// and https:// servers only');
    return new HttpTransport({ ...target, requestTimeoutFrom: 'socket', maxHeaderSize });
  };
}
