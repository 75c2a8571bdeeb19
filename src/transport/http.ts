// The HTTP transport: a keep-alive pool per host (node:http/https Agent), the query in the POST
// body (or, for INSERT, in the URL with the data streamed as a chunked body), settings and
// `param_*` in the URL, credentials only in X-ClickHouse-User / X-ClickHouse-Key headers (or an
// access token in `Authorization: Bearer`), the rest of the request's shape from request-headers.ts.
// Host choice is hosts.ts's, what may be sent again is retry.ts's; this file sends and classifies.
// Invariants: credentials never appear in a URL, an error or a log line; every request (queries,
// the version probe, ping, KILL QUERY aside, which goes to the query's host) goes through the same
// host selection and retry policy; a request is sent again under the same query id only when the
// previous one cannot have reached a server (refused, or a reused socket that failed at once); a
// closed transport sends nothing; waiting for a pooled socket counts against requestTimeout; idle
// sockets are closed before the server's announced keep-alive timeout. A query the client gives up
// on (AbortSignal, requestTimeout, a connection broken after sending) is also stopped on the
// server (KILL QUERY), not only disconnected.
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { ChwireAbortError, ChwireConnectionError, ChwireServerError, ChwireTimeoutError, isChwireError } from '../errors.js';
import { responseBody } from './http-body.js';
import { checkCodecAvailable, compressor, decompressSmall, type Codec } from './codecs.js';
import { authHeaders, queryString, requestHeaders, type AccessToken } from './request-headers.js';
import { checkAgent, proxyRefusal, requestTarget, tunnelThrough } from './proxy.js';
import type { ProxyConfig } from './proxy-url.js';
import { dropQueued, OpenResponses, poolExhaustedMessage, waitingForSocket } from './held-responses.js';
import { HostSet, HostState, type HostStatus, type LoadBalancing } from './hosts.js';
import {
  attemptQueryId, backoff, classifyStatus, DEFAULT_RETRY, mayRetry, parseRetryAfter, previousIsDead, SAME_ID_RUNNING, withEarlierAttempts,
  type Failure, type RetryPolicy,
} from './retry.js';
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
  /** How requests are spread over `urls`. Default 'in-order' (the first host that is up). */
  loadBalancing?: LoadBalancing | undefined;
  /** Milliseconds a refusing or unreachable host is skipped. Default 10 000. */
  hostCooldown?: number | undefined;
  /** Default DEFAULT_RETRY. */
  retry?: RetryPolicy | undefined;
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

/** A host's pool: its agent, its server version (probed once), its unfinished responses. */
interface Pool {
  agent: http.Agent;
  info: Promise<ServerInfo> | undefined;
  /** The settled version, once known (server() prefers a host that has one). */
  known: ServerInfo | undefined;
  open: OpenResponses;
}
type Host = HostState<Pool>;

/** A request on its way: the public request plus what this attempt adds. */
interface Outgoing {
  req: TransportRequest;
  /** `GET /ping` instead of a query. */
  ping: boolean;
  queryId: string | undefined;
  /** Starts this attempt's body (a fresh one when the body can be produced again). */
  body: (() => AsyncIterable<Uint8Array>) | undefined;
  /** Milliseconds the response head may take (the wait for a pooled socket included). */
  headTimeout: number;
  /** What bounds `headTimeout`, for messages. */
  timeoutLabel: string;
}

/** A failure's retry classification, carried on the error it belongs to. */
const FAILURE = Symbol('chwire.failure');
function failureOf(e: unknown): Failure {
  return (e as { [FAILURE]?: Failure } | null)?.[FAILURE] ?? { kind: 'final' };
}
function tag<E>(e: E, f: Failure): E {
  if (typeof e === 'object' && e !== null) Object.defineProperty(e, FAILURE, { value: f, configurable: true });
  return e;
}

/**
 * A reused socket that fails within this many ms of being handed the request failed "at once": the
 * server had closed it while idle, and the request cannot have reached it. A later failure may come
 * after the server started the query (a proxy cutting a silent connection), so it is a reset: sent
 * again, if at all, only under another query id.
 */
const STALE_WINDOW_MS = 200;

export class HttpTransport implements Transport {
  readonly kind = 'http' as const;
  private readonly hostSet: HostSet<Pool>;
  private readonly retry: RetryPolicy;
  private closed = false;
  /** Fails every request still waiting for its response head (close()). */
  private readonly pending = new Set<(e: Error) => void>();
  private probe: Promise<ServerInfo> | undefined;

  constructor(private readonly opts: HttpTransportOptions) {
    checkCodecAvailable('compression.response', opts.compression === true ? 'gzip' : opts.compression);
    checkCodecAvailable('compression.request', opts.requestCompression === true ? 'gzip' : opts.requestCompression);
    const own = checkAgent(opts.agent, opts.urls);
    const hosts = opts.urls.map((url, i) => new HostState<Pool>(url, i, {
      agent: own ?? this.poolFor(url), info: undefined, known: undefined, open: new OpenResponses(),
    }));
    this.hostSet = new HostSet(hosts, opts.loadBalancing ?? 'in-order', opts.hostCooldown ?? 10_000);
    this.retry = opts.retry ?? DEFAULT_RETRY;
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

  /** Each host's state (no credentials). */
  hosts(): HostStatus[] {
    return this.hostSet.snapshot();
  }

  /**
   * The server version, probed with `SELECT version()` through the same host selection, failover
   * and retries as any request, once per host that answers it (replicas are assumed to run
   * compatible versions: the one a request is built for is the version of a host that is up).
   */
  server(signal?: AbortSignal): Promise<ServerInfo> {
    if (this.closed) return Promise.reject(new ChwireConnectionError('client is closed'));
    for (const h of this.hostSet.list) if (h.up && h.pool.known !== undefined) return Promise.resolve(h.pool.known);
    for (const h of this.hostSet.list) if (h.pool.known !== undefined && this.hostSet.list.every((o) => !o.up)) return Promise.resolve(h.pool.known);
    if (this.probe === undefined) {
      const p = this.probeVersion(signal);
      this.probe = p;
      p.then(() => { this.probe = undefined; }, () => { this.probe = undefined; });
    }
    return this.probe;
  }

  private async probeVersion(signal?: AbortSignal): Promise<ServerInfo> {
    const { host, response } = await this.call({ sql: 'SELECT version()', format: 'TabSeparated', signal, idempotent: true }, false);
    const chunks: Uint8Array[] = [];
    for await (const c of response.body) chunks.push(c);
    const info = parseVersion(Buffer.concat(chunks).toString('utf8'));
    host.pool.known = info;
    return info;
  }

  async ping(signal?: AbortSignal): Promise<void> {
    await this.call({ sql: '', signal, idempotent: true }, true);
  }

  async request(req: TransportRequest): Promise<TransportResponse> {
    return (await this.call(req, false)).response;
  }

  /**
   * One call: attempts under the retry policy, each trying the hosts in the order host selection
   * gives (moving on only when a host refuses or cannot be reached: nothing was sent then).
   */
  private async call(req: TransportRequest, ping: boolean): Promise<{ host: Host; response: TransportResponse }> {
    if (this.closed) throw new ChwireConnectionError('client is closed');
    const budget = this.opts.requestTimeout;
    const deadline = budget > 0 ? Date.now() + budget : Infinity;
    const made = typeof req.body === 'function' ? req.body : undefined;
    const once = made === undefined && req.body !== undefined ? oneShot(req.body as AsyncIterable<Uint8Array>) : undefined;
    const errors: unknown[] = [];
    const used = new Set<Host>();
    let allDead = true;
    for (let attempt = 0; ; attempt++) {
      const out: Outgoing = {
        req, ping,
        queryId: attemptQueryId(req.queryId, attempt, allDead),
        body: made ?? (once !== undefined ? () => once.iterable : undefined),
        headTimeout: attempt === 0 || budget === 0 ? budget : Math.max(1, deadline - Date.now()),
        timeoutLabel: attempt === 0 || budget === 0 ? 'requestTimeout' : `what was left of requestTimeout ${budget} ms after ${attempt} earlier attempt${attempt === 1 ? '' : 's'}`,
      };
      let failure: Failure;
      try {
        return await this.attempt(out, used, attempt);
      } catch (e) {
        errors.push(e);
        failure = failureOf(e);
      }
      const err = errors[errors.length - 1];
      const resendable = { idempotent: req.idempotent === true, bodyRepeatable: req.body === undefined || made !== undefined, bodyTaken: once?.taken() ?? false };
      if (this.closed || attempt + 1 >= this.retry.attempts || !mayRetry(failure, resendable)) throw withEarlierAttempts(err, errors.slice(0, -1));
      const delay = Math.max(backoff(this.retry, attempt + 1), failure.retryAfter ?? 0);
      if (Date.now() + delay >= deadline) throw withEarlierAttempts(err, errors.slice(0, -1));
      if (!previousIsDead(failure)) allDead = false;
      req.events?.retry?.({ attempt: attempt + 1, host: lastHost(err) ?? '', error: err, delayMs: delay });
      await sleep(delay, req.signal, out.queryId);
      if (this.closed) throw withEarlierAttempts(err, errors.slice(0, -1));
    }
  }

  /** One attempt: the hosts in selection order until one takes the request. */
  private async attempt(out: Outgoing, used: Set<Host>, attempt: number): Promise<{ host: Host; response: TransportResponse }> {
    const refusals: { host: Host; error: unknown }[] = [];
    // A request pinned to a host (a progress poll goes where its query runs) tries that one only.
    const pinned = out.req.host !== undefined ? this.hostSet.list.find((h) => h.where === out.req.host) : undefined;
    const order = pinned !== undefined ? [pinned] : this.hostSet.order(used);
    for (const host of order) {
      used.add(host);
      const refused = refusals[refusals.length - 1];
      if (refused !== undefined) out.req.events?.retry?.({ attempt, host: refused.host.where, error: refused.error, delayMs: 0 });
      out.req.events?.attempt?.(host.where, attempt);
      try {
        return { host, response: await this.onHost(host, out) };
      } catch (e) {
        if (failureOf(e).kind !== 'refused' || this.closed) throw e;
        refusals.push({ host, error: e });
      }
    }
    if (refusals.length === 1) throw refusals[0]!.error;
    const list = refusals.map((r) => `${r.host.where}: ${(r.error as Error).message}`).join('; ');
    return Promise.reject(tag(new ChwireConnectionError(`no host could be reached (${refusals.length} tried): ${list}`, { queryId: out.queryId, cause: refusals[refusals.length - 1]!.error }), { kind: 'refused' }));
  }

  /** Sends on one host; a read whose reused socket proved stale is sent once more, under the same id. */
  private async onHost(host: Host, out: Outgoing): Promise<TransportResponse> {
    try {
      return await this.onHostOnce(host, out);
    } catch (e) {
      const r = out.req;
      if (failureOf(e).kind !== 'stale' || this.closed || r.idempotent !== true || (typeof r.body !== 'function' && r.body !== undefined)) throw e;
      try {
        return await this.onHostOnce(host, out);
      } catch (e2) {
        // The same id again found the first still running after all: retry under another id.
        if (e2 instanceof ChwireServerError && e2.serverCode === SAME_ID_RUNNING) throw tag(e2, { kind: 'reset' });
        throw e2;
      }
    }
  }

  private async onHostOnce(host: Host, out: Outgoing): Promise<TransportResponse> {
    const { req } = out;
    let path: string;
    let body: Buffer | AsyncIterable<Uint8Array> | undefined;
    if (out.ping) {
      path = `${host.url.pathname.replace(/\/$/, '')}/ping`;
    } else {
      const query: Record<string, string> = {};
      if (this.opts.database !== undefined && this.opts.database !== '') query['database'] = this.opts.database;
      if (req.format !== undefined) query['default_format'] = req.format;
      if (out.queryId !== undefined) query['query_id'] = out.queryId;
      if (req.sessionId !== undefined) query['session_id'] = req.sessionId;
      if (this.responseCodec !== undefined) query['enable_http_compression'] = '1';
      for (const [k, v] of Object.entries(req.settings ?? {})) query[k] = v;
      for (const [k, v] of Object.entries(req.params ?? {})) query[`param_${k}`] = v;
      if (out.body !== undefined) {
        query['query'] = req.sql;
        body = out.body();
      } else {
        body = Buffer.from(req.sql, 'utf8');
      }
      path = `${host.url.pathname.replace(/\/$/, '')}/?${queryString(query, req.role)}`;
      checkUrlLength(path, req.params);
    }
    // Synchronously after host selection, so a host being probed is probed by this request only.
    this.hostSet.begin(host);
    let ended = false;
    const end = (): void => { if (!ended) { ended = true; this.hostSet.end(host); } };
    let sent: { req: http.ClientRequest; res: http.IncomingMessage };
    try {
      // Built per request (an accessToken function is asked here).
      const headers = requestHeaders({ auth: await authHeaders(this.opts), clientHeaders: this.opts.httpHeaders, callHeaders: req.httpHeaders, accept: this.responseCodec });
      sent = await this.sendOnce(host, out.ping ? 'GET' : 'POST', path, body, { signal: req.signal, queryId: out.queryId, headTimeout: out.headTimeout, timeoutLabel: out.timeoutLabel, traceparent: req.traceparent, inputPending: req.inputPending }, headers);
    } catch (e) {
      end();
      const f = failureOf(e);
      if (f.kind === 'refused') {
        const wasUp = host.up;
        this.hostSet.unreachable(host, (e as Error).message);
        if (wasUp) this.opts.events?.hostState?.({ host: host.where, up: false, error: e });
      } else {
        this.hostSet.settled(host);
      }
      markHost(e, host.where);
      // The request may have reached the server, which may still be running it: stop it there.
      if (f.kind === 'reset' && !out.ping) this.killQuery(host, out.queryId);
      throw e;
    }
    const wasDown = !host.up;
    this.hostSet.reached(host);
    if (wasDown) this.opts.events?.hostState?.({ host: host.where, up: true });
    const { res } = sent;
    const queryId = header(res, 'x-clickhouse-query-id') ?? out.queryId;
    if (res.statusCode !== 200) {
      const refusal = proxyRefusal(this.opts.proxy, res.statusCode);
      if (refusal !== undefined) { res.resume(); end(); throw new ChwireConnectionError(refusal, { queryId }); }
      const text = await readAll(res);
      end();
      const status = res.statusCode ?? 0;
      const e = oldUrlLimitError(status, text, path, req.params) ?? serverErrorFromText(text, status, queryId, header(res, 'x-clickhouse-exception-code'));
      markHost(e, host.where);
      throw tag(e, { kind: classifyStatus(status, e), retryAfter: status === 429 || status === 503 ? parseRetryAfter(header(res, 'retry-after')) : undefined });
    }
    if (out.ping) {
      await readAll(res);
      end();
      return { queryId: undefined, summary: undefined, timezone: undefined, body: (async function* () { /* empty */ })(), tailText: () => '', cancel: () => undefined };
    }
    const open = host.pool.open.add(queryId);
    const b = responseBody({
      req: sent.req, res, queryId, timeoutMs: this.opts.requestTimeout, signal: req.signal, where: host.where,
      onGiveUp: () => this.killQuery(host, queryId),
      open,
      onEnd: () => { host.pool.open.remove(open); end(); },
    });
    const summaryText = header(res, 'x-clickhouse-summary');
    let summary: Record<string, string> | undefined;
    if (summaryText !== undefined) {
      try { summary = JSON.parse(summaryText) as Record<string, string>; } catch { summary = undefined; }
    }
    const exceptionTag = header(res, 'x-clickhouse-exception-tag');
    return {
      queryId, summary, timezone: header(res, 'x-clickhouse-timezone'), host: host.where, body: b.body, tailText: () => b.tail.text(), cancel: b.cancel,
      exceptionsFramed: exceptionTag !== undefined && exceptionTag !== '',
    };
  }

  /**
   * Best effort, once the client has given up on a query (abort, timeout, a connection broken
   * after the request was sent): ask the server to stop it. A closed connection is not enough: a
   * server notices it only when it next writes a result byte, so a query still computing (an
   * aggregation, a sort) runs on for as long as it takes (measured on 18.16: still running 3 s
   * after the abort; later servers too, unless cancel_http_readonly_queries_on_client_close is
   * set). Sent to the same host, without the session (a session runs one query at a time), with no
   * signal and no retry; any failure is ignored. A closed client sends nothing.
   */
  private killQuery(host: Host, queryId: string | undefined): void {
    if (queryId === undefined || this.closed) return;
    const sql = `KILL QUERY WHERE query_id = ${quoteString(queryId)} ASYNC`;
    const out: Outgoing = { req: { sql, format: 'TabSeparated', idempotent: false }, ping: false, queryId: undefined, body: undefined, headTimeout: this.opts.requestTimeout, timeoutLabel: 'requestTimeout' };
    void this.onHostOnce(host, out)
      .then(async (r) => { for await (const _ of r.body) { /* drain: the socket goes back to the pool */ } })
      .catch(() => undefined);
  }

  /**
   * Sends one request and resolves with its response head. The wait for a pooled socket and for
   * the head together are bounded by `headTimeout`; a one-shot body starts flowing only once the
   * connection is up, so a refused connection has taken none of it. Errors carry their retry
   * classification (refused, stale, reset, final).
   */
  private sendOnce(host: Host, method: string, path: string, body: Buffer | AsyncIterable<Uint8Array> | undefined, r: { signal?: AbortSignal | undefined; queryId: string | undefined; headTimeout: number; timeoutLabel: string; traceparent?: string | undefined; inputPending?: (() => boolean) | undefined }, baseHeaders: Record<string, string>): Promise<{ req: http.ClientRequest; res: http.IncomingMessage }> {
    return new Promise((resolve, reject) => {
      if (this.closed) {
        reject(new ChwireConnectionError('client is closed', { queryId: r.queryId }));
        return;
      }
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
        method, path: target.path, headers, agent: host.pool.agent,
      });
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      let assignedAt = 0;
      const done = (): void => {
        settled = true;
        this.pending.delete(failNow);
        if (timer !== undefined) clearTimeout(timer);
        r.signal?.removeEventListener('abort', onAbort);
      };
      // Ends the request now, whether or not it has a socket yet (a request still queued in the
      // agent would otherwise only see the error once a socket is freed, maybe never).
      const failNow = (e: Error): void => {
        if (settled) return;
        done();
        if (waitingForSocket(req)) dropQueued(host.pool.agent, req);
        req.destroy(e);
        reject(e);
      };
      this.pending.add(failNow);
      const onAbort = (): void => {
        const sentAlready = !waitingForSocket(req);
        failNow(new ChwireAbortError('query aborted by its AbortSignal', { queryId: r.queryId, cause: r.signal?.reason }));
        if (sentAlready) this.killQuery(host, r.queryId);
      };
      r.signal?.addEventListener('abort', onAbort, { once: true });
      if (r.headTimeout > 0) {
        timer = setTimeout(() => {
          if (waitingForSocket(req)) {
            const { inUse, limit } = poolUse(host.pool.agent, this.opts.maxOpenConnections);
            failNow(new ChwireTimeoutError(poolExhaustedMessage(host.where, r.headTimeout, r.timeoutLabel, inUse, limit, host.inFlight, host.pool.open.held()), { queryId: r.queryId }));
            return;
          }
          // An insert whose source is stalled times that out itself (ending its body cleanly).
          if (r.inputPending?.() === true) { timer!.refresh(); return; }
          failNow(new ChwireTimeoutError(`no response from ${host.where} within ${r.headTimeout} ms (${r.timeoutLabel})`, { queryId: r.queryId }));
          this.killQuery(host, r.queryId);
        }, r.headTimeout);
      }
      const startBody = (): void => {
        if (settled || body === undefined || Buffer.isBuffer(body)) return;
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
      };
      req.on('socket', (s: Socket) => {
        s.setTimeout(0);
        assignedAt = Date.now();
        if (s.connecting) s.once('connect', startBody);
        else startBody();
      });
      req.on('response', (res) => {
        if (settled) { res.destroy(); return; }
        done();
        resolve({ req, res });
      });
      req.on('error', (e: Error & { code?: string }) => {
        if (settled) return;
        done();
        if (isChwireError(e)) { reject(e); return; }
        if (this.closed) { reject(new ChwireConnectionError(`request to ${host.where} ended: the client was closed`, { queryId: r.queryId, cause: e })); return; }
        const err = new ChwireConnectionError(`request to ${host.where} failed: ${e.message}`, { queryId: r.queryId, cause: e });
        const connectFailed = e.code === 'ECONNREFUSED' || e.code === 'ENOTFOUND' || e.code === 'EHOSTUNREACH' || e.code === 'ENETUNREACH' || e.code === 'EAI_AGAIN';
        const broken = e.code === 'ECONNRESET' || e.code === 'EPIPE' || /socket hang up/.test(e.message);
        // A keep-alive socket the server closed while idle fails as soon as it is used.
        const stale = broken && req.reusedSocket && Date.now() - assignedAt < STALE_WINDOW_MS;
        reject(tag(err, { kind: connectFailed ? 'refused' : stale ? 'stale' : broken ? 'reset' : 'final' }));
      });
      if (body === undefined) req.end();
      else if (Buffer.isBuffer(body)) req.end(body);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    // Requests still waiting (for a socket or a response head) fail now and send nothing more.
    for (const fail of [...this.pending]) fail(new ChwireConnectionError('the request was cancelled: the client closed before the server answered'));
    // The user's own agent is theirs to close.
    if (this.opts.agent === undefined) for (const h of this.hostSet.list) h.pool.agent.destroy();
  }
}

/** The host an attempt's error came from (for the retry event). */
const HOST = Symbol('chwire.host');
function markHost(e: unknown, where: string): void {
  if (typeof e === 'object' && e !== null && !(HOST in e)) Object.defineProperty(e, HOST, { value: where, configurable: true });
}
function lastHost(e: unknown): string | undefined {
  return (e as { [HOST]?: string } | null)?.[HOST];
}

/** A one-shot body and whether any of it was taken. */
function oneShot(body: AsyncIterable<Uint8Array>): { iterable: AsyncIterable<Uint8Array>; taken(): boolean } {
  let taken = false;
  return {
    iterable: { [Symbol.asyncIterator]: () => { taken = true; return body[Symbol.asyncIterator](); } },
    taken: () => taken,
  };
}

/** Sockets of an agent in use, and its limit. */
function poolUse(agent: http.Agent, limit: number): { inUse: number; limit: number } {
  let inUse = 0;
  for (const list of Object.values(agent.sockets)) inUse += list?.length ?? 0;
  return { inUse, limit };
}

/** Waits `ms` before a retry; an abort ends the wait with ChwireAbortError. */
function sleep(ms: number, signal: AbortSignal | undefined, queryId: string | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) { reject(new ChwireAbortError('query aborted by its AbortSignal before a retry', { queryId, cause: signal.reason })); return; }
    const t = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
    const onAbort = (): void => { clearTimeout(t); reject(new ChwireAbortError('query aborted by its AbortSignal before a retry', { queryId, cause: signal?.reason })); };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
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
