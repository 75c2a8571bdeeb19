// close() and destroy() (issue 17 item 2), after undici: close() refuses new calls at once and lets
// the calls in flight finish (a 500 000-row insert included), bounded by close({ timeout }) after
// which they are cancelled as by destroy(); destroy() cancels at once, and an insert it cuts says
// how many blocks (and rows) it had sent, consistent with what the table holds. On the real 18.16
// server and on chdb://. Before: close() during an insert committed 2 blocks while the insert
// rejected with "the client was closed while the request was waiting for a response".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, ChwireAbortError, ChwireConfigError, isChwireError } from '../src/index.js';
import { REAL_URL, SKIP_REAL, uniqueName } from './support/ch-server.js';

const N = 500_000;
/**
 * 500 000 rows; `at150k` runs once 150 000 were taken (two blocks of 65 536 sent), after which the
 * source yields to the event loop every 5 000 rows, so the insert is still running when the test acts.
 */
async function* rows(at150k: () => void): AsyncGenerator<{ id: number; s: string }> {
  for (let i = 0; i < N; i++) {
    if (i === 150_000) at150k();
    if (i >= 150_000 && i % 5000 === 0) await new Promise((r) => setTimeout(r, 5));
    yield { id: i, s: `row number ${i}` };
  }
}

for (const target of [{ name: 'real 18.16 server', url: REAL_URL ?? '', skip: SKIP_REAL }, { name: 'chdb://', url: 'chdb://', skip: false as string | false }]) {
  test(`${target.name}: close() during a 500 000-row insert: the insert finishes, every row is there; new calls are refused at once`, { skip: target.skip, timeout: 180_000 }, async () => {
    const admin = createClient({ url: target.url, requestTimeout: 60_000 });
    const t = uniqueName('inserts_close');
    await admin.execute(`CREATE TABLE ${t} (id UInt32, s String) ENGINE = MergeTree ORDER BY id`);
    try {
      const c = createClient({ url: target.url, requestTimeout: 60_000 });
      let reached!: () => void;
      const at150k = new Promise<void>((r) => { reached = r; });
      const ins = c.insert(t, rows(reached), { blockSize: 65_536 });
      await at150k;
      const closing = c.close();
      await assert.rejects(c.fetch('SELECT 1'), (e: unknown) => e instanceof ChwireConfigError && /closing/.test(e.message));
      const r = await ins;
      await closing;
      assert.ok(r.queryId !== undefined);
      await assert.rejects(c.fetch('SELECT 1'), (e: unknown) => e instanceof ChwireConfigError && /closed/.test(e.message));
      assert.equal(await admin.fetchValue(`SELECT count() FROM ${t}`), BigInt(N));
    } finally {
      await admin.execute(`DROP TABLE ${t}`);
      await admin.close();
    }
  });

  test(`${target.name}: destroy() during a 500 000-row insert: the error says how many blocks and rows were sent; the table holds no more than that`, { skip: target.skip, timeout: 180_000 }, async () => {
    const c = createClient({ url: target.url, requestTimeout: 60_000 });
    const t = uniqueName('inserts_destroy');
    const check = createClient({ url: target.url, requestTimeout: 60_000 });
    await check.execute(`CREATE TABLE ${t} (id UInt32, s String) ENGINE = MergeTree ORDER BY id`);
    try {
      let reached!: () => void;
      const at150k = new Promise<void>((r) => { reached = r; });
      const ins = c.insert(t, rows(reached), { blockSize: 65_536 }).then(() => undefined, (e: unknown) => e);
      await at150k;
      await c.destroy();
      const err = await ins;
      assert.ok(err instanceof ChwireAbortError, `an abort error, got ${String(err)}`);
      assert.match(err.message, /^call cancelled by client\.destroy\(\)/);
      assert.doesNotMatch(err.message, /waiting for a response/);
      assert.ok(isChwireError(err) && err.insertSent !== undefined, 'insertSent is set');
      const sent = err.insertSent!;
      assert.ok(sent.blocks >= 1 && sent.rows >= 1 && sent.rows <= N);
      assert.match(err.message, new RegExp(`${sent.blocks} blocks? \\(${sent.rows} rows?\\) of this insert had been sent.*(may have committed|they are committed)`));
      await assert.rejects(c.fetch('SELECT 1'), ChwireConfigError);
      // (The engine finishes a statement it started: wait for it before counting.)
      await new Promise((r) => setTimeout(r, 1500));
      const n = Number(await check.fetchValue(`SELECT count() FROM ${t}`));
      assert.ok(n <= sent.rows, `the table holds ${n} rows, at most the ${sent.rows} sent`);
    } finally {
      await check.execute(`DROP TABLE ${t}`);
      await check.close();
    }
  });
}

test('chdb://: close({ timeout }) cancels what is still running when it passes, as destroy() does; bad options are ChwireConfigErrors', async () => {
  const c = createClient({ url: 'chdb://' });
  assert.throws(() => c.close({ timeout: -1 }), ChwireConfigError);
  assert.throws(() => c.close({ timeot: 1 } as never), ChwireConfigError);
  async function* slow(): AsyncGenerator<{ n: number }> {
    for (let i = 0; ; i++) { yield { n: i }; await new Promise((r) => setTimeout(r, 5)); }
  }
  await c.execute('CREATE TABLE close_to (n UInt32) ENGINE = MergeTree ORDER BY n');
  const ins = c.insert('close_to', slow(), { blockSize: 10 });
  await new Promise((r) => setTimeout(r, 200));
  const t0 = performance.now();
  await c.close({ timeout: 300 });
  assert.ok(performance.now() - t0 < 3000);
  await assert.rejects(ins, (e: unknown) => e instanceof ChwireAbortError && /^call cancelled by client\.close\(\) after its 300 ms timeout/.test(e.message));
});

// insert()'s result (issue 17 item 8): the query id used, always (18.16 sends no summary, and every
// insert there used to return queryId: undefined); empty input: no query, no id, one shape.
for (const target of [{ name: 'real 18.16 server', url: REAL_URL ?? '', skip: SKIP_REAL }, { name: 'chdb://', url: 'chdb://', skip: false as string | false }]) {
  test(`${target.name}: insert() returns the query id it used; empty input returns { queryId: undefined, summary: undefined }`, { skip: target.skip }, async () => {
    const c = createClient({ url: target.url, requestTimeout: 60_000 });
    const t = uniqueName('inserts_qid');
    await c.execute(`CREATE TABLE ${t} (id UInt32) ENGINE = MergeTree ORDER BY id`);
    try {
      const r = await c.insert(t, [{ id: 1 }]);
      assert.equal(typeof r.queryId, 'string');
      assert.match(r.queryId!, /^[0-9a-f-]{36}$/);
      const given = await c.insert(t, (function* () { yield { id: 2 }; })(), { queryId: `${t}-q` });
      assert.equal(given.queryId, `${t}-q`);
      if (target.url !== 'chdb://') assert.equal(given.summary, undefined, '18.16 sends no summary');
      for (const empty of [[], (function* () { /* nothing */ })(), (async function* () { /* nothing */ })()]) {
        assert.deepEqual(await c.insert(t, empty, { queryId: `${t}-e` }), { queryId: undefined, summary: undefined });
      }
      assert.equal(await c.fetchValue(`SELECT count() FROM ${t}`), 2n);
    } finally {
      await c.execute(`DROP TABLE ${t}`);
      await c.close();
    }
  });
}
