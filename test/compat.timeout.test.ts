// request_timeout in chwire/compat counts as @clickhouse/client counts it: from the moment the
// request has a socket, the wait for a pooled one apart. A burst of calls far larger than the pool
// (issue 18: 5 000 calls into a pool of 10 with a 3 s timeout; here 400 calls of ≥ 10 ms into a pool of 2
// with a 1 s timeout, against the real 18.16 server) finishes in both clients, while chwire's own API
// keeps its bound (the wait for a socket counts: calls queued past it fail with the pool's state).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient as createOfficial, ClickHouseLogLevel } from '@clickhouse/client';
import { createClient as createCompat } from '../src/compat.js';
import { createClient, ChwireTimeoutError } from '../src/index.js';
import { REAL_URL, SKIP_REAL } from './support/ch-server.js';
import { startTestServer } from './support/test-server.js';

const CALLS = 400;
const POOL = 2;
const TIMEOUT_MS = 1000;
// Each call holds its socket ≥ 10 ms: the burst lasts ≥ 2 s whatever the machine's speed.
const SQL = 'SELECT sleep(0.01) AS s, number FROM system.numbers LIMIT 3';

async function burst(run: () => Promise<unknown>): Promise<{ ok: number; failed: unknown[]; ms: number }> {
  const t0 = performance.now();
  const settled = await Promise.allSettled(Array.from({ length: CALLS }, run));
  const failed = settled.filter((s) => s.status === 'rejected').map((s) => (s as PromiseRejectedResult).reason);
  return { ok: CALLS - failed.length, failed, ms: performance.now() - t0 };
}

test(`a burst of ${CALLS} calls into a pool of ${POOL} with a ${TIMEOUT_MS} ms request_timeout: every call finishes in the official client and in chwire/compat`, { skip: SKIP_REAL }, async () => {
  const official = createOfficial({ url: REAL_URL, max_open_connections: POOL, request_timeout: TIMEOUT_MS, log: { level: ClickHouseLogLevel.OFF } });
  const compat = createCompat({ url: REAL_URL, max_open_connections: POOL, request_timeout: TIMEOUT_MS });
  try {
    const a = await burst(async () => (await official.query({ query: SQL, format: 'JSONEachRow' })).json());
    const b = await burst(async () => (await compat.query({ query: SQL, format: 'JSONEachRow' })).json());
    assert.equal(a.ok, CALLS, `official: ${a.failed.length} failed, first: ${String(a.failed[0])}`);
    assert.equal(b.ok, CALLS, `compat: ${b.failed.length} failed, first: ${String(b.failed[0])}`);
    // The burst outlasts the timeout many times over: the queue's wait is what compat leaves out.
    assert.ok(b.ms > 2 * TIMEOUT_MS, `the burst took ${b.ms.toFixed(0)} ms: too fast to show anything`);

    // chwire's own API keeps its bound: the wait for a socket counts against requestTimeout.
    const own = createClient({ url: REAL_URL, maxOpenConnections: POOL, requestTimeout: TIMEOUT_MS });
    try {
      const c = await burst(() => own.fetch(SQL));
      assert.ok(c.failed.length > 0, `chwire's own API: none of ${CALLS} failed in ${c.ms.toFixed(0)} ms`);
      assert.ok(c.failed.every((e) => e instanceof ChwireTimeoutError), String(c.failed.find((e) => !(e instanceof ChwireTimeoutError))));
      assert.ok(c.failed.some((e) => /pool is exhausted/.test((e as Error).message)));
    } finally {
      await own.close();
    }
  } finally {
    await official.close();
    await compat.close();
  }
});

test('a request that has its socket is still bounded by request_timeout in chwire/compat', { skip: SKIP_REAL }, async () => {
  const compat = createCompat({ url: REAL_URL, request_timeout: 300 });
  try {
    const t0 = performance.now();
    // 18.16 sends the head only once the first block is computed: sleep(2) keeps it silent.
    const e = await compat.query({ query: 'SELECT sleep(2)', format: 'JSONEachRow' }).then(() => undefined, (x: unknown) => x);
    assert.ok(e instanceof Error && e.message === 'Timeout error.' && e.cause instanceof ChwireTimeoutError, String(e));
    assert.ok(performance.now() - t0 < 1500);
  } finally {
    await compat.close();
  }
});

test('hermetic: a call queued behind a stalled response longer than request_timeout still runs once it has a socket', async () => {
  const server = await startTestServer();
  server.fault('compat_stalled_marker', { kind: 'stall', at: 10 });
  const compat = createCompat({ url: server.url, max_open_connections: 1, request_timeout: 600 });
  try {
    const stalled = compat.query({ query: "SELECT 'compat_stalled_marker' AS m FROM system.numbers LIMIT 1000", format: 'CSV' }).then((rs) => rs.text());
    const queued = compat.query({ query: 'SELECT 1 AS x', format: 'JSONEachRow' }).then((rs) => rs.json());
    // The stalled body times out (no byte for 600 ms) and frees the one socket; the queued call
    // waited that long for it, and its own 600 ms start only then.
    const a = await stalled.then(() => undefined, (e: unknown) => e);
    assert.ok(a instanceof Error && a.message === 'Timeout error.', String(a));
    assert.deepEqual(await queued, [{ x: 1 }]);
  } finally {
    await compat.close();
    await server.close();
  }
});
