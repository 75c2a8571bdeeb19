// The HTTP transport: a keep-alive pool per host (node:http/https Agent), the query in the POST
// body (or, for INSERT, in the URL with the data streamed as a chunked body), settings and
// `param_*` in the URL, credentials only in X-ClickHouse-User / X-ClickHouse-Key headers (or an
// access token in `Authorization: Bearer`), the rest of the request's shape from request-headers.ts.
// Invariants: credentials never appear in a URL, an error or a log line; the only silent retry
// is a read whose reused keep-alive socket died before any response byte (or whose host refused
// the connection, when another host is configured); idle sockets are closed before the server's
// announced keep-alive timeout. A query the client gives up on (AbortSignal, requestTimeout) is
// also stopped on the server (KILL QUERY), not only disconnected.
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { ChwireAbortError, ChwireConnectionError, ChwireTimeoutError, isChwireError } from '../errors.js';
import { responseBody } from './http-body.js';
import { checkCodecAvailable, compressor, decompressSmall, type Codec } from './codecs.js';
import { authHeaders, queryString, requestHeaders, type AccessToken } from './request-headers.js';
import { checkAgent, proxyRefusal, requestTarget, tunnelThrough } from './proxy.js';
import type { ProxyConfig } from './proxy-url.js';
import { serverErrorFromText } from './server-error.js';
import { checkUrlLength, oldUrlLimitError } from './url-limit.js';
import { parseVersion, type ServerInfo, type Transport, type TransportEvents, type TransportRequest, type TransportResponse } from './types.js';
import { quoteString } from '../types/quote.js';
import type { TlsOptions } from './tls-options.js';

export type { TlsOptions } from './tls-options.js';

export interface HttpTransportOptions {
  /** One or more base URLs (`http://host:8123`); credentials in them must already be removed. */
  urls: URL[];
  username: string;
  password: string;
  database?: string | undefined;
  /** Milliseconds without progress (no response, no body byte) before a ChwireTimeoutError; 0 = none. */
  requestTimeout: number;
  maxOpenConnections: number;
  keepAlive: boolean;
  /** Longest time an idle socket is kept; also capped below the server's `Keep-Alive: timeout`. */
  idleSocketTtl: number;
  /** Compressed responses in this codec (`enable_http_compression=1`, `Accept-Encoding`); true = gzip. */
  compression: boolean | Codec;
  /** Compress streamed request bodies (inserts) as they are sent (`Content-Encoding`); true = gzip. Default none. */
  requestCompression?: boolean | Codec | undefined;
  tls?: TlsOptions | undefined;
  /** `Authorization: Bearer` instead of X-ClickHouse-User/Key (a function is asked before every request). */
  accessToken?: AccessToken | undefined;
  /** Headers sent with every request (validated: none the client owns). */
  httpHeaders?: Readonly<Record<string, string>> | undefined;
  /** A forward proxy: absolute-form requests for http: servers, CONNECT tunnels for https: ones. */
  proxy?: ProxyConfig | undefined;
  /** The user's own agent for every host (checked here: an http.Agent fitting the URLs): no pool of ours, never destroyed by us. */
  agent?: unknown;
  /** Host state changes, for the client's log. */
  events?: TransportEvents | undefined;
}

interface Host {
  url: URL;
  agent: http.Agent;
  /** `host:port`, for messages. */
  where: string;
  info: Promise<ServerInfo> | undefined;
}

const IDLE_SINCE = Symbol('chwire.idleSince');
const IDLE_LIMIT = Symbol('chwire.idleLimit');
type PooledSocket = Socket & { [IDLE_SINCE]?: number; [IDLE_LIMIT]?: number };

// Two guards against reusing a socket the server has closed while it was idle:
// - when a socket goes idle, its lifetime is set to min(idleSocketTtl, server's Keep-Alive timeout
//   − 1 s) (Node only applies the hint when an agent-wide timeout is set);
// - when a request picks a pooled socket, one idle longer than that by the wall clock is thrown
//   away first: an event loop blocked by CPU work can run the idle timer too late, and a write
//   (INSERT, DDL) on such a socket could not be retried.
function keepAliveAgent(secure: boolean, opts: HttpTransportOptions): http.Agent {
  const base = { keepAlive: opts.keepAlive, maxSockets: opts.maxOpenConnections, maxFreeSockets: opts.maxOpenConnections, scheduling: 'lifo' as const };
  const agent = secure ? new https.Agent({ ...base, ...(opts.tls as https.AgentOptions | undefined) }) : new http.Agent(base);
  // @types/node declares this hook as returning void; Node uses its boolean result.
  const original = agent.keepSocketAlive.bind(agent) as unknown as (s: Socket) => boolean;
  (agent as unknown as { keepSocketAlive: (s: Socket) => boolean }).keepSocketAlive = (socket: PooledSocket): boolean => {
    if (!original(socket)) return false;
    let ttl = opts.idleSocketTtl;
    const res = (socket as unknown as { _httpMessage?: { res?: http.IncomingMessage } })._httpMessage?.res;
    const hint = /timeout=(\d+)/.exec(String(res?.headers['keep-alive'] ?? ''))?.[1];
    if (hint !== undefined) {
      const serverMs = Number(hint) * 1000 - 1000;
      if (serverMs <= 0) return false;
      ttl = Math.min(ttl, serverMs);
    }
    socket[IDLE_SINCE] = Date.now();
    socket[IDLE_LIMIT] = ttl;
    socket.setTimeout(ttl);
    return true;
  };
  const internal = agent as unknown as {
    addRequest(req: http.ClientRequest, options: http.RequestOptions): void;
    getName(options: http.RequestOptions): string;
    freeSockets: Record<string, PooledSocket[] | undefined>;
  };
  const addRequest = internal.addRequest.bind(agent);
  internal.addRequest = (req, options) => {
    const free = internal.freeSockets[internal.getName(options)];
    if (free !== undefined) {
      const now = Date.now();
      for (let i = free.length - 1; i >= 0; i--) {
        const s = free[i]!;
        if (s.destroyed || now - (s[IDLE_SINCE] ?? now) >= (s[IDLE_LIMIT] ?? Infinity)) {
          free.splice(i, 1);
          s.destroy();
        }
      }
    }
    addRequest(req, options);
  };
  return agent;
}

export class HttpTransport implements Transport {
  readonly kind = 'http' as const;
  private readonly hosts: Host[];
  private current = 0;
  private closed = false;

  constructor(private readonly opts: HttpTransportOptions) {
    checkCodecAvailable('compression.response', opts.compression === true ? 'gzip' : opts.compression);
    checkCodecAvailable('compression.request', opts.requestCompression === true ? 'gzip' : opts.requestCompression);
    const own = checkAgent(opts.agent, opts.urls);
    this.hosts = opts.urls.map((url) => ({ url, agent: own ?? this.poolFor(url), where: url.host, info: undefined }));
  }

  private poolFor(url: URL): http.Agent {
    const secure = url.protocol === 'https:';
    const agent = keepAliveAgent(secure, this.opts);
    return secure && this.opts.proxy !== undefined ? tunnelThrough(agent as https.Agent, this.opts.proxy) : agent;
  }

  private get responseCodec(): Codec | undefined {
    const c = this.opts.compression;
    return c === true ? 'gzip' : c === false ? undefined : c;
  }

  /** Server version of the current host, probed once per host with `SELECT version()`. */
  server(signal?: AbortSignal): Promise<ServerInfo> {
    const host = this.hosts[this.current]!;
    if (host.info === undefined) {
      host.info = this.probe(host, signal);
      host.info.catch(() => { host.info = undefined; });
    }
    return host.info;
  }

  private async probe(host: Host, signal?: AbortSignal): Promise<ServerInfo> {
    const res = await this.requestOn(host, { sql: 'SELECT version()', format: 'TabSeparated', signal, idempotent: true });
    const chunks: Uint8Array[] = [];
    for await (const c of res.body) chunks.push(c);
    return parseVersion(Buffer.concat(chunks).toString('utf8'));
  }

  async ping(signal?: AbortSignal): Promise<void> {
    const host = this.hosts[this.current]!;
    const res = await this.send(host, 'GET', `${host.url.pathname.replace(/\/$/, '')}/ping`, undefined, { signal, idempotent: true });
    const text = await readAll(res.res);
    if (res.res.statusCode !== 200) throw serverErrorFromText(text, res.res.statusCode, undefined);
  }

  async request(req: TransportRequest): Promise<TransportResponse> {
    if (this.closed) throw new ChwireConnectionError('client is closed');
    if (req.host !== undefined) {
      const pinned = this.hosts.find((h) => h.where === req.host);
      if (pinned !== undefined) return this.requestOn(pinned, req);
    }
    // Failover: the current host until it refuses connections, then the next one.
    let lastError: unknown;
    for (let attempt = 0; attempt < this.hosts.length; attempt++) {
      const host = this.hosts[this.current]!;
      try {
        return await this.requestOn(host, req);
      } catch (e) {
        lastError = e;
        const refused = e instanceof ChwireConnectionError && (e as { connectFailed?: boolean }).connectFailed === true;
        if (!refused || this.hosts.length === 1) throw e;
        this.current = (this.current + 1) % this.hosts.length;
        this.opts.events?.hostState?.({ host: host.where, up: false, error: e });
        if (req.idempotent !== true) throw e;
        if (attempt + 1 < this.hosts.length) req.events?.retry?.({ attempt: attempt + 1, host: host.where, error: e, delayMs: 0 });
      }
    }
    throw lastError;
  }

  private async requestOn(host: Host, req: TransportRequest): Promise<TransportResponse> {
    const query: Record<string, string> = {};
    if (this.opts.database !== undefined && this.opts.database !== '') query['database'] = this.opts.database;
    if (req.format !== undefined) query['default_format'] = req.format;
    if (req.queryId !== undefined) query['query_id'] = req.queryId;
    if (req.sessionId !== undefined) query['session_id'] = req.sessionId;
    if (this.responseCodec !== undefined) query['enable_http_compression'] = '1';
    for (const [k, v] of Object.entries(req.settings ?? {})) query[k] = v;
    for (const [k, v] of Object.entries(req.params ?? {})) query[`param_${k}`] = v;
    let body: Buffer | AsyncIterable<Uint8Array>;
    if (req.body !== undefined) {
      query['query'] = req.sql;
      body = req.body;
    } else {
      body = Buffer.from(req.sql, 'utf8');
    }
    const path = `${host.url.pathname.replace(/\/$/, '')}/?${queryString(query, req.role)}`;
    checkUrlLength(path, req.params);
    req.events?.attempt?.(host.where, 0);
    const sent = await this.send(host, 'POST', path, body, req);
    const { res } = sent;
    const queryId = header(res, 'x-clickhouse-query-id') ?? req.queryId;
    if (res.statusCode !== 200) {
      const refusal = proxyRefusal(this.opts.proxy, res.statusCode);
      if (refusal !== undefined) { res.resume(); throw new ChwireConnectionError(refusal, { queryId }); }
      const text = await readAll(res);
      throw oldUrlLimitError(res.statusCode ?? 0, text, path, req.params) ?? serverErrorFromText(text, res.statusCode, queryId, header(res, 'x-clickhouse-exception-code'));
    }
    const b = responseBody({
      req: sent.req, res, queryId, timeoutMs: this.opts.requestTimeout, signal: req.signal, where: host.where,
      onGiveUp: () => this.killQuery(host, queryId),
    });
    const summaryText = header(res, 'x-clickhouse-summary');
    let summary: Record<string, string> | undefined;
    if (summaryText !== undefined) {
      try { summary = JSON.parse(summaryText) as Record<string, string>; } catch { summary = undefined; }
    }
    const tag = header(res, 'x-clickhouse-exception-tag');
    return {
      queryId, summary, timezone: header(res, 'x-clickhouse-timezone'), host: host.where, body: b.body, tailText: () => b.tail.text(), cancel: b.cancel,
      exceptionsFramed: tag !== undefined && tag !== '',
    };
  }

  /**
   * Best effort, once the client has given up on a query (abort, timeout): ask the server to stop
   * it. A closed connection is not enough: a server notices it only when it next writes a result
   * byte, so a query still computing (an aggregation, a sort) runs on for as long as it takes
   * (measured on 18.16: still running 3 s after the abort; later servers too, unless
   * cancel_http_readonly_queries_on_client_close is set). Sent without the session (a session
   * runs one query at a time) and with no signal; any failure is ignored.
   */
  private killQuery(host: Host, queryId: string | undefined): void {
    if (queryId === undefined || this.closed) return;
    const sql = `KILL QUERY WHERE query_id = ${quoteString(queryId)} ASYNC`;
    void this.requestOn(host, { sql, format: 'TabSeparated', idempotent: false })
      .then(async (r) => { for await (const _ of r.body) { /* drain: the socket goes back to the pool */ } })
      .catch(() => undefined);
  }

  /**
   * Sends one request and resolves with its response head. A read whose reused keep-alive socket
   * fails before any response byte is sent once more on a fresh socket (the server closed the
   * idle socket as we picked it); nothing else is retried here.
   */
  private async send(host: Host, method: string, path: string, body: Buffer | AsyncIterable<Uint8Array> | undefined, req: Pick<TransportRequest, 'signal' | 'idempotent' | 'queryId' | 'traceparent' | 'httpHeaders'>): Promise<{ req: http.ClientRequest; res: http.IncomingMessage }> {
    // Built once per request (an accessToken function is asked here), reused by its one retry.
    const headers = requestHeaders({ auth: await authHeaders(this.opts), clientHeaders: this.opts.httpHeaders, callHeaders: req.httpHeaders, accept: this.responseCodec });
    try {
      return await this.sendOnce(host, method, path, body, req, headers);
    } catch (e) {
      const stale = (e as { staleSocket?: boolean }).staleSocket === true;
      if (!stale || req.idempotent !== true || !(body === undefined || Buffer.isBuffer(body))) throw e;
      return await this.sendOnce(host, method, path, body, req, headers);
    }
  }

  private sendOnce(host: Host, method: string, path: string, body: Buffer | AsyncIterable<Uint8Array> | undefined, r: Pick<TransportRequest, 'signal' | 'idempotent' | 'queryId' | 'traceparent'>, baseHeaders: Record<string, string>): Promise<{ req: http.ClientRequest; res: http.IncomingMessage }> {
    return new Promise((resolve, reject) => {
      if (r.signal?.aborted) {
        reject(new ChwireAbortError('query aborted by its AbortSignal before it was sent', { queryId: r.queryId, cause: r.signal.reason }));
        return;
      }
      const target = requestTarget(host.url, path, this.opts.proxy);
      const headers: Record<string, string> = { ...baseHeaders, ...target.headers };
      if (r.traceparent !== undefined) headers['traceparent'] = r.traceparent;
      if (Buffer.isBuffer(body)) headers['Content-Length'] = String(body.length);
      else if (body !== undefined) headers['Transfer-Encoding'] = 'chunked';
      const rc = this.opts.requestCompression;
      const bodyCodec: Codec | undefined = body === undefined || Buffer.isBuffer(body) || rc === undefined || rc === false ? undefined : rc === true ? 'gzip' : rc;
      if (bodyCodec !== undefined) headers['Content-Encoding'] = bodyCodec;
      const lib = host.url.protocol === 'https:' ? https : http;
      const req = lib.request({
        protocol: host.url.protocol,
        hostname: target.hostname,
        port: target.port,
        method, path: target.path, headers, agent: host.agent,
      });
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const done = (): void => {
        settled = true;
        if (timer !== undefined) clearTimeout(timer);
        r.signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = (): void => {
        req.destroy(new ChwireAbortError('query aborted by its AbortSignal', { queryId: r.queryId, cause: r.signal?.reason }));
        this.killQuery(host, r.queryId);
      };
      r.signal?.addEventListener('abort', onAbort, { once: true });
      if (this.opts.requestTimeout > 0) {
        timer = setTimeout(() => {
          req.destroy(new ChwireTimeoutError(`no response from ${host.where} within ${this.opts.requestTimeout} ms (requestTimeout)`, { queryId: r.queryId }));
          this.killQuery(host, r.queryId);
        }, this.opts.requestTimeout);
      }
      req.on('socket', (s: Socket) => { s.setTimeout(0); });
      req.on('response', (res) => {
        done();
        resolve({ req, res });
      });
      req.on('error', (e: Error & { code?: string }) => {
        if (settled) return;
        done();
        if (isChwireError(e)) { reject(e); return; }
        const err = new ChwireConnectionError(`request to ${host.where} failed: ${e.message}`, { queryId: r.queryId, cause: e });
        // A keep-alive socket the server closed while idle: ECONNRESET / hang up before any response.
        if (req.reusedSocket && (e.code === 'ECONNRESET' || e.code === 'EPIPE' || /socket hang up/.test(e.message))) {
          (err as unknown as { staleSocket: boolean }).staleSocket = true;
        }
        if (e.code === 'ECONNREFUSED' || e.code === 'ENOTFOUND' || e.code === 'EHOSTUNREACH') {
          (err as unknown as { connectFailed: boolean }).connectFailed = true;
        }
        reject(err);
      });
      if (body === undefined) req.end();
      else if (Buffer.isBuffer(body)) req.end(body);
      else {
        const src = Readable.from(body, { objectMode: false });
        src.on('error', (e) => { req.destroy(e); });
        // Sending the body is progress: the timeout counts from its last chunk, not from the start
        // (a long insert that keeps streaming must not time out; a stalled one still does).
        if (timer !== undefined) src.on('data', () => { if (!settled) timer!.refresh(); });
        if (bodyCodec !== undefined) {
          // Fast settings (codecs.ts): the body is compressed while it streams, on the event loop.
          const z = compressor(bodyCodec);
          z.on('error', (e) => { req.destroy(e); });
          src.pipe(z).pipe(req);
        } else {
          src.pipe(req);
        }
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    // The user's own agent is theirs to close.
    if (this.opts.agent === undefined) for (const h of this.hosts) h.agent.destroy();
  }
}

function header(res: http.IncomingMessage, name: string): string | undefined {
  const v = res.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Reads a small body (an error message or /ping) completely, at most 1 MiB. */
async function readAll(res: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const c of res as AsyncIterable<Buffer>) {
      if (size < 1 << 20) chunks.push(c);
      size += c.length;
    }
  } catch {
    // An error body cut short is still the best description we have.
  }
  const buf = await decompressSmall(String(res.headers['content-encoding'] ?? ''), Buffer.concat(chunks));
  return buf.toString('utf8');
}
