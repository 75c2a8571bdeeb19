// chwire/compat's client: @clickhouse/client 1.x's calls (query, exec, command, insert, ping,
// close) over chwire's client core and transport. Node-only (results are node:stream Readables).
// Invariants: each call sends what the official client sends (the same SQL text, settings, query
// id, session, role and headers; the same body for inserts) through chwire's transport, so every
// response is the server's own bytes, handed out in the official shapes; an official option or
// parameter chwire cannot honour is refused with a ChwireConfigError saying so; errors are the
// official shapes (errors.ts) with chwire's typed error as `cause`. requestTimeout counts from the
// socket's assignment (the wait for a pooled socket apart), as the official client counts it.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { createClientWith, type Client, type ClientCore } from '../client/client.js';
import type { TransportTarget } from '../client/config.js';
import type { QueryParams as ChwireParams } from '../client/params.js';
import { heldBody } from '../client/tail-hold.js';
import { ChwireConfigError } from '../errors.js';
import { HttpTransport } from '../transport/http.js';
import type { QuerySummary, Transport, TransportResponse } from '../transport/types.js';
import { toOfficialError } from './errors.js';
import { insertText, queryText, statementText } from './formats.js';
import { compatConfig, settingsOf, type ClickHouseClientConfigOptions, type ClickHouseSettings, type JSONHandling } from './options.js';
import { ResultSet, type ResponseHeaders } from './result-set.js';
import { bodyOf, checkValues } from './values.js';

// The explicit-resource-management symbols, declared as @types/node declares them, so that these
// declarations type-check under a `lib` without esnext.disposable (ES2020, ES2022; with or without
// DOM; with or without @types/node: test/package.types.test.ts). Declarations merge with the lib's.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
    readonly asyncDispose: unique symbol;
  }
}

/** What every call takes (the official BaseQueryParams). */
export interface BaseQueryParams {
  clickhouse_settings?: ClickHouseSettings;
  query_params?: Record<string, unknown>;
  abort_signal?: AbortSignal;
  query_id?: string;
  session_id?: string;
  role?: string | string[];
  http_headers?: Record<string, string>;
  /** Per-call credentials: refused (chwire authenticates per client). */
  auth?: unknown;
}

export interface QueryParams extends BaseQueryParams {
  query: string;
  /** Default 'JSON'. */
  format?: string;
}

export interface ExecParams extends BaseQueryParams {
  query: string;
  /** Refused: chwire sends a body with an INSERT of its own making only (use insert()). */
  values?: unknown;
  decompress_response_stream?: boolean;
  ignore_error_response?: boolean;
}

export type CommandParams = Omit<ExecParams, 'values' | 'decompress_response_stream'>;

export interface InsertParams<T = unknown> extends BaseQueryParams {
  table: string;
  values: readonly T[] | Readable | T;
  /** Default 'JSONCompactEachRow'. */
  format?: string;
  columns?: readonly string[] | { except: readonly string[] };
}

export interface CommandResult {
  query_id: string;
  summary?: QuerySummary | undefined;
  response_headers: ResponseHeaders;
}
export interface ExecResult extends CommandResult {
  stream: Readable;
  http_status_code?: number;
}
export interface InsertResult extends CommandResult {
  executed: boolean;
  http_status_code?: number;
}
export type PingResult = { success: true } | { success: false; error: Error };
export interface PingParams { select?: boolean; query_id?: string; abort_signal?: AbortSignal; http_headers?: Record<string, string> }

export interface ClickHouseClient {
  query<F extends string = 'JSON'>(params: QueryParams & { format?: F }): Promise<ResultSet<F>>;
  exec(params: ExecParams): Promise<ExecResult>;
  command(params: CommandParams): Promise<CommandResult>;
  insert<T = unknown>(params: InsertParams<T>): Promise<InsertResult>;
  ping(params?: PingParams): Promise<PingResult>;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

const USER_AGENT = `chwire-compat (lv:nodejs/${process.version}; os:${process.platform})`;

/** A client with the options and calls of @clickhouse/client 1.x, on chwire's transport. */
export function createClient(options: ClickHouseClientConfigOptions = {}): ClickHouseClient {
  return new CompatClient(options);
}

class CompatClient implements ClickHouseClient {
  private readonly client: Client;
  private readonly core: ClientCore;
  private readonly sessionId: string | undefined;
  private readonly json: JSONHandling;
  private readonly responseCompression: boolean;

  constructor(options: ClickHouseClientConfigOptions) {
    const cfg = compatConfig(options, (app) => (app !== undefined ? `${app} ${USER_AGENT}` : USER_AGENT));
    this.sessionId = cfg.sessionId;
    this.json = cfg.json;
    this.responseCompression = cfg.responseCompression;
    this.client = createClientWith(cfg.chwire, compatTransport);
    this.core = this.client as unknown as ClientCore;
  }

  async query<F extends string = 'JSON'>(params: QueryParams & { format?: F }): Promise<ResultSet<F>> {
    const format = (params.format ?? 'JSON') as F;
    const queryId = params.query_id || randomUUID();
    const { response, body } = await this.send(queryText(params.query, format), params, queryId, format);
    return new ResultSet(body, format, queryId, response.headers ?? {}, this.json);
  }

  async exec(params: ExecParams): Promise<ExecResult> {
    if (params.values !== undefined) throw new ChwireConfigError('chwire/compat cannot send exec() with values (a body for a statement of yours): use insert(), or chwire\'s insert(table, bytes, { format })');
    if (params.decompress_response_stream === false && this.responseCompression) {
      throw new ChwireConfigError('chwire/compat cannot honour decompress_response_stream: false: chwire\'s transport always decompresses responses');
    }
    const queryId = params.query_id || randomUUID();
    const { response, body } = await this.send(statementText(params.query), params, queryId, undefined);
    return { stream: body, query_id: queryId, summary: response.summary, response_headers: response.headers ?? {}, http_status_code: 200 };
  }

  async command(params: CommandParams): Promise<CommandResult> {
    const queryId = params.query_id || randomUUID();
    const { response, body } = await this.send(statementText(params.query), params, queryId, undefined);
    try {
      for await (const _ of body) { /* the statement's output is of no use: drained to free the socket */ }
    } catch (e) {
      throw toOfficialError(e);
    }
    return { query_id: queryId, summary: response.summary, response_headers: response.headers ?? {} };
  }

  async insert<T = unknown>(params: InsertParams<T>): Promise<InsertResult> {
    if (Array.isArray(params.values) && params.values.length === 0) return { executed: false, query_id: '', response_headers: {} };
    const format = params.format || 'JSONCompactEachRow';
    checkValues(params.values, format);
    const sql = insertText(params.table, format, params.columns);
    // Encoded before the request: a value JSON cannot take fails with nothing sent.
    const values = bodyOf(params.values, format, this.json);
    const queryId = params.query_id || randomUUID();
    const { response, body } = await this.send(sql, params, queryId, undefined, values);
    try {
      for await (const _ of body) { /* an INSERT answers with an empty body */ }
    } catch (e) {
      throw toOfficialError(e);
    }
    return { executed: true, query_id: queryId, summary: response.summary, response_headers: response.headers ?? {}, http_status_code: 200 };
  }

  async ping(params: PingParams = {}): Promise<PingResult> {
    try {
      if (params.select === true) {
        const { body } = await this.send('SELECT \'ping\'', { query_id: params.query_id, abort_signal: params.abort_signal, http_headers: params.http_headers }, params.query_id || randomUUID(), undefined);
        for await (const _ of body) { /* drained */ }
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

  close(): Promise<void> {
    return this.client.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /**
   * Sends one statement through chwire's core (capabilities, parameters, roles, headers, the
   * transport's retries for reads) and opens its body as a byte Readable that releases the
   * response when it ends or is destroyed. `format`: the result format of query() (a read, retried
   * under chwire's policy); undefined for exec/command/insert (sent once). No client-side session
   * lock: as with the official client, the server refuses a second query in a busy session.
   */
  private async send(sql: string, p: BaseQueryParams, queryId: string, format: string | undefined, values?: AsyncIterable<Uint8Array>): Promise<{ response: TransportResponse; body: Readable }> {
    if (p.auth !== undefined) throw new ChwireConfigError('chwire/compat cannot honour a per-call auth: chwire authenticates per client (create a client per user)');
    let response: TransportResponse;
    try {
      const core = this.core;
      const { info, caps } = await core.capabilities(p.abort_signal);
      const params = await core.queryParams({ params: p.query_params as ChwireParams | undefined }, caps, info, sql);
      const surface = core.surface({ role: p.role, httpHeaders: p.http_headers }, caps, info);
      response = await core.request({
        sql, format, params, settings: core.settingsFor({ settings: settingsOf(p.clickhouse_settings) }), queryId,
        sessionId: p.session_id ?? this.sessionId, signal: p.abort_signal, idempotent: format !== undefined && values === undefined,
        whole: format !== undefined, body: values, ...surface,
      });
    } catch (e) {
      throw toOfficialError(e);
    }
    const r = response;
    const bytes = (async function* () {
      try {
        // No byte of an exception an older server appends after the data is handed over as data.
        yield* heldBody(r, queryId);
      } catch (e) {
        throw toOfficialError(e);
      } finally {
        r.cancel();
      }
    })();
    return { response, body: Readable.from(bytes, { objectMode: false }) };
  }
}

/** chwire's HTTP transport, with requestTimeout counted from the socket's assignment (options.ts admits http(s) URLs only). */
function compatTransport(target: TransportTarget): Transport {
  if (target.kind !== 'http') throw new ChwireConfigError('chwire/compat connects to http:// and https:// servers only');
  return new HttpTransport({ ...target, requestTimeoutFrom: 'socket' });
}
