// Tracing in chwire/web takes the app's tracer: `{ tracer }` gives one span per call with the
// W3C traceparent sent (the same spans as the chwire entry), and `tracing: true` (which in the
// Node entry looks up @opentelemetry/api's global provider) is a ChwireConfigError at
// createClient naming the way to pass a tracer, since chwire/web imports no package of its own.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createClient, ChwireConfigError } from '../src/web.js';
import { startTestServer } from './support/test-server.js';

const server = await startTestServer();
after(() => server.close());

test('chwire/web: tracing with the app\'s tracer records a span per call and sends traceparent', async () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const c = createClient({ url: server.url, tracing: { tracer: provider.getTracer('web-app') } });
  assert.equal(await c.fetchValue('SELECT 7', { queryId: 'q-web-otel' }), 7);
  await c.close();
  const span = exporter.getFinishedSpans().find((s) => s.attributes['clickhouse.query.id'] === 'q-web-otel');
  assert.ok(span !== undefined, 'no span for the call');
  assert.equal(span.name, 'SELECT');
  const sent = server.requests.find((r) => r.params.get('query_id') === 'q-web-otel')!;
  assert.equal(sent.headers['traceparent'], `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`);
});

test('chwire/web: tracing: true (a global lookup) and { includeQueryText } without a tracer are a ChwireConfigError naming { tracer }', () => {
  for (const tracing of [true, { includeQueryText: true }]) {
    assert.throws(() => createClient({ url: server.url, tracing: tracing as never }), (e: Error) => e instanceof ChwireConfigError && /pass tracing: \{ tracer: trace\.getTracer/.test(e.message));
  }
});
