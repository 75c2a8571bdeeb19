// The `tracing` option: one OpenTelemetry span per call, named and attributed per the database
// semantic conventions, and the W3C `traceparent` the server needs to join the trace.
// Invariants: `@opentelemetry/api` (an optional peer dependency) is imported only when tracing is
// on, once per client, and a missing package is a ChwireConfigError on the first call; the query
// text is an attribute only with `includeQueryText: true`; no attribute or event carries a
// credential, a parameter value or an inserted value (only call metadata is written here).
import type * as OTel from '@opentelemetry/api';
import { ChwireConfigError, ChwireServerError, isChwireError } from '../../errors.js';

export interface TracingOptions {
  /** Your tracer; default `trace.getTracer('chwire')` from the global provider. */
  tracer?: OTel.Tracer;
  /** Add the SQL as `db.query.text` (it may carry literal values). Default false. */
  includeQueryText?: boolean;
}

type Api = typeof OTel;

export class Tracing {
  private api: Api | undefined;
  private failure: unknown;
  private readonly loading: Promise<void>;

  constructor(private readonly opts: TracingOptions) {
    // A specifier in a variable: bundlers leave the optional dependency alone.
    const id = '@opentelemetry/api';
    this.loading = (import(id) as Promise<Api & { default?: Api }>).then(
      (m) => { this.api = typeof m.trace === 'object' ? m : m.default; },
      (e: unknown) => { this.failure = e; },
    );
  }

  /** Resolves once the API is loaded; ChwireConfigError when it cannot be. */
  async ready(): Promise<void> {
    if (this.api === undefined && this.failure === undefined) await this.loading;
    if (this.api === undefined) {
      throw new ChwireConfigError('option tracing needs the optional peer dependency @opentelemetry/api: run `npm install @opentelemetry/api`', { cause: this.failure });
    }
  }

  get loaded(): boolean {
    return this.api !== undefined;
  }

  /** Starts the span of one call (ready() must have resolved). */
  start(kind: string, sql: string | undefined, queryId: string, database: string | undefined, table: string | undefined): CallSpan {
    const api = this.api!;
    const tracer = this.opts.tracer ?? api.trace.getTracer('chwire');
    const operation = operationOf(kind, sql);
    const attributes: OTel.Attributes = {
      'db.system.name': 'clickhouse',
      'db.operation.name': operation,
      'clickhouse.query.id': queryId,
    };
    if (database !== undefined && database !== '') attributes['db.namespace'] = database;
    if (table !== undefined) attributes['db.collection.name'] = table;
    if (this.opts.includeQueryText === true && sql !== undefined) attributes['db.query.text'] = sql;
    // Span name per the conventions: `{operation} {target}`, the target being the table when known.
    const name = table !== undefined ? `${operation} ${table}` : operation;
    const span = tracer.startSpan(name, { kind: api.SpanKind.CLIENT, attributes }, api.context.active());
    return new CallSpan(api, span);
  }
}

export class CallSpan {
  constructor(private readonly api: Api, readonly span: OTel.Span) {}

  /** The W3C trace context header for the request, when the span has a valid context. */
  traceparent(): string | undefined {
    const sc = this.span.spanContext();
    if (!this.api.trace.isSpanContextValid(sc)) return undefined;
    return `00-${sc.traceId}-${sc.spanId}-${(sc.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
  }

  server(host: string): void {
    const m = /^(.*):(\d+)$/.exec(host);
    this.span.setAttribute('server.address', (m?.[1] ?? host).replace(/^\[|\]$/g, ''));
    if (m !== null) this.span.setAttribute('server.port', Number(m[2]));
  }

  retry(attempt: number, host: string | undefined, error: unknown, delayMs: number): void {
    const attrs: OTel.Attributes = { 'chwire.attempt': attempt, 'error.type': errorType(error), 'chwire.retry.delay_ms': delayMs };
    if (host !== undefined) attrs['server.address'] = host;
    this.span.addEvent('retry', attrs);
  }

  end(error: unknown, rows: number | undefined): void {
    if (rows !== undefined) this.span.setAttribute('db.response.returned_rows', rows);
    if (error !== undefined) {
      this.span.setAttribute('error.type', errorType(error));
      if (error instanceof ChwireServerError && error.serverCode !== 0) this.span.setAttribute('db.response.status_code', String(error.serverCode));
      // The status description is the error class and code, never the message (it may quote values).
      this.span.setStatus({ code: this.api.SpanStatusCode.ERROR, message: errorType(error) });
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
  if (v === true) return new Tracing({});
  if (typeof v !== 'object' || v === null) throw new ChwireConfigError('option tracing must be true, false or { tracer?, includeQueryText? }');
  for (const k of Object.keys(v)) {
    if (k !== 'tracer' && k !== 'includeQueryText') throw new ChwireConfigError(`unknown tracing option ${JSON.stringify(k)}`);
  }
  const o = v as TracingOptions;
  if (o.tracer !== undefined && (typeof o.tracer !== 'object' || o.tracer === null || typeof o.tracer.startSpan !== 'function')) {
    throw new ChwireConfigError('option tracing.tracer must be an OpenTelemetry Tracer (with startSpan)');
  }
  if (o.includeQueryText !== undefined && typeof o.includeQueryText !== 'boolean') throw new ChwireConfigError('option tracing.includeQueryText must be a boolean');
  return new Tracing(o);
}
