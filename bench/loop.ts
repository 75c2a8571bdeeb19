// npm run bench:loop — the event loop while chwire reads a 1M-row result over HTTP (issue 13): the
// worst gap between 1 ms timers during each call, median of BENCH_LOOP_RUNS (default 3) runs,
// next to the official client's on the same rows in the same run.
//
// Rows: schema (b) (UInt64, String, DateTime, Float64, Int32), BENCH_HTTP_ROWS (default 1M), in a
// Memory table of the server at CHWIRE_BENCH_URL. Calls, alternated run by run:
//   fetchColumns, streamColumns (batches dropped), stream (rows dropped), stream().batches(),
//   streamRaw Native (bytes dropped), fetch (all rows kept), official json(), official stream().
//   insert (1M rows of JS values, Native), official insert (JSONEachRow), into an emptied Memory table.
//   And issue 28's query (item 2) read with the server's default settings: fetchColumns of
//   `SELECT number AS id, concat('user-', …) AS name, … FROM system.numbers LIMIT <rows>` and of its
//   name column alone. 18.16 sends those in 65 536-row blocks (the Memory table is one block).
// Bounds: every chwire call but fetch <= 50 ms; fetch <= max(100 ms, 1.5 x official json()).
// Besides the wall-time gap, the worst gap in the main thread's CPU time (loop-gap.ts): what our
// work held, without the time a loaded machine deschedules the process.
// BENCH_LOOP_CALLS: a comma-separated subset of the calls' names (default: all).
// Each call's result is checked (row count) before anything is reported.
import { environment, formatEnvironment } from './env.js';
import { schemaSelect, SCHEMA_TITLES } from './schemas.js';
import { BENCH_URL, benchTable, chwireClient, officialClient, serverReachable } from './remote.js';
import { worstGap } from '../test/support/loop-gap.js';
import { createClient as createOfficial } from '@clickhouse/client';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROWS = Number(process.env['BENCH_HTTP_ROWS'] ?? 1_000_000);
const RUNS = Number(process.env['BENCH_LOOP_RUNS'] ?? 3);
const missing = await serverReachable();
if (missing !== undefined) {
  console.error(missing);
  process.exit(1);
}
const env = environment();
console.log(formatEnvironment(env));
const chwire = chwireClient();
const official = officialClient();
// Its inserts hold the loop for a second: a pooled socket then outlives the server's keep-alive and
// the next request fails with EPIPE (its own warning says so). Inserts get a client without keep-alive.
const officialInserts = createOfficial({ url: BENCH_URL, keep_alive: { enabled: false } });
const table = benchTable('chwire_bench_loop');
const sql = `SELECT * FROM ${table}`;
const settings = { max_threads: 1 };

// Inserts: the same rows as JS values (Date, bigint), into a Memory table emptied before each run.
const insertTable = benchTable('chwire_bench_loop_insert');
// Made just before each insert run (untimed) and dropped after it: a million rows kept alive for the
// whole bench would make every read's garbage collection mark them too.
type InsertRow = { id: bigint; name: string; ts: Date; score: number; delta: number };
let insertRows: InsertRow[] = [];
const makeInsertRows = (): InsertRow[] => Array.from({ length: ROWS }, (_, i) => ({
  id: BigInt(i), name: `user_${i % 1000}_${i}`, ts: new Date((1_700_000_000 + i) * 1000), score: i / 7, delta: (i % 100_000) - 50_000,
}));
const asJson = (rows: InsertRow[]): Record<string, unknown>[] => rows.map((r) => ({ ...r, id: String(r.id), ts: Math.trunc(r.ts.getTime() / 1000) }));
const inserted = async (): Promise<number> => Number(await chwire.fetchValue(`SELECT count() FROM ${insertTable}`));

type Call = { name: string; run: () => Promise<number>; before?: () => Promise<void> };
const emptyInsertTable = async (): Promise<void> => { await chwire.execute(`TRUNCATE TABLE ${insertTable}`); };
let insertJson: Record<string, unknown>[] = [];
const beforeInsert = async (): Promise<void> => { await emptyInsertTable(); insertRows = makeInsertRows(); };
const beforeOfficialInsert = async (): Promise<void> => { await emptyInsertTable(); insertJson = asJson(makeInsertRows()); };
/** The rows inserted so far, once they are dropped. */
const insertedThenDrop = async (): Promise<number> => { insertRows = []; insertJson = []; return inserted(); };
// Issue 28, item 2: the query as the issue gives it (LIMIT from BENCH_HTTP_ROWS), default settings.
const numbersSql = `SELECT number AS id, concat('user-', toString(number)) AS name, toDateTime(1700000000 + number) AS at, number / 3 AS f, toInt32(number % 1000) AS i FROM system.numbers LIMIT ${ROWS}`;
const namesSql = `SELECT concat('user-', toString(number)) AS name FROM system.numbers LIMIT ${ROWS}`;
const allCalls: Call[] = [
  { name: 'fetchColumns', run: async () => (await chwire.fetchColumns(sql, { settings })).rowCount },
  { name: 'streamColumns', run: async () => { let n = 0; for await (const b of chwire.streamColumns(sql, { settings })) n += b.rowCount; return n; } },
  { name: 'stream', run: async () => { let n = 0; for await (const _ of chwire.stream(sql, { settings })) n++; return n; } },
  { name: 'stream().batches()', run: async () => { let n = 0; for await (const b of chwire.stream(sql, { settings }).batches()) n += b.length; return n; } },
  { name: 'streamRaw', run: async () => { let n = 0; for await (const b of chwire.streamRaw(sql, { format: 'Native', settings })) n += b.length; return n; } },
  { name: 'fetch', run: async () => (await chwire.fetch(sql, { settings })).length },
  { name: 'official json()', run: async () => (await (await official.query({ query: sql, format: 'JSONEachRow', clickhouse_settings: settings })).json()).length },
  {
    name: 'official stream()', run: async () => {
      let n = 0;
      const rs = await official.query({ query: sql, format: 'JSONEachRow', clickhouse_settings: settings });
      for await (const rows of rs.stream()) for (const r of rows) { r.json(); n++; }
      return n;
    },
  },
  { name: 'insert', before: beforeInsert, run: async () => { await chwire.insert(insertTable, insertRows); return insertedThenDrop(); } },
  { name: 'official insert', before: beforeOfficialInsert, run: async () => { await officialInserts.insert({ table: insertTable, values: insertJson, format: 'JSONEachRow' }); return insertedThenDrop(); } },
  { name: 'fetchColumns (numbers)', run: async () => (await chwire.fetchColumns(numbersSql)).rowCount },
  { name: 'fetchColumns (numbers; name)', run: async () => (await chwire.fetchColumns(namesSql)).rowCount },
];
const only = process.env['BENCH_LOOP_CALLS']?.split(',').map((x) => x.trim());
if (only !== undefined) {
  const unknown = only.filter((n) => !allCalls.some((c) => c.name === n));
  if (unknown.length > 0) throw new Error(`BENCH_LOOP_CALLS: no call named ${unknown.join(', ')}`);
}
const calls = only === undefined ? allCalls : allCalls.filter((c) => only.includes(c.name));

const gaps = new Map<string, number[]>(calls.map((c) => [c.name, []]));
const cpuGaps = new Map<string, number[]>(calls.map((c) => [c.name, []]));
let version = '';
try {
  version = await chwire.serverVersion();
  await chwire.execute(`DROP TABLE IF EXISTS ${table}`);
  await chwire.execute(`CREATE TABLE ${table} ENGINE = Memory AS ${schemaSelect('b', ROWS)}`);
  await chwire.execute(`DROP TABLE IF EXISTS ${insertTable}`);
  await chwire.execute(`CREATE TABLE ${insertTable} (id UInt64, name String, ts DateTime, score Float64, delta Int32) ENGINE = Memory`);
  // Checks: every call sees the whole result (bytes: more than one per row).
  for (const c of calls) {
    await c.before?.();
    const n = await c.run();
    if (c.name === 'streamRaw' ? n < ROWS : n !== ROWS) throw new Error(`${c.name}: ${n} rows, expected ${ROWS}`);
  }
  for (let r = 0; r < RUNS; r++) {
    // Rotated order per run, a full GC (with --expose-gc) before each call: no call inherits another's garbage.
    for (let k = 0; k < calls.length; k++) {
      const c = calls[(k + r) % calls.length]!;
      await c.before?.();
      (globalThis as { gc?: () => void }).gc?.();
      const { gapMs, cpuMs } = await worstGap(c.run, { cpu: true });
      gaps.get(c.name)!.push(gapMs);
      if (cpuMs !== undefined) cpuGaps.get(c.name)!.push(cpuMs);
    }
  }
} finally {
  await chwire.execute(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
  await chwire.execute(`DROP TABLE IF EXISTS ${insertTable}`).catch(() => undefined);
  await chwire.close();
  await official.close();
  await officialInserts.close();
}

const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };
const officialJson = gaps.has('official json()') ? median(gaps.get('official json()')!) : 0;
const fetchBound = Math.max(100, 1.5 * officialJson);
const lines = [
  `### bench:loop`, '',
  `${env.date} · node ${env.node} (V8 ${env.v8}) · ${env.cpu} × ${env.cores} · load ${env.loadAverage.join(' ')} · chwire ${env.commit}`,
  `${SCHEMA_TITLES['b']}, ${ROWS} rows over HTTP from ClickHouse ${version}; worst gap between 1 ms timers, median of ${RUNS} runs.`, '',
  '| call | worst gap ms (median) | runs | worst CPU gap ms (median) | bound | |', '| --- | ---: | --- | ---: | ---: | --- |',
];
const results: Record<string, { medianMs: number; runsMs: number[]; cpuMedianMs: number | undefined; cpuRunsMs: number[]; boundMs: number | undefined; met: boolean | undefined }> = {};
for (const c of calls) {
  const g = gaps.get(c.name)!;
  const m = median(g);
  const bound = c.name.startsWith('official') ? undefined : c.name === 'fetch' ? fetchBound : 50;
  const met = bound === undefined ? undefined : m <= bound;
  const cg = cpuGaps.get(c.name)!;
  const cm = cg.length === 0 ? undefined : median(cg);
  results[c.name] = { medianMs: m, runsMs: g, cpuMedianMs: cm, cpuRunsMs: cg, boundMs: bound, met };
  lines.push(`| ${c.name} | ${m.toFixed(1)} | ${g.map((x) => x.toFixed(0)).join(', ')} | ${cm === undefined ? '—' : cm.toFixed(1)} | ${bound === undefined ? '—' : `≤ ${bound.toFixed(0)}`} | ${met === undefined ? '' : met ? '✓' : '✗'} |`);
}
console.log('\n' + lines.join('\n'));
// A subset (BENCH_LOOP_CALLS) is written beside the full run's file, never over it.
const out = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bench', 'results', `loop-${process.version.split('.')[0]}${only === undefined ? '' : '-subset'}.json`);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify({ environment: env, server: version, rows: ROWS, runs: RUNS, results }, null, 2) + '\n');
console.log(`results written to ${out}`);
