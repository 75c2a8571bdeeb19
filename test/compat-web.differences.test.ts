// Where chwire/compat/web differs from @clickhouse/client-web 1.23.1, each difference shown beside
// the official client's behaviour (docs/migrating.md, "chwire/compat/web" lists the same): both
// clients run here in Node (fetch, ReadableStream and crypto.randomUUID are Node's globals too)
// against the loopback test server, which records what reached it. What is the same in a browser
// is tested in Chromium (compat-web.chromium.test.ts).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as official from '@clickhouse/client-web';
import * as compat from '../src/compat-web.js';
import { ChwireAbortError, ChwireConfigError, ChwireLimitError } from '../src/errors.js';
import { startTestServer } from './support/test-server.js';

const server = await startTestServer();
after(() => server.close());
const quiet = { log: { level: official.ClickHouseLogLevel.OFF } };
const seen = (marker: string): number => server.requests.filter((r) => r.sql.includes(marker)).length;

test('runtime exports: every name of the official web client\'s', () => {
  // ('module.exports': the name Node 23+ adds to every CommonJS module imported from ESM, not the package's.)
  const theirs = Object.keys(official).filter((k) => k !== '__esModule' && k !== 'default' && k !== 'module.exports');
  const ours = new Set(Object.keys(compat));
  assert.deepEqual(theirs.filter((k) => !ours.has(k)).sort(), []);
  for (const k of ['ClickHouseSpanNames', 'ClickHouseSpanStatusCode', 'ClickHouseSpanKind', 'EXCEPTION_TAG_HEADER_NAME', 'SimpleColumnTypes', 'SupportedJSONFormats', 'StreamableFormats', 'ClickHouseLogLevel']) {
    assert.deepEqual((compat as Record<string, unknown>)[k], (official as Record<string, unknown>)[k], k);
  }
  assert.equal(compat.default.createClient, compat.createClient);
});

test('insert values as a stream: both refuse before sending; chwire with a ChwireConfigError', async () => {
  const body = (): ReadableStream<Uint8Array> => new ReadableStream({ start(c) { c.close(); } });
  const o = official.createClient({ url: server.url, ...quiet });
  await assert.rejects(o.insert({ table: 't_stream', values: body() as never, format: 'JSONEachRow' }), /Streaming is not supported for inserts in the web version/);
  const c = compat.createClient({ url: server.url });
  await assert.rejects(c.insert({ table: 't_stream', values: body() as never, format: 'JSONEachRow' }), (e: unknown) => e instanceof ChwireConfigError && /cannot be a stream/.test(e.message));
  assert.equal(seen('t_stream'), 0);
  await o.close();
  await c.close();
});

test('exec with values: the official web client drops them silently (the query runs without its data); chwire refuses', async () => {
  const o = official.createClient({ url: server.url, ...quiet });
  const r = await o.exec({ query: 'SELECT 1 /* exec-values-official */', values: 'ignored' } as never);
  await r.stream.cancel();
  const sent = server.requests.find((q) => q.sql.includes('exec-values-official'))!;
  assert.equal(sent.body.toString(), 'SELECT 1 /* exec-values-official */', 'the official client sent the query as the body, no values');
  const c = compat.createClient({ url: server.url });
  await assert.rejects(c.exec({ query: 'SELECT 1 /* exec-values-compat */', values: 'x' } as never), (e: unknown) => e instanceof ChwireConfigError && /takes no values/.test(e.message));
  assert.equal(seen('exec-values-compat'), 0);
  await o.close();
  await c.close();
});

test('a signal aborted before the call: the official web client sends the query all the same; chwire sends nothing and rejects with AbortError', async () => {
  const o = official.createClient({ url: server.url, ...quiet });
  const rs = await o.query({ query: 'SELECT 1 AS x /* pre-aborted-official */', format: 'JSONEachRow', abort_signal: AbortSignal.abort() });
  assert.deepEqual(await rs.json(), [{ x: 1 }]);
  const c = compat.createClient({ url: server.url });
  const e = await c.query({ query: 'SELECT 1 AS x /* pre-aborted-compat */', format: 'JSONEachRow', abort_signal: AbortSignal.abort() }).then(() => undefined, (x: unknown) => x);
  assert.ok(e instanceof Error && e.name === 'AbortError' && e.cause instanceof ChwireAbortError, String(e));
  assert.equal(seen('pre-aborted-compat'), 0);
  await o.close();
  await c.close();
});

test('an abort stops the query on the server too: chwire sends KILL QUERY for it, the official web client does not', async () => {
  server.fault('/* kill-stall */', { kind: 'stall', at: 5 });
  for (const [who, lib] of [['official', official], ['compat', compat]] as const) {
    const c = lib.createClient({ url: server.url, ...(who === 'official' ? quiet : {}) }) as unknown as compat.ClickHouseClient;
    const ctl = new AbortController();
    const rs = await c.query({ query: `SELECT number FROM system.numbers LIMIT 100000 /* kill-stall */ /* ${who} */`, format: 'JSONEachRow', abort_signal: ctl.signal, query_id: `kill-${who}` });
    setTimeout(() => ctl.abort(), 100);
    await assert.rejects(rs.text(), (e: unknown) => e instanceof Error && e.name === 'AbortError');
    await c.close();
  }
  const killed = async (id: string): Promise<boolean> => {
    for (let i = 0; i < 50; i++) {
      if (server.requests.some((r) => r.sql.startsWith('KILL QUERY') && r.sql.includes(`'${id}'`))) return true;
      await new Promise((r) => setTimeout(r, 20));
    }
    return false;
  };
  assert.equal(await killed('kill-compat'), true);
  assert.equal(await killed('kill-official'), false);
});

test('Node-only options (tls, http_agent, max_response_headers_size) are refused by name; the official web client ignores them', async () => {
  const o = official.createClient({ url: server.url, ...quiet, tls: { ca_cert: 'x' } } as never);
  assert.deepEqual(await o.ping(), { success: true });
  await o.close();
  for (const [k, v] of [['tls', { ca_cert: 'x' }], ['http_agent', { destroy() { /* agent */ } }], ['max_response_headers_size', 1000]] as const) {
    assert.throws(() => compat.createClient({ url: server.url, [k]: v } as never), (e: unknown) => e instanceof ChwireConfigError && e.message.includes(`no option ${k}`));
  }
});

test('text() and json() read at most max_result_bytes (chwire\'s own option, default 256 MiB); stream() is not bounded', async () => {
  const c = compat.createClient({ url: server.url, max_result_bytes: 100 });
  const q = { query: 'SELECT number AS n FROM system.numbers LIMIT 1000', format: 'JSONEachRow' as const };
  await assert.rejects((await c.query(q)).text(), (e: unknown) => e instanceof ChwireLimitError);
  await assert.rejects((await c.query(q)).json(), (e: unknown) => e instanceof ChwireLimitError);
  let rows = 0;
  const reader = (await c.query(q)).stream().getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) rows += r.value.length;
  assert.equal(rows, 1000);
  await c.close();
});
