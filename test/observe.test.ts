// Observability against the loopback server (answers made by the embedded engine): the logger's
// lines and levels, the `chwire:query` tracing channel, OpenTelemetry spans (in-memory exporter)
// and the traceparent header the server received, onProgress's final event, option validation.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import dc from 'node:diagnostics_channel';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createClient, ChwireAbortError, ChwireConfigError, ChwireServerError, type ClientOptions } from '../src/index.js';
import type { Progress } from '../src/client/observe/progress.js';
import { startTestServer } from './support/test-server.js';

const server = await startTestServer();
after(async () => { await server.close(); });

const client = (over: ClientOptions = {}) => createClient({ url: server.url, requestTimeout: 5000, ...over });

interface Line { level: string; fields: Record<string, unknown>; msg: string }
/** A logger with pino's call shape `(fields, message)` that keeps every line. */
function recorder(): { logger: Required<NonNullable<ClientOptions['logger']>>; lines: Line[] } {
  const lines: Line[] = [];
  const at = (level: string) => (fields: Record<string, unknown>, msg: string): void => { lines.push({ level, fields, msg }); };
  return { lines, logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } as never };
}

test('logger at debug: one line per call with query id, host, kind, elapsed, rows and bytes', async () => {
  const { logger, lines } = recorder();
  const c = client({ logger, logLevel: 'debug' });
  const rows = await c.fetch('SELECT number FROM numbers(10) /* log-fetch */', { queryId: 'q-log-1' });
  await c.execute('SELECT 1 /* log-exec */', { queryId: 'q-log-2' });
  const s = c.stream('SELECT number FROM numbers(7) /* log-stream */', { queryId: 'q-log-3' });
  let n = 0;
  for await (const _ of s) n++;
  await c.close();
  assert.equal(rows.length, 10);
  assert.equal(n, 7);
  const fetchLine = lines.find((l) => l.fields['queryId'] === 'q-log-1')!;
  assert.equal(fetchLine.level, 'debug');
  assert.equal(fetchLine.fields['kind'], 'fetch');
  assert.equal(fetchLine.fields['host'], new URL(server.url).host);
  assert.equal(fetchLine.fields['rows'], 10);
  assert.ok((fetchLine.fields['bytes'] as number) > 0);
  assert.equal(typeof fetchLine.fields['elapsedMs'], 'number');
  assert.match(fetchLine.fields['sql'] as string, /log-fetch/);
  assert.match(fetchLine.msg, /chwire fetch q-log-1 ok/);
  assert.equal(lines.find((l) => l.fields['queryId'] === 'q-log-2')?.fields['kind'], 'execute');
  assert.equal(lines.find((l) => l.fields['queryId'] === 'q-log-3')?.fields['rows'], 7);
});

test('logger: default level warn writes failures only, with the error class and server code; SQL cut at 1 KiB at debug', async () => {
  const { logger, lines } = recorder();
  const c = client({ logger });
  await c.fetch('SELECT 1');
  await assert.rejects(c.fetch('SELECT * FROM no_such_table_x', { queryId: 'q-fail' }), ChwireServerError);
  const ac = new AbortController();
  ac.abort();
  await assert.rejects(c.fetch('SELECT 2', { signal: ac.signal }), ChwireAbortError);
  await c.close();
  assert.equal(lines.length, 1, 'success at debug and the abort at info are below warn');
  assert.equal(lines[0]!.level, 'warn');
  assert.equal(lines[0]!.fields['queryId'], 'q-fail');
  assert.equal((lines[0]!.fields['error'] as Record<string, unknown>)['serverCode'], 60);
  assert.equal(lines[0]!.fields['sql'], undefined, 'SQL text only at debug');

  const d = recorder();
  const c2 = client({ logger: d.logger, logLevel: 'debug' });
  const long = `SELECT 1 /* ${'x'.repeat(3000)} */`;
  await c2.fetch(long);
  await c2.close();
  const sql = d.lines[0]!.fields['sql'] as string;
  assert.ok(sql.startsWith(long.slice(0, 1024)) && sql.length < 1100, 'cut at 1 KiB');
});

test('logger works with console-shaped and pino-shaped loggers (methods called on the logger)', async () => {
  // pino's methods use `this`: the call must be a method call.
  const got: unknown[][] = [];
  const pinoLike = {
    level: 'debug',
    debug(this: { level: string }, ...args: unknown[]) { assert.equal(this.level, 'debug'); got.push(args); },
  };
  const c = client({ logger: pinoLike, logLevel: 'debug' });
  await c.fetch('SELECT 1');
  await c.close();
  assert.equal(got.length, 1);
  assert.equal(typeof got[0]![0], 'object');
  assert.equal(typeof got[0]![1], 'string');
  // console: printing the (fields, message) pair must not throw.
  const c2 = client({ logger: { debug: (...a: unknown[]) => { void String(a.map((x) => typeof x)); } }, logLevel: 'debug' });
  await c2.fetchValue('SELECT 1');
  await c2.close();
});

test('option validation: logger, logLevel, tracing, progressInterval, onProgress', async () => {
  assert.throws(() => client({ logLevel: 'loud' as never }), (e: Error) => e instanceof ChwireConfigError && /logLevel/.test(e.message));
  assert.throws(() => client({ logger: 'console' as never }), (e: Error) => e instanceof ChwireConfigError && /logger/.test(e.message));
  assert.throws(() => client({ logger: { info: 1 } as never }), (e: Error) => e instanceof ChwireConfigError && /logger\.info/.test(e.message));
  assert.throws(() => client({ tracing: 'yes' as never }), (e: Error) => e instanceof ChwireConfigError && /tracing/.test(e.message));
  assert.throws(() => client({ tracing: { tracr: {} } as never }), (e: Error) => e instanceof ChwireConfigError && /tracr/.test(e.message));
  assert.throws(() => client({ progressInterval: -1 }), (e: Error) => e instanceof ChwireConfigError && /progressInterval/.test(e.message));
  const c = client();
  await assert.rejects(c.fetch('SELECT 1', { onProgress: 5 as never }), (e: Error) => e instanceof ChwireConfigError && /onProgress/.test(e.message));
  await assert.rejects(c.fetch('SELECT 1', { onProgress: () => undefined, progressInterval: Number.NaN }), (e: Error) => e instanceof ChwireConfigError && /progressInterval/.test(e.message));
  await c.close();
});

test('diagnostics_channel chwire:query: start/end/asyncStart/asyncEnd (and error) with one context per call', async () => {
  const events: [string, Record<string, unknown>][] = [];
  const tc = dc.tracingChannel('chwire:query');
  const handlers = {
    start: (m: unknown) => events.push(['start', { ...(m as object) }]),
    end: (m: unknown) => events.push(['end', { ...(m as object) }]),
    asyncStart: (m: unknown) => events.push(['asyncStart', { ...(m as object) }]),
    asyncEnd: (m: unknown) => events.push(['asyncEnd', { ...(m as object) }]),
    error: (m: unknown) => events.push(['error', { ...(m as object) }]),
  };
  const c = client({ database: 'default' });
  tc.subscribe(handlers as never);
  try {
    await c.fetch('SELECT number FROM numbers(3)', { queryId: 'q-dc-1' });
    await assert.rejects(c.fetch('SELECT * FROM no_such_table_y', { queryId: 'q-dc-2' }));
  } finally {
    tc.unsubscribe(handlers as never);
  }
  await c.fetch('SELECT 1', { queryId: 'q-dc-3' }); // no subscriber: nothing published
  await c.close();
  const ok = events.filter(([, m]) => m['queryId'] === 'q-dc-1');
  assert.deepEqual(ok.map(([k]) => k), ['start', 'end', 'asyncStart', 'asyncEnd']);
  const last = ok[3]![1];
  assert.equal(last['kind'], 'fetch');
  assert.equal(last['sql'], 'SELECT number FROM numbers(3)');
  assert.equal(last['database'], 'default');
  assert.equal(last['host'], new URL(server.url).host);
  assert.equal(last['rows'], 3);
  assert.ok((last['bytes'] as number) > 0);
  assert.equal(last['error'], undefined);
  const bad = events.filter(([, m]) => m['queryId'] === 'q-dc-2');
  assert.deepEqual(bad.map(([k]) => k), ['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
  assert.ok(bad[2]![1]['error'] instanceof ChwireServerError);
  assert.equal(events.filter(([, m]) => m['queryId'] === 'q-dc-3').length, 0);
});

test('OpenTelemetry: one span per call with the database conventions, traceparent sent, query text only when asked', async () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('test');
  const c = client({ tracing: { tracer }, database: 'default' });
  await c.fetch('SELECT number FROM numbers(4) /* otel-1 */', { queryId: 'q-otel-1' });
  await assert.rejects(c.fetch('SELECT * FROM no_such_table_z /* otel-2 */', { queryId: 'q-otel-2' }), ChwireServerError);
  await c.insert('t_otel', (async function* () { yield Buffer.from('{"a":1}\n'); })(), { format: 'JSONEachRow', queryId: 'q-otel-3' });
  await c.ping();
  await c.close();
  const spans = exporter.getFinishedSpans();
  const byId = (id: string) => spans.find((s) => s.attributes['clickhouse.query.id'] === id)!;
  const s1 = byId('q-otel-1');
  assert.equal(s1.name, 'SELECT');
  assert.equal(s1.kind, 2 /* CLIENT */);
  assert.equal(s1.attributes['db.system.name'], 'clickhouse');
  assert.equal(s1.attributes['db.namespace'], 'default');
  assert.equal(s1.attributes['db.operation.name'], 'SELECT');
  assert.equal(s1.attributes['server.address'], '127.0.0.1');
  assert.equal(s1.attributes['server.port'], Number(new URL(server.url).port));
  assert.equal(s1.attributes['db.response.returned_rows'], 4);
  assert.equal(s1.attributes['db.query.text'], undefined, 'no query text unless includeQueryText');
  const sent = server.requests.find((r) => r.params.get('query_id') === 'q-otel-1')!;
  const tp = String(sent.headers['traceparent']);
  assert.equal(tp, `00-${s1.spanContext().traceId}-${s1.spanContext().spanId}-01`);
  const s2 = byId('q-otel-2');
  assert.equal(s2.status.code, 2 /* ERROR */);
  assert.equal(s2.attributes['error.type'], 'UNKNOWN_TABLE');
  assert.equal(s2.attributes['db.response.status_code'], '60');
  const s3 = byId('q-otel-3');
  assert.equal(s3.name, 'INSERT t_otel');
  assert.equal(s3.attributes['db.collection.name'], 't_otel');
  assert.ok(spans.some((s) => s.name === 'ping'));

  const exporter2 = new InMemorySpanExporter();
  const p2 = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter2)] });
  const c2 = client({ tracing: { tracer: p2.getTracer('t'), includeQueryText: true } });
  await c2.fetchValue('SELECT 42 /* with-text */');
  await c2.close();
  assert.equal(exporter2.getFinishedSpans()[0]!.attributes['db.query.text'], 'SELECT 42 /* with-text */');
});

test('OpenTelemetry: a failover to the next host is a retry event on the span', async () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const { logger, lines } = recorder();
  const first = await startTestServer();
  const c = createClient({ url: [first.url, server.url], tracing: { tracer: provider.getTracer('t') }, logger, logLevel: 'info', requestTimeout: 5000 });
  assert.equal(await c.fetchValue('SELECT 1'), 1); // the first host answers (and its version is known)
  await first.close(); // now it refuses connections
  assert.equal(await c.fetchValue('SELECT 7', { queryId: 'q-retry' }), 7);
  await c.close();
  const span = exporter.getFinishedSpans().find((s) => s.attributes['clickhouse.query.id'] === 'q-retry')!;
  const ev = span.events.find((e) => e.name === 'retry');
  assert.ok(ev !== undefined, 'retry event');
  assert.equal(ev.attributes?.['error.type'], 'ChwireConnectionError');
  assert.ok(lines.some((l) => l.level === 'warn' && /marked down/.test(l.msg)), 'host state change logged');
});

test('onProgress: a fast call still gets exactly one final event, from the summary', async () => {
  const events: Progress[] = [];
  const c = client();
  await c.fetch('SELECT number FROM numbers(5)', { onProgress: (p) => events.push(p) });
  await c.close();
  assert.ok(events.length >= 1);
  const last = events[events.length - 1]!;
  assert.deepEqual(Object.keys(last).sort(), ['elapsedNs', 'readBytes', 'readRows', 'totalRowsToRead', 'writtenBytes', 'writtenRows']);
  assert.equal(last.readRows, 1); // the loopback server's summary says read_rows 1
  assert.equal(last.readBytes, 8);
  assert.ok(last.elapsedNs > 0);
  // No poll of system.processes for a call that ended before its first interval.
  assert.ok(!server.requests.some((r) => r.sql.includes('system.processes')));
});

test('onProgress absent: no poll, even on a slow call', async () => {
  const before = server.requests.length;
  const c = client({ progressInterval: 10 });
  server.fault('/* slow-no-progress */', { kind: 'byte-per-chunk' });
  await c.fetch('SELECT number FROM numbers(20000) /* slow-no-progress */');
  await c.close();
  assert.ok(!server.requests.slice(before).some((r) => r.sql.includes('system.processes')));
});

test('onProgress: a call that stays silent is polled on another connection of the same host', async () => {
  const events: Progress[] = [];
  const c = client({ requestTimeout: 10_000 });
  server.fault('/* stall-progress */', { kind: 'stall', at: 0 });
  const ac = new AbortController();
  const p = c.fetch('SELECT number FROM numbers(3) /* stall-progress */', { signal: ac.signal, progressInterval: 50, onProgress: (e) => events.push(e) });
  // Wait until a few polls went out, then stop the stalled call.
  for (let i = 0; i < 200 && server.requests.filter((r) => r.sql.includes('system.processes')).length < 3; i++) await new Promise((r) => setTimeout(r, 20));
  ac.abort();
  await assert.rejects(p, ChwireAbortError);
  await c.close();
  const polls = server.requests.filter((r) => r.sql.includes('system.processes'));
  assert.ok(polls.length >= 3, `polled ${polls.length} times`);
  assert.ok(polls.every((r) => r.sql.includes("query_id = '") && r.params.get('session_id') === null));
  assert.ok(events.length >= 1, 'the final event came');
});

test('OpenTelemetry: tracing: true uses the global tracer provider (the API loaded on first call)', async () => {
  const api = await import('@opentelemetry/api');
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  assert.ok(api.trace.setGlobalTracerProvider(provider));
  try {
    const c = client({ tracing: true });
    assert.equal(await c.fetchValue('SELECT 5', { queryId: 'q-global' }), 5);
    await c.close();
  } finally {
    api.trace.disable();
  }
  const span = exporter.getFinishedSpans().find((s) => s.attributes['clickhouse.query.id'] === 'q-global');
  assert.ok(span !== undefined);
  const sent = server.requests.find((r) => r.params.get('query_id') === 'q-global')!;
  assert.equal(sent.headers['traceparent'], `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`);
});

test('logger: a slow consumer is logged once at warn; a throwing logger or onProgress never fails the call', async () => {
  const { logger, lines } = recorder();
  const c = client({ logger, slowConsumerMs: 50 });
  let chunks = 0;
  for await (const _ of c.streamRaw('SELECT number FROM numbers(300000)', { format: 'TSV', queryId: 'q-slow' })) {
    if (chunks++ === 1) await new Promise((r) => setTimeout(r, 150));
  }
  assert.ok(chunks > 2, `${chunks} chunks`);
  const slow = lines.filter((l) => /slow consumer/.test(l.msg));
  assert.equal(slow.length, 1);
  assert.equal(slow[0]!.level, 'warn');
  assert.equal(slow[0]!.fields['queryId'], 'q-slow');
  await c.close();

  const boom = (): never => { throw new Error('logger failure'); };
  const c2 = client({ logger: { debug: boom, info: boom, warn: boom, error: boom }, logLevel: 'debug' });
  assert.equal(await c2.fetchValue('SELECT 3', { onProgress: boom }), 3);
  await assert.rejects(c2.fetch('SELECT * FROM no_such_table_w'), ChwireServerError);
  await c2.close();
});

test('an observed empty insert sends nothing and names no query, as an unobserved one', async () => {
  const { logger, lines } = recorder();
  const c = client({ logger, logLevel: 'debug' });
  const before = server.requests.length;
  assert.deepEqual(await c.insert('t', []), { queryId: undefined, summary: undefined });
  await c.close();
  assert.ok(!server.requests.slice(before).some((r) => /INSERT/i.test(r.sql)), 'no insert sent (only the version probe)');
  assert.equal(lines.length, 1); // the debug line of the call itself
});
