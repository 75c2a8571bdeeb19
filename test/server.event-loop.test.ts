// The event loop while chwire reads a 1M-row result from the real server (CHWIRE_TEST_HTTP_URL).
// The first test reads a one-block Memory table with every read call: a guard against a regression
// to one long synchronous step (issue 13 measured 0.4–1.3 s stalls when fetchColumns decoded the
// whole body at the end). The real figure (≤ 50 ms) is bench:loop's; this test allows max(150 ms,
// a third of the call's own duration): the second term keeps it from failing on a machine so loaded
// that every step is slow, while a whole-body decode (most of the call in one step) still fails. A
// call passes on the first of up to 3 attempts within the bound. The second test reads issue 28's
// query in 65 536-row blocks (below).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { SKIP_REAL as skip, realClient, uniqueName } from './support/ch-server.js';
import { worstGap } from './support/loop-gap.js';

const ROWS = 1_000_000;

test('1M rows over HTTP: no columnar, row, raw read or fetch holds the event loop in one long step', { skip, timeout: 600_000 }, async () => {
  const c = realClient();
  const table = uniqueName('chwire_loop');
  const sql = `SELECT * FROM ${table}`;
  try {
    await c.execute(`CREATE TABLE ${table} ENGINE = Memory AS SELECT number AS id, concat('user_', toString(number % 1000), '_', toString(number)) AS name,
      toDateTime(1700000000 + number, 'UTC') AS ts, number / 7 AS score, toInt32(number % 100000 - 50000) AS delta FROM numbers(${ROWS})`);
    const calls: [string, () => Promise<number>][] = [
      ['fetchColumns', async () => (await c.fetchColumns(sql)).rowCount],
      ['streamColumns', async () => { let n = 0; for await (const b of c.streamColumns(sql)) n += b.rowCount; return n; }],
      ['stream', async () => { let n = 0; for await (const _ of c.stream(sql)) n++; return n; }],
      ['stream().batches()', async () => { let n = 0; for await (const b of c.stream(sql).batches()) n += b.length; return n; }],
      ['streamRaw', async () => { let n = 0; for await (const b of c.streamRaw(sql, { format: 'Native' })) n += b.length; return n; }],
      // fetch keeps every row: its garbage collection counts too (bench:loop compares it with the official client's json()).
      ['fetch', async () => (await c.fetch(sql)).length],
    ];
    for (const [name, run] of calls) {
      const seen: string[] = [];
      for (let attempt = 0; attempt < 3; attempt++) {
        const t0 = performance.now();
        const { result, gapMs } = await worstGap(run);
        const took = performance.now() - t0;
        if (name !== 'streamRaw') assert.equal(result, ROWS, name);
        const bound = Math.max(150, took / 3);
        seen.push(`${gapMs.toFixed(0)} ms of ${took.toFixed(0)} ms`);
        if (gapMs <= bound) break;
        assert.ok(attempt < 2, `${name}: worst event-loop gap over the bound in 3 attempts (${seen.join('; ')})`);
      }
    }
  } finally {
    await c.execute(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
    await c.close();
  }
});

// Issue 28, item 2: the query as the issue gives it, with the server's default settings. 18.16 then
// sends blocks of 65 536 rows (a Memory table made by CREATE … AS SELECT, as above, is one block),
// and fetchColumns joined the 16 blocks' parts of every column in one synchronous step at the end
// (measured 114–152 ms of the main thread's CPU time for the five columns, Node 20 and 26). The
// join is now done in steps with the loop's turns between them; what remains is V8's (the one 8 MB
// allocation of a million-value array, ~2 000 page faults here, and the GC of a million strings).
// Asserted in the main thread's CPU time (loop-gap.ts: a loaded machine stretches wall-time gaps
// with no work of ours) against the 50 ms target × 2: measured 24–88 ms after the change on 2
// shared cores at load 4–12 (Node 20 and 26, 50 calls). The wall-time gap, 41–330 ms there, is only
// held to max(400 ms, half the call): a whole-body step would still fail it. A shape passes on the
// first of up to 3 attempts within both bounds.
const ITEM2_SQL = `SELECT number AS id, concat('user-', toString(number)) AS name, toDateTime(1700000000 + number) AS at, number / 3 AS f, toInt32(number % 1000) AS i FROM system.numbers LIMIT 1000000`;
const NAME_SQL = `SELECT concat('user-', toString(number)) AS name FROM system.numbers LIMIT 1000000`;
const CPU_BOUND_MS = 50 * 2;

test('fetchColumns of issue 28\'s query with default settings (1M rows in 65 536-row blocks) holds the event loop no longer than the bound', { skip, timeout: 600_000 }, async (t) => {
  const c = realClient();
  try {
    for (const [shape, sql] of [['five columns', ITEM2_SQL], ['name alone', NAME_SQL]] as const) {
      const seen: string[] = [];
      for (let attempt = 0; attempt < 3; attempt++) {
        const t0 = performance.now();
        const { result, gapMs, cpuMs } = await worstGap(() => c.fetchColumns(sql), { cpu: true });
        const took = performance.now() - t0;
        assert.equal(result.rowCount, ROWS, shape);
        const name = result.columns[result.names.indexOf('name')] as string[];
        assert.equal(name[0], 'user-0');
        assert.equal(name[ROWS - 1], `user-${ROWS - 1}`);
        if (shape === 'five columns') {
          assert.deepEqual(result.names, ['id', 'name', 'at', 'f', 'i']);
          assert.equal((result.columns[0] as BigUint64Array)[ROWS - 1], BigInt(ROWS - 1));
          assert.equal((result.columns[2] as Uint32Array)[70_000], 1_700_070_000);
          assert.equal((result.columns[3] as Float64Array)[65_537], 65_537 / 3);
          assert.equal((result.columns[4] as Int32Array)[999_999], 999);
        }
        const wallBound = Math.max(400, took / 2);
        seen.push(`${cpuMs === undefined ? '?' : cpuMs.toFixed(0)} ms CPU, ${gapMs.toFixed(0)} ms wall of ${took.toFixed(0)} ms`);
        if ((cpuMs === undefined || cpuMs <= CPU_BOUND_MS) && gapMs <= wallBound) break;
        assert.ok(attempt < 2, `${shape}: worst event-loop gap over the bound (${CPU_BOUND_MS} ms CPU, ${wallBound.toFixed(0)} ms wall) in 3 attempts (${seen.join('; ')})`);
      }
      t.diagnostic(`${shape}: ${seen.join('; ')}`);
    }
  } finally {
    await c.close();
  }
});
