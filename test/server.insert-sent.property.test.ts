// insertSent bounds what the server may have committed (issue 26 item 2): an insert stopped at a
// random point (a proxy that cuts its connection after a random number of bytes, an abort or
// destroy() after a random time), with a random blockSize (most not a multiple of the encoder's
// 8 192-row slices: such blocks used to hold the next multiple, 32 768 rows for 25 000, while
// insertSent counted 25 000), from an array, a sync or an async iterable, on the real 18.16 and on
// chdb://: once the server has finished the statement, count() <= insertSent.rows every time
// (0 when the error says nothing was sent), and rowsTaken >= insertSent.rows for an iterable.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createClient, isChwireError, type Client } from '../src/index.js';
import { REAL_URL, SKIP_REAL, uniqueName } from './support/ch-server.js';
import { cuttingProxy } from './support/cutting-proxy.js';

const N = 240_000;
const row = (i: number) => ({ id: i, s: `r${i}` });
type Kind = 'array' | 'sync' | 'async';
function input(kind: Kind): object[] | Iterable<object> | AsyncIterable<object> {
  if (kind === 'array') return Array.from({ length: N }, (_, i) => row(i));
  if (kind === 'sync') return (function* () { for (let i = 0; i < N; i++) yield row(i); })();
  return (async function* () { for (let i = 0; i < N; i++) yield row(i); })();
}

/** Waits (bounded) until the server no longer runs the query: what it commits is then final. */
async function settled(c: Client, queryId: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const n = await c.fetchValue<bigint>(`SELECT count() FROM system.processes WHERE query_id = '${queryId}'`);
    if (n === 0n) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`query ${queryId} still running after 10 s`);
}

const stopArb = fc.oneof(
  fc.record({ how: fc.constant('cut' as const), at: fc.integer({ min: 0, max: 3_500_000 }) }),
  fc.record({ how: fc.constantFrom('abort' as const, 'destroy' as const), at: fc.integer({ min: 0, max: 900 }) }),
);
const caseArb = fc.record({ stop: stopArb, blockSize: fc.integer({ min: 500, max: 70_000 }), kind: fc.constantFrom<Kind>('array', 'sync', 'async') });

const clients: Client[] = [];
after(async () => { for (const c of clients) await c.close().catch(() => undefined); });

for (const target of [{ name: 'real 18.16 server', url: REAL_URL ?? '', skip: SKIP_REAL, runs: 10 }, { name: 'chdb://', url: 'chdb://', skip: false as string | false, runs: 6 }]) {
  test(`${target.name}: after a random stop, count() <= insertSent.rows`, { skip: target.skip, timeout: 120_000 }, async () => {
    const admin = createClient({ url: target.url, requestTimeout: 60_000 });
    clients.push(admin);
    const t = uniqueName('sent_prop');
    await admin.execute(`CREATE TABLE ${t} (id UInt32, s String) ENGINE = MergeTree ORDER BY id`);
    const proxy = target.url.startsWith('http') ? await cuttingProxy(target.url, Infinity) : undefined;
    try {
      await fc.assert(fc.asyncProperty(caseArb, async ({ stop, blockSize, kind }) => {
        // (chdb:// has no connection to cut: an abort at a random time instead.)
        const how = stop.how === 'cut' && proxy === undefined ? 'abort' : stop.how;
        await admin.execute(`TRUNCATE TABLE ${t}`);
        if (proxy !== undefined) proxy.cutAfter = how === 'cut' ? stop.at : Infinity;
        const c = createClient({ url: how === 'cut' ? proxy!.url : target.url, requestTimeout: 30_000 });
        clients.push(c);
        const ac = new AbortController();
        const queryId = `${t}_${Math.random().toString(36).slice(2)}`;
        const ins = c.insert(t, input(kind), { blockSize, queryId, signal: ac.signal }).then(() => undefined, (e: unknown) => e);
        if (how !== 'cut') setTimeout(() => { if (how === 'abort') ac.abort(); else void c.destroy(); }, Math.min(stop.at, 900));
        const err = await ins;
        await c.close().catch(() => undefined);
        await settled(admin, queryId);
        const stored = Number(await admin.fetchValue<bigint>(`SELECT count() FROM ${t}`));
        if (err === undefined) { assert.equal(stored, N); return; }
        assert.ok(isChwireError(err), `a ChwireError, got ${String(err)}`);
        const bound = err.insertSent?.rows ?? 0;
        assert.ok(stored <= bound, `${how} at ${stop.at}, blockSize ${blockSize}, ${kind}: ${stored} rows stored, insertSent says up to ${bound} (${err.message})`);
        if (kind !== 'array') assert.ok((err.rowsTaken ?? 0) >= bound, `rowsTaken ${String(err.rowsTaken)} >= ${bound}`);
      }), { numRuns: target.runs });
    } finally {
      await proxy?.close();
      await admin.execute(`DROP TABLE ${t}`);
    }
  });
}
