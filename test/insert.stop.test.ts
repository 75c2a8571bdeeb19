// What an insert commits when it stops early (issue 10, data semantics), on chdb:// and on the
// real 18.16 server: a source that throws, an abort and a requestTimeout while the source stalls
// all end the body cleanly after the blocks already sent, so exactly those are committed, the
// same for all three; the abort rejects at once (not when the source resumes).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, ChwireAbortError, ChwireTimeoutError, type Client } from '../src/index.js';
import { REAL_URL, SKIP_REAL, uniqueName } from './support/ch-server.js';

const STALL_MS = 8000;
/** 150 000 rows, then a long stall (or a throw); `onStall` runs as the stall begins. */
async function* source(end: 'stall' | 'throw', onStall?: () => void): AsyncGenerator<{ id: number }> {
  for (let i = 0; i < 150_000; i++) yield { id: i };
  if (end === 'throw') throw new Error('source failed at row 150000');
  onStall?.();
  await new Promise((r) => setTimeout(r, STALL_MS).unref());
  yield { id: -1 };
}

for (const target of [{ name: 'chdb://', url: 'chdb://', skip: false as string | false }, { name: 'real server', url: REAL_URL ?? '', skip: SKIP_REAL }]) {
  const clients: Client[] = [];
  after(async () => { for (const x of clients) await x.close(); });
  test(`${target.name}: a throwing source, an abort and a requestTimeout during a stall commit the same blocks (2 × 65 536 rows)`, { skip: target.skip, timeout: 120_000 }, async () => {
    const c = createClient({ url: target.url, requestTimeout: 60_000 });
    const timing = createClient({ url: target.url, requestTimeout: 1500 });
    clients.push(c, timing);
    const t = uniqueName('chw_stop');
    await c.execute(`CREATE TABLE ${t} (id Int32) ENGINE = MergeTree ORDER BY id`);
    try {
      const count = async (): Promise<bigint> => (await c.fetchValue<bigint>(`SELECT count() FROM ${t}`))!;
      await assert.rejects(c.insert(t, source('throw'), { blockSize: 65_536 }), /source failed/);
      assert.equal(await count(), 131_072n);
      await c.execute(`TRUNCATE TABLE ${t}`);
      const ac = new AbortController();
      let stalled = 0;
      // The abort comes 300 ms into the stall (the blocks before it were sent by then).
      await assert.rejects(c.insert(t, source('stall', () => { stalled = performance.now(); setTimeout(() => ac.abort(), 300); }), { blockSize: 65_536, signal: ac.signal }), ChwireAbortError);
      assert.ok(performance.now() - stalled < STALL_MS - 2000, 'the abort did not wait for the source');
      assert.equal(await count(), 131_072n);
      await c.execute(`TRUNCATE TABLE ${t}`);
      await assert.rejects(timing.insert(t, source('stall'), { blockSize: 65_536 }), (e: unknown) => e instanceof ChwireTimeoutError && /input stalled/.test(e.message));
      assert.equal(await count(), 131_072n);
    } finally {
      await c.execute(`DROP TABLE ${t}`);
    }
  });
}
