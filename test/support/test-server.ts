// A loopback ClickHouse HTTP server for hermetic transport tests, written from
// /work/shared/spec/http.md. It answers queries with bytes produced by the embedded engine (so
// real formats and framing go over real HTTP) and injects the faults a client must survive:
// bodies cut mid-row, connection resets, one byte per chunk, exceptions after the body started
// (25.11+ tagged framing and the old appended text), stalls, stale keep-alive sockets; answers
// compressed in the codec the request's Accept-Encoding names, as the server's version does by
// default (26.x: enable_http_compression = 1, test-server-codecs.ts), query errors included;
// optionally over TLS (with or without a client certificate).
// Invariant: every request is recorded (URL parameters, headers, body) so tests can assert what
// the client sent, e.g. that credentials never appear in a URL.
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { compressionOn, decodeRequestBody, responseCodec } from './test-server-codecs.js';
import { engineBytes, engineBytesBound, engineText } from './engine.js';
import { answerCors, storeNativeInsert } from './test-server-web.js';

export type Fault =
  | { kind: 'cut-clean'; at: number }            // send `at` bytes then end the body properly
  | { kind: 'cut-reset'; at: number }            // send `at` bytes then destroy the connection
  | { kind: 'reset' }                            // destroy the connection without any response
  | { kind: 'byte-per-chunk' }                   // every body byte in its own chunk
  | { kind: 'exception-tagged'; at: number; message: string } // 25.11+ framing, then abort
  | { kind: 'exception-appended'; at: number; message: string } // 18.16: text appended, clean end
  | { kind: 'stall'; at: number }                // send `at` bytes then nothing, never end
  | { kind: 'repeat'; times: number }            // the engine's rows repeated `times` times, written with backpressure
  // An HTTP error status before any body (a proxy's 502/503/504, 429 with Retry-After), or with
  // `code` a ClickHouse exception (e.g. 202 TOO_MANY_SIMULTANEOUS_QUERIES) as the server sends it.
  | { kind: 'status'; status: number; retryAfter?: string; code?: number; location?: string }
  // The connection cut `afterMs` after the request arrived (a proxy giving up on a silent query)
  // while the query "runs on" here for `runsMs` more: its id stays in use (see sameIdWhileRunning).
  | { kind: 'detach'; afterMs: number; runsMs: number };

export interface RecordedRequest {
  method: string;
  url: string;
  params: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  sql: string;
  /** Index of the request on its TCP connection (0 for the first). */
  onConnection: number;
  /** The body as sent (`rawLength` bytes) and decoded (per its Content-Encoding). */
  body: Buffer;
  rawLength: number;
  /** The Content-Encoding the answer went out in (set once answered), or undefined for identity. */
  responseEncoding?: string | undefined;
}

export interface TestServerOptions {
  /** What `SELECT version()` answers; 18.x switches to the old server's behaviour. Default 26.7.2.1. */
  version?: string;
  /** What `timezone()` answers in the client's server probe. Default UTC. */
  timezone?: string;
  user?: string;
  password?: string;
  /** More users the server knows, by name: their passwords (each checked as `user`/`password` are). */
  users?: Readonly<Record<string, string>>;
  /** Accept `Authorization: Bearer <token>` (alone: with X-ClickHouse-User/Key too it is refused, as ClickHouse does). */
  token?: string;
  /** Seconds announced in `Keep-Alive: timeout=N`. Default 10. */
  keepAliveTimeout?: number;
  /** Serve HTTPS with this key and certificate; `ca` + `requestCert` demand a client certificate signed by `ca`. */
  tls?: { key: string | Buffer; cert: string | Buffer; ca?: string | Buffer; requestCert?: boolean };
  /** Store Native inserts in the engine instead of only recording them (test-server-web.ts). */
  storeInserts?: boolean;
  /**
   * Answer CORS preflights and allow any origin, as a server configured per docs/web.md
   * (test-server-web.ts); `'expose'`: and show the page every response header
   * (`Access-Control-Expose-Headers: *`, as a proxy in front may add).
   */
  cors?: boolean | 'expose';
  /**
   * The server's own `enable_http_compression` (a user profile's), used when the URL does not set
   * it. Default: the version's default (on from 25.10, off before).
   */
  httpCompression?: boolean;
}

export interface TestServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** TCP connections accepted so far. */
  readonly connections: number;
  /** The fault for requests whose SQL contains `marker` (checked in order). */
  fault(marker: string, f: Fault): void;
  /**
   * Faults for the next requests whose SQL contains `marker`, one per request in order (`'ok'`:
   * none); once used up, those requests are answered normally. Checked before `fault`.
   */
  script(marker: string, steps: readonly (Fault | 'ok')[]): void;
  /** Destroy, without answering, the next request that arrives on an already used connection. */
  dropNextReusedRequest(): void;
  readonly dropped: number;
  /** Requests that arrived with the query id of a request still being answered (a real server refuses them: 216). */
  readonly sameIdWhileRunning: number;
  /** Body bytes written for the latest `repeat` response (for backpressure assertions). */
  readonly repeatBytesWritten: number;
  close(): Promise<void>;
}

const TAG = 'AbCdEfGhIjKlMnOp';

function oldStyle(msg: string): string {
  // 26.x `Code: 60. DB::Exception: text. (NAME) (version …)` → 18.16 style.
  const m = /^Code: (\d+)\. DB::Exception: ([\s\S]*?)(?:\. \([A-Z_0-9]+\))?(?: \(version [^)]*\))?\s*$/.exec(msg);
  return m ? `Code: ${m[1]}, e.displayText() = DB::Exception: ${m[2]}, e.what() = DB::Exception\n` : msg;
}

function errorStatus(code: number): number {
  if (code === 516 || code === 192 || code === 193) return 403;
  if (code === 62 || code === 27 || code === 53) return 400;
  if ([60, 81, 47, 46, 115, 73].includes(code)) return 404;
  return 500;
}

export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const version = opts.version ?? '26.7.2.1';
  const old = /^1[0-9]\./.test(version);
  const requests: RecordedRequest[] = [];
  const faults: [string, Fault][] = [];
  const scripts: [string, (Fault | 'ok')[]][] = [];
  let connections = 0;
  let dropReused = false;
  let dropped = 0;
  let sameIdWhileRunning = 0;
  const running = new Set<string>();
  const lingering = new Set<string>(); // ids of detached queries that run on
  let repeatBytesWritten = 0;
  const perSocket = new WeakMap<Socket, number>();
  const sockets = new Set<Socket>();

  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse): void => void handle(req, res);
  const server: http.Server = opts.tls === undefined
    // URLs up to a modern server's http_max_uri_size (1 MiB) and more: query parameters ride in them.
    ? http.createServer({ maxHeaderSize: 4 << 20 }, onRequest)
    : https.createServer({ ...opts.tls, rejectUnauthorized: opts.tls.requestCert === true }, onRequest);
  server.keepAliveTimeout = (opts.keepAliveTimeout ?? 10) * 1000;
  server.on('connection', (s: Socket) => {
    connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const sock = req.socket;
    const n = perSocket.get(sock) ?? 0;
    perSocket.set(sock, n + 1);
    if (dropReused && n > 0) {
      dropReused = false;
      dropped++;
      sock.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    try {
      for await (const c of req) chunks.push(c as Buffer);
    } catch {
      return; // the client gave up while sending its body (a timeout or an abort under test)
    }
    const u = new URL(req.url ?? '/', 'http://x');
    const params = u.searchParams;
    if (opts.cors !== undefined && opts.cors !== false && answerCors(req, res, opts.cors === 'expose')) return;
    const raw = Buffer.concat(chunks);
    const decoded = decodeRequestBody(req.headers['content-encoding'], raw, old);
    const received = typeof decoded === 'string' ? raw : decoded;
    const sql = params.get('query') ?? received.toString('utf8');
    const rec: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', params, headers: req.headers, sql, onConnection: n, body: received, rawLength: raw.length };
    requests.push(rec);
    // The answer's codec, as HTTPHandler chooses it once the request is authenticated and its
    // settings applied: only what is written after that (rows, query errors) is compressed.
    const codecOf = (): ReturnType<typeof responseCodec> => {
      const c = compressionOn(params, version, opts.httpCompression) ? responseCodec(String(req.headers['accept-encoding'] ?? ''), old) : undefined;
      if (c !== undefined) { res.setHeader('Content-Encoding', c.name); c.stream.pipe(res); rec.responseEncoding = c.name; }
      return c;
    };
    const id = params.get('query_id');
    if (id !== null) {
      if (running.has(id)) sameIdWhileRunning++;
      running.add(id);
      res.once('close', () => { if (!lingering.has(id)) running.delete(id); });
    }
    res.setHeader('Keep-Alive', `timeout=${opts.keepAliveTimeout ?? 10}`);
    if (u.pathname.endsWith('/ping')) { res.end('Ok.\n'); return; }

    /** An error answer; `compressed`: one the server raises once its output is set up (a query's). */
    const fail = (msg: string, compressed = false): void => {
      const code = Number(/Code: (\d+)/.exec(msg)?.[1] ?? 0);
      res.statusCode = errorStatus(code);
      if (!old) res.setHeader('X-ClickHouse-Exception-Code', String(code));
      const text = old ? oldStyle(msg) : `${msg}\n`;
      const codec = compressed ? codecOf() : undefined;
      if (codec !== undefined) codec.stream.end(text);
      else res.end(text);
    };
    // Authentication (http.md §5): headers only, one method per request.
    const bearer = /^Bearer (.*)$/.exec(String(req.headers['authorization'] ?? ''))?.[1];
    if (bearer !== undefined || opts.token !== undefined) {
      const mixed = req.headers['x-clickhouse-user'] !== undefined || req.headers['x-clickhouse-key'] !== undefined;
      if (mixed || bearer === undefined || bearer !== opts.token) {
        fail(`Code: 516. DB::Exception: ${mixed ? 'Invalid authentication: it is not allowed to use Authorization HTTP header and authentication via parameters simultaneously' : 'Authentication failed: the access token was not accepted'}. (AUTHENTICATION_FAILED) (version ${version})`);
        return;
      }
    }
    const user = req.headers['x-clickhouse-user'] ?? 'default';
    const key = req.headers['x-clickhouse-key'] ?? '';
    const known = (u: string, k: string): boolean => (u === (opts.user ?? 'default') && k === (opts.password ?? '')) || (opts.users !== undefined && Object.hasOwn(opts.users, u) && opts.users[u] === k);
    if (bearer === undefined && !known(String(user), String(key))) {
      fail(`Code: 516. DB::Exception: ${String(user)}: Authentication failed: password is incorrect, or there is no user with such name. (AUTHENTICATION_FAILED) (version ${version})`);
      return;
    }
    if (typeof decoded === 'string') { fail(decoded, true); return; }
    const format = params.get('default_format') ?? undefined;
    if (old) {
      if (format === 'RowBinaryWithNamesAndTypes') { fail('Code: 73. DB::Exception: Unknown format RowBinaryWithNamesAndTypes. (UNKNOWN_FORMAT)'); return; }
      for (const k of params.keys()) {
        if (k.startsWith('param_') || k === 'async_insert') { fail(`Code: 115. DB::Exception: Unknown setting ${k}. (UNKNOWN_SETTING)`); return; }
      }
    }
    const scripted = scripts.find(([m, steps]) => sql.includes(m) && steps.length > 0)?.[1].shift();
    const fault = scripted !== undefined ? (scripted === 'ok' ? undefined : scripted) : faults.find(([m]) => sql.includes(m))?.[1];
    if (fault?.kind === 'status') {
      res.statusCode = fault.status;
      if (fault.retryAfter !== undefined) res.setHeader('Retry-After', fault.retryAfter);
      if (fault.location !== undefined) res.setHeader('Location', fault.location);
      if (fault.code !== undefined) {
        if (!old) res.setHeader('X-ClickHouse-Exception-Code', String(fault.code));
        const msg = `Code: ${fault.code}. DB::Exception: Scripted failure ${fault.code}. (SCRIPTED) (version ${version})`;
        res.end(old ? oldStyle(msg) : `${msg}\n`);
      } else {
        res.end(`${fault.status} scripted by the test server\n`);
      }
      return;
    }
    if (fault?.kind === 'reset') { res.socket?.destroy(); return; }
    if (fault?.kind === 'detach') {
      const id = params.get('query_id');
      setTimeout(() => {
        if (id !== null) {
          lingering.add(id);
          setTimeout(() => { lingering.delete(id); running.delete(id); }, fault.runsMs);
        }
        res.socket?.destroy();
      }, fault.afterMs);
      return;
    }
    // A server that appends its exception as text predates the tagged framing (25.11): no tag.
    const appends = fault?.kind === 'exception-appended';
    if (!old) {
      if (!appends) res.setHeader('X-ClickHouse-Exception-Tag', TAG);
      res.setHeader('X-ClickHouse-Query-Id', params.get('query_id') ?? 'server-generated-id');
      res.setHeader('X-ClickHouse-Summary', '{"read_rows":"1","read_bytes":"8"}');
      res.setHeader('X-ClickHouse-Timezone', 'UTC');
    }
    let body: Uint8Array;
    try {
      if (/^\s*SELECT version\(\)\s*$/i.test(sql)) body = Buffer.from(`${version}\n`);
      else if (/^\s*SELECT version\(\), timezone\(\)\s*$/i.test(sql)) body = Buffer.from(`${version}\t${opts.timezone ?? 'UTC'}\n`);
      // An INSERT with its data in the body: recorded (see `requests`), acknowledged, not stored.
      else if (/^\s*INSERT\b/i.test(sql) && raw.length > 0) {
        if (opts.storeInserts === true) await storeNativeInsert(sql, received, params);
        body = new Uint8Array(0);
      }
      else if (format === undefined && ![...params.keys()].some((k) => k.startsWith('param_'))) body = Buffer.from(await engineText(sql, 'TabSeparated'));
      else {
        // (A query without default_format, e.g. one whose SQL names its FORMAT, answers in TabSeparated
        // unless it says otherwise, with its `param_*` bound all the same.)
        // The format settings the client may send, applied by the engine as a server would.
        const settings: Record<string, string> = {};
        for (const k of ['output_format_native_encode_types_in_binary_format', 'output_format_arrow_compression_method']) {
          const v = params.get(k);
          if (v !== null) settings[k] = v;
        }
        // `param_*` are bound by the engine's binder, as a server does (26.x style only).
        const bound: Record<string, string> = {};
        for (const [k, v] of params) if (k.startsWith('param_')) bound[k.slice(6)] = v;
        body = Object.keys(bound).length > 0 ? await engineBytesBound(sql, format ?? 'TabSeparated', settings, bound) : await engineBytes(sql, format!, settings);
      }
    } catch (e) {
      fail(String((e as Error).message), true);
      return;
    }
    res.setHeader('Content-Type', 'application/octet-stream');
    const codec = codecOf();
    await send(res, codec?.stream ?? res, body, fault);
  }

  async function writeAwait(out: NodeJS.WritableStream, b: Uint8Array): Promise<void> {
    if (!out.write(b)) await new Promise<void>((r) => out.once('drain', () => r()));
  }

  /** What was written to a compressor so far goes out now (a fault's bytes reach the client before its cut). */
  async function flushed(res: http.ServerResponse, out: NodeJS.WritableStream): Promise<void> {
    if (out !== res) await new Promise<void>((r) => (out as unknown as { flush(cb: () => void): void }).flush(r));
  }

  async function send(res: http.ServerResponse, out: NodeJS.WritableStream, body: Uint8Array, fault: Fault | undefined): Promise<void> {
    if (fault === undefined) { out.end(body); return; }
    if (fault.kind === 'reset' || fault.kind === 'status' || fault.kind === 'detach') { res.socket?.destroy(); return; }
    res.flushHeaders();
    switch (fault.kind) {
      case 'cut-clean':
        out.end(body.subarray(0, fault.at));
        return;
      case 'cut-reset':
        out.write(body.subarray(0, fault.at));
        await flushed(res, out);
        setTimeout(() => res.socket?.destroy(), 20);
        return;
      case 'stall':
        out.write(body.subarray(0, fault.at));
        await flushed(res, out);
        return;
      case 'byte-per-chunk':
        for (let i = 0; i < body.length; i++) {
          out.write(body.subarray(i, i + 1));
          await flushed(res, out);
          if ((i & 63) === 63) await new Promise((r) => setImmediate(r));
        }
        out.end();
        return;
      case 'exception-tagged': {
        out.write(body.subarray(0, fault.at));
        const msg = `${fault.message}\n`;
        // http.md §7.2: the block, then the transfer is aborted (no final chunk).
        out.write(Buffer.from(`\r\n__exception__\r\n${TAG}\r\n${msg}${Buffer.byteLength(msg)} ${TAG}\r\n__exception__\r\n`));
        await flushed(res, out);
        setTimeout(() => res.socket?.destroy(), 20);
        return;
      }
      case 'exception-appended':
        out.write(body.subarray(0, fault.at));
        out.end(Buffer.from(`${oldStyle(fault.message)}`));
        return;
      case 'repeat': {
        // RowBinaryWithNamesAndTypes: the header once, then the rows `times` times.
        const hdr = headerLength(body);
        repeatBytesWritten = 0;
        await writeAwait(out, body.subarray(0, hdr));
        const rows = body.subarray(hdr);
        for (let i = 0; i < fault.times; i++) {
          if (res.destroyed) return;
          await writeAwait(out, rows);
          repeatBytesWritten += rows.length;
        }
        out.end();
        return;
      }
    }
  }

  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${opts.tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}`,
    requests,
    get connections() { return connections; },
    get dropped() { return dropped; },
    get sameIdWhileRunning() { return sameIdWhileRunning; },
    get repeatBytesWritten() { return repeatBytesWritten; },
    fault: (marker, f) => { faults.push([marker, f]); },
    script: (marker, steps) => { scripts.push([marker, [...steps]]); },
    dropNextReusedRequest: () => { dropReused = true; },
    close: () => new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    }),
  };
}

/** Length of a RowBinaryWithNamesAndTypes header (count, names, types). */
export function headerLength(b: Uint8Array): number {
  let pos = 0;
  const leb = (): number => {
    let v = 0;
    for (let s = 0; ; s += 7) { const x = b[pos++]!; v += (x & 0x7f) * 2 ** s; if (x < 0x80) return v; }
  };
  const n = leb();
  for (let i = 0; i < 2 * n; i++) pos += leb();
  return pos;
}
