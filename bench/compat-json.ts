// npm run bench:compat — chwire/compat's json() of JSONEachRow (issue 27 item 4): the JSON fast
// path (the rows read in RowBinaryWithNamesAndTypes / Native and turned into what JSON.parse of
// the server's JSON gives) against the official @clickhouse/client and against compat with the
// fast path off (the server's JSON parsed line by line), 200k rows of (UInt64, String,
// DateTime('UTC'), Float64, Int32) from the same server, alternated in one process.
//
// The server: CHWIRE_BENCH_URL when set (a 26.x server: on 18.16 the fast path sends DateTime
// columns as JSON, docs/migrating.md), else the loopback test server over the embedded engine in a
// child process (bench/engine-server.ts), so the server's work is not this process's CPU.
// Checks before timing: every path's rows deep-equal (key order, -0, types) to the official
// client's. Reported: wall-clock medians (harness) and, per path, the median CPU time of this
// process (process.cpuUsage, user + system) per run, the figure to trust on a shared machine.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createClient as createOfficial } from '@clickhouse/client';
import { createClient as createCompat } from '../src/compat.js';
import { Bench, median } from './harness.js';

const bench = new Bench('compat-json');
const ROWS = bench.config.rows;

let url = process.env['CHWIRE_BENCH_URL'];
let child: ReturnType<typeof spawn> | undefined;
if (url === undefined || url === '') {
  child = spawn(process.execPath, [fileURLToPath(new URL('./engine-server.js', import.meta.url))], { stdio: ['pipe', 'pipe', 'inherit'] });
  const [first] = await once(child.stdout!, 'data') as [Buffer];
  url = first.toString().trim().split('\n')[0]!;
}

const official = createOfficial({ url, request_timeout: 300_000 });
const compat = createCompat({ url, request_timeout: 300_000, json_fast_path: true });
const compatOff = createCompat({ url, request_timeout: 300_000, json_fast_path: false });
const sql = `SELECT toUInt64(number) * 2654435761 AS id, concat('user-', toString(number)) AS name, toDateTime(1700000000 + number, 'UTC') AS ts, number / 7 AS score, toInt32(number % 100000) - 50000 AS delta FROM numbers(${ROWS})`;
const settings = { max_threads: 1 };
const version = await (await official.query({ query: 'SELECT version() AS v', format: 'JSONEachRow' })).json<{ v: string }>();
bench.note(`server ${url}, ClickHouse ${version[0]!.v}${child !== undefined ? ' (the embedded engine behind the loopback test server, in a child process)' : ''}`);

/** Per path, this process's CPU time (ms) of each run, in call order (the first is the check run). */
const cpu = new Map<string, number[]>();
function timed(name: string, run: () => Promise<unknown>): { name: string; run: () => Promise<unknown> } {
  cpu.set(name, []);
  return {
    name,
    run: async () => {
      const c0 = process.cpuUsage();
      const out = await run();
      const d = process.cpuUsage(c0);
      cpu.get(name)!.push((d.user + d.system) / 1000);
      return out;
    },
  };
}

// compat probes the server beside its first query (which goes as JSON): queries until it answered.
for (let i = 0; i < 30; i++) {
  await (await compat.query({ query: 'SELECT 1 AS warm', format: 'JSONEachRow' })).json();
  await new Promise((r) => setTimeout(r, 100));
}

try {
  let expected: unknown = await (await official.query({ query: sql, format: 'JSONEachRow', clickhouse_settings: settings })).json();
  await bench.run({
    name: 'jsoneachrow',
    title: `json() of JSONEachRow, ${ROWS} rows of (UInt64, String, DateTime('UTC'), Float64, Int32)`,
    rows: ROWS,
    baselines: ['official-json', 'compat-json-off'],
    get expected() { return expected; },
    afterChecks: () => { expected = undefined; },
    paths: [
      timed('compat-json', async () => (await compat.query({ query: sql, format: 'JSONEachRow', clickhouse_settings: settings })).json()),
      timed('compat-json-off', async () => (await compatOff.query({ query: sql, format: 'JSONEachRow', clickhouse_settings: settings })).json()),
      timed('official-json', async () => (await official.query({ query: sql, format: 'JSONEachRow', clickhouse_settings: settings })).json()),
    ],
  });
  // CPU medians over the measured rounds (the check run and the warm-up left out).
  const skip = 1 + bench.config.warmup;
  const med: Record<string, number> = {};
  for (const [name, xs] of cpu) med[name] = median(xs.slice(skip));
  const lines = ['CPU time of this process per run (median, ms) and ratios:'];
  for (const name of cpu.keys()) {
    lines.push(`  ${name}: ${med[name]!.toFixed(1)} ms · ×official-json ${(med['official-json']! / med[name]!).toFixed(2)} · ×compat-json-off ${(med['compat-json-off']! / med[name]!).toFixed(2)}`);
  }
  bench.extra('cpuMedianMs', med, lines.join('\n'));
  bench.extra('cpuSamplesMs', Object.fromEntries(cpu));
} finally {
  await compat.close();
  await compatOff.close();
  await official.close();
  child?.stdin?.end();
}
bench.finish();
