// The HTTP transport: a keep-alive pool per host (node:http/https Agent), the query in the POST
// body (or, for INSERT, in the URL with the data streamed as a chunked body), settings and
// `param_*` in the URL, credentials only in X-ClickHouse-User / X-ClickHouse-Key headers (or an
// access token in `Authorization: Bearer`), the rest of the request's shape from request-headers.ts.
// Host choice is hosts.ts's, what may be sent again is retry.ts's; this file sends and classifies.
// Invariants: credentials never appear in a URL, an error or a log line; every request (queries,
// the version probe, ping, KILL QUERY aside, which goes to the query's host) goes through the same
// host selection and retry policy; a request is sent again under the same query id only when the
// previous one cannot have reached a server (refused, or a reused socket that failed at once); a
// closed transport sends nothing; waiting for a pooled socket counts against requestTimeout (unless
// requestTimeoutFrom is 'socket'); idle sockets are closed before the server's announced keep-alive
// timeout. A host that accepts a request and sends no response head in time is checked with a
// short /ping (a slow query is not a hung host): if that gets no answer either, the host leaves the
// rotation like a refusing one, the requests still waiting on it are ended (reads go elsewhere),
// and only a /ping brings it back. Every error names its host (`host`: the base URL without
// credentials) and, when the call gives up, where its time went (`timings`); retries are bounded by
// the client's retry budget. A query the client gives up on (AbortSignal, requestTimeout, a
// connection broken after sending) is also stopped on the server (KILL QUERY), not only disconnected.
// A response is decoded only in the Content-Encoding the request asked for, and an error body is
// read within error-body.ts's bounds (1 MiB of text, 10 s or requestTimeout).
import http from 'node:http';
import type https from 'node:https';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { ChwireAbortError, ChwireConnectionError, ChwireDecodeError, ChwireServerError, ChwireTimeoutError, isChwireError, type CallTimings, type ChwireError } from '../errors.js';
import { responseBody } from './http-body.js';
import { checkCodecAvailable, compressor, type Codec } from './codecs.js';
import { readErrorBody } from './error-body.js';
import { authHeaders, queryString, requestHeaders, type AccessToken } from './request-headers.js';
import { checkAgent, proxyRefusal, requestTarget, tunnelThrough } from './proxy.js';
import type { ProxyConfig } from './proxy-url.js';
import { dropQueued, OpenResponses, poolExhaustedMessage, waitingForSocket } from './held-responses.js';
import { HostSet, HostState, type HostStatus, type LoadBalancing } from './hosts.js';
import {
  attemptQueryId, backoff, classifyStatus, DEFAULT_RETRY, mayRetry, parseRetryAfter, previousIsDead, SAME_ID_RUNNING, withEarlierAttempts,
  type Failure, type RetryPolicy,
} from './retry.js';
import { DEFAULT_RETRY_BUDGET, RetryBudget } from './retry-budget.js';
import { errorBodyMs, serverErrorFromText } from './server-error.js';
import { isRedirectStatus, redirectError } from './redirect.js';
import { checkUrlLength, oldUrlLimitError } from './url-limit.js';
import { lazyBuiltin } from './node-builtin.js';
import { parseVersion, SERVER_INFO_SQL, type ServerInfo, type Transport, type TransportEvents, type TransportRequest, type TransportResponse } from './types.js';
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
  /** Milliseconds a refusing, unreachable or hung host is skipped. Default 10 000. */
  hostCooldown?: number | undefined;
  /** Milliseconds the /ping that checks a host suspected of hanging may take (capped by requestTimeout). Default 2 000. */
  hostProbeTimeout?: number | undefined;
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
  /**
   * Where requestTimeout starts for a response head: `'request'` (default) when the request is
   * made, so the wait for a pooled socket counts; `'socket'` once a socket is assigned, so it does
   * not (as @clickhouse/client counts it; chwire/compat sets this). Either way no retry starts
   * once requestTimeout has passed since the call began.
   */
  requestTimeoutFrom?: 'request' | 'socket' | undefined;
  /** The most bytes of response headers node:http reads (its maxHeaderSize); default node's (16 KiB). chwire/compat sets it from max_response_headers_size. */
  maxHeaderSize?: number | undefined;
}

// node:https (and with it node:tls) only once an https:// URL is used.
const httpsModule = lazyBuiltin<typeof https>('node:https');

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
  const agent = secure ? new (httpsModule().Agent)({ ...base, ...(opts.tls as https.AgentOptions | undefined) }) : new http.Agent(base);
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
  /** Requests on this host still waiting for their response head: ended at once when the host proves hung. */
  heads: Set<(why: string) => void>;
  /** The agent of the /ping probes (its own, so a probe never waits behind the requests it checks on). */
  probeAgent: http.Agent | undefined;
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
  /**
   * The client's own request about the host or a query (the /ping checking a host, KILL QUERY): its
   * timeout is no reason to suspect the host again. A probing /ping also goes on the host's probe agent.
   */
  probe?: boolean;
  /** Where the call's time went so far (shared by its attempts). */
  spent?: Spent;
}

/** A call's time, accumulated over its attempts. */
interface Spent {
  connectionMs: number;
  serverMs: number;
  backoffMs: number;
  /** Base URLs tried, in order. */
  hosts: string[];
}

/** How long a /ping checking a host suspected of hanging may take, by default. */
const PROBE_TIMEOUT_MS = 2000;

/**
 * A timed-out request makes its host suspect only when the host had it for at least this long (or
 * half the timeout, if shorter): connecting, or waiting for the head once connected.
 */
const HOST_BLAME_MS = 1000;

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
  /** Retries granted against calls made (retry-budget.ts); undefined: no budget. */
  readonly budget: RetryBudget | undefined;
  /** The headers of every request without headers of its own, when no accessToken function is asked per request (built once). */
  private fixedHeaders: Record<string, string> | undefined;

  constructor(private readonly opts: HttpTransportOptions) {
    checkCodecAvailable('compression.response', opts.compression === true ? 'gzip' : opts.compression);
    checkCodecAvailable('compression.request', opts.requestCompression === true ? 'gzip' : opts.requestCompression);
    const own = checkAgent(opts.agent, opts.urls);
    const hosts = opts.urls.map((url, i) => new HostState<Pool>(url, i, {
      agent: own ?? this.poolFor(url), info: undefined, known: undefined, open: new OpenResponses(), heads: new Set(), probeAgent: own,
    }));
    this.hostSet = new HostSet(hosts, opts.loadBalancing ?? 'in-order', opts.hostCooldown ?? 10_000, Math.random, Date.now, (h) => { void this.probeHost(h); });
    this.retry = opts.retry ?? DEFAULT_RETRY;
    const budget = this.retry.budget === undefined ? DEFAULT_RETRY_BUDGET : this.retry.budget;
    this.budget = budget === false || this.retry.attempts <= 1 ? undefined : new RetryBudget(budget);
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
  server(signal?: AbortSignal, traceparent?: string): Promise<ServerInfo> {
    if (this.closed) return Promise.reject(new ChwireConnectionError('client is closed'));
    for (const h of this.hostSet.list) if (h.up && h.pool.known !== undefined) return Promise.resolve(h.pool.known);
    for (const h of this.hostSet.list) if (h.pool.known !== undefined && this.hostSet.list.every((o) => !o.up)) return Promise.resolve(h.pool.known);
    if (this.probe === undefined) {
      const p = this.probeVersion(signal, traceparent);
      this.probe = p;
      p.then(() => { this.probe = undefined; }, () => { this.probe = undefined; });
    }
    return this.probe;
  }

  /** `traceparent`: of the call that needs the version first (the probe is part of its trace). */
  private async probeVersion(signal?: AbortSignal, traceparent?: string): Promise<ServerInfo> {
    const { host, response } = await this.call({ sql: SERVER_INFO_SQL, format: 'TabSeparated', signal, idempotent: true, traceparent }, false);
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
    const spent: Spent = { connectionMs: 0, serverMs: 0, backoffMs: 0, hosts: [] };
    let allDead = true;
    this.budget?.recordCall();
    for (let attempt = 0; ; attempt++) {
      const out: Outgoing = {
        req, ping, spent,
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
      if (this.closed || attempt + 1 >= this.retry.attempts || !mayRetry(failure, resendable)) throw callError(err, errors, spent, attempt + 1, undefined);
      const delay = Math.max(backoff(this.retry, attempt + 1), failure.retryAfter ?? 0);
      if (Date.now() + delay >= deadline) throw callError(err, errors, spent, attempt + 1, `a retry after ${delay} ms would end past requestTimeout`);
      // The budget bounds the load retries add: a retry after a refusal (nothing reached a server) adds none.
      if (this.budget !== undefined && !previousIsDead(failure) && !this.budget.tryRetry()) {
        const { ratio, minRetries, window } = this.budget.policy;
        throw callError(err, errors, spent, attempt + 1, `not retried: the retry budget (retries at most ${Math.round(ratio * 100)} % of calls + ${minRetries} per ${window} ms) is spent`);
      }
      if (!previousIsDead(failure)) allDead = false;
      req.events?.retry?.({ attempt: attempt + 1, host: lastHost(err) ?? '', error: err, delayMs: delay });
      const slept = Date.now();
      await sleep(delay, req.signal, out.queryId).catch((e: unknown) => { throw callError(e, [...errors, e], spent, attempt + 1, undefined); });
      spent.backoffMs += Date.now() - slept;
      if (this.closed) throw callError(err, errors, spent, attempt + 1, undefined);
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
      out.spent?.hosts.push(host.url.href);
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
    const lastRefused = refusals[refusals.length - 1]!;
    return Promise.reject(tag(new ChwireConnectionError(`no host could be reached (${refusals.length} tried): ${list}`, { queryId: out.queryId, cause: lastRefused.error, host: lastRefused.host.url.href }), { kind: 'refused' }));
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
      // Built per request when an accessToken function is asked here or the call has headers of
      // its own; otherwise the client's one set, built on first use (sendOnce copies it).
      const headers = req.httpHeaders === undefined && typeof this.opts.accessToken !== 'function'
        ? this.fixedHeaders ??= requestHeaders({ auth: await authHeaders(this.opts), clientHeaders: this.opts.httpHeaders, callHeaders: undefined, accept: this.responseCodec })
        : requestHeaders({ auth: await authHeaders(this.opts), clientHeaders: this.opts.httpHeaders, callHeaders: req.httpHeaders, accept: this.responseCodec });
      sent = await this.sendOnce(host, out.ping ? 'GET' : 'POST', path, body, { signal: req.signal, queryId: out.queryId, headTimeout: out.headTimeout, timeoutLabel: out.timeoutLabel, traceparent: req.traceparent, inputPending: req.inputPending, probe: out.probe === true, spent: out.spent }, headers);
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
      markHost(e, host.where, host.url.href);
      // The request may have reached the server, which may still be running it: stop it there.
      if (f.kind === 'reset' && !out.ping) this.killQuery(host, out.queryId, req.traceparent);
      throw e;
    }
    const wasDown = !host.up;
    this.hostSet.reached(host);
    if (wasDown) this.opts.events?.hostState?.({ host: host.where, up: true });
    const { res } = sent;
    const queryId = header(res, 'x-clickhouse-query-id') ?? out.queryId;
    if (res.statusCode !== 200) {
      const refusal = proxyRefusal(this.opts.proxy, res.statusCode);
      if (refusal !== undefined) { res.resume(); end(); throw new ChwireConnectionError(refusal, { queryId, host: host.url.href }); }
      // Never followed (redirect.ts): the body is dropped unread and the call fails, naming the target.
      if (isRedirectStatus(res.statusCode ?? 0)) {
        res.resume();
        end();
        const e = redirectError(res.statusCode ?? 0, header(res, 'location'), new URL(path, host.url).href, host.where, { queryId, host: host.url.href });
        markHost(e, host.where, host.url.href);
        throw tag(e, { kind: 'final' });
      }
      if (req.errorAnswers !== 'return' || out.ping) {
        const { text, cut, cause } = await readErrorBody(res, this.responseCodec, errorBodyMs(this.opts.requestTimeout));
        end();
        const status = res.statusCode ?? 0;
        const e = oldUrlLimitError(status, text, path, req.params) ?? serverErrorFromText(text, status, queryId, header(res, 'x-clickhouse-exception-code'), host.url.href, cut, cause);
        markHost(e, host.where, host.url.href);
        throw tag(e, { kind: classifyStatus(status, e), retryAfter: status === 429 || status === 503 ? parseRetryAfter(header(res, 'retry-after')) : undefined });
      }
      // errorAnswers 'return': the error answer is the response, read as any body below.
    }
    if (out.ping) {
      await readErrorBody(res, this.responseCodec, errorBodyMs(this.opts.requestTimeout));
      end();
      // An answer cut short (fewer bytes than its Content-Length) is no answer.
      if (!res.complete) throw new ChwireConnectionError('GET /ping: the response was cut short (aborted)', { host: host.url.href });
      return { queryId: undefined, summary: undefined, timezone: undefined, body: (async function* () { /* empty */ })(), tailText: () => '', cancel: () => undefined };
    }
    // Only the encoding the request asked for is decoded (a server, or a box on the way, may send another).
    const encoding = (header(res, 'content-encoding') ?? '').trim().toLowerCase();
    if (encoding !== '' && encoding !== 'identity' && encoding !== this.responseCodec) {
      res.destroy();
      end();
      const asked = this.responseCodec === undefined ? 'asked for none' : `asked for ${this.responseCodec}`;
      const e = new ChwireDecodeError(`the response from ${host.where} is in Content-Encoding ${JSON.stringify(encoding.slice(0, 40))}, which the request did not ask for (it ${asked}): not decoded`, { offset: 0 }, { queryId, host: host.url.href });
      markHost(e, host.where, host.url.href);
      throw e;
    }
    const open = host.pool.open.add(queryId);
    const b = responseBody({
      req: sent.req, res, queryId, timeoutMs: this.opts.requestTimeout, signal: req.signal, where: host.where, host: host.url.href,
      onGiveUp: () => this.killQuery(host, queryId, req.traceparent),
      open,
      onEnd: () => { host.pool.open.remove(open); end(); },
      encoded: req.encodedBody === true,
    });
    const summaryText = header(res, 'x-clickhouse-summary');
    let summary: Record<string, string> | undefined;
    if (summaryText !== undefined) {
      try { summary = JSON.parse(summaryText) as Record<string, string>; } catch { summary = undefined; }
    }
    return {
      queryId, summary, timezone: header(res, 'x-clickhouse-timezone'), format: header(res, 'x-clickhouse-format'), host: host.where, url: host.url.href, headers: { ...res.headers }, body: b.body, tailText: () => b.tail.text(), cancel: b.cancel,
      exceptionsFramed: b.framed,
      ...(res.statusCode !== 200 ? { status: res.statusCode } : {}),
    };
  }

  /**
   * A request to `host` got no response head within its timeout. A slow query looks the same (an
   * old server sends its head with the first result bytes), so the host is only suspect: skipped
   * while a /ping checks it, and marked hung only if that gets no answer either. One check at a time.
   */
  private suspectHost(host: Host, why: string): void {
    if (this.closed || !this.hostSet.suspect(host)) return;
    void this.probeHost(host, why);
  }

  private get probeTimeout(): number {
    const t = this.opts.hostProbeTimeout ?? PROBE_TIMEOUT_MS;
    return this.opts.requestTimeout > 0 ? Math.min(t, this.opts.requestTimeout) : t;
  }

  /**
   * `GET /ping` on `host` with a short timeout, on an agent of its own: an answer brings the host
   * back (or clears the suspicion); none marks it hung. Called for a suspect host, and by host
   * selection once a hung host's cooldown is over (it is never handed a request as its probe).
   */
  private async probeHost(host: Host, why?: string): Promise<void> {
    if (this.closed) { this.hostSet.settled(host); return; }
    const timeout = this.probeTimeout;
    if (host.pool.probeAgent === undefined) host.pool.probeAgent = this.poolFor(host.url);
    const out: Outgoing = { req: { sql: '', idempotent: true }, ping: true, probe: true, queryId: undefined, body: undefined, headTimeout: timeout, timeoutLabel: 'the host check' };
    try {
      await this.onHostOnce(host, out);
      this.hostSet.cleared(host);
    } catch (e) {
      // A refusal was recorded by onHostOnce (the host is down, as refusing).
      if (this.closed || failureOf(e).kind === 'refused') { this.hostSet.cleared(host); return; }
      const message = `${why !== undefined ? `${why}; ` : ''}GET /ping got no answer either (${(e as Error).message})`;
      this.markHung(host, message, e);
    }
  }

  /** The host accepts requests and answers none: out of the rotation, and what waits on it is ended now. */
  private markHung(host: Host, message: string, error: unknown): void {
    const wasUp = host.up;
    this.hostSet.hung(host, message);
    if (wasUp) this.opts.events?.hostState?.({ host: host.where, up: false, error });
    for (const abandon of [...host.pool.heads]) abandon(`${host.where} stopped answering (${message})`);
  }

  /**
   * Best effort, once the client has given up on a query (abort, timeout, a connection broken
   * after the request was sent): ask the server to stop it. A closed connection is not enough: a
   * server notices it only when it next writes a result byte, so a query still computing (an
   * aggregation, a sort) runs on for as long as it takes (measured on 18.16: still running 3 s
   * after the abort; later servers too, unless cancel_http_readonly_queries_on_client_close is
   * set). Sent to the same host, without the session (a session runs one query at a time), with no
   * signal and no retry; any failure is ignored. A closed client sends nothing. It carries the
   * `traceparent` of the call it stops.
   */
  private killQuery(host: Host, queryId: string | undefined, traceparent: string | undefined): void {
    if (queryId === undefined || this.closed) return;
    const sql = `KILL QUERY WHERE query_id = ${quoteString(queryId)} ASYNC`;
    const out: Outgoing = { req: { sql, format: 'TabSeparated', idempotent: false, traceparent }, ping: false, probe: true, queryId: undefined, body: undefined, headTimeout: this.opts.requestTimeout, timeoutLabel: 'requestTimeout' };
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
  private sendOnce(host: Host, method: string, path: string, body: Buffer | AsyncIterable<Uint8Array> | undefined, r: { signal?: AbortSignal | undefined; queryId: string | undefined; headTimeout: number; timeoutLabel: string; traceparent?: string | undefined; inputPending?: (() => boolean) | undefined; probe: boolean; spent?: Spent | undefined }, baseHeaders: Record<string, string>): Promise<{ req: http.ClientRequest; res: http.IncomingMessage }> {
    return new Promise((resolve, reject) => {
      const url = host.url.href;
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
      const lib = host.url.protocol === 'https:' ? httpsModule() : http;
      const req = lib.request({
        protocol: host.url.protocol,
        hostname: target.hostname,
        port: target.port,
        method, path: target.path, headers, agent: r.probe && method === 'GET' && host.pool.probeAgent !== undefined ? host.pool.probeAgent : host.pool.agent,
        ...(this.opts.maxHeaderSize !== undefined ? { maxHeaderSize: this.opts.maxHeaderSize } : {}),
      });
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const startedAt = Date.now();
      let assignedAt = 0;
      let connectedAt = 0;
      /** Where this request's time went: waiting for a socket and connecting, then for the server. */
      const waits = (now: number): { connectionMs: number; serverMs: number } => ({
        connectionMs: (connectedAt || now) - startedAt,
        serverMs: connectedAt === 0 ? 0 : now - connectedAt,
      });
      const waitText = (now: number): string => {
        const w = waits(now);
        const queued = (assignedAt || now) - startedAt;
        return `${queued} ms waiting for a pooled connection, ${(connectedAt || now) - (assignedAt || now)} ms connecting, ${w.serverMs} ms waiting for the server`;
      };
      const done = (): void => {
        settled = true;
        this.pending.delete(failNow);
        host.pool.heads.delete(abandon);
        if (timer !== undefined) clearTimeout(timer);
        r.signal?.removeEventListener('abort', onAbort);
        if (r.spent !== undefined) {
          const w = waits(Date.now());
          r.spent.connectionMs += w.connectionMs;
          r.spent.serverMs += w.serverMs;
        }
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
      // The host proved hung: a request still queued for a socket was not sent (another host may
      // take it at once); one sent gets no answer (a read is sent again elsewhere, under a new id).
      const abandon = (why: string): void => {
        const queued = waitingForSocket(req);
        const e = queued
          ? new ChwireConnectionError(`request to ${host.where} not sent: ${why}`, { queryId: r.queryId, host: url })
          : new ChwireConnectionError(`request to ${host.where} abandoned after ${Date.now() - startedAt} ms without a response head: ${why}`, { queryId: r.queryId, host: url });
        failNow(tag(e, { kind: queued ? 'refused' : 'reset' }));
      };
      if (!r.probe) host.pool.heads.add(abandon);
      const onAbort = (): void => {
        const sentAlready = !waitingForSocket(req);
        failNow(new ChwireAbortError('query aborted by its AbortSignal', { queryId: r.queryId, cause: r.signal?.reason, host: url }));
        if (sentAlready) this.killQuery(host, r.queryId, r.traceparent);
      };
      r.signal?.addEventListener('abort', onAbort, { once: true });
      const armTimer = (): void => {
        timer = setTimeout(() => {
          if (waitingForSocket(req)) {
            const { inUse, limit } = poolUse(host.pool.agent, this.opts.maxOpenConnections);
            failNow(new ChwireTimeoutError(poolExhaustedMessage(host.where, r.headTimeout, r.timeoutLabel, inUse, limit, host.inFlight, host.pool.open.held()), { queryId: r.queryId, host: url }));
            return;
          }
          // An insert whose source is stalled times that out itself (ending its body cleanly).
          if (r.inputPending?.() === true) { timer!.refresh(); return; }
          const now = Date.now();
          // The host is only blamed for time it had: a request that spent its time in the pool's
          // queue and got its socket a moment ago says nothing about the host.
          const hostHad = Math.min(HOST_BLAME_MS, r.headTimeout / 2);
          if (req.socket?.connecting === true) {
            // Nothing was sent: the host takes no connection (a dropped SYN, a full backlog).
            const msg = `could not connect to ${host.where} within ${r.headTimeout} ms (${r.timeoutLabel}): ${waitText(now)}`;
            const e = new ChwireTimeoutError(msg, { queryId: r.queryId, host: url });
            failNow(e);
            if (!r.probe && now - assignedAt >= hostHad) this.markHung(host, msg, e);
            return;
          }
          const msg = `no response from ${host.where} within ${r.headTimeout} ms (${r.timeoutLabel}): ${waitText(now)}`;
          failNow(new ChwireTimeoutError(msg, { queryId: r.queryId, host: url }));
          this.killQuery(host, r.queryId, r.traceparent);
          if (!r.probe && now - connectedAt >= hostHad) this.suspectHost(host, msg);
        }, r.headTimeout);
      };
      // requestTimeoutFrom 'socket': armed on socket assignment (below), the pool's queue apart.
      const fromSocket = this.opts.requestTimeoutFrom === 'socket';
      if (r.headTimeout > 0 && !fromSocket) armTimer();
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
        if (fromSocket && r.headTimeout > 0 && !settled && timer === undefined) armTimer();
        if (s.connecting) s.once('connect', () => { connectedAt = Date.now(); startBody(); });
        else { connectedAt = assignedAt; startBody(); }
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
        if (this.closed) { reject(new ChwireConnectionError(`request to ${host.where} ended: the client was closed`, { queryId: r.queryId, cause: e, host: url })); return; }
        const err = new ChwireConnectionError(`request to ${host.where} failed: ${e.message}`, { queryId: r.queryId, cause: e, host: url });
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
    if (this.opts.agent === undefined) for (const h of this.hostSet.list) { h.pool.agent.destroy(); h.pool.probeAgent?.destroy(); }
  }
}

/** The host an attempt's error came from (for the retry event). */
const HOST = Symbol('chwire.host');
function markHost(e: unknown, where: string, url?: string): void {
  if (typeof e === 'object' && e !== null && !(HOST in e)) Object.defineProperty(e, HOST, { value: where, configurable: true });
  if (url !== undefined && isChwireError(e) && e.host === undefined) Object.defineProperty(e, 'host', { value: url, enumerable: true, configurable: true });
}

/**
 * The error a call ends with: the last attempt's, with `timings` (attempts, hosts, waits). After
 * more than one attempt it is a new error of the same class that says so (`after 3 attempts on …`),
 * the last attempt's error as its `cause` and the earlier ones in `earlierAttempts`.
 */
function callError(err: unknown, errors: readonly unknown[], spent: Spent, attempts: number, why: string | undefined): unknown {
  if (!isChwireError(err)) return withEarlierAttempts(err, errors.slice(0, -1));
  const timings: CallTimings = Object.freeze({ attempts, hosts: Object.freeze([...spent.hosts]), connectionMs: spent.connectionMs, serverMs: spent.serverMs, backoffMs: spent.backoffMs });
  let out: ChwireError = err;
  if (attempts > 1 || why !== undefined) {
    const hosts = [...new Set(spent.hosts)].join(', ');
    const prefix = attempts > 1
      ? `after ${attempts} attempts on ${hosts} (${spent.connectionMs} ms waiting for connections, ${spent.serverMs} ms for the server, ${spent.backoffMs} ms between attempts${why !== undefined ? `; ${why}` : ''}): `
      : `${why!}: `;
    const opts = { queryId: err.queryId, host: err.host, cause: err };
    if (err instanceof ChwireServerError) out = new ChwireServerError(err.serverMessage, { serverCode: err.serverCode, serverName: err.serverName, status: err.status }, { ...opts, prefix });
    else if (err instanceof ChwireTimeoutError) out = new ChwireTimeoutError(prefix + err.message, opts);
    else if (err instanceof ChwireAbortError) out = new ChwireAbortError(prefix + err.message, opts);
    else if (err instanceof ChwireConnectionError) out = new ChwireConnectionError(prefix + err.message, opts);
  }
  withEarlierAttempts(out, errors.slice(0, -1));
  Object.defineProperty(out, 'timings', { value: timings, enumerable: false, configurable: true });
  return out;
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
