// The fetch transport (chwire/web): WHATWG fetch, ReadableStream and AbortController only, so it
// runs in browsers, Deno, Bun, workerd and Node alike. The query goes in the POST body (or, for
// INSERT, in the URL with the data as the body), settings and `param_*` in the URL, credentials
// only in the X-ClickHouse-User / X-ClickHouse-Key headers.
// Invariants: credentials never appear in a URL, an error or a log line; a query the client gives
// up on (AbortSignal, requestTimeout) is also stopped on the server (KILL QUERY); a request body is
// streamed (`duplex: 'half'`) only where the runtime can (request-streams.ts), else sent buffered,
// one block per request (the client splits inserts, client/insert/insert.ts). Pooling, keep-alive and
// TLS belong to the runtime's fetch, not to this transport. An error body is read within
// fetch-error-body.ts's bounds (1 MiB of text, 10 s or requestTimeout). A body comes as the runtime's
// fetch decoded it, whether or not chwire asked for compression (fetch-encoding.ts): every bound
// applies to the decoded bytes; a body in a coding no fetch decodes is refused, and a fetch that
// hands over its bodies still encoded is found out by each host's version probe.
import { ChwireAbortError, ChwireConfigError, ChwireConnectionError, ChwireDecodeError, ChwireTimeoutError, isChwireError, type ChwireError } from '../errors.js';
import { concatBytes } from '../io/bytes.js';
import { quoteString } from '../types/quote.js';
import { fetchBody } from './fetch-body.js';
import { codingsOf, undecodedCoding, undecodedWhy } from './fetch-encoding.js';
import { authHeaders, queryString, requestHeaders, type AccessToken } from './request-headers.js';
import { errorBodyMs, serverErrorFromText } from './server-error.js';
import { readFetchErrorBody } from './fetch-error-body.js';
import { isRedirectStatus, redirectError } from './redirect.js';
import { parseVersion, SERVER_INFO_SQL, type ServerInfo, type Transport, type TransportRequest, type TransportResponse } from './types.js';

export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

/**
 * The longest wait for the version probe's response head (the first request to a host): `SELECT
 * version()` answers at once on a server that is there. In a browser page on another origin, that
 * request is the first to need a CORS preflight, and a server that leaves the `OPTIONS` unanswered
 * (18.16 with a query string in the URL) would otherwise hold the page for the whole requestTimeout.
 */
const PROBE_HEAD_TIMEOUT_MS = 10_000;

/** The page's origin when this runs in a browser page or worker and `url` is on another one (CORS applies). */
function crossOrigin(url: URL): string | undefined {
  const origin = (globalThis as { location?: { origin?: unknown } }).location?.origin;
  return typeof origin === 'string' && origin !== 'null' && origin !== url.origin ? origin : undefined;
}

/** What this transport hands fetch as a body: the SQL text, one buffered body, or a stream. */
type Body = string | Uint8Array | ArrayBuffer | ReadableStream<Uint8Array>;

export interface FetchTransportOptions {
  /** Base URLs; credentials in them must already be removed. */
  urls: URL[];
  username: string;
  password: string;
  database?: string | undefined;
  /** Milliseconds without progress (no response head, no body byte) before a ChwireTimeoutError; 0 = none. */
  requestTimeout: number;
  /**
   * Ask for compressed responses (`enable_http_compression=1`); the runtime's fetch picks the codec
   * and decompresses. Off, a server that compresses by default (25.10+) or a proxy still may.
   */
  compression: boolean;
  /** Compress request bodies (inserts) with CompressionStream (`Content-Encoding`). */
  requestCompression: 'gzip' | 'deflate' | undefined;
  /** `Authorization: Bearer` instead of X-ClickHouse-User/Key (a function is asked before every request). */
  accessToken?: AccessToken | undefined;
  /** Headers of every request (validated: none the client owns). */
  httpHeaders?: Readonly<Record<string, string>> | undefined;
  /** Stream request bodies (`duplex: 'half'`); false: buffer each body (one insert block) first. */
  requestStreams: boolean;
  fetch: FetchFunction;
}

interface Host {
  url: URL;
  where: string;
  info: Promise<ServerInfo> | undefined;
}

export class FetchTransport implements Transport {
  readonly kind = 'http' as const;
  private readonly hostList: Host[];
  private current = 0;
  private closed = false;

  constructor(private readonly opts: FetchTransportOptions) {
    if (opts.requestCompression !== undefined && typeof CompressionStream !== 'function') {
      throw new ChwireConfigError('option compression.request needs CompressionStream, which this runtime does not have');
    }
    this.hostList = opts.urls.map((url) => ({ url, where: url.host, info: undefined }));
  }

  /** Whether request bodies go out as they are produced (else each is buffered; see insert.ts). */
  get streamsRequestBodies(): boolean {
    return this.opts.requestStreams;
  }

  server(signal?: AbortSignal, traceparent?: string): Promise<ServerInfo> {
    const host = this.hostList[this.current]!;
    if (host.info === undefined) {
      host.info = this.probe(host, signal, traceparent);
      host.info.catch(() => { host.info = undefined; });
    }
    return host.info;
  }

  private async probe(host: Host, signal?: AbortSignal, traceparent?: string): Promise<ServerInfo> {
    const res = await this.requestOn(host, { sql: SERVER_INFO_SQL, format: 'TabSeparated', signal, idempotent: true, traceparent }, true);
    const chunks: Uint8Array[] = [];
    for await (const c of res.body) chunks.push(c);
    const info = parseVersion(new TextDecoder().decode(concatBytes(chunks)));
    // The one answer whose text chwire knows: a Content-Encoding on it and no version in it means the
    // fetch handed the body over still encoded (a fetch of the Fetch standard decodes it).
    const ce = res.headers?.['content-encoding'];
    const codings = codingsOf(typeof ce === 'string' ? ce : null);
    if (codings.length > 0 && !/^\d+\.\d+/.test(info.version)) {
      throw new ChwireConfigError(`option fetch: the answer of ${host.where} to chwire's version probe came in Content-Encoding ${JSON.stringify(codings.join(', ').slice(0, 40))} and this fetch handed it over still encoded; chwire/web needs a fetch that decodes response bodies, as the Fetch standard's fetch does (every runtime's own fetch does)`, { host: host.url.href });
    }
    return info;
  }

  async ping(signal?: AbortSignal): Promise<void> {
    const host = this.hostList[this.current]!;
    const { res, controller, clearTimer } = await this.send(host, 'GET', `${host.url.pathname.replace(/\/$/, '')}/ping`, undefined, { signal });
    clearTimer();
    const { text, cut } = await readFetchErrorBody(res, errorBodyMs(this.opts.requestTimeout), () => controller.abort());
    if (res.status !== 200) throw serverErrorFromText(text, res.status, undefined, undefined, host.url.href, cut);
  }

  async request(req: TransportRequest): Promise<TransportResponse> {
    if (this.closed) throw new ChwireConnectionError('client is closed');
    // The runtime's fetch decompresses every body it asked to be compressed: none comes back encoded.
    if (req.encodedBody === true && this.opts.compression) throw new ChwireConfigError('this transport (fetch) cannot hand back a response body undecompressed: the runtime decompresses it (turn compression.response off, or read it decompressed)');
    // Failover: the current host until a request to it fails before any response, then the next
    // one (fetch does not say whether the connection was refused or cut, so only reads are resent).
    let lastError: unknown;
    for (let attempt = 0; attempt < this.hostList.length; attempt++) {
      const pinned = req.host !== undefined ? this.hostList.find((h) => h.where === req.host) : undefined;
      const host = pinned ?? this.hostList[this.current]!;
      try {
        return await this.requestOn(host, req);
      } catch (e) {
        lastError = e;
        const unreachable = e instanceof ChwireConnectionError && (e as { beforeResponse?: boolean }).beforeResponse === true;
        if (!unreachable || this.hostList.length === 1) throw e;
        this.current = (this.current + 1) % this.hostList.length;
        if (req.idempotent !== true) throw e;
      }
    }
    throw lastError;
  }

  private async requestOn(host: Host, req: TransportRequest, probe = false): Promise<TransportResponse> {
    const query: Record<string, string> = {};
    if (this.opts.database !== undefined && this.opts.database !== '') query['database'] = this.opts.database;
    if (req.format !== undefined) query['default_format'] = req.format;
    if (req.queryId !== undefined) query['query_id'] = req.queryId;
    if (req.sessionId !== undefined) query['session_id'] = req.sessionId;
    if (this.opts.compression) query['enable_http_compression'] = '1';
    for (const [k, v] of Object.entries(req.settings ?? {})) query[k] = v;
    for (const [k, v] of Object.entries(req.params ?? {})) query[`param_${k}`] = v;
    let body: Body;
    if (req.body !== undefined) {
      query['query'] = req.sql;
      body = await this.bodyOf(typeof req.body === 'function' ? req.body() : req.body);
    } else {
      body = req.sql;
    }
    const path = `${host.url.pathname.replace(/\/$/, '')}/?${queryString(query, req.role)}`;
    req.events?.attempt?.(host.where, 0);
    const { res, controller, clearTimer } = await this.send(host, 'POST', path, body, req, probe);
    const queryId = res.headers.get('x-clickhouse-query-id') ?? req.queryId;
    clearTimer();
    // The runtime's fetch sent its own Accept-Encoding and decoded what it asked for, compression
    // on or off (a 25.10+ server compresses by default): only a coding no fetch decodes is refused.
    const undecoded = undecodedCoding(res.headers.get('content-encoding'));
    if (res.status !== 200 && (req.errorAnswers !== 'return' || undecoded !== undefined)) {
      const { text, cut } = undecoded !== undefined
        ? { text: '', cut: undecodedWhy(undecoded) }
        : await readFetchErrorBody(res, errorBodyMs(this.opts.requestTimeout), () => controller.abort(new ChwireAbortError('error body cut', { queryId })));
      if (undecoded !== undefined) { res.body?.cancel().catch(() => undefined); controller.abort(); }
      throw serverErrorFromText(text, res.status, queryId, res.headers.get('x-clickhouse-exception-code') ?? undefined, host.url.href, cut);
    }
    if (undecoded !== undefined) {
      res.body?.cancel().catch(() => undefined);
      controller.abort();
      throw new ChwireDecodeError(`the response from ${host.where} is ${undecodedWhy(undecoded)}`, { offset: 0 }, { queryId, host: host.url.href });
    }
    const b = fetchBody({
      res, queryId, timeoutMs: this.opts.requestTimeout, signal: req.signal, where: host.where, host: host.url.href,
      abort: (reason) => controller.abort(reason),
      onGiveUp: () => this.killQuery(host, queryId, req.traceparent),
    });
    const summaryText = res.headers.get('x-clickhouse-summary');
    let summary: Record<string, string> | undefined;
    if (summaryText !== null) {
      try { summary = JSON.parse(summaryText) as Record<string, string>; } catch { summary = undefined; }
    }
    return {
      queryId, summary, timezone: res.headers.get('x-clickhouse-timezone') ?? undefined, format: res.headers.get('x-clickhouse-format') ?? undefined, host: host.where, url: host.url.href,
      // The headers the runtime lets this code see (on a page of another origin, the CORS-exposed ones only).
      headers: headersOf(res.headers), body: b.body, tailText: () => b.tail.text(), cancel: b.cancel,
      exceptionsFramed: b.exceptionsFramed,
      ...(res.status !== 200 ? { status: res.status } : {}),
    };
  }

  /** The request body as fetch takes it: a stream where the runtime sends one, else all of it (one insert block). */
  private async bodyOf(source: AsyncIterable<Uint8Array>): Promise<Body> {
    if (!this.opts.requestStreams) {
      const parts: Uint8Array[] = [];
      for await (const p of source) parts.push(p);
      const all = concatBytes(parts);
      if (this.opts.requestCompression === undefined) return all;
      return await new Response(new Blob([all]).stream().pipeThrough(new CompressionStream(this.opts.requestCompression))).arrayBuffer();
    }
    const it = source[Symbol.asyncIterator]();
    const stream = new ReadableStream<Uint8Array>({
      // Pulled: at most one part waits for the connection.
      async pull(c) {
        const r = await it.next();
        if (r.done === true) c.close();
        else c.enqueue(r.value);
      },
      async cancel() { await it.return?.(); },
    });
    return this.opts.requestCompression !== undefined ? stream.pipeThrough(new CompressionStream(this.opts.requestCompression) as unknown as TransformStream<Uint8Array, Uint8Array>) : stream;
  }

  /**
   * Best effort, once the client has given up on a query (abort, timeout): ask the server to stop
   * it (closing the connection alone leaves a computing query running). Without the session and
   * without a signal; any failure is ignored.
   */
  private killQuery(host: Host, queryId: string | undefined, traceparent: string | undefined): void {
    if (queryId === undefined || this.closed) return;
    const sql = `KILL QUERY WHERE query_id = ${quoteString(queryId)} ASYNC`;
    // With the traceparent of the call it stops.
    void this.requestOn(host, { sql, format: 'TabSeparated', idempotent: false, traceparent })
      .then(async (r) => { for await (const _ of r.body) { /* drain */ } })
      .catch(() => undefined);
  }

  /** Sends one request and resolves with its response head; the timer runs until the caller clears it. */
  private async send(host: Host, method: string, path: string, body: Body | undefined, r: Pick<TransportRequest, 'signal' | 'queryId' | 'httpHeaders' | 'traceparent'>, probe = false): Promise<{ res: Response; controller: AbortController; clearTimer: () => void }> {
    if (r.signal?.aborted) throw new ChwireAbortError('query aborted by its AbortSignal before it was sent', { queryId: r.queryId, cause: r.signal.reason });
    // Asked before the timer starts (an accessToken function may take its time).
    const headers = requestHeaders({ auth: await authHeaders(this.opts), clientHeaders: this.opts.httpHeaders, callHeaders: r.httpHeaders, accept: undefined });
    if (r.traceparent !== undefined) headers['traceparent'] = r.traceparent;
    const controller = new AbortController();
    let failure: ChwireError | undefined;
    const giveUp = (e: ChwireError): void => {
      if (failure !== undefined) return;
      failure = e;
      controller.abort(e);
      this.killQuery(host, r.queryId, r.traceparent);
    };
    const onAbort = (): void => giveUp(new ChwireAbortError('query aborted by its AbortSignal', { queryId: r.queryId, cause: r.signal?.reason, host: host.url.href }));
    r.signal?.addEventListener('abort', onAbort, { once: true });
    const page = crossOrigin(host.url);
    const headTimeout = probe ? (this.opts.requestTimeout > 0 ? Math.min(this.opts.requestTimeout, PROBE_HEAD_TIMEOUT_MS) : PROBE_HEAD_TIMEOUT_MS) : this.opts.requestTimeout;
    const timer = headTimeout > 0
      ? setTimeout(() => {
        const bound = probe ? `the version probe's limit, ${PROBE_HEAD_TIMEOUT_MS} ms, or requestTimeout if shorter` : 'requestTimeout';
        giveUp(new ChwireTimeoutError(`no response from ${host.where} within ${headTimeout} ms (${bound})${page !== undefined ? corsHint(page) : ''}`, { queryId: r.queryId, host: host.url.href }));
      }, headTimeout)
      : undefined;
    const clearTimer = (): void => {
      if (timer !== undefined) clearTimeout(timer);
      r.signal?.removeEventListener('abort', onAbort);
    };
    // Only insert bodies are compressed (the SQL of a read travels as plain text).
    if (body !== undefined && typeof body !== 'string' && this.opts.requestCompression !== undefined) headers['Content-Encoding'] = this.opts.requestCompression;
    // Never followed: a redirect would carry the credentials and the SQL to another address (redirect.ts).
    const init: RequestInit & { duplex?: 'half' } = { method, headers, body: body as RequestInit['body'], signal: controller.signal, redirect: 'manual' };
    if (body instanceof ReadableStream) init.duplex = 'half';
    const url = new URL(path, host.url).toString();
    try {
      const res = await this.opts.fetch(url, init);
      // Node, Deno, Bun and workerd answer 'manual' with the 3xx and its Location; a browser with an
      // opaque redirect (status 0, no headers).
      if (res.type === 'opaqueredirect' || isRedirectStatus(res.status)) {
        clearTimer();
        res.body?.cancel().catch(() => undefined);
        throw redirectError(res.status, res.headers.get('location') ?? undefined, url, host.where, { queryId: r.queryId, host: host.url.href });
      }
      return { res, controller, clearTimer };
    } catch (e) {
      clearTimer();
      if (failure !== undefined) throw failure;
      if (isChwireError(e)) throw e;
      const err = new ChwireConnectionError(`request to ${host.where} failed: ${describe(e)}${page !== undefined ? corsHint(page) : ''}`, { queryId: r.queryId, cause: e, host: host.url.href });
      (err as unknown as { beforeResponse: boolean }).beforeResponse = true;
      throw err;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

/**
 * What a failed or unanswered request means on a page of another origin: the browser hides a refused
 * CORS preflight behind a bare network error, and an unanswered one behind silence.
 */
function corsHint(page: string): string {
  return `; this page (${page}) is on another origin, and a CORS preflight (OPTIONS) that the server refuses or leaves unanswered looks like this: `
    + 'ClickHouse answers it only from 21.10 with <http_options_response> in its config (by default from 23.11); '
    + '18.16 answers 501 or, with a query string in the URL, nothing at all (see docs/web.md, Browsers)';
}

/** A fetch failure's text, with undici's underlying cause (ECONNREFUSED…) where there is one. */
function describe(e: unknown): string {
  const msg = (e as Error)?.message ?? String(e);
  const cause = (e as { cause?: { code?: string; message?: string } })?.cause;
  const detail = cause?.code ?? cause?.message;
  return detail !== undefined && detail !== msg ? `${msg} (${detail})` : msg;
}

/** A response's headers as a record, names in lower case (as fetch's Headers iterates them). */
function headersOf(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  h.forEach((value, name) => { out[name] = value; });
  return out;
}
