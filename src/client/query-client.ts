// The client over any transport, as far as queries go: fetch / fetchOne / fetchValue / stream /
// streamRaw / execute / ping / serverVersion / hosts / close / destroy, and the part of the client
// its other calls build on (ClientCore: capabilities, settings, observed calls, the lifecycle).
// The calls that bring the insert encoders or the columnar readers (insert, fetchColumns,
// streamColumns) are functions over this class in modules of their own (insert-call.ts,
// columns-call.ts), so an app that does not call them does not bundle them; client.ts puts them
// together as the `Client` of createClient.
// Every read goes sql → transport → byte chunks → the compiled decoder for the result's schema → rows.
// Invariants: query parameters are sent apart from the SQL, never spliced into it; the server's
// capabilities (learnt once per host) decide the format and the client's own settings; a query id
// is always set (generated when not given) so errors and results can name it.
import { newQueryId } from './query-id.js';
import { ChwireAbortError, ChwireConfigError, ChwireConnectionError, ChwireTimeoutError } from '../errors.js';
import type { DecodeOptions } from '../plan/options.js';
import type { Row, RowStreamDecoder } from '../stream-decoder.js';
import type { QuerySummary, ServerInfo, Transport, TransportRequest, TransportResponse } from '../transport/types.js';
import type { HostStatus } from '../transport/hosts.js';
import { capabilitiesOf, nativeReadSettings, type Capabilities } from './capabilities.js';
import { NO_WIRE_FLAGS, wireRead, type WireRead } from './options/wire-settings.js';
import { loadParams, loadedParams, loadRowReader, loadedRowReader, type RowReader } from './lazy.js';
import { resolveConfig, renderSetting, type ClientOptions, type Settings, type TransportFactory } from './options/config.js';
import { mergeDecodeOptions, pickDecodeOptions } from './read/decode-options.js';
import type { QueryParams } from './sql/params.js';
export type { QueryParams, QueryParamValue } from './sql/params.js';
import { FormatClauses, formatClauseError } from './sql/format-clause.js';
import { checkResponseFormat } from './read/response-format.js';
import { placeholderTypes } from './sql/placeholders.js';
import { RowStreamImpl, joinBatches, type OpenedQuery, type RowStream } from './read/row-stream.js';
import { RawStreamImpl, type RawOptions, type RawStream } from './read/raw-stream.js';
import { heldBody } from './read/tail-hold.js';
import { SessionLocks } from './session-lock.js';
import { SchemaCache, isSchemaChange } from './schema-cache.js';
import { callSurface, type CallSurface, type CallSurfaceOptions } from './options/call-surface.js';
import { checkCallOptions } from './options/call-options.js';
import { checkPerCallSettings, type PerCallSettings } from './options/per-call-settings.js';
import { callBudget, callTimeoutOf, checkCallLimits, type BufferedCall, type ResultLimits } from './read/result-limits.js';
import type { Call, CallOptions, Observer } from './observe/call.js';
import type { ClientCore, QueryOptions, ExecOptions, Rows } from './core.js';

// The explicit-resource-management symbols, declared as @types/node declares them, so that these
// declarations type-check under a `lib` without esnext.disposable (ES2020, ES2022; with or without
// DOM; with or without @types/node: test/package.types.test.ts). Declarations merge with the lib's.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
    readonly asyncDispose: unique symbol;
  }
}

export type { QueryOptions, ExecOptions, Rows, ClientCore } from './core.js';

/** A row decoded as an object (the default `rows: 'object'`): column name → value. */
export type ObjectRow = Record<string, unknown>;

/** What execute() resolves to. */
export interface ExecResult {
  readonly queryId: string | undefined;
  readonly summary: QuerySummary | undefined;
}

/**
 * The client's queries and statements, without insert and the columnar calls (those are the
 * functions `insert`, `fetchColumns`, `streamColumns` over any client, and methods of `Client`).
 *
 * The row type of a call: a plain object (indexable by column name) by default, an array with
 * `rows: 'array'`. A type argument (`fetch<Event>(…)`) is an assertion the client does not check:
 * options that change value types (`int64: 'number'`, `datetime: 'string'`, …) must be reflected
 * in it by the caller.
 */
export interface QueryClient {
  fetch<R = ObjectRow>(sql: string, opts?: QueryOptions & { rows?: 'object' }): Promise<Rows<R>>;
  fetch<R = unknown[]>(sql: string, opts: QueryOptions & { rows: 'array' }): Promise<Rows<R>>;
  fetch<R = Row>(sql: string, opts?: QueryOptions): Promise<Rows<R>>;
  fetchOne<R = ObjectRow>(sql: string, opts?: QueryOptions & { rows?: 'object' }): Promise<R | undefined>;
  fetchOne<R = unknown[]>(sql: string, opts: QueryOptions & { rows: 'array' }): Promise<R | undefined>;
  fetchOne<R = Row>(sql: string, opts?: QueryOptions): Promise<R | undefined>;
  fetchValue<V = unknown>(sql: string, opts?: QueryOptions): Promise<V | undefined>;
  stream<R = ObjectRow>(sql: string, opts?: QueryOptions & { rows?: 'object' }): RowStream<R>;
  stream<R = unknown[]>(sql: string, opts: QueryOptions & { rows: 'array' }): RowStream<R>;
  stream<R = Row>(sql: string, opts?: QueryOptions): RowStream<R>;
  /** The result's bytes in any output format, as the server writes them (no decoding). */
  streamRaw(sql: string, opts: RawOptions): RawStream;
  execute(sql: string, opts?: ExecOptions): Promise<ExecResult>;
  /** The server's version (probed once per host). */
  serverVersion(): Promise<string>;
  ping(opts?: { signal?: AbortSignal }): Promise<void>;
  /** Each host's state (`url`, `up`, `lastError`, `inFlight`, `requests`), for health endpoints; none for chdb://. */
  hosts(): HostStatus[];
  /**
   * Graceful: new calls are refused at once (ChwireConfigError "the client is closing"); calls in
   * flight (inserts and opened streams included) finish, then the connections close. With
   * `timeout` (ms), calls still running then are cancelled as by destroy().
   */
  close(opts?: CloseOptions): Promise<void>;
  /** Cancels every call in flight at once (requests aborted, server queries killed) and closes. */
  destroy(): Promise<void>;
  /** close(). */
  [Symbol.asyncDispose](): Promise<void>;
}

export interface CloseOptions {
  /** Longest wait (ms) for the calls in flight; then they are cancelled as by destroy(). Default: no limit. */
  timeout?: number;
}

/**
 * A query client over the transport `makeTransport` builds for the options' URL: the Node entry
 * (index.ts) passes node:http and chdb transports, chwire/web (web.ts) a fetch transport.
 */
export function createQueryClientWith(options: ClientOptions, makeTransport: TransportFactory): QueryClient {
  return new QueryClientImpl(options, makeTransport);
}

/**
 * The client of `implOf(client, call)`: the class behind every client this package makes. Its
 * methods that are not in QueryClient (begin, observed, tracked, openTracked, cancellable, the
 * ClientCore ones) are for the call modules of this folder, not for apps.
 */
export class QueryClientImpl implements QueryClient, ClientCore {
  readonly transport: Transport;
  readonly database: string | undefined;
  readonly insertBlockSize: number;
  readonly requestTimeout: number;
  readonly resultLimits: ResultLimits;
  /** The client's callTimeout (ms; 0: none): how long a buffered call may take in all. */
  readonly callTimeout: number;
  /** The guarded settings a call's own settings may carry (perCallSettings: per-call-settings.ts). */
  readonly perCallSettings: PerCallSettings;
  readonly schemas = new SchemaCache();
  /** The FORMAT clauses of SQL texts this client has sent (format-clause.ts). */
  readonly formatClauses = new FormatClauses();
  private readonly settings: Settings;
  private readonly roles: readonly string[] | undefined;
  readonly decodeDefaults: DecodeOptions;
  private readonly locks = new SessionLocks();
  private closed = false;
  /** close()/destroy() was called: new calls are refused (in-flight ones may still run). */
  private closing: Promise<void> | undefined;
  /** Aborted by destroy() (or close()'s timeout): every call's signal follows it. */
  private readonly cancelAll = new AbortController();
  /** The signals of the tracked calls in flight: destroy() aborts each (tracked()). */
  private readonly live = new Set<CallSignal>();
  /** Calls in flight (public calls, and opened streams until they release their connection). */
  private inFlight = 0;
  private drained: (() => void) | undefined;
  private readonly obs: Observer;
  /** Observed calls whose requests are sent by insert.ts / columns.ts, by query id (see request()). */
  readonly calls = new Map<string, Call>();

  constructor(options: ClientOptions, makeTransport: TransportFactory) {
    const cfg = resolveConfig(options, makeTransport);
    this.transport = cfg.transport;
    this.database = cfg.database;
    this.settings = cfg.settings;
    this.insertBlockSize = cfg.insertBlockSize;
    this.requestTimeout = cfg.requestTimeout;
    this.resultLimits = cfg.resultLimits;
    this.callTimeout = cfg.callTimeout;
    this.perCallSettings = cfg.perCallSettings;
    this.roles = cfg.roles;
    this.decodeDefaults = pickDecodeOptions(options);
    this.obs = cfg.observer;
    this.obs.attach(this.transport);
  }

  /** Opens the observation of a call (undefined when nothing observes it: logger, tracing, channel, onProgress). */
  async begin(kind: string, sql: string | undefined, queryId: string, opts: CallOptions, table?: string, parent?: Call): Promise<Call | undefined> {
    if (this.obs.loading) await this.obs.tracing!.ready();
    return this.obs.begin(kind, sql, queryId, opts, table, parent);
  }

  async request(req: TransportRequest, call: Call | undefined = req.queryId !== undefined ? this.calls.get(req.queryId) : undefined): Promise<TransportResponse> {
    let response: TransportResponse;
    if (call === undefined) {
      response = await this.transport.request(req);
    } else {
      const pending = this.transport.request(call.request(req));
      call.sent();
      response = call.response(await pending);
    }
    // A body this client decodes (rows, columns) must be in the format it asked for; raw streams
    // pass the server's bytes on as they are.
    if (req.format !== undefined && req.whole !== true) checkResponseFormat(req.format, response, response.queryId ?? req.queryId);
    return response;
  }

  /** Runs a call whose requests go through request() by query id (insert, fetchColumns), observed. */
  async observed<T>(kind: string, sql: string, queryId: string, opts: CallOptions, table: string | undefined, run: (queryId: string | undefined) => Promise<T>, rowsOf: (t: T) => number | undefined, summaryOf: (t: T) => QuerySummary | undefined): Promise<T> {
    const call = await this.begin(kind, sql, queryId, opts, table);
    if (call === undefined) return run(undefined);
    this.calls.set(queryId, call);
    try {
      // The version probe, if this call is the one that makes it, carries the call's trace context.
      await this.capabilities((opts as { signal?: AbortSignal }).signal, call);
      const out = await run(queryId);
      call.end(undefined, rowsOf(out), summaryOf(out));
      return out;
    } catch (e) {
      call.end(e, undefined);
      throw e;
    } finally {
      if (this.calls.get(queryId) === call) this.calls.delete(queryId);
    }
  }

  /** A new call: refused once close() or destroy() was called. `leave` once it is over. */
  private enter(): void {
    if (this.closing !== undefined || this.closed) throw closedError(this.closed ? 'closed' : 'closing');
    this.inFlight++;
  }

  private leave(): void {
    if (--this.inFlight === 0) this.drained?.();
  }

  /**
   * A public call that returns a promise: counted in flight, with destroy() reaching its signal.
   * `call`: the name of a call bounded by callTimeout (its own, else the client's): past it, the
   * call is aborted (the query killed) and fails with ChwireTimeoutError.
   * The call's signal is a controller of its own (see CallSignal) that destroy() reaches while the
   * call runs: without a caller's signal no AbortSignal.any, and no timer unless a callTimeout
   * applies (each cost more than the rest of a small call's client work on Node 20).
   */
  async tracked<O extends { signal?: AbortSignal | undefined; callTimeout?: number | undefined }, T>(opts: O, run: (opts: O) => Promise<T>, call?: string): Promise<T> {
    this.enter();
    const link = new CallSignal(opts.signal);
    this.live.add(link);
    try {
      const ms = call === undefined ? 0 : callTimeoutOf(call, opts.callTimeout, this.callTimeout);
      if (ms > 0) link.deadline(ms);
      return await run({ ...opts, signal: link.signal });
    } catch (e) {
      throw this.timedOut(this.cancelled(e, opts.signal), opts.signal, link, call);
    } finally {
      link.unlink();
      this.live.delete(link);
      this.leave();
    }
  }

  /** The call's options with a signal that also aborts when the client is destroyed (and at `deadline`). */
  cancellable<O extends { signal?: AbortSignal | undefined }>(opts: O, deadline?: AbortSignal): O {
    const mine = this.cancelAll.signal;
    const theirs = opts.signal;
    // A signal of the call's own even without the caller's: listeners the transports and streams
    // add per call must not pile up on the one client-wide signal (Node warns past 10 at once).
    const all = theirs === undefined ? [mine] : [theirs, mine];
    if (deadline !== undefined) all.push(deadline);
    return { ...opts, signal: anySignal(all) };
  }

  /** A call that its callTimeout ended (not the caller's signal, not destroy()): a ChwireTimeoutError that says so. */
  private timedOut(e: unknown, theirs: AbortSignal | undefined, link: CallSignal, call: string | undefined): unknown {
    if (link.timeoutMs === 0 || !link.timedOut || theirs?.aborted === true || this.cancelAll.signal.aborted) return e;
    if (!(e instanceof ChwireAbortError) && !(e instanceof ChwireConnectionError)) return e;
    return new ChwireTimeoutError(`${call ?? 'the call'} did not end within ${link.timeoutMs} ms (callTimeout): it was cancelled and its query stopped on the server`, { queryId: e.queryId, cause: e, host: e.host });
  }

  /**
   * A call that destroy() (or close()'s timeout) ended, not the caller's own signal: a
   * ChwireAbortError that says so, whatever form the cut took in the transport (an abort, a
   * closed connection), keeping what an insert had sent (`insertSent`).
   */
  private cancelled(e: unknown, theirs: AbortSignal | undefined): unknown {
    if (!this.cancelAll.signal.aborted || theirs?.aborted === true) return e;
    if (!(e instanceof ChwireAbortError) && !(e instanceof ChwireConnectionError)) return e;
    const by = String(this.cancelAll.signal.reason);
    const text = e.message.replace(/^(?:query|insert) aborted by its AbortSignal(?:; | (?=while ))?/, '');
    // ("insert aborted by its AbortSignal while waiting for its input: …" → "call cancelled by … while waiting …")
    const out = new ChwireAbortError(`call cancelled ${by}${text === '' ? '' : text.startsWith('while ') ? ` ${text}` : `: ${text}`}`, { queryId: e.queryId, cause: e });
    if (e.insertSent !== undefined) Object.defineProperty(out, 'insertSent', { value: e.insertSent, enumerable: false });
    if (e.rowsTaken !== undefined) Object.defineProperty(out, 'rowsTaken', { value: e.rowsTaken, enumerable: false });
    return out;
  }

  /** `call`: the observed call the version probe (when one is needed) is made for: it carries its traceparent. */
  async capabilities(signal?: AbortSignal, call?: Call): Promise<{ info: ServerInfo; caps: Capabilities }> {
    if (this.closed) throw closedError('closed');
    const info = await this.transport.server(signal, call?.traceparent());
    return { info, caps: capabilitiesOf(info) };
  }

  settingsFor(opts: { settings?: Settings | undefined }, auto: Record<string, string> = {}): Record<string, string> {
    // Every path's call settings pass here (compat's too): a guarded name not allowed is refused.
    checkPerCallSettings('the call', opts.settings, this.perCallSettings);
    const out: Record<string, string> = { ...auto };
    for (const src of [this.settings, opts.settings ?? {}]) {
      for (const [k, v] of Object.entries(src)) out[k] = renderSetting(k, v);
    }
    return out;
  }

  lock(sessionId: string | undefined): Promise<() => void> {
    return this.locks.acquire(sessionId);
  }

  async queryParams(opts: { params?: QueryParams | undefined }, caps: Capabilities, info: ServerInfo, sql?: string): Promise<Record<string, string> | undefined> {
    const p = opts.params;
    if (p === undefined || Object.keys(p).length === 0) return undefined;
    if (!caps.params) throw new ChwireConfigError(`server ${info.version} is too old for query parameters ({name:Type} placeholders need ClickHouse 19.11 or later)`);
    // The placeholders' declared types pick a value's text form (a Date for {d:Date}: 'YYYY-MM-DD').
    const types = sql === undefined ? undefined : placeholderTypes(sql);
    const formatQueryParam = loadedParams() ?? await loadParams();
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(p)) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) throw new ChwireConfigError(`query parameter name ${JSON.stringify(k)} is not an identifier`);
      out[k] = formatQueryParam(v, k, types?.get(k));
    }
    return out;
  }

  surface(opts: CallSurfaceOptions, caps: Capabilities, info: ServerInfo): CallSurface {
    return callSurface(this.roles, opts, caps, info);
  }

  /**
   * Sends a query. `format`: null for a statement (no result format), '' for rows (the wire
   * format this client decodes), or a raw output format passed on as is (no settings of ours).
   */
  private async send(sql: string, opts: Omit<QueryOptions, 'format'> & { format?: string; idempotent?: boolean }, format: string | null, queryId: string, call: Call | undefined, buffered = false): Promise<{ response: TransportResponse; release: () => void; format: string | undefined; wire: WireRead; reader: RowReader | undefined }> {
    // A statement's own FORMAT clause would override the format this call asks for (format-clause.ts).
    const clause = format === null ? undefined : formatClauseError(sql, format === '' ? undefined : format, this.formatClauses);
    if (clause !== undefined) throw clause;
    const { info, caps } = await this.capabilities(opts.signal, call);
    const params = await this.queryParams(opts, caps, info, sql);
    const surface = this.surface(opts, caps, info);
    const raw = format !== null && format !== '';
    const fmt = format === null ? undefined : raw ? format : opts.format ?? caps.rowFormat;
    const settings = this.settingsFor(opts, fmt === 'Native' && !raw ? nativeReadSettings(caps) : {});
    // Rows this client decodes: the settings that change their bytes are read (or refused) now.
    const wireFormat = fmt === 'Native' ? 'Native' : 'RowBinaryWithNamesAndTypes';
    const wire = format === '' ? wireRead(wireFormat, settings) : NO_WIRE_FLAGS;
    // The format's reader, loaded on first use (lazy.ts) before anything is sent.
    const reader = format === '' ? loadedRowReader(wireFormat) ?? await loadRowReader(wireFormat) : undefined;
    const release = await this.lock(opts.sessionId);
    try {
      const response = await this.request({
        sql, format: fmt, params, settings, queryId, sessionId: opts.sessionId, signal: opts.signal, idempotent: format !== null || opts.idempotent === true, whole: raw, buffered, ...surface,
      }, call);
      return { response, release, format: fmt, wire, reader };
    } catch (e) {
      release();
      throw e;
    }
  }

  stream<R = Row>(sql: string, opts: QueryOptions = {}): RowStream<R> {
    checkCallOptions('stream', opts, this.perCallSettings);
    return this.streamWith(sql, this.cancellable(opts), mergeDecodeOptions(this.decodeDefaults, pickDecodeOptions(opts)), 'stream', false, true);
  }

  /** An opened stream is in flight until it releases its connection (once). */
  openTracked<Q extends { release: () => void }>(open: () => Promise<Q>): () => Promise<Q> {
    return async () => {
      this.enter();
      let q: Q;
      try {
        q = await open();
      } catch (e) {
        this.leave();
        throw this.cancelled(e, undefined);
      }
      let left = false;
      const release = q.release;
      return { ...q, release: () => { release(); if (!left) { left = true; this.leave(); } } };
    };
  }

  /** `kind`: the public call being made (observed as such), or undefined for the client's own queries. */
  private streamWith<R>(sql: string, opts: QueryOptions, decodeOptions: DecodeOptions, kind: string | undefined, buffered = false, track = false): RowStreamImpl<R> {
    const queryId = opts.queryId ?? newQueryId();
    const open0 = async (): Promise<OpenedQuery<R>> => {
      const call = kind === undefined ? undefined : await this.begin(kind, sql, queryId, opts);
      try {
        const { response, release, format, wire, reader } = await this.send(sql, opts, '', queryId, call, buffered);
        const decoder = reader!(format === 'Native'
          ? { ...decodeOptions, binaryTypes: wire.binaryTypes, ...(wire.zone === undefined ? {} : { sessionTimezone: wire.zone }) }
          : { ...decodeOptions, binaryTypes: wire.binaryTypes, jsonAsString: wire.jsonAsString, ...(wire.zone === undefined ? {} : { sessionTimezone: wire.zone }) }) as unknown as RowStreamDecoder<R>;
        return { response, decoder, release, objectRows: decodeOptions.rows !== 'array', done: call === undefined ? undefined : (e, rows) => call.end(e, rows, response.summary) };
      } catch (e) {
        call?.end(e, undefined);
        throw e;
      }
    };
    return new RowStreamImpl<R>(track ? this.openTracked(open0) : open0, queryId, opts.signal);
  }

  fetch<R = Row>(sql: string, opts: QueryOptions = {}): Promise<Rows<R>> {
    try { checkCallOptions('fetch', opts, this.perCallSettings); } catch (e) { return Promise.reject(e); }
    return this.tracked(opts, (o) => this.fetchFrom(this.streamWith<R>(sql, o, mergeDecodeOptions(this.decodeDefaults, pickDecodeOptions(opts)), 'fetch', true), 'fetch', o), 'fetch');
  }

  fetchPlain<R = Row>(sql: string, opts: QueryOptions = {}): Promise<Rows<R>> {
    // The client's own queries (small: a schema, a version) keep the library's bounds, not the app's.
    return this.fetchFrom(this.streamWith<R>(sql, opts, pickDecodeOptions(opts), undefined, true), 'fetch', opts, NO_CLIENT_LIMITS);
  }

  /** `call`, `opts`, `limits`: whose bounds (maxResultBytes, maxResultRows) the result is held to. */
  private async fetchFrom<R>(s: RowStreamImpl<R>, call: BufferedCall, opts: QueryOptions, limits: ResultLimits = this.resultLimits): Promise<Rows<R>> {
    s.budget = callBudget(call, limits, opts, s.queryId);
    // The decoded batches are joined once at the end (joinBatches: one batch is the result itself).
    const batches: R[][] = [];
    for await (const batch of s.eagerBatches()) batches.push(batch);
    const rows = joinBatches(batches);
    Object.defineProperties(rows, {
      columns: { value: s.columns ?? [], enumerable: false },
      queryId: { value: s.queryId, enumerable: false },
      summary: { value: s.summary, enumerable: false },
    });
    return rows as Rows<R>;
  }

  fetchOne<R = Row>(sql: string, opts: QueryOptions = {}): Promise<R | undefined> {
    try { checkCallOptions('fetchOne', opts, this.perCallSettings); } catch (e) { return Promise.reject(e); }
    return this.tracked(opts, async (o) => (await this.fetchFrom(this.streamWith<R>(sql, o, mergeDecodeOptions(this.decodeDefaults, pickDecodeOptions(opts)), 'fetchOne', true), 'fetchOne', o))[0], 'fetchOne');
  }

  fetchValue<V = unknown>(sql: string, opts: QueryOptions = {}): Promise<V | undefined> {
    try { checkCallOptions('fetchValue', opts, this.perCallSettings); } catch (e) { return Promise.reject(e); }
    return this.tracked({ ...opts, rows: 'array' } as QueryOptions, async (o) => {
      const rows = await this.fetchFrom(this.streamWith<unknown[]>(sql, o, mergeDecodeOptions(this.decodeDefaults, pickDecodeOptions(o)), 'fetchValue', true), 'fetchValue', o);
      return rows[0]?.[0] as V | undefined;
    }, 'fetchValue');
  }

  streamRaw(sql: string, opts: RawOptions): RawStream {
    checkCallOptions('streamRaw', opts, this.perCallSettings);
    return this.rawWith(sql, opts, 'streamRaw', undefined);
  }

  internalRaw(sql: string, opts: RawOptions, kind: string, parentQueryId: string | undefined): RawStream {
    const parent = parentQueryId !== undefined ? this.calls.get(parentQueryId) : undefined;
    return this.rawWith(sql, opts, kind, parent ?? null);
  }

  /** `parent`: undefined for the app's streamRaw; the call served (null: none observed) for the client's own query. */
  private rawWith(sql: string, opts: RawOptions, kind: string, parent: Call | null | undefined): RawStream {
    if (typeof opts?.format !== 'string' || !/^[A-Za-z][A-Za-z0-9_]*$/.test(opts.format)) {
      throw new ChwireConfigError(`streamRaw needs an output format name, e.g. { format: 'CSVWithNames' }, got ${JSON.stringify(opts?.format)}`);
    }
    const mode = opts.appendedExceptions ?? 'detect';
    if (mode !== 'detect' && mode !== 'wait') throw new ChwireConfigError(`option appendedExceptions must be 'detect' or 'wait', got ${JSON.stringify(mode)}`);
    const queryId = opts.queryId ?? newQueryId();
    // text() and json() hold the result: the app's call to the bounds (checked now, before anything
    // is sent), the client's own query to the library's.
    const limits = parent === undefined ? this.resultLimits : NO_CLIENT_LIMITS;
    checkCallLimits('streamRaw', limits, opts);
    opts = this.cancellable(opts);
    const s = new RawStreamImpl(this.openTracked(async () => {
      // The client's own query is observed only as the child of an observed call.
      const call = parent === null ? undefined : await this.begin(kind, sql, queryId, opts, undefined, parent);
      try {
        // 'wait': the server finishes the query before the first byte, so an exception is an HTTP error.
        const { response, release } = await this.send(sql, mode === 'wait' ? { ...opts, settings: { ...opts.settings, wait_end_of_query: 1 } } : opts, opts.format, queryId, call);
        return { response, release, done: call === undefined ? undefined : (e: unknown) => call.end(e, undefined, response.summary) };
      } catch (e) {
        call?.end(e, undefined);
        throw e;
      }
    }), queryId, opts.signal);
    s.exceptionsApart = mode === 'wait';
    s.format = opts.format;
    s.budget = () => callBudget('streamRaw', limits, opts, queryId);
    return s;
  }

  execute(sql: string, opts: ExecOptions = {}): Promise<ExecResult> {
    try { checkCallOptions('execute', opts, this.perCallSettings); } catch (e) { return Promise.reject(e); }
    return this.tracked(opts, (o) => this.executeNow(sql, o), 'execute');
  }

  private async executeNow(sql: string, opts: ExecOptions): Promise<ExecResult> {
    if (opts.idempotent !== undefined && typeof opts.idempotent !== 'boolean') throw new ChwireConfigError(`option idempotent must be a boolean, got ${typeof opts.idempotent}`);
    const queryId = opts.queryId ?? newQueryId();
    // DDL may change any table's columns: the insert schemas cached so far are dropped.
    // (Before and after it: an insert that read a schema meanwhile must not keep it.)
    const ddl = isSchemaChange(sql);
    if (ddl) this.schemas.clear();
    const call = await this.begin('execute', sql, queryId, opts);
    try {
      const { response, release } = await this.send(sql, opts, null, queryId, call);
      try {
        // Statements answer with an empty body (or text we do not need); drain it to free the socket.
        // An older server may still append an exception to that text: it is this call's error.
        for await (const _ of heldBody(response, queryId)) { /* drain */ }
      } finally {
        response.cancel();
        release();
        if (ddl) this.schemas.clear();
      }
      call?.end(undefined, undefined, response.summary);
      return { queryId: response.queryId ?? queryId, summary: response.summary };
    } catch (e) {
      call?.end(e, undefined);
      throw e;
    }
  }

  serverVersion(): Promise<string> {
    return this.tracked({} as { signal?: AbortSignal }, async (o) => (await this.capabilities(o.signal)).info.version);
  }

  ping(opts: { signal?: AbortSignal } = {}): Promise<void> {
    try { checkCallOptions('ping', opts); } catch (e) { return Promise.reject(e); }
    return this.tracked(opts, (o) => this.pingNow(o), 'ping');
  }

  private async pingNow(opts: { signal?: AbortSignal }): Promise<void> {
    const call = await this.begin('ping', undefined, newQueryId(), {});
    try {
      await this.transport.ping(opts.signal);
    } catch (e) {
      call?.end(e, undefined);
      throw e;
    }
    call?.end(undefined, undefined);
  }

  hosts(): HostStatus[] {
    return this.transport.hosts?.() ?? [];
  }

  close(opts: CloseOptions = {}): Promise<void> {
    if (typeof opts !== 'object' || opts === null) throw new ChwireConfigError('close options must be an object');
    for (const k of Object.keys(opts)) if (k !== 'timeout') throw new ChwireConfigError(`unknown close option ${JSON.stringify(k)}`);
    const t = opts.timeout;
    if (t !== undefined && (typeof t !== 'number' || !(t >= 0))) throw new ChwireConfigError(`close option timeout must be a non-negative number of milliseconds, got ${String(t)}`);
    return this.closing ??= (async () => {
      if (this.inFlight > 0) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        await new Promise<void>((resolve) => {
          this.drained = resolve;
          if (t !== undefined) timer = setTimeout(() => { this.cancel(`by client.close() after its ${t} ms timeout`); resolve(); }, t);
        });
        if (timer !== undefined) clearTimeout(timer);
      }
      await this.shut();
    })();
  }

  destroy(): Promise<void> {
    this.cancel('by client.destroy()');
    return this.closing ??= this.shut();
  }

  /** Aborts every call in flight (their signals follow cancelAll; their requests are cut, their queries killed). */
  private cancel(reason: string): void {
    if (this.cancelAll.signal.aborted) return;
    this.cancelAll.abort(reason);
    for (const link of [...this.live]) link.abort(reason);
  }

  private async shut(): Promise<void> {
    // Let the cancelled calls see their abort (and send their KILL QUERY) before the transport closes.
    if (this.cancelAll.signal.aborted) await new Promise((r) => setTimeout(r, 0));
    this.closed = true;
    await this.transport.close();
  }

  /**
   * What console.log, util.inspect and JSON.stringify show of a client: its transport kind only.
   * Its fields hold the password, an access token and proxy credentials, which must never reach a
   * log line.
   */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `ChwireClient { transport: '${this.transport.kind}' }`;
  }

  toJSON(): { transport: string } {
    return { transport: this.transport.kind };
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/**
 * The client behind `client` for the function `call` (insert, fetchColumns, …): any client that
 * createClient or createQueryClient made; anything else is a ChwireConfigError naming the call.
 */
export function implOf(client: unknown, call: string): QueryClientImpl {
  if (client instanceof QueryClientImpl) return client;
  throw new ChwireConfigError(`${call}() takes a client made by createClient or createQueryClient as its first argument, got ${client === null ? 'null' : typeof client}`);
}

/** No client-wide result bounds: the library's defaults apply. */
const NO_CLIENT_LIMITS: ResultLimits = { bytes: undefined, rows: undefined };

/** Refusal of a call made after close() or destroy(). */
function closedError(state: 'closing' | 'closed'): ChwireConfigError {
  return new ChwireConfigError(state === 'closing'
    ? 'the client is closing (close() or destroy() was called): it takes no new calls'
    : 'the client is closed (close() or destroy() was called): it takes no new calls');
}

/**
 * A tracked call's own signal: aborted by the caller's signal (with its reason), by destroy()
 * (QueryClientImpl.cancel, with its reason) or by the callTimeout (a TimeoutError DOMException, as
 * AbortSignal.timeout gives). `unlink` when the call is over: its timer is cleared.
 */
class CallSignal {
  private readonly ctl = new AbortController();
  /** The signal the call runs with: ours, or (with a caller's signal) one that follows both. */
  readonly signal: AbortSignal;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The callTimeout armed (ms; 0: none) and whether it is what aborted the call. */
  timeoutMs = 0;
  timedOut = false;

  constructor(theirs: AbortSignal | undefined) {
    // The caller's signal is followed through AbortSignal.any, which adds no listener to it: one
    // signal shared by many concurrent calls must not collect a listener per call (Node warns past 10).
    this.signal = theirs === undefined ? this.ctl.signal : anySignal([theirs, this.ctl.signal]);
  }

  abort(reason: unknown): void {
    if (!this.ctl.signal.aborted) this.ctl.abort(reason);
  }

  deadline(ms: number): void {
    this.timeoutMs = ms;
    if (this.ctl.signal.aborted) return;
    this.timer = setTimeout(() => {
      if (this.ctl.signal.aborted) return;
      this.timedOut = true;
      this.ctl.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    }, ms);
    // As AbortSignal.timeout's: the timer alone does not keep the process alive.
    (this.timer as { unref?: () => void }).unref?.();
  }

  unlink(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
  }
}

/**
 * A signal that aborts when any of `signals` does: AbortSignal.any where the runtime has it (it
 * tracks its sources without adding listeners to them), else a controller fed by listeners.
 */
function anySignal(signals: AbortSignal[]): AbortSignal {
  const any = (AbortSignal as { any?: (s: AbortSignal[]) => AbortSignal }).any;
  if (any !== undefined) return any(signals);
  const c = new AbortController();
  const done = signals.find((s) => s.aborted);
  if (done !== undefined) c.abort(done.reason);
  else for (const s of signals) s.addEventListener('abort', () => c.abort(s.reason), { once: true });
  return c.signal;
}

