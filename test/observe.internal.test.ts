// The client's own requests in observability (issue 17 item 13): an insert's DESCRIBE is a child
// span of the INSERT span and, on the `chwire:query` channel, a `describe` with the insert's query
// id as `parentQueryId` (never a `streamRaw` the app did not make); the version probe and KILL QUERY
// carry the `traceparent` of the call they serve. Real OpenTelemetry SDK; the loopback server
// (headers recorded) and the real 18.16 server.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createClient, ChwireAbortError } from '../src/index.js';
import { startTestServer } from './support/test-server.js';
import { REAL_URL, SKIP_REAL, realClient, uniqueName } from './support/ch-server.js';
import { channelEvents } from './support/query-channel.js';

const server = await startTestServer();
after(async () => { await server.close(); });

function otel(): { exporter: InMemorySpanExporter; tracer: ReturnType<BasicTracerProvider['getTracer']> } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, tracer: provider.getTracer('test') };
}
type Finished = ReturnType<InMemorySpanExporter['getFinishedSpans']>[number];
const parentOf = (s: Finished): string | undefined => (s as unknown as { parentSpanContext?: { spanId: string }; parentSpanId?: string }).parentSpanContext?.spanId
  ?? (s as unknown as { parentSpanId?: string }).parentSpanId;
const traceparentOf = (s: Finished): string => `00-${s.spanContext().traceId}-${s.spanContext().spanId}-01`;

test('an insert\'s DESCRIBE (18.16: one per insert) is a child span of the INSERT and a `describe` child on the channel, not a streamRaw', { skip: SKIP_REAL, timeout: 30_000 }, async () => {
  const table = uniqueName('obs_describe');
  const admin = realClient();
  await admin.execute(`CREATE TABLE ${table} (n UInt32) ENGINE = Memory`);
  const { exporter, tracer } = otel();
  const ch = channelEvents();
  const c = createClient({ url: REAL_URL, tracing: { tracer }, requestTimeout: 10_000 });
  try {
    await c.insert(table, [{ n: 1 }, { n: 2 }], { queryId: 'obs-ins-1' });
    await c.insert(table, [{ n: 3 }], { queryId: 'obs-ins-2' });
  } finally {
    ch.stop();
    await c.close();
    await admin.execute(`DROP TABLE ${table}`);
    await admin.close();
  }
  const spans = exporter.getFinishedSpans();
  for (const id of ['obs-ins-1', 'obs-ins-2']) {
    const insert = spans.find((s) => s.attributes['clickhouse.query.id'] === id)!;
    assert.equal(insert.name, `INSERT ${table}`);
    const children = spans.filter((s) => parentOf(s) === insert.spanContext().spanId);
    assert.equal(children.length, 1, `one DESCRIBE under ${id}: ${spans.map((s) => `${s.name}<${String(parentOf(s))}`).join(', ')}`);
    assert.equal(children[0]!.name, 'DESCRIBE');
    assert.equal(children[0]!.attributes['chwire.internal'], true);
    assert.equal(children[0]!.spanContext().traceId, insert.spanContext().traceId);
  }
  assert.ok(!spans.some((s) => s.name === 'DESCRIBE' && parentOf(s) === undefined), 'no DESCRIBE at the root');
  assert.ok(!ch.events.some((e) => e['kind'] === 'streamRaw'), `no streamRaw the app never made: ${JSON.stringify(ch.events.map((e) => e['kind']))}`);
  const describes = ch.events.filter((e) => e['kind'] === 'describe');
  assert.deepEqual(describes.map((e) => e['parentQueryId']), ['obs-ins-1', 'obs-ins-2']);
  assert.deepEqual(ch.events.filter((e) => e['parentQueryId'] === undefined).map((e) => e['kind']), ['insert', 'insert']);
});

test('the version probe carries the traceparent of the call that needed it', async () => {
  const { exporter, tracer } = otel();
  const c = createClient({ url: server.url, tracing: { tracer }, requestTimeout: 5000 });
  const before = server.requests.length;
  await c.fetchValue('SELECT 1 AS x /* obs-probe */', { queryId: 'obs-probe' });
  await c.close();
  const span = exporter.getFinishedSpans().find((s) => s.attributes['clickhouse.query.id'] === 'obs-probe')!;
  const probe = server.requests.slice(before).find((r) => /version\(\)/.test(r.sql));
  assert.ok(probe !== undefined, 'the probe was sent');
  assert.equal(probe.headers['traceparent'], traceparentOf(span));
  // The insert path too: its probe is the insert's.
  const o = otel();
  const d = createClient({ url: server.url, tracing: { tracer: o.tracer }, requestTimeout: 5000 });
  const mark = server.requests.length;
  await d.insert('t_obs_probe', (async function* () { yield Buffer.from('{"a":1}\n'); })(), { format: 'JSONEachRow', queryId: 'obs-probe-ins' }).catch(() => undefined);
  await d.close();
  const ins = o.exporter.getFinishedSpans().find((s) => s.attributes['clickhouse.query.id'] === 'obs-probe-ins')!;
  const probe2 = server.requests.slice(mark).find((r) => /version\(\)/.test(r.sql));
  assert.equal(probe2?.headers['traceparent'], traceparentOf(ins));
});

test('KILL QUERY after an abort carries the traceparent of the aborted call', async () => {
  const { exporter, tracer } = otel();
  const c = createClient({ url: server.url, tracing: { tracer }, requestTimeout: 5000 });
  await c.fetchValue('SELECT 1 AS x'); // the version is known
  server.fault('/* obs-kill */', { kind: 'stall', at: 0 });
  const ac = new AbortController();
  const p = c.fetch('SELECT number FROM numbers(10) /* obs-kill */', { queryId: 'obs-kill', signal: ac.signal });
  await new Promise((r) => setTimeout(r, 300));
  ac.abort();
  await assert.rejects(p, ChwireAbortError);
  for (let i = 0; i < 50 && !server.requests.some((r) => /KILL QUERY/.test(r.sql) && r.sql.includes('obs-kill')); i++) await new Promise((r) => setTimeout(r, 20));
  await c.close();
  const span = exporter.getFinishedSpans().find((s) => s.attributes['clickhouse.query.id'] === 'obs-kill')!;
  const kill = server.requests.find((r) => /KILL QUERY/.test(r.sql) && r.sql.includes('obs-kill'));
  assert.ok(kill !== undefined, 'KILL QUERY sent');
  assert.equal(kill.headers['traceparent'], traceparentOf(span));
});
