// One observed call: the client opens a Call when a public call starts (or a stream is first
// iterated) and ends it exactly once, with its error or its row count; in between the Call feeds
// the log, the `chwire:query` diagnostics channel, the OpenTelemetry span and onProgress.
// Invariants: when no logger, no tracing, no channel subscriber and no onProgress is there, no Call
// exists at all (Observer.begin returns undefined: the cost is a few property reads per call);
// end() is idempotent; nothing here reads options other than the call's metadata (the client's
// observability options arrive checked, from observe/options.ts), so no credential, parameter
// value or inserted value reaches a log line, span or channel context.
import { ChwireAbortError, ChwireConfigError, ChwireConnectionError, ChwireDecodeError, ChwireEncodeError, ChwireServerError, ChwireTimeoutError, isChwireError } from '../../errors.js';
import type { RequestEvents, Transport, TransportEvents, TransportRequest, TransportResponse } from '../../transport/types.js';
import { subscribedChannel, type QueryChannelContext, type QueryTracingChannel } from './channels.js';
import { sqlForLog, type Log, type LogFields } from './logger.js';
import { intervalOption, ProgressReporter, type ProgressListener } from './progress.js';
import { redactError, secretTexts } from './redact.js';
import { errorType, type CallSpan, type Tracing } from './tracing.js';

/** The client's observability, its options checked (observe/options.ts builds it). */
export interface ObserverSettings {
  readonly log: Log | undefined;
  readonly tracing: Tracing | undefined;
  /** Default least time between two onProgress events of a call, ms. */
  readonly progressInterval: number;
  /** 0: slow consumers are not reported. */
  readonly slowConsumerMs: number;
}

/** The per-call options this module reads. */
export interface CallOptions {
  onProgress?: ProgressListener | undefined;
  progressInterval?: number | undefined;
  params?: Readonly<Record<string, unknown>> | undefined;
}

export class Observer {
  readonly log: Log | undefined;
  readonly tracing: Tracing | undefined;
  private readonly progressInterval: number;
  private readonly slowConsumerMs: number;
  private transport: Transport | undefined;

  constructor(s: ObserverSettings, private readonly database: string | undefined) {
    this.log = s.log;
    this.tracing = s.tracing;
    this.progressInterval = s.progressInterval;
    this.slowConsumerMs = s.slowConsumerMs;
  }

  /** The transport whose requests the calls observe (and progress polls go through). */
  attach(transport: Transport): void {
    this.transport = transport;
  }

  /** Host state changes of the transport, for the log. */
  transportEvents(): TransportEvents | undefined {
    const log = this.log;
    if (log === undefined) return undefined;
    return {
      hostState: ({ host, up, error }) => {
        if (up) log.write('info', { host }, `chwire: host ${host} is up again`);
        else log.write('warn', { host, error: errorType(error) }, `chwire: host ${host} marked down (${errorType(error)})`);
      },
    };
  }

  /** True when calls must wait for the tracing API to load before they begin. */
  get loading(): boolean {
    return this.tracing !== undefined && !this.tracing.loaded;
  }

  /**
   * Opens the observation of one call, or undefined when nothing observes it. With tracing on,
   * `ready()` of the tracing must have resolved (see `loading`).
   */
  begin(kind: string, sql: string | undefined, queryId: string, opts: CallOptions, table?: string, parent?: Call): Call | undefined {
    const onProgress = opts.onProgress;
    if (onProgress !== undefined && typeof onProgress !== 'function') throw new ChwireConfigError('option onProgress must be a function');
    const every = intervalOption('progressInterval', opts.progressInterval, this.progressInterval);
    const channel = subscribedChannel();
    // A call with parameters is always followed to its end: its error is redacted there (redact.ts).
    const secrets = secretTexts(opts.params);
    if (this.log === undefined && this.tracing === undefined && channel === undefined && onProgress === undefined && secrets.length === 0) return undefined;
    const progress = onProgress !== undefined ? new ProgressReporter(onProgress, every, queryId) : undefined;
    const span = this.tracing?.start(kind, sql, queryId, this.database, table, parent?.span);
    const quotesValues = kind === 'insert' || (opts.params !== undefined && Object.keys(opts.params).length > 0);
    return new Call(this.transport!, this.log, channel, span, progress, this.slowConsumerMs, quotesValues, secrets,
      { queryId, kind, host: undefined, sql, database: this.database, rows: undefined, bytes: undefined, error: undefined, ...(parent !== undefined ? { parentQueryId: parent.ctx.queryId } : {}) });
  }
}

export class Call {
  private readonly t0 = performance.now();
  private ended = false;
  private slowReported = false;
  /** A request of this call was handed to the transport. */
  requested = false;
  private readonly events: RequestEvents;

  constructor(
    private readonly transport: Transport,
    private readonly log: Log | undefined,
    private readonly channel: QueryTracingChannel | undefined,
    readonly span: CallSpan | undefined,
    private readonly progress: ProgressReporter | undefined,
    private readonly slowConsumerMs: number,
    /** The server's messages may quote parameter or inserted values: keep them out of log lines. */
    private readonly quotesValues: boolean,
    /** Parameter texts to keep out of the call's error (redact.ts). */
    private readonly secrets: string[],
    readonly ctx: QueryChannelContext,
  ) {
    if (transport.kind === 'chdb') ctx.host = 'chdb';
    this.events = {
      attempt: (host) => {
        ctx.host = host;
        span?.server(host);
        progress?.poll(transport, host);
      },
      retry: ({ attempt, host, error, delayMs }) => {
        span?.retry(attempt, host, error, delayMs);
        log?.write('info', { queryId: ctx.queryId, kind: ctx.kind, host, attempt, delayMs, error: errorType(error) },
          `chwire ${ctx.kind} ${ctx.queryId}: attempt ${attempt} failed on ${host} (${errorType(error)}), retrying in ${delayMs} ms`);
      },
    };
    channel?.start.publish(ctx);
    channel?.end.publish(ctx);
  }

  /** The W3C trace context of this call's span (for the client's own requests on its behalf: the version probe). */
  traceparent(): string | undefined {
    return this.span?.traceparent();
  }

  /** The request with this call's trace context and event hooks (and its body counted, for inserts). */
  request(req: TransportRequest): TransportRequest {
    const out: TransportRequest = { ...req, events: this.events };
    const tp = this.span?.traceparent();
    if (tp !== undefined) out.traceparent = tp;
    if (req.body !== undefined) out.body = this.countBody(req.body);
    return out;
  }

  /** The request was handed to the transport: progress polls start (if no attempt hook started them). */
  sent(): void {
    this.requested = true;
    this.progress?.poll(this.transport, this.ctx.host);
  }

  /** The response with its body counted; its head's summary is a progress event. */
  response(res: TransportResponse): TransportResponse {
    if (res.host !== undefined) this.ctx.host = res.host;
    this.progress?.summary(res.summary);
    // Bytes are counted (and slow consumers seen) only for someone who reads them.
    if (this.log === undefined && this.channel === undefined && this.span === undefined) return res;
    this.ctx.bytes ??= 0;
    const call = this;
    const inner = res.body;
    const body: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]() {
        const it = inner[Symbol.asyncIterator]();
        let handedAt = 0;
        return {
          async next(): Promise<IteratorResult<Uint8Array>> {
            if (handedAt !== 0) call.pulled(performance.now() - handedAt);
            const r = await it.next();
            if (r.done !== true) {
              call.ctx.bytes! += r.value.length;
              handedAt = performance.now();
            }
            return r;
          },
          return(v?: unknown): Promise<IteratorResult<Uint8Array>> {
            return it.return !== undefined ? it.return(v) : Promise.resolve({ value: undefined, done: true });
          },
        };
      },
    };
    // The response's other members are functions and fields: copied; the body is replaced.
    return { ...res, body };
  }

  private countBody(b: NonNullable<TransportRequest['body']>): NonNullable<TransportRequest['body']> {
    const ctx = this.ctx;
    ctx.bytes ??= 0;
    const wrap = (src: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> => (async function* () {
      for await (const c of src) {
        ctx.bytes! += c.length;
        yield c;
      }
    })();
    // A body that can be produced again (a function, for retried inserts) stays one.
    if (typeof b === 'function') return ((): AsyncIterable<Uint8Array> => { ctx.bytes = 0; return wrap((b as () => AsyncIterable<Uint8Array>)()); }) as unknown as AsyncIterable<Uint8Array>;
    return wrap(b);
  }

  /** The consumer asked for the next chunk `gapMs` after the previous one was handed over. */
  private pulled(gapMs: number): void {
    if (this.slowReported || this.slowConsumerMs === 0 || gapMs < this.slowConsumerMs || this.log === undefined) return;
    this.slowReported = true;
    const ctx = this.ctx;
    this.log.write('warn', { queryId: ctx.queryId, kind: ctx.kind, host: ctx.host, gapMs: Math.round(gapMs) },
      `chwire ${ctx.kind} ${ctx.queryId}: slow consumer, ${Math.round(gapMs)} ms between reads of the response (the server waits meanwhile, and gives up after its send timeout)`);
  }

  /** Ends the call once: final progress event, span, channel, log line. `summary`: for the final progress event. */
  end(error: unknown, rows: number | undefined, summary?: TransportResponse['summary']): void {
    if (this.ended) return;
    this.ended = true;
    if (error !== undefined) redactError(error, this.secrets);
    const ctx = this.ctx;
    ctx.rows = rows;
    this.progress?.end(summary);
    this.span?.end(error, rows);
    const ms = Math.round((performance.now() - this.t0) * 10) / 10;
    const ch = this.channel;
    if (error !== undefined) {
      ctx.error = error;
      ch?.error.publish(ctx);
    }
    ch?.asyncStart.publish(ctx);
    ch?.asyncEnd.publish(ctx);
    const log = this.log;
    if (log === undefined) return;
    if (error === undefined) {
      if (!log.on('debug')) return;
      log.write('debug', { queryId: ctx.queryId, kind: ctx.kind, host: ctx.host, elapsedMs: ms, rows, bytes: ctx.bytes, sql: sqlForLog(ctx.sql) },
        `chwire ${ctx.kind} ${ctx.queryId} ok in ${ms} ms${rows !== undefined ? `, ${rows} rows` : ''}${ctx.bytes !== undefined ? `, ${ctx.bytes} bytes` : ''}${ctx.host !== undefined ? ` (${ctx.host})` : ''}`);
      return;
    }
    const level = levelOf(error);
    if (!log.on(level)) return;
    const fields: LogFields = { queryId: ctx.queryId, kind: ctx.kind, host: ctx.host, elapsedMs: ms, error: errorFields(error, this.quotesValues) };
    if (log.on('debug')) fields['sql'] = sqlForLog(ctx.sql);
    log.write(level, fields, `chwire ${ctx.kind} ${ctx.queryId} failed after ${ms} ms: ${describe(error, this.quotesValues)}`);
  }
}

/**
 * How loud a failure is: an abort was asked for (info); a server error or a bad input fails the
 * call but leaves the client sound (warn); a connection, timeout or decode failure means the
 * transport or the data is broken (error).
 */
function levelOf(e: unknown): 'info' | 'warn' | 'error' {
  if (e instanceof ChwireAbortError) return 'info';
  if (e instanceof ChwireServerError || e instanceof ChwireEncodeError || e instanceof ChwireConfigError) return 'warn';
  if (e instanceof ChwireConnectionError || e instanceof ChwireTimeoutError || e instanceof ChwireDecodeError) return 'error';
  return 'error';
}

/** Whether an error's message can be logged: not when it may quote a value the caller sent. */
function messageIsSafe(e: unknown, quotesValues: boolean): boolean {
  if (e instanceof ChwireEncodeError) return false; // it names the offending value
  if (e instanceof ChwireServerError) return !quotesValues;
  return isChwireError(e);
}

function errorFields(e: unknown, quotesValues: boolean): Record<string, string | number | undefined> {
  const f: Record<string, string | number | undefined> = { type: errorType(e) };
  if (isChwireError(e)) f['code'] = e.code;
  if (e instanceof ChwireServerError) { f['serverCode'] = e.serverCode; f['serverName'] = e.serverName; }
  if (messageIsSafe(e, quotesValues)) f['message'] = (e as Error).message.slice(0, 1024);
  return f;
}

function describe(e: unknown, quotesValues: boolean): string {
  if (messageIsSafe(e, quotesValues)) return (e as Error).message.slice(0, 1024);
  if (e instanceof ChwireServerError) return `server error ${e.serverCode}${e.serverName !== undefined ? ` ${e.serverName}` : ''} (message not logged: it may quote the values sent)`;
  if (e instanceof ChwireEncodeError) return `${e.name} in column ${JSON.stringify(e.column)}, row ${e.row}: expected ${e.expected}`;
  return errorType(e);
}
