// npm run bench:chdb — 200 concurrent small queries on chdb:// (issue 13): latency and event-loop
// responsiveness of chwire against calling the engine directly, in one process, paths alternated.
//
// Paths (each round runs all 200 queries of one path at once, then the next path):
//   engine        chdb's own Session.queryAsync on one connection (the engine called directly)
//   fetch         client.fetch: single-shot engine calls (the path chwire picks for buffered reads)
//   stream        client.stream, every row collected: streamed engine calls (queryStream, whose
//                 start runs on the main thread), the path every read took before
// Each query is `SELECT number AS id, concat('n', toString(number + i)) AS name FROM numbers(10)`
// with its own i. Checked before timing: every path's answer to every query equals the engine's
// TSV of it. Figures per round: latency p50/p99 over the 200 queries, the worst gap between 1 ms
// timers and the p99 event-loop delay (perf_hooks histogram) while they run; reported as medians
// over rounds, with p99 ratios against `engine`. Environment: BENCH_ROUNDS (default 9),
// BENCH_WARMUP (2), BENCH_CONCURRENCY (200).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { writeFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Session } from 'chdb';
import { createClient } from '../src/index.js';
import { environment, formatEnvironment } from './env.js';
import { benchConfig, median } from './harness.js';

const config = benchConfig();
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 9);
const N = Number(process.env['BENCH_CONCURRENCY'] ?? 200);
const env = environment();
console.log(formatEnvironment(env));
console.log(`${N} concurrent queries per round, ${rounds} rounds after ${config.warmup} warm-up rounds\n`);

const sql = (i: number): string => `SELECT number AS id, concat('n', toString(number + ${i})) AS name FROM numbers(10)`;
// One data directory per process: the client and the direct connection share one.
const dir = mkdtempSync(join(tmpdir(), 'chwire-bench-chdb-'));
const client = createClient({ url: `chdb://${dir}` });
await client.fetchValue('SELECT 1');
const session = new Session(dir);
const engineTsv = async (i: number): Promise<string> => new TextDecoder().decode((await session.queryAsync(sql(i), { format: 'TabSeparated' })).bytes());

type Row = { id: bigint; name: string };
const tsv = (rows: Row[]): string => rows.map((r) => `${r.id}\t${r.name}\n`).join('');
const paths: Record<string, (i: number) => Promise<string>> = {
  engine: engineTsv,
  fetch: async (i) => tsv(await client.fetch<Row>(sql(i))),
  stream: async (i) => { const rows: Row[] = []; for await (const r of client.stream<Row>(sql(i))) rows.push(r); return tsv(rows); },
};

// Results checked equal first.
for (const [name, run] of Object.entries(paths)) {
  for (const i of [0, 7, N - 1]) {
    const [got, want] = await Promise.all([run(i), engineTsv(i)]);
    if (got !== want) throw new Error(`${name}: query ${i} answered ${JSON.stringify(got)}, the engine ${JSON.stringify(want)}`);
  }
}

interface RoundFigures { totalMs: number; p50: number; p99: number; worstGapMs: number; loopP99Ms: number }

async function round(run: (i: number) => Promise<string>): Promise<RoundFigures> {
  const h = monitorEventLoopDelay({ resolution: 1 });
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => { const now = performance.now(); if (now - last > worst) worst = now - last; last = now; }, 1);
  h.enable();
  const start = performance.now();
  const latencies = await Promise.all(Array.from({ length: N }, async (_, i) => { const t = performance.now(); await run(i); return performance.now() - t; }));
  const totalMs = performance.now() - start;
  h.disable();
  clearInterval(timer);
  const now = performance.now();
  if (now - last > worst) worst = now - last;
  latencies.sort((a, b) => a - b);
  const pct = (p: number): number => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!;
  return { totalMs, p50: pct(0.5), p99: pct(0.99), worstGapMs: worst, loopP99Ms: h.percentile(99) / 1e6 };
}

const figures: Record<string, RoundFigures[]> = Object.fromEntries(Object.keys(paths).map((k) => [k, []]));
for (let r = 0; r < config.warmup + rounds; r++) {
  for (const [name, run] of Object.entries(paths)) {
    const f = await round(run);
    if (r >= config.warmup) figures[name]!.push(f);
  }
}

const med = (name: string, k: keyof RoundFigures): number => median(figures[name]!.map((f) => f[k]));
const summary = Object.keys(paths).map((name) => ({
  path: name,
  totalMs: med(name, 'totalMs'), p50Ms: med(name, 'p50'), p99Ms: med(name, 'p99'),
  worstGapMs: med(name, 'worstGapMs'), loopP99Ms: med(name, 'loopP99Ms'),
  p99VsEngine: med(name, 'p99') / med('engine', 'p99'),
}));
const f1 = (x: number): string => x.toFixed(1);
console.log('| path | total ms | latency p50 ms | latency p99 ms | p99 vs engine | worst loop gap ms | loop delay p99 ms |');
console.log('|---|--:|--:|--:|--:|--:|--:|');
for (const s of summary) console.log(`| ${s.path} | ${f1(s.totalMs)} | ${f1(s.p50Ms)} | ${f1(s.p99Ms)} | ${s.p99VsEngine.toFixed(2)}× | ${f1(s.worstGapMs)} | ${f1(s.loopP99Ms)} |`);
console.log('\n(medians over rounds; "p99 vs engine" < 2× is the floor for fetch)');
mkdirSync('bench/results', { recursive: true });
writeFileSync(`bench/results/chdb-${process.version.split('.')[0]}.json`, JSON.stringify({ env, concurrency: N, rounds, summary, figures }, null, 2) + '\n');
session.close();
await client.close();
rmSync(dir, { recursive: true, force: true });
