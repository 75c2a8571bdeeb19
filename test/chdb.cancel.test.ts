// Cancellation on chdb://. The engine cannot interrupt a running call, so an abort or a timeout
// settles the caller's promise at once and leaves the engine to finish; the connection it runs on
// is not reused before then, so the next call does not queue behind it. Each case is the issue's
// reproduction (issue 10, item 5 and the large-parameters note); times are guards with a wide
// margin (the engine's own sleep is 3 s, the bound well under it), never measurements.
import { test, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { drainPending } from 'chdb';
import { createClient, ChwireAbortError, ChwireTimeoutError } from '../src/index.js';

// The engine starts on first use (a second or more on a loaded machine): a client without a
// timeout brings it up, so that the 500 ms below only ever time the calls under test.
const warm = createClient({ url: 'chdb://' });
const c = createClient({ url: 'chdb://', requestTimeout: 500 });
after(async () => { await c.close(); await warm.close(); });
// The engine finishes what a test gave up on: wait for it, so each test starts with a free engine.
afterEach(() => drainPending());

async function elapsed(p: Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const start = performance.now();
  try { await p; return { error: undefined, ms: performance.now() - start }; } catch (error) { return { error, ms: performance.now() - start }; }
}

test('an abort before requestTimeout is an abort, at once: fetch, stream, streamRaw, execute, fetchColumns', async () => {
  await warm.fetchValue('SELECT 1');
  await c.fetchValue('SELECT 1');
  const calls: [string, (signal: AbortSignal) => Promise<unknown>][] = [
    ['fetch', (signal) => c.fetch('SELECT sleep(3)', { signal })],
    ['stream', async (signal) => { for await (const _ of c.stream('SELECT sleep(3)', { signal })); }],
    ['streamRaw', async (signal) => { for await (const _ of c.streamRaw('SELECT sleep(3)', { format: 'CSV', signal })); }],
    ['execute', (signal) => c.execute('SELECT sleep(3)', { signal })],
    ['fetchColumns', (signal) => c.fetchColumns('SELECT sleep(3)', { signal })],
  ];
  for (const [name, call] of calls) {
    const { error, ms } = await elapsed(call(AbortSignal.timeout(200)));
    assert.ok(error instanceof ChwireAbortError, `${name}: ${String(error)}`);
    assert.ok(ms < 450, `${name}: settled after ${ms.toFixed(0)} ms, not at the abort (200 ms) but at or after requestTimeout (500 ms)`);
  }
});

test('after a timed-out execute or streamRaw, the next SELECT 1 does not wait for the engine', async () => {
  await warm.fetchValue('SELECT 1');
  const timedOut: [string, () => Promise<unknown>][] = [
    ['execute', () => c.execute('SELECT sleep(3)')],
    ['streamRaw', async () => { for await (const _ of c.streamRaw('SELECT sleep(3)', { format: 'CSV' })); }],
    ['fetch', () => c.fetch('SELECT sleep(3)')],
  ];
  for (const [name, call] of timedOut) {
    const first = await elapsed(call());
    assert.ok(first.error instanceof ChwireTimeoutError, `${name}: ${String(first.error)}`);
    const next = await elapsed(c.fetchValue('SELECT 1'));
    assert.equal(next.error, undefined);
    assert.ok(next.ms < 1500, `${name}: the next SELECT 1 took ${next.ms.toFixed(0)} ms (it queued behind the engine's 3 s sleep)`);
    await drainPending();
  }
});

test("an insert whose input stalls honours its signal at once, and requestTimeout names the stalled input; nothing is inserted", async () => {
  await c.execute('CREATE TABLE stall (id UInt32) ENGINE = MergeTree ORDER BY id');
  let resume!: () => void;
  const resumed = new Promise<void>((r) => { resume = r; });
  let returned = 0;
  const source = (): AsyncIterable<{ id: number }> => ({
    [Symbol.asyncIterator]() {
      let i = 0;
      return {
        async next() { if (i++ === 0) return { value: { id: 1 }, done: false }; await resumed; return { value: undefined, done: true }; },
        async return() { returned++; return { value: undefined, done: true }; },
      };
    },
  });
  try {
    const aborted = await elapsed(c.insert('stall', source(), { signal: AbortSignal.timeout(200), blockSize: 1 }));
    assert.ok(aborted.error instanceof ChwireAbortError, String(aborted.error));
    assert.ok(aborted.ms < 450, `settled after ${aborted.ms.toFixed(0)} ms`);
    const timed = await elapsed(c.insert('stall', source(), { blockSize: 1 }));
    assert.ok(timed.error instanceof ChwireTimeoutError, String(timed.error));
    assert.match((timed.error as Error).message, /input produced no data for 500 ms/);
    assert.ok(timed.ms < 1500, `settled after ${timed.ms.toFixed(0)} ms`);
  } finally {
    resume();
  }
  assert.equal(await c.fetchValue('SELECT count() FROM stall'), 0n);
});

test('a long parameterized query (a large IN list) ends at requestTimeout, a query queued behind it at its abort; the engine finishes it', async () => {
  // 10 000 ids and a 3 s sleep in each of the two blocks: the engine needs 6 s or more. (The
  // bound leaves room for the main thread's share under load: formatting, binding, redacting.)
  const ids = Array.from({ length: 10000 }, (_, i) => BigInt(i * 7));
  const sql = 'SELECT count() FROM numbers(100000) WHERE number IN {ids:Array(UInt64)} AND sleep(3) = 0';
  const timed = await elapsed(c.fetchValue(sql, { params: { ids } }));
  assert.ok(timed.error instanceof ChwireTimeoutError, String(timed.error));
  assert.ok(timed.ms < 4000, `settled after ${timed.ms.toFixed(0)} ms`);
  // The next parameterized query waits for its turn (the binder is engine-wide): an abort still ends it.
  const aborted = await elapsed(c.fetchValue('SELECT {x:UInt8} AS x', { params: { x: 1 }, signal: AbortSignal.timeout(100) }));
  assert.ok(aborted.error instanceof ChwireAbortError, String(aborted.error));
  assert.ok(aborted.ms < 450, `settled after ${aborted.ms.toFixed(0)} ms`);
  // A query without parameters does not wait for it.
  assert.equal(await c.fetchValue('SELECT 7 AS x'), 7);
});
