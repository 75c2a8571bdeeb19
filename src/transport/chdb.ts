// The embedded transport (`chdb://` in memory, `chdb:///abs/path` on disk): queries run in this
// process through the optional peer dependency `chdb`, loaded by dynamic import only when such a
// URL is used. Results come back as raw bytes (never chdb's string API, which mangles binary) and
// go through the same decoders as HTTP. Invariants: one engine data directory per process, shared
// by every client that names it (refcounted); a streamed read holds a connection of its own
// (chdb allows one stream per connection); client sessions map to dedicated connections.
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChwireAbortError, ChwireConfigError, ChwireConnectionError, ChwireServerError, ChwireTimeoutError, isChwireError } from '../errors.js';
import { chdbParamValue } from './chdb-params.js';
import { quoteIdentifier } from '../client/identifiers.js';
import { serverErrorFromText } from './server-error.js';
import { parseVersion, type ServerInfo, type Transport, type TransportRequest, type TransportResponse } from './types.js';

type ChdbModule = typeof import('chdb');
type ChdbSession = InstanceType<ChdbModule['Session']>;

interface Engine {
  mod: ChdbModule;
  /** Data directory ('' until the first in-memory session created its temporary one). */
  path: string;
  refs: number;
  idle: ChdbSession[];
  all: Set<ChdbSession>;
}

// Per process: libchdb binds one data directory at a time.
const engines = new Map<string, Promise<Engine>>();

async function loadChdb(): Promise<ChdbModule> {
  try {
    return await import('chdb');
  } catch (e) {
    throw new ChwireConfigError('chdb:// needs the embedded engine: run `npm install chdb` (an optional peer dependency of chwire)', { cause: e });
  }
}

async function acquireEngine(key: string): Promise<Engine> {
  let p = engines.get(key);
  if (p === undefined) {
    p = (async () => {
      const mod = await loadChdb();
      for (const k of engines.keys()) {
        if (k !== key) throw new ChwireConfigError(`the embedded engine already has ${k === 'memory' ? 'an in-memory database' : k} open in this process; chdb binds one data directory per process`);
      }
      return { mod, path: key === 'memory' ? '' : key, refs: 0, idle: [], all: new Set() };
    })();
    engines.set(key, p);
    p.catch(() => engines.delete(key));
  }
  const e = await p;
  e.refs++;
  return e;
}

function openSession(engine: Engine): ChdbSession {
  try {
    const s = new engine.mod.Session(engine.path);
    if (engine.path === '') engine.path = s.path;
    engine.all.add(s);
    return s;
  } catch (e) {
    throw new ChwireConnectionError(`cannot open the embedded engine: ${(e as Error).message}`, { cause: e });
  }
}

/** Maps an error thrown by chdb to the ChwireError the caller sees. */
function chdbError(e: unknown, queryId: string | undefined): Error {
  if (isChwireError(e)) return e;
  const err = e as { code?: string; message?: string; clickhouseCode?: number };
  const message = String(err.message ?? e);
  if (err.code === 'CHDB_ABORT') return new ChwireAbortError('query aborted by its AbortSignal', { queryId, cause: e });
  if (err.code === 'CHDB_TIMEOUT') return new ChwireTimeoutError(`embedded query timed out: ${message}`, { queryId, cause: e });
  if (/Code: \d+/.test(message)) return serverErrorFromText(message.slice(message.indexOf('Code: ')), undefined, queryId);
  if (err.code === 'CHDB_BIND') return new ChwireConfigError(message, { cause: e, queryId });
  return new ChwireServerError(message, { serverCode: err.clickhouseCode ?? 0 }, { queryId, cause: e });
}

/** RowBinaryWithNamesAndTypes header length (count, names, types), or -1 if `b` is too short. */
function rbHeaderLength(b: Uint8Array): number {
  let pos = 0;
  const leb = (): number => {
    let v = 0;
    for (let shift = 0; ; shift += 7) {
      if (pos >= b.length) return -1;
      const x = b[pos++]!;
      v += (x & 0x7f) * 2 ** shift;
      if (x < 0x80) return v;
    }
  };
  const n = leb();
  if (n < 0) return -1;
  for (let i = 0; i < 2 * n; i++) {
    const len = leb();
    if (len < 0 || pos + len > b.length) return -1;
    pos += len;
  }
  return pos;
}

export interface ChdbTransportOptions {
  /** '' for in memory, else an absolute data directory. */
  path: string;
  requestTimeout: number;
  /** Current database of every connection this transport opens. */
  database?: string | undefined;
}

export class ChdbTransport implements Transport {
  readonly kind = 'chdb' as const;
  private engine: Promise<Engine> | undefined;
  private readonly sessions = new Map<string, ChdbSession>();
  private info: Promise<ServerInfo> | undefined;
  private closed = false;

  constructor(private readonly opts: ChdbTransportOptions) {}

  private getEngine(): Promise<Engine> {
    if (this.closed) return Promise.reject(new ChwireConnectionError('client is closed'));
    this.engine ??= acquireEngine(this.opts.path === '' ? 'memory' : this.opts.path);
    return this.engine;
  }

  server(): Promise<ServerInfo> {
    this.info ??= (async () => {
      const s = await this.take(undefined);
      try {
        const r = await s.session.queryAsync('SELECT version()', { format: 'TabSeparated', ...this.timeout() });
        return parseVersion(new TextDecoder().decode(r.bytes()));
      } finally { s.release(); }
    })();
    return this.info;
  }

  async ping(): Promise<void> {
    await this.server();
  }

  /**
   * requestTimeout for a single-shot engine call: it rejects after that long (chdb cannot stop
   * the computation, which finishes in the background).
   */
  private timeout(): { timeout?: number } {
    return this.opts.requestTimeout > 0 ? { timeout: this.opts.requestTimeout } : {};
  }

  /** A new connection, switched to the configured database. */
  private async fresh(engine: Engine): Promise<ChdbSession> {
    const s = openSession(engine);
    if (this.opts.database !== undefined && this.opts.database !== '') {
      await s.queryAsync(`USE ${quoteIdentifier(this.opts.database)}`, { format: 'TabSeparated' }).catch((e: unknown) => { throw chdbError(e, undefined); });
    }
    return s;
  }

  /** A connection for one request: the session's own, or an idle pooled one (or a new one). */
  private async take(sessionId: string | undefined): Promise<{ session: ChdbSession; release: () => void }> {
    const engine = await this.getEngine();
    if (sessionId !== undefined) {
      let s = this.sessions.get(sessionId);
      if (s === undefined) { s = await this.fresh(engine); this.sessions.set(sessionId, s); }
      return { session: s, release: () => undefined };
    }
    // Pooled connections are shared by clients of the same directory, so only reuse one when no
    // database switch is involved.
    const s = (this.opts.database === undefined ? engine.idle.pop() : undefined) ?? await this.fresh(engine);
    let released = false;
    return { session: s, release: () => { if (!released) { released = true; if (s.open && this.opts.database === undefined) engine.idle.push(s); else if (this.opts.database !== undefined) { engine.all.delete(s); s.close(); } } } };
  }

  async request(req: TransportRequest): Promise<TransportResponse> {
    // HTTP-only per-call options cannot be honoured by the engine (http-options.ts).
    if (req.role !== undefined && req.role.length > 0) throw new ChwireConfigError('option role is for HTTP servers; the embedded engine (chdb://) cannot honour it', { queryId: req.queryId });
    if (req.httpHeaders !== undefined) throw new ChwireConfigError('option httpHeaders is for HTTP servers; the embedded engine (chdb://) cannot honour it', { queryId: req.queryId });
    // The engine takes no per-query settings outside the SQL text: they become a SETTINGS clause.
    const settings = Object.entries(req.settings ?? {});
    const settingsClause = settings.length > 0 ? `SETTINGS ${settings.map(([k, v]) => `${k}=${quote(v)}`).join(', ')}` : '';
    const base = req.sql.replace(/[\s;]+$/, '');
    const sql = settingsClause === '' ? base : `${base}\n${settingsClause}`;
    const params: Record<string, string | null> = {};
    for (const [k, v] of Object.entries(req.params ?? {})) params[k] = chdbParamValue(k, v);
    const hasParams = Object.keys(params).length > 0;
    if (req.signal?.aborted) throw new ChwireAbortError('query aborted by its AbortSignal before it was sent', { queryId: req.queryId });
    const conn = await this.take(req.sessionId);
    try {
      if (req.body !== undefined) return await this.insert(conn.session, settingsClause, req, conn.release);
      if (req.format === undefined || req.whole === true) {
        const opts = { format: req.format ?? 'TabSeparated', signal: req.signal, ...this.timeout() };
        const r = hasParams ? await conn.session.queryBindAsync(sql, params, opts) : await conn.session.queryAsync(sql, opts);
        conn.release();
        return bytesResponse(r.bytes(), req.queryId);
      }
      const format = req.format;
      const stream = hasParams ? conn.session.queryStreamBind(sql, params, { format, signal: req.signal }) : conn.session.queryStream(sql, { format, signal: req.signal });
      return streamResponse(stream, format, req.queryId, conn.release, this.opts.requestTimeout);
    } catch (e) {
      conn.release();
      throw chdbError(e, req.queryId);
    }
  }

  /** INSERT … FORMAT x with a body: the bytes go through a temporary file read with FROM INFILE. */
  private async insert(session: ChdbSession, settingsClause: string, req: TransportRequest, release: () => void): Promise<TransportResponse> {
    const m = /\bFORMAT\s+([A-Za-z0-9_]+)\s*$/i.exec(req.sql);
    if (m === null) throw new ChwireConfigError('an INSERT with data must end with FORMAT <name>');
    const dir = await mkdtemp(join(tmpdir(), 'chwire-insert-'));
    const file = join(dir, 'data.bin');
    try {
      const fh = await open(file, 'w');
      try {
        for await (const chunk of req.body!) {
          if (req.signal?.aborted) throw new ChwireAbortError('insert aborted by its AbortSignal', { queryId: req.queryId });
          await fh.write(chunk);
        }
      } finally { await fh.close(); }
      // INSERT INTO t (cols) FROM INFILE 'f' [SETTINGS …] FORMAT x: settings go before FORMAT here.
      const stmt = `${req.sql.slice(0, m.index)}FROM INFILE ${quote(file)} ${settingsClause} FORMAT ${m[1]}`;
      await session.queryAsync(stmt, { format: 'TabSeparated', signal: req.signal, ...this.timeout() });
      release();
      return bytesResponse(new Uint8Array(0), req.queryId);
    } catch (e) {
      release();
      throw chdbError(e, req.queryId);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const p = this.engine;
    if (p === undefined) return;
    const engine = await p.catch(() => undefined);
    if (engine === undefined) return;
    for (const s of this.sessions.values()) { engine.all.delete(s); s.close(); }
    this.sessions.clear();
    if (--engine.refs === 0) {
      await engine.mod.drainPending();
      for (const s of engine.all) s.close();
      engine.all.clear();
      engine.idle.length = 0;
      engines.delete(this.opts.path === '' ? 'memory' : this.opts.path);
    }
  }
}

function quote(v: string): string {
  return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function bytesResponse(bytes: Uint8Array, queryId: string | undefined): TransportResponse {
  return {
    queryId, summary: undefined, timezone: undefined,
    body: (async function* () { if (bytes.length > 0) yield bytes; })(),
    tailText: () => new TextDecoder().decode(bytes.subarray(Math.max(0, bytes.length - 16384))),
    cancel: () => undefined,
    exceptionsFramed: true, // the engine raises errors apart from the result bytes
  };
}

type ChdbStream = ReturnType<ChdbSession['queryStream']>;
type ChdbChunk = ChdbStream extends AsyncIterable<infer C> ? C : never;

/**
 * chdb's stream yields each chunk as a complete document: with RowBinaryWithNamesAndTypes every
 * chunk repeats the header. The header is kept from the first chunk and stripped from the
 * others, so the body is one continuous document, as over HTTP.
 */
function streamResponse(stream: ChdbStream, format: string, queryId: string | undefined, release: () => void, timeoutMs: number): TransportResponse {
  let last: Uint8Array = new Uint8Array(0);
  let done = false;
  /** A chunk fetch given up on (timeout): the engine is still busy on this connection until it settles. */
  let abandoned: Promise<unknown> | undefined;
  const finish = (): void => {
    if (done) return;
    done = true;
    stream.cancel();
    // The connection goes back to the pool only once the engine is done with it (chdb defers the
    // stream's destruction behind the fetch in flight; a query issued before then fails).
    if (abandoned === undefined) release();
    else void abandoned.then(() => setImmediate(release));
  };
  const chunks = stream[Symbol.asyncIterator]();
  /** The engine's next chunk; with a timeout, no more than timeoutMs of waiting for it (no progress). */
  const nextChunk = (): Promise<IteratorResult<ChdbChunk>> => {
    const p = chunks.next();
    if (timeoutMs <= 0) return p;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        abandoned = p.catch(() => undefined);
        reject(new ChwireTimeoutError(`no result chunk from the embedded engine within ${timeoutMs} ms (requestTimeout)`, { queryId }));
      }, timeoutMs);
    });
    return Promise.race([p, expired]).finally(() => clearTimeout(timer));
  };
  async function* body(): AsyncGenerator<Uint8Array> {
    let header: Uint8Array | undefined;
    try {
      for (let n = await nextChunk(); n.done !== true; n = await nextChunk()) {
        const chunk = n.value;
        let b = chunk.raw();
        if (format === 'RowBinaryWithNamesAndTypes') {
          if (header === undefined) {
            const n = rbHeaderLength(b);
            header = b.slice(0, Math.max(0, n));
          } else if (b.length >= header.length && header.every((x, i) => b[i] === x)) {
            b = b.subarray(header.length);
          }
        }
        last = b;
        if (b.length > 0) yield b;
      }
    } catch (e) {
      throw chdbError(e, queryId);
    } finally {
      finish();
    }
  }
  return {
    queryId, summary: undefined, timezone: undefined, body: body(), tailText: () => new TextDecoder().decode(last.subarray(Math.max(0, last.length - 16384))), cancel: finish,
    exceptionsFramed: true, // the engine raises errors apart from the result bytes
  };
}
