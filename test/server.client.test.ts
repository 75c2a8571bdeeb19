// The client against a real ClickHouse server (Debian clickhouse-server 18.16, started by .ci/run):
// authentication, server errors, sessions, query ids, keep-alive reuse, a stale socket retried,
// abort of a long query (and that the server stops it), requestTimeout, a 1M-row streamed read whose heap high-water mark stays flat,
// and a raw CSV export (streamRaw) with an exception the server appends after the data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChwireAbortError, ChwireServerError, ChwireTimeoutError } from '../src/index.js';
import { AUTH_PASSWORD, AUTH_USER, REAL_URL, SKIP_REAL, collectGarbage, realClient, staleProxy, uniqueName } from './support/ch-server.js';

const skip = SKIP_REAL;

test('authentication: the right password works, a wrong one is a ChwireServerError that does not show it', { skip }, async () => {
  const good = realClient({ username: AUTH_USER, password: AUTH_PASSWORD });
  assert.equal(await good.fetchValue('SELECT 1 AS x'), 1);
  await good.close();
  const bad = realClient({ username: AUTH_USER, password: 'not-the-password' });
  const e = await bad.fetch('SELECT 1').then(() => undefined, (x: unknown) => x);
  assert.ok(e instanceof ChwireServerError, String(e));
  assert.ok(e.serverCode > 0);
  assert.ok(e.status === 401 || e.status === 403 || e.status === 500, `status ${e.status}`);
  assert.ok(!`${e.message}${e.stack}`.includes('not-the-password'));
  await bad.close();
});

test('syntax error and unknown table: ChwireServerError with the server code and message', { skip }, async () => {
  const c = realClient();
  const syntax = await c.fetch('SELEC 1').then(() => undefined, (x: unknown) => x);
  assert.ok(syntax instanceof ChwireServerError);
  assert.equal(syntax.serverCode, 62);
  assert.match(syntax.serverMessage, /Syntax error/);
  const unknown = await c.fetch('SELECT * FROM default.no_such_table_chwire', { queryId: 'chwire-unknown-table' }).then(() => undefined, (x: unknown) => x);
  assert.ok(unknown instanceof ChwireServerError);
  assert.equal(unknown.serverCode, 60);
  assert.equal(unknown.queryId, 'chwire-unknown-table');
  await c.close();
});

test('session reuse: a temporary table is seen by the next query of the same session only', { skip }, async () => {
  const c = realClient();
  const sessionId = uniqueName('sess');
  await c.execute('CREATE TEMPORARY TABLE tmp_chwire (a UInt8)', { sessionId });
  await c.execute('INSERT INTO tmp_chwire VALUES (1), (2), (3)', { sessionId });
  assert.equal(await c.fetchValue('SELECT count() FROM tmp_chwire', { sessionId }), 3n);
  await assert.rejects(c.fetch('SELECT count() FROM tmp_chwire', { sessionId: uniqueName('other') }), ChwireServerError);
  // Concurrent calls on one session are serialised by the client (the server would reject them).
  const counts = await Promise.all(Array.from({ length: 5 }, () => c.fetchValue('SELECT count() FROM tmp_chwire', { sessionId })));
  assert.deepEqual(counts, [3n, 3n, 3n, 3n, 3n]);
  await c.close();
});

test('query id: the server runs the query under the id the client sent', { skip }, async () => {
  const c = realClient();
  const queryId = uniqueName('chwire_qid');
  const seen = await c.fetchValue(`SELECT count() FROM system.processes WHERE query_id = '${queryId}'`, { queryId });
  assert.equal(seen, 1n);
  await c.close();
});

test('keep-alive: one socket serves many queries', { skip }, async () => {
  const proxy = await staleProxy(REAL_URL!);
  const c = realClient({ url: proxy.url });
  for (let i = 0; i < 25; i++) assert.equal(await c.fetchValue(`SELECT ${i} AS x`), i);
  assert.equal(proxy.accepted, 1);
  await c.close();
  await proxy.close();
});

test('a stale keep-alive socket is retried once, transparently, for a read', { skip }, async () => {
  const proxy = await staleProxy(REAL_URL!);
  const c = realClient({ url: proxy.url, maxOpenConnections: 1 });
  assert.equal(await c.fetchValue('SELECT 1 AS x'), 1);
  proxy.staleAll();
  assert.equal(await c.fetchValue('SELECT 2 AS x'), 2);
  assert.equal(proxy.accepted, 2);
  await c.close();
  await proxy.close();
});

test('fetchColumns reports a top-level DateTime with its zone (text Native header + DESCRIBE of the query)', { skip }, async () => {
  const c = realClient();
  const r = await c.fetchColumns("SELECT toDateTime(1700000000, 'Asia/Tokyo') AS t, [toDateTime(0, 'Europe/Berlin')] AS a, toDateTime(7, 'UTC') AS u -- note");
  assert.deepEqual(r.types, ["DateTime('Asia/Tokyo')", "Array(DateTime('Europe/Berlin'))", "DateTime('UTC')"]);
  // Columnar DateTime: seconds by default (issue 13).
  assert.deepEqual(r.columns[0], new Uint32Array([1700000000]));
  assert.deepEqual(r.columns[2], new Uint32Array([7]));
  await c.close();
});

/** Whether the server still runs `queryId`, polled until it stops or `ms` pass. */
async function stillRunning(c: ReturnType<typeof realClient>, queryId: string, ms = 5000): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    const n = await c.fetchValue<bigint>(`SELECT count() FROM system.processes WHERE query_id = '${queryId}'`);
    if (n === 0n) return false;
    if (Date.now() > until) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('abort of a long query: ChwireAbortError promptly, and the server stops the query', { skip }, async () => {
  const c = realClient();
  const queryId = uniqueName('chwire_abort');
  const ac = new AbortController();
  const started = Date.now();
  setTimeout(() => ac.abort(), 300);
  await assert.rejects(c.fetch('SELECT count() FROM numbers(100000000000)', { signal: ac.signal, queryId }), ChwireAbortError);
  assert.ok(Date.now() - started < 5000);
  // The server does not stop a query because its client went away (http.md §11): the client
  // sends KILL QUERY itself.
  const running = await stillRunning(c, queryId);
  if (running) await c.execute(`KILL QUERY WHERE query_id = '${queryId}' SYNC`);
  assert.equal(running, false, 'the aborted query still runs on the server');
  // Aborted while rows are streaming: stopped too.
  const streamId = uniqueName('chwire_abort_stream');
  const ac2 = new AbortController();
  let rows = 0;
  await assert.rejects((async () => {
    for await (const _ of c.stream('SELECT number FROM numbers(100000000000)', { signal: ac2.signal, queryId: streamId })) {
      if (++rows === 1000) ac2.abort();
    }
  })(), ChwireAbortError);
  assert.equal(await stillRunning(c, streamId), false, 'the query aborted mid-body still runs');
  await c.close();
});

test('requestTimeout: ChwireTimeoutError when nothing arrives in time, and the server stops the query', { skip }, async () => {
  const c = realClient({ requestTimeout: 400 });
  const queryId = uniqueName('chwire_timeout');
  await assert.rejects(c.fetch('SELECT count() FROM numbers(100000000000)', { queryId }), ChwireTimeoutError);
  const running = await stillRunning(c, queryId);
  if (running) await c.execute(`KILL QUERY WHERE query_id = '${queryId}' SYNC`);
  assert.equal(running, false, 'the timed-out query still runs on the server');
  await c.close();
});

test('1M-row streamed read: every row arrives in order and the heap high-water mark stays flat', { skip }, async () => {
  const c = realClient();
  await collectGarbage();
  const base = process.memoryUsage().heapUsed;
  let peak = 0;
  let n = 0;
  for await (const r of c.stream<{ n: bigint; s: string }>('SELECT number AS n, toString(number) AS s FROM numbers(1000000)')) {
    if (r.n !== BigInt(n) || r.s !== String(n)) assert.fail(`row ${n} is ${String(r.n)}, ${r.s}`);
    n++;
    // Live heap only (after a full collection), every 128k rows.
    if ((n & 0x1ffff) === 0) {
      await collectGarbage();
      peak = Math.max(peak, process.memoryUsage().heapUsed - base);
    }
  }
  assert.equal(n, 1_000_000);
  // Holding the rows would need well over 100 MB; a stream needs a few chunks' worth.
  assert.ok(peak < 40 * 1024 * 1024, `heap grew by ${(peak / 1048576).toFixed(1)} MiB`);
  await c.close();
});

test('server version is learnt once and rows are read as Native on an old server', { skip }, async () => {
  const c = realClient();
  const v = await c.serverVersion();
  const rows = await c.fetch<{ a: number; s: string }>("SELECT toUInt8(7) AS a, 'x' AS s");
  assert.deepEqual([...rows], [{ a: 7, s: 'x' }]);
  assert.ok(/^\d+\.\d+/.test(v));
  await c.close();
});

test('streamRaw: a CSV export as the server writes it; an exception the server appends after data is raised, not handed over', { skip }, async () => {
  const c = realClient();
  try {
    const parts: Uint8Array[] = [];
    for await (const b of c.streamRaw('SELECT number AS n, toString(number * 3) AS s FROM system.numbers LIMIT 200000', { format: 'CSVWithNames' })) parts.push(b);
    const lines = Buffer.concat(parts).toString('utf8').split('\n');
    assert.equal(lines[0], '"n","s"');
    assert.equal(lines.length, 200002);
    assert.equal(lines[200000], '199999,"599997"');
    // 18.16 writes the rows it has, then the exception as text, and ends the body cleanly.
    const got: Uint8Array[] = [];
    await assert.rejects((async () => {
      for await (const b of c.streamRaw('SELECT throwIf(number = 150000) AS x, number FROM system.numbers LIMIT 200000', { format: 'TSV', settings: { max_block_size: 1000 } })) got.push(b);
    })(), (e: unknown) => e instanceof ChwireServerError && e.serverCode === 395);
    assert.ok(Buffer.concat(got).length > 100_000, `rows streamed before the exception (${Buffer.concat(got).length} bytes)`);
    assert.ok(!Buffer.concat(got).includes('Exception'), 'no exception text among the data');
  } finally {
    await c.close();
  }
});
