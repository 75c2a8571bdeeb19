// The embedded transport (`chdb://` in memory, `chdb:///abs/path` on disk): queries run in this
// process through the optional peer dependency `chdb`, loaded by dynamic import only when such a
// URL is used. Results come back as raw bytes (never chdb's string API, which mangles binary) and
// go through the same decoders as HTTP. The engine call is chosen once per request: single-shot
// (`queryAsync`, run on a libuv worker thread) for statements, raw exports, results the caller
// buffers whole (`buffered`: fetch) and statements the engine cannot stream; streamed
// (`queryStream`, whose start runs on the main thread) for the rest. Invariants: an abort settles
// the call at once with ChwireAbortError and requestTimeout with ChwireTimeoutError, whatever the
// engine still does (it cannot be interrupted; the connection is reused only once it is done);
// see chdb-engine.ts and chdb-connections.ts for what connections are reused and when.
import { join } from 'node:path';
import { ChwireAbortError, ChwireConfigError, ChwireConnectionError } from '../errors.js';
import { chdbParamValue } from './chdb-params.js';
import { acquireEngine, releaseEngine, type Engine, type Gate } from './chdb-engine.js';
import { Connections, type Lease } from './chdb-connections.js';
import { chdbError, isNotStreamable } from './chdb-errors.js';
import { openStream } from './chdb-stream.js';
import { within, type WaitLimits } from './chdb-wait.js';
import { parseVersion, SERVER_INFO_SQL, type QuerySummary, type ServerInfo, type Transport, type TransportRequest, type TransportResponse } from './types.js';

export interface ChdbTransportOptions {
  /** '' for in memory, else an absolute data directory. */
  path: string;
  requestTimeout: number;
  /** Current database of every connection this transport opens. */
  database?: string | undefined;
}

/** Statements the engine refuses to stream ("Streaming query is not supported"): run single-shot. */
const NOT_STREAMED = /^\s*(?:SHOW|DESC|DESCRIBE|EXISTS|EXPLAIN)\b/i;
/** Bytes per chunk of a single-shot result: decoders see it in pieces, as they would over HTTP. */
const SLICE = 65536;

interface Call {
  sql: string;
  params: Record<string, string | null> | undefined;
  format: string;
  sessionId: string | undefined;
  signal: AbortSignal | undefined;
  queryId: string | undefined;
  /** Runs once the engine is done with the call (also when the caller stopped waiting). */
  onEngineDone?: (() => void) | undefined;
}

export class ChdbTransport implements Transport {
  readonly kind = 'chdb' as const;
  private engine: Promise<{ engine: Engine; conns: Connections }> | undefined;
  private info: Promise<ServerInfo> | undefined;
  private closed = false;

  constructor(private readonly opts: ChdbTransportOptions) {}

  private getEngine(): Promise<{ engine: Engine; conns: Connections }> {
    if (this.closed) return Promise.reject(new ChwireConnectionError('client is closed'));
    this.engine ??= acquireEngine(this.opts.path === '' ? 'memory' : this.opts.path).then((engine) => ({ engine, conns: new Connections(engine, this.opts.database) }));
    return this.engine;
  }

  server(signal?: AbortSignal): Promise<ServerInfo> {
    this.info ??= (async () => {
      const r = await this.singleShot({ sql: SERVER_INFO_SQL, params: undefined, format: 'TabSeparated', sessionId: undefined, signal: undefined, queryId: undefined });
      return parseVersion(new TextDecoder().decode(r.bytes));
    })();
    this.info.catch(() => { this.info = undefined; });
    return signal === undefined ? this.info : within(this.info, { signal, deadline: 0, queryId: undefined, what: 'query', timeoutMessage: () => '' });
  }

  async ping(signal?: AbortSignal): Promise<void> {
    await this.server(signal);
  }

  /** The limits of a wait that started at `start` and may last requestTimeout. */
  private limits(signal: AbortSignal | undefined, queryId: string | undefined, start: number, what: string, timeoutMessage: () => string): WaitLimits {
    const t = this.opts.requestTimeout;
    return { signal, queryId, what, deadline: t > 0 ? start + t : 0, timeoutMessage };
  }

  async request(req: TransportRequest): Promise<TransportResponse> {
    // HTTP-only per-call options cannot be honoured by the engine (as the client's: http-options.ts).
    if (req.role !== undefined && req.role.length > 0) throw new ChwireConfigError('option role is for HTTP servers; the embedded engine (chdb://) cannot honour it', { queryId: req.queryId });
    if (req.httpHeaders !== undefined) throw new ChwireConfigError('option httpHeaders is for HTTP servers; the embedded engine (chdb://) cannot honour it', { queryId: req.queryId });
    if (req.errorAnswers === 'return') throw new ChwireConfigError('error answers handed back as responses (ignore_error_response) are for HTTP servers; the embedded engine (chdb://) raises its errors', { queryId: req.queryId });
    // The engine takes no per-query settings outside the SQL text: they become a SETTINGS clause.
    const settings = Object.entries(req.settings ?? {});
    // Names are spliced into the clause: anything but an identifier is refused (the client checks
    // first; this guards a transport used on its own).
    for (const [k] of settings) if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) throw new ChwireConfigError(`setting name ${JSON.stringify(k)} is not an identifier (letters, digits and _, not starting with a digit)`, { queryId: req.queryId });
    const settingsClause = settings.length > 0 ? `SETTINGS ${settings.map(([k, v]) => `${k}=${quote(v)}`).join(', ')}` : '';
    const base = req.sql.replace(/[\s;]+$/, '');
    const sql = settingsClause === '' ? base : `${base}\n${settingsClause}`;
    let params: Record<string, string | null> | undefined;
    for (const [k, v] of Object.entries(req.params ?? {})) (params ??= {})[k] = chdbParamValue(k, v);
    if (req.signal?.aborted) throw new ChwireAbortError('query aborted by its AbortSignal before it was sent', { queryId: req.queryId });
    if (req.body !== undefined) return this.insert(settingsClause, req);
    const call: Call = { sql, params, format: req.format ?? 'TabSeparated', sessionId: req.sessionId, signal: req.signal, queryId: req.queryId };
    if (req.format === undefined || req.whole === true || req.buffered === true || NOT_STREAMED.test(req.sql)) {
      return resultResponse(await this.singleShot(call), req.queryId);
    }
    try {
      return await this.streamed(call);
    } catch (e) {
      // Decided once, before any row: what the engine refuses to stream runs single-shot.
      if (isNotStreamable(e)) return resultResponse(await this.singleShot(call), req.queryId);
      throw chdbError(e, req.queryId);
    }
  }

  /**
   * One engine call that answers with the whole result. It waits (within requestTimeout of its
   * start, and its signal) for its connection, a worker thread and, with parameters, its turn.
   */
  private async singleShot(call: Call): Promise<SingleShotResult> {
    const start = performance.now();
    let phase = '';
    const limits = this.limits(call.signal, call.queryId, start, 'query', () => `no answer from the embedded engine within ${this.opts.requestTimeout} ms (requestTimeout): ${phase}`);
    let engine: Engine;
    let conns: Connections;
    try {
      ({ engine, conns } = await this.getEngine());
    } catch (e) {
      call.onEngineDone?.();
      throw e;
    }
    // What the call waits for, in order; each step hands back how to undo it. A session's call
    // first waits for the session's previous one; a pooled call takes a connection only once it
    // may run, so a burst of calls opens no more connections than run at once.
    let lease: Lease | undefined;
    const gate = (g: Gate, why: () => string) => async (): Promise<() => void> => {
      phase = why();
      const w = g.enter();
      try { await within(w.ready, limits); } catch (e) { w.giveUp(); throw e; }
      return () => g.leave();
    };
    const connection = async (): Promise<() => void> => {
      phase = "the session's previous call was still running in the engine";
      const l = await conns.lease(call.sessionId, call.sql, limits);
      lease = l;
      return () => l.done(true);
    };
    const steps = [
      gate(engine.gate, () => `the query had not started: ${engine.gate.busy} engine calls were running, each holding one of libuv's worker threads (calls an abort or a timeout gave up on included: the engine finishes them; UV_THREADPOOL_SIZE sets how many threads there are)`),
      ...(call.params === undefined ? [] : [gate(engine.params, () => 'the query had not started: parameterized queries run one at a time, and an earlier one was still running')]),
    ];
    if (call.sessionId === undefined) steps.push(connection); else steps.unshift(connection);
    const undo: (() => void)[] = [];
    try {
      for (const step of steps) undo.push(await step());
    } catch (e) {
      for (const u of undo) u();
      call.onEngineDone?.();
      throw e;
    }
    const held = lease!;
    const gates = undo.filter((_, i) => steps[i] !== connection);
    phase = 'the engine finishes the statement on its own';
    let native: Promise<{ bytes(): Uint8Array; rowsRead: number; bytesRead: number; elapsed: number }>;
    try {
      native = call.params === undefined
        ? held.session.queryAsync(call.sql, { format: call.format })
        : held.session.queryBindAsync(call.sql, call.params, { format: call.format });
    } catch (e) {
      native = Promise.reject(e);
    }
    const engineDone = (clean: boolean): void => {
      for (const leave of gates) leave();
      held.done(clean);
      call.onEngineDone?.();
    };
    native.then(() => engineDone(true), () => engineDone(false));
    try {
      const r = await within(native, limits);
      return { bytes: r.bytes(), summary: { result_rows: String(r.rowsRead), result_bytes: String(r.bytesRead), elapsed_ns: String(Math.round(r.elapsed * 1e9)) } };
    } catch (e) {
      throw chdbError(e, call.queryId);
    }
  }

  /** A streamed read: the start runs on the main thread, each chunk on a worker thread. */
  private async streamed(call: Call): Promise<TransportResponse> {
    const start = performance.now();
    const limits = this.limits(call.signal, call.queryId, start, 'query', () => `no answer from the embedded engine within ${this.opts.requestTimeout} ms (requestTimeout): the session's previous call was still running in the engine`);
    const { engine, conns } = await this.getEngine();
    const lease = await conns.lease(call.sessionId, call.sql, limits);
    let stream;
    try {
      if (call.params === undefined) {
        stream = lease.session.queryStream(call.sql, { format: call.format });
      } else {
        // The binder's parameters are engine-wide: no parameterized single-shot call may be running.
        const w = engine.params.enter();
        limits.timeoutMessage = () => `no answer from the embedded engine within ${this.opts.requestTimeout} ms (requestTimeout): the query had not started: parameterized queries run one at a time, and an earlier one was still running`;
        try { await within(w.ready, limits); } catch (e) { w.giveUp(); throw e; }
        try { stream = lease.session.queryStreamBind(call.sql, call.params, { format: call.format }); } finally { engine.params.leave(); }
      }
    } catch (e) {
      lease.done(false);
      throw e;
    }
    return openStream(stream, lease, call.format, { signal: call.signal, timeoutMs: this.opts.requestTimeout, queryId: call.queryId });
  }

  /**
   * INSERT … FORMAT x with a body: the bytes go to a temporary file, read by the engine with FROM
   * INFILE. Each chunk of the body must come within requestTimeout (a stalled input is a timeout
   * that says so) and an abort ends the wait at once; the file is removed once the engine is done.
   */
  private async insert(settingsClause: string, req: TransportRequest): Promise<TransportResponse> {
    const m = /\bFORMAT\s+([A-Za-z0-9_]+)\s*$/i.exec(req.sql);
    if (m === null) throw new ChwireConfigError('an INSERT with data must end with FORMAT <name>');
    const timeout = this.opts.requestTimeout;
    // Loaded here, the only place that writes a file: a process that only reads does not load them.
    const [{ mkdtemp, open, rm }, { tmpdir }] = await Promise.all([import('node:fs/promises'), import('node:os')]);
    const dir = await mkdtemp(join(tmpdir(), 'chwire-insert-'));
    const removeDir = (): void => { void rm(dir, { recursive: true, force: true }).catch(() => undefined); };
    const file = join(dir, 'data.bin');
    const body = typeof req.body === 'function' ? req.body() : req.body!;
    const source = body[Symbol.asyncIterator]();
    try {
      const fh = await open(file, 'w');
      try {
        for (;;) {
          const limits0 = this.limits(req.signal, req.queryId, performance.now(), 'insert', () => `the insert's input produced no data for ${timeout} ms (requestTimeout); nothing of this insert was sent to the embedded engine`);
          // An insert that times out its own stalled source (inputPending) is not timed out here.
          const limits = req.inputPending !== undefined ? { ...limits0, deadline: 0 } : limits0;
          const r = await within(source.next(), limits);
          if (r.done === true) break;
          await fh.write(r.value);
        }
      } finally { await fh.close(); }
    } catch (e) {
      void source.return?.().catch(() => undefined);
      removeDir();
      throw e;
    }
    // INSERT INTO t (cols) FROM INFILE 'f' [SETTINGS …] FORMAT x: settings go before FORMAT here.
    const stmt = `${req.sql.slice(0, m.index)}FROM INFILE ${quote(file)} ${settingsClause} FORMAT ${m[1]}`;
    const r = await this.singleShot({ sql: stmt, params: undefined, format: 'TabSeparated', sessionId: req.sessionId, signal: req.signal, queryId: req.queryId, onEngineDone: removeDir });
    return resultResponse({ bytes: new Uint8Array(0), summary: { elapsed_ns: r.summary.elapsed_ns } }, req.queryId);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const p = this.engine;
    if (p === undefined) return;
    const e = await p.catch(() => undefined);
    if (e === undefined) return;
    e.conns.close();
    releaseEngine(e.engine);
  }
}

function quote(v: string): string {
  return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/**
 * A single-shot answer. Its summary is what chdb 3.4 reports of a finished call: the result's
 * rows and bytes and the time taken (no rows read, no progress while it runs).
 */
interface SingleShotResult { bytes: Uint8Array; summary: QuerySummary }

function resultResponse({ bytes, summary }: SingleShotResult, queryId: string | undefined): TransportResponse {
  return {
    queryId, summary, timezone: undefined,
    body: (async function* () { for (let i = 0; i < bytes.length; i += SLICE) yield bytes.subarray(i, Math.min(bytes.length, i + SLICE)); })(),
    tailText: () => new TextDecoder().decode(bytes.subarray(Math.max(0, bytes.length - 16384))),
    cancel: () => undefined,
    exceptionsFramed: true, // the engine raises errors apart from the result bytes
  };
}
