// A settled insert reads its source no more (issue 26 item 1): with the connection cut after
// 1 MB (a cutting proxy in front of the real 18.16), with a server that answers an error early
// (a value it cannot parse, a MATERIALIZED expression that fails, a table that does not exist)
// and on chdb://, the insert rejects, the caller's generator is pulled 0 times after that, its
// return() has run (its finally block), and the error's rowsTaken equals the pulls. A Node
// Readable is detached, not destroyed: the rows it did not give are still in it.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { createClient, isChwireError, type Client } from '../src/index.js';
import { createClient as createWebClient } from '../src/web.js';
import { REAL_URL, SKIP_REAL, uniqueName } from './support/ch-server.js';
import { cuttingProxy, type CuttingProxy } from './support/cutting-proxy.js';

/** A producer that counts its pulls and whether its finally block ran (return() or the end). */
function producer(n: number, row: (i: number) => object, slowEvery = 0): { rows: AsyncGenerator<object>; pulls: () => number; finished: () => boolean } {
  let pulls = 0;
  let finished = false;
  const rows = (async function* () {
    try {
      for (let i = 0; i < n; i++) {
        pulls++;
        if (slowEvery > 0 && i % slowEvery === 0) await new Promise((r) => setImmediate(r));
        yield row(i);
      }
    } finally {
      finished = true;
    }
  })();
  return { rows, pulls: () => pulls, finished: () => finished };
}

const idle = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Rejects, then: no pull after the rejection, return() ran, rowsTaken = pulls. */
async function checkStops(ins: Promise<unknown>, p: ReturnType<typeof producer>, why: RegExp): Promise<number> {
  const err = await ins.then(() => assert.fail('the insert was expected to fail'), (e: unknown) => e);
  const atReject = p.pulls();
  assert.ok(isChwireError(err), `a ChwireError, got ${String(err)}`);
  assert.match(err.message, why);
  await idle(700);
  assert.equal(p.pulls(), atReject, 'no row pulled after the insert rejected');
  assert.equal(p.finished(), true, "the source's return() ran");
  assert.equal(err.rowsTaken, atReject, 'rowsTaken equals the pulls');
  assert.match(err.message, new RegExp(`; ${atReject} rows? (?:was|were) taken from the input`));
  return atReject;
}

const wide = (i: number) => ({ id: i, s: `row ${i} ${'x'.repeat(30)}` });

const clients: Client[] = [];
const proxies: CuttingProxy[] = [];
after(async () => { for (const c of clients) await c.close(); for (const p of proxies) await p.close(); });

for (const transport of ['node', 'fetch'] as const) {
  test(`18.16 through a proxy that cuts after 1 MB (${transport}): the rejected insert pulls no more rows, and says how many it took`, { skip: SKIP_REAL, timeout: 60_000 }, async () => {
    const admin = createClient({ url: REAL_URL, requestTimeout: 60_000 });
    clients.push(admin);
    const t = uniqueName('src_cut');
    await admin.execute(`CREATE TABLE ${t} (id UInt32, s String) ENGINE = MergeTree ORDER BY id`);
    try {
      const proxy = await cuttingProxy(REAL_URL!, 1 << 20);
      proxies.push(proxy);
      const c = transport === 'node' ? createClient({ url: proxy.url, requestTimeout: 30_000 }) : createWebClient({ url: proxy.url, requestTimeout: 30_000 });
      clients.push(c);
      // Row objects through the Native encoder, then objects through JSONEachRow (insert-json).
      for (const format of ['Native', 'JSONEachRow'] as const) {
        const p = producer(2_000_000, wide);
        const taken = await checkStops(c.insert(t, p.rows, { blockSize: 20_000, ...(format === 'Native' ? {} : { format }) }), p, /./);
        assert.ok(proxy.cuts >= 1, 'the proxy cut the insert');
        assert.ok(taken < 2_000_000, 'the insert stopped before the end of the source');
      }
    } finally {
      await admin.execute(`DROP TABLE ${t}`);
    }
  });
}

test('18.16 answering an error early: the source is pulled no more and rowsTaken equals the pulls', { skip: SKIP_REAL, timeout: 60_000 }, async () => {
  const c = createClient({ url: REAL_URL, requestTimeout: 30_000 });
  clients.push(c);
  const t = uniqueName('src_early');
  await c.execute(`CREATE TABLE ${t} (id UInt32, s String, y Int32 MATERIALIZED intDiv(1, toInt32(id) - 30000)) ENGINE = MergeTree ORDER BY id`);
  try {
    // A MATERIALIZED expression that fails at row 30 000 (Native: the server computes it per block).
    // (18.16 reads the whole body before it answers: the sources are kept short.)
    const a = producer(100_000, wide);
    await checkStops(c.insert(t, a.rows, { blockSize: 10_000 }), a, /[Dd]ivision by zero/);
    // A value its column cannot hold at row 30 000 (JSONEachRow objects are written by the column
    // types, so the client refuses it before the server would: the same gate stops the source).
    const b = producer(100_000, (i) => (i === 30_000 ? { id: 'not a number', s: '' } : wide(i)));
    await checkStops(c.insert(t, b.rows, { format: 'JSONEachRow' }), b, /column "id", row 30000/);
    // A table that does not exist: only the first row was taken (to see the rows' shape).
    const d = producer(1_000_000, wide);
    const taken = await checkStops(c.insert(`${t}_missing`, d.rows), d, /not found/);
    assert.equal(taken, 1);
  } finally {
    await c.execute(`DROP TABLE ${t}`);
  }
});

test('chdb://: an insert aborted mid-stream and one refused by the engine pull no more rows; a sync iterable is returned too', { timeout: 60_000 }, async () => {
  const c = createClient({ url: 'chdb://' });
  clients.push(c);
  const t = uniqueName('src_chdb');
  await c.execute(`CREATE TABLE ${t} (id UInt32, s String) ENGINE = MergeTree ORDER BY id`);
  try {
    const ac = new AbortController();
    const a = producer(5_000_000, wide, 1000);
    setTimeout(() => ac.abort(), 300);
    await checkStops(c.insert(t, a.rows, { blockSize: 20_000, signal: ac.signal }), a, /abort/);
    // A sync generator whose row 25 000 the encoder refuses: returned, none pulled after.
    let pulls = 0;
    let finished = false;
    const sync = (function* () { try { for (let i = 0; i < 1e6; i++) { pulls++; yield i === 25_000 ? { id: -1, s: '' } : wide(i); } } finally { finished = true; } })();
    const err = await c.insert(t, sync, { blockSize: 10_000 }).then(() => assert.fail('expected an error'), (e: unknown) => e);
    assert.ok(isChwireError(err));
    assert.equal(finished, true);
    assert.equal(err.rowsTaken, pulls);
  } finally {
    await c.execute(`DROP TABLE ${t}`);
  }
});

test('18.16: an object-mode Readable is detached, not destroyed: after a cut, the rows it did not give are read by the next insert', { skip: SKIP_REAL, timeout: 60_000 }, async () => {
  const admin = createClient({ url: REAL_URL, requestTimeout: 60_000 });
  clients.push(admin);
  const t = uniqueName('src_readable');
  await admin.execute(`CREATE TABLE ${t} (id UInt32, s String) ENGINE = MergeTree ORDER BY id`);
  try {
    const proxy = await cuttingProxy(REAL_URL!, 256 << 10);
    proxies.push(proxy);
    const c = createClient({ url: proxy.url, requestTimeout: 30_000 });
    clients.push(c);
    const N = 200_000;
    const stream = Readable.from((function* () { for (let i = 0; i < N; i++) yield wide(i); })());
    const err = await c.insert(t, stream, { blockSize: 5_000 }).then(() => assert.fail('expected a cut'), (e: unknown) => e);
    assert.ok(isChwireError(err) && err.rowsTaken !== undefined);
    assert.equal(stream.destroyed, false, "the caller's stream is not destroyed");
    // The rest of the stream goes in with the next call (no proxy cut now).
    proxy.cutAfter = Infinity;
    await admin.insert(t, stream, { blockSize: 50_000 });
    const rest = await admin.fetchValue<bigint>(`SELECT count() FROM ${t} WHERE id >= ${err.rowsTaken!}`);
    assert.equal(rest, BigInt(N - err.rowsTaken!), 'the rows after rowsTaken were all still in the stream');
  } finally {
    await admin.execute(`DROP TABLE ${t}`);
  }
});

for (const target of [{ name: '18.16', url: REAL_URL ?? '', skip: SKIP_REAL }, { name: 'chdb://', url: 'chdb://', skip: false as string | false }]) {
  test(`${target.name}: destroy() while the insert waits for its input: one space, insertSent and rowsTaken, and the table holds what it says`, { skip: target.skip, timeout: 60_000 }, async () => {
    const admin = createClient({ url: target.url, requestTimeout: 60_000 });
    clients.push(admin);
    const t = uniqueName('src_wait');
    await admin.execute(`CREATE TABLE ${t} (id UInt32, s String) ENGINE = MergeTree ORDER BY id`);
    try {
      const c = createClient({ url: target.url, requestTimeout: 60_000 });
      let pulls = 0;
      let stalled!: () => void;
      const atStall = new Promise<void>((r) => { stalled = r; });
      async function* rows(): AsyncGenerator<object> {
        for (let i = 0; i < 25_000; i++) { pulls++; yield wide(i); }
        stalled();
        await new Promise((r) => setTimeout(r, 30_000).unref());
        yield wide(-1);
      }
      const ins = c.insert(t, rows(), { blockSize: 10_000 }).then(() => undefined, (e: unknown) => e);
      await atStall;
      await idle(300);
      await c.destroy();
      const err = await ins;
      assert.ok(isChwireError(err), String(err));
      assert.doesNotMatch(err.message, / {2}/, 'no double space');
      assert.deepEqual(err.insertSent, { blocks: 2, rows: 20_000 });
      // The row the source was still producing (the stall) is counted as taken: an upper bound.
      assert.ok(err.rowsTaken === pulls || err.rowsTaken === pulls + 1, `rowsTaken ${String(err.rowsTaken)}, pulls ${pulls}`);
      const n = await admin.fetchValue<bigint>(`SELECT count() FROM ${t}`);
      // destroy() aborts the call (the input's own stop ends the body cleanly: exactly the blocks
      // sent are committed), then closes the transport: when the close wins, the body was cut ("may have").
      if (/while waiting for its input/.test(err.message)) {
        assert.match(err.message, /^call cancelled by client\.destroy\(\) while waiting for its input: the request was ended after the blocks already sent/);
        assert.match(err.message, /2 blocks \(20000 rows\) of this insert had been sent: they are committed/);
        assert.equal(n, 20_000n);
      } else {
        assert.match(err.message, /^call cancelled by client\.destroy\(\): .*2 blocks \(20000 rows\) of this insert had been sent \(the last possibly in part\)/);
        assert.ok(n! <= 20_000n, `${String(n)} rows stored`);
      }
    } finally {
      await admin.execute(`DROP TABLE ${t}`);
    }
  });
}

test('a failed insert\'s error: its stack starts with its message once, the counts appended once (18.16 and the engine)', { timeout: 60_000 }, async () => {
  for (const url of ['chdb://', ...(SKIP_REAL ? [] : [REAL_URL!])]) {
    const c = createClient({ url, requestTimeout: 30_000 });
    clients.push(c);
    const t = uniqueName('stack_once');
    await c.execute(`CREATE TABLE ${t} (id UInt32) ENGINE = Memory`);
    try {
      const source = (async function* () { for (let i = 0; i < 5000; i++) yield { id: i === 3000 ? 'bad' : i }; })();
      const e = await c.insert(t, source, { blockSize: 1000 }).then(() => undefined, (x: unknown) => x);
      assert.ok(isChwireError(e), url);
      assert.match(e.message, /they are committed; \d+ rows were taken from the input/, url);
      const first = e.stack!.split('\n    at ')[0]!;
      assert.equal(first, `${e.name}: ${e.message}`, `${url}: the stack's first line is the message, nothing repeated`);
    } finally {
      await c.execute(`DROP TABLE ${t}`);
    }
  }
});
