// The `tracing` option: one OpenTelemetry span per call, named and attributed per the database
// semantic conventions, and the W3C `traceparent` the server needs to join the trace.
// Invariants: this module imports no OpenTelemetry package: the tracer is the app's, given as
// `{ tracer }`, or (Node entry only, `tracing: true`) looked up by the loader the entry attaches
// under GLOBAL_TRACER (observe/otel-global.ts, which imports `@opentelemetry/api` once per
// client on the first call; a missing package is a ChwireConfigError then). So a bundle of
// chwire/web holds no import of a package the app did not ask for. The `.d.ts` needs no
// OpenTelemetry package: the types below are the structural subset used. The query text is an
// attribute only with `includeQueryText: true`; no attribute or event carries a credential, a
// parameter value or an inserted value (only call metadata is written here).
import { ChwireConfigError, ChwireServerError, isChwireError } from '../../errors.js';

type Attributes = Record<string, string | number | boolean>;

/** The part of an OpenTelemetry `Span` chwire uses. */
export interface TracingSpan {
  spanContext(): { traceId: string; spanId: string; traceFlags: number };
  setAttribute(key: string, value: string | number | boolean): unknown;
  addEvent(name: string, attributes?: Attributes): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}

/** The part of an OpenTelemetry `Tracer` chwire uses (any `Tracer` from `@opentelemetry/api` fits). */
export interface TracingTracer {
  startSpan(name: string, options?: { kind?: number; attributes?: Attributes }, context?: unknown): TracingSpan;
}

/** The part of `@opentelemetry/api` used to parent a child span on the active context. */
export interface TraceApi {
  trace: { getTracer(name: string): TracingTracer; setSpan(context: unknown, span: TracingSpan): unknown };
  context: { active(): unknown };
}

// The API's context key of the active span: `createContextKey` makes it with Symbol.for, so it is
// the same symbol in every copy of the API (and the SDK's tracer reads the parent with it).
const SPAN_KEY = Symbol.for('OpenTelemetry Context Key SPAN');

/** A context holding `span` only, for a `{ tracer }` without the API loaded (structurally an API Context). */
function contextWith(values: ReadonlyMap<symbol, unknown>): unknown {
  return {
    getValue: (k: symbol): unknown => values.get(k),
    setValue: (k: symbol, v: unknown): unknown => contextWith(new Map(values).set(k, v)),
    deleteValue: (k: symbol): unknown => { const m = new Map(values); m.delete(k); return contextWith(m); },
  };
}

export interface TracingOptions {
  /** Your tracer; default `trace.getTracer('chwire')` from the global provider (needs `@opentelemetry/api`). */
  tracer?: TracingTracer;
  /** Add the SQL as `db.query.text` (it may carry literal values). Default false. */
  includeQueryText?: boolean;
}

// Values of the API's enums (stable since 1.0).
const SPAN_KIND_CLIENT = 2;
const STATUS_ERROR = 2;

/**
 * Where the Node entry attaches its loader of the global tracer (`trace.getTracer('chwire')`) to
 * the tracing option, for `tracing: true` or `{ includeQueryText }` without a tracer. A symbol:
 * not an option a user can spell, and invisible to the option check's Object.keys.
 */
export const GLOBAL_TRACER = Symbol('chwire.globalTracer');

/** Loads the tracer of the global provider (and the API, to parent child spans on its context); rejects when `@opentelemetry/api` is missing. */
export type GlobalTracerLoader = () => Promise<{ tracer: TracingTracer; api: TraceApi | undefined }>;

interface TracingInput extends TracingOptions {
  [GLOBAL_TRACER]?: GlobalTracerLoader;
}

export class Tracing {
  private tracer: TracingTracer | undefined;
  private api: TraceApi | undefined;
  private failure: unknown;
  private readonly loading: Promise<void> | undefined;

  constructor(private readonly opts: TracingOptions, loadGlobal?: GlobalTracerLoader) {
    this.tracer = opts.tracer;
    if (this.tracer === undefined && loadGlobal !== undefined) {
      this.loading = loadGlobal().then(
        (g) => { this.api = g.api; this.tracer = g.tracer; },
        (e: unknown) => { this.failure = e; },
      );
    }
  }

  /** Resolves once the tracer is there; ChwireConfigError when the API cannot be loaded. */
  async ready(): Promise<void> {
    if (this.tracer === undefined && this.failure === undefined) await this.loading;
    if (this.tracer === undefined) {
      throw new ChwireConfigError('option tracing: true needs the optional peer dependency @opentelemetry/api: run `npm install @opentelemetry/api` (or pass { tracer })', { cause: this.failure });
    }
  }

  get loaded(): boolean {
    return this.tracer !== undefined;
  }

  /**
   * Starts the span of one call (ready() must have resolved). With `parent` (the client's own query
   * made for a call, such as an insert's DESCRIBE), the span is that call's child and says it is internal.
   */
  start(kind: string, sql: string | undefined, queryId: string, database: string | undefined, table: string | undefined, parent?: CallSpan): CallSpan {
    const tracer = this.tracer!;
    const operation = operationOf(kind, sql);
    const attributes: Attributes = {
      'db.system.name': 'clickhouse',
      'db.operation.name': operation,
      'clickhouse.query.id': queryId,
    };
    if (database !== undefined && database !== '') attributes['db.namespace'] = database;
    if (table !== undefined) attributes['db.collection.name'] = table;
    if (this.opts.includeQueryText === true && sql !== undefined) attributes['db.query.text'] = sql;
    if (parent !== undefined) attributes['chwire.internal'] = true;
    // Span name per the conventions: `{operation} {target}`, the target being the table when known.
    const name = table !== undefined ? `${operation} ${table}` : operation;
    // The tracer parents the span on the active context (the caller's span, when there is one);
    // an internal query's span on the span of the call it serves.
    const context = parent === undefined ? undefined
      : this.api !== undefined ? this.api.trace.setSpan(this.api.context.active(), parent.span) : contextWith(new Map([[SPAN_KEY, parent.span]]));
    const span = context === undefined ? tracer.startSpan(name, { kind: SPAN_KIND_CLIENT, attributes }) : tracer.startSpan(name, { kind: SPAN_KIND_CLIENT, attributes }, context);
    return new CallSpan(span);
  }
}

export class CallSpan {
  constructor(readonly span: TracingSpan) {}

  /** The W3C trace context header for the request, when the span has a valid context. */
  traceparent(): string | undefined {
    const sc = this.span.spanContext();
    if (!/^[0-9a-f]{32}$/.test(sc.traceId) || /^0+$/.test(sc.traceId) || !/^[0-9a-f]{16}$/.test(sc.spanId) || /^0+$/.test(sc.spanId)) return undefined;
    return `00-${sc.traceId}-${sc.spanId}-${(sc.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
  }

  server(host: string): void {
    const m = /^(.*):(\d+)$/.exec(host);
    this.span.setAttribute('server.address', (m?.[1] ?? host).replace(/^\[|\]$/g, ''));
    if (m !== null) this.span.setAttribute('server.port', Number(m[2]));
  }

  retry(attempt: number, host: string | undefined, error: unknown, delayMs: number): void {
    const attrs: Attributes = { 'chwire.attempt': attempt, 'error.type': errorType(error), 'chwire.retry.delay_ms': delayMs };
    if (host !== undefined) attrs['server.address'] = host;
    this.span.addEvent('retry', attrs);
  }

  end(error: unknown, rows: number | undefined): void {
    if (rows !== undefined) this.span.setAttribute('db.response.returned_rows', rows);
    if (error !== undefined) {
      this.span.setAttribute('error.type', errorType(error));
      if (error instanceof ChwireServerError && error.serverCode !== 0) this.span.setAttribute('db.response.status_code', String(error.serverCode));
      // The status description is the error class and code, never the message (it may quote values).
      this.span.setStatus({ code: STATUS_ERROR, message: errorType(error) });
    }
    this.span.end();
  }
}

/** Low-cardinality error identifier: the server's error name, else the error class. */
export function errorType(e: unknown): string {
  if (e instanceof ChwireServerError && e.serverName !== undefined) return e.serverName;
  if (isChwireError(e)) return e.name;
  return e instanceof Error ? e.name : '_OTHER';
}

/** `db.operation.name`: the statement's first keyword (SELECT, INSERT, CREATE…), or the call for ping. */
export function operationOf(kind: string, sql: string | undefined): string {
  if (sql === undefined) return kind;
  const m = /^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/|\()*([A-Za-z]+)/.exec(sql);
  return m !== null ? m[1]!.toUpperCase() : kind;
}

export function resolveTracing(v: unknown): Tracing | undefined {
  if (v === undefined || v === false) return undefined;
  if (typeof v !== 'object' && v !== true || v === null) throw new ChwireConfigError('option tracing must be true, false or { tracer?, includeQueryText? }');
  if (v === true) v = {};
  for (const k of Object.keys(v as object)) {
    if (k !== 'tracer' && k !== 'includeQueryText') throw new ChwireConfigError(`unknown tracing option ${JSON.stringify(k)}`);
  }
  const o = v as TracingInput;
  if (o.tracer !== undefined && (typeof o.tracer !== 'object' || o.tracer === null || typeof o.tracer.startSpan !== 'function')) {
    throw new ChwireConfigError('option tracing.tracer must be an OpenTelemetry Tracer (with startSpan)');
  }
  if (o.includeQueryText !== undefined && typeof o.includeQueryText !== 'boolean') throw new ChwireConfigError('option tracing.includeQueryText must be a boolean');
  const loadGlobal = o[GLOBAL_TRACER];
  if (o.tracer === undefined && loadGlobal === undefined) {
    // chwire/web: no global lookup (it would be an import the app did not ask for).
    throw new ChwireConfigError('option tracing needs a tracer here: pass tracing: { tracer: trace.getTracer(\'my-app\') } from your @opentelemetry/api (only the chwire entry on Node looks up the global provider for tracing: true)');
  }
  return new Tracing({ tracer: o.tracer, includeQueryText: o.includeQueryText }, loadGlobal);
}
