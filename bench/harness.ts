// The benchmark harness: runs the named paths of a case alternated in one process, after checking
// that they all produce the same result, and reports medians, spreads, ratios and GC activity.
//
// Invariants:
// - No path is timed before every path's result has been checked (equal to the case's expected
//   value, or accepted by the path's own check): a fast wrong path fails the bench, loudly.
// - Round r runs every path once, in an order rotated by r, so slow drift of a shared machine
//   (load, thermal, GC heap growth) spreads over all paths instead of penalising one.
// - Untimed per-run preparation (`before`: clearing caches, truncating a table) and a full GC
//   (with --expose-gc) happen outside the timed window; GC events are attributed to a path only
//   when they start inside one of its timed windows.
// Configuration by environment: BENCH_ROUNDS (measured rounds, default 11), BENCH_WARMUP
// (default 2), BENCH_ROWS (rows per payload, default 200000), BENCH_ONLY (comma-separated case
// names to run; others are skipped), BENCH_BALLAST_MB (default 0: live row-like objects of about
// that many MiB kept for the whole suite, the heap of a service that holds data of its own).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PerformanceObserver, performance, type PerformanceEntry } from 'node:perf_hooks';
import { assertEqual } from './equal.js';
import { environment, formatEnvironment, type BenchEnvironment } from './env.js';

export interface BenchPath<T = unknown> {
  readonly name: string;
  /** The timed work. Its result is kept only for the check run. */
  readonly run: () => T | Promise<T>;
  /** Untimed preparation before every run of this path (clear caches, truncate a table). */
  readonly before?: () => void | Promise<void>;
  /** Throws when `result` is wrong. Default: deep-equal to the case's `expected`. */
  readonly check?: (result: T) => void | Promise<void>;
}

export interface BenchCase {
  readonly name: string;
  /** One line saying what the case measures (printed above its table). */
  readonly title: string;
  /** Rows each run processes (for rows/s). */
  readonly rows: number;
  // `any`: each path's check takes its own result type; a case mixes them (bench/insert.ts).
  readonly paths: readonly BenchPath<any>[];
  /** Paths whose median the others are compared with: ratio = baseline median / path median. */
  readonly baselines: readonly string[];
  /** What every path without its own `check` must return. */
  readonly expected?: unknown;
  /**
   * Called once every path's result has been checked, before the first timed run: the case drops
   * what only its checks needed (the oracle rows), so the timed runs see a heap that holds the
   * workload and not the bench's own ~100 MB of expected values (which made V8 mark that heap
   * over and over during allocation-heavy paths). A deliberate, measured heap is BENCH_BALLAST_MB.
   */
  readonly afterChecks?: () => void;
}

export interface PathResult {
  name: string;
  samplesMs: number[];
  medianMs: number;
  minMs: number;
  maxMs: number;
  rowsPerSecond: number;
  /** Median over runs of GC events starting inside the timed window, and their total pause. */
  gcPerRun: number;
  gcMsPerRun: number;
  /** `× <baseline>`: how many times faster than the baseline (>1 = faster). */
  ratios: Record<string, number>;
}

export interface CaseResult { name: string; title: string; rows: number; baselines: string[]; paths: PathResult[] }

export interface BenchConfig { rounds: number; warmup: number; rows: number; only: string[] | undefined; ballastMiB: number }

export function benchConfig(): BenchConfig {
  const int = (name: string, dflt: number, min: number): number => {
    const raw = process.env[name];
    if (raw === undefined || raw === '') return dflt;
    const v = Number(raw);
    if (!Number.isSafeInteger(v) || v < min) throw new Error(`${name} must be an integer >= ${min}, got ${JSON.stringify(raw)}`);
    return v;
  };
  const only = process.env['BENCH_ONLY'];
  return {
    rounds: int('BENCH_ROUNDS', 11, 1),
    warmup: int('BENCH_WARMUP', 2, 0),
    rows: int('BENCH_ROWS', 200_000, 1),
    only: only === undefined || only === '' ? undefined : only.split(',').map((s) => s.trim()),
    ballastMiB: int('BENCH_BALLAST_MB', 0, 0),
  };
}

const gc: (() => void) | undefined = (globalThis as { gc?: () => void }).gc;
/** Keeps timed results reachable until the next run, so no work can be optimised away. */
let sink: unknown;

/** One suite = one `npm run bench:*` = one JSON file and one Markdown report. */
export class Bench {
  readonly config = benchConfig();
  readonly env: BenchEnvironment = environment();
  private readonly cases: CaseResult[] = [];
  private readonly notes: string[] = [];
  private readonly extras: Record<string, unknown> = {};
  private readonly gcEntries: PerformanceEntry[] = [];
  private readonly observer = new PerformanceObserver((list) => { this.gcEntries.push(...list.getEntries()); });

  constructor(readonly name: string) {
    this.observer.observe({ entryTypes: ['gc'] });
    console.log(`# chwire bench: ${name}\n${formatEnvironment(this.env)}`);
    console.log(`rounds ${this.config.rounds} measured after ${this.config.warmup} warm-up · rows ${this.config.rows}${ballastLine(this.config)}\n`);
    if (this.config.ballastMiB > 0) this.ballast = makeBallast(this.config.ballastMiB);
  }

  /** BENCH_BALLAST_MB of live objects, kept until the process ends. */
  private ballast: unknown;

  /** Whether BENCH_ONLY lets this case run. */
  wants(caseName: string): boolean {
    return this.config.only === undefined || this.config.only.includes(caseName);
  }

  /** A line printed now and kept in the report (e.g. "chwire reads Native from this server"). */
  note(text: string): void {
    this.notes.push(text);
    console.log(`note: ${text}`);
  }

  /** A measurement that is not a path race (decoder build cost, cache extremes): stored as is. */
  extra(key: string, value: unknown, printed?: string): void {
    this.extras[key] = value;
    if (printed !== undefined) console.log(printed);
  }

  async run(c: BenchCase): Promise<CaseResult | undefined> {
    if (!this.wants(c.name)) return undefined;
    for (const b of c.baselines) {
      if (!c.paths.some((p) => p.name === b)) throw new Error(`case ${c.name}: baseline ${b} is not one of its paths`);
    }
    console.log(`## ${c.name}: ${c.title}`);
    // 1. Correctness first: every path's result is checked before anything is timed.
    for (const p of c.paths) {
      if (p.before !== undefined) await p.before();
      const result = await p.run();
      if (p.check !== undefined) await p.check(result);
      else if (c.expected !== undefined) assertEqual(result, c.expected, `case ${c.name}, path ${p.name}`);
      else throw new Error(`case ${c.name}, path ${p.name}: no check and no expected result`);
    }
    console.log(`   results checked equal across ${c.paths.length} paths`);
    c.afterChecks?.();
    // 2. Warm-up and measured rounds, alternated and rotated.
    const windows = new Map<string, Array<[number, number]>>(c.paths.map((p) => [p.name, []]));
    const total = this.config.warmup + this.config.rounds;
    for (let r = 0; r < total; r++) {
      for (let i = 0; i < c.paths.length; i++) {
        const p = c.paths[(i + r) % c.paths.length]!;
        if (p.before !== undefined) await p.before();
        sink = undefined;
        gc?.();
        const t0 = performance.now();
        sink = await p.run();
        const t1 = performance.now();
        if (r >= this.config.warmup) windows.get(p.name)!.push([t0, t1]);
        // Let GC performance entries of this run be delivered (they arrive asynchronously).
        await new Promise((res) => setImmediate(res));
      }
    }
    sink = undefined;
    await new Promise((res) => setTimeout(res, 20));
    const result = this.summarise(c, windows);
    this.cases.push(result);
    console.log(caseTable(result));
    return result;
  }

  private summarise(c: BenchCase, windows: Map<string, Array<[number, number]>>): CaseResult {
    const paths: PathResult[] = c.paths.map((p) => {
      const w = windows.get(p.name)!;
      const samples = w.map(([a, b]) => b - a);
      const gcs = w.map(([a, b]) => this.gcEntries.filter((e) => e.startTime >= a && e.startTime < b));
      const med = median(samples);
      return {
        name: p.name,
        samplesMs: samples.map(round3),
        medianMs: round3(med),
        minMs: round3(Math.min(...samples)),
        maxMs: round3(Math.max(...samples)),
        rowsPerSecond: Math.round(c.rows / (med / 1000)),
        gcPerRun: median(gcs.map((g) => g.length)),
        gcMsPerRun: round3(median(gcs.map((g) => g.reduce((s, e) => s + e.duration, 0)))),
        ratios: {},
      };
    });
    for (const b of c.baselines) {
      const base = paths.find((p) => p.name === b)!.medianMs;
      for (const p of paths) p.ratios[b] = Math.round((base / p.medianMs) * 100) / 100;
    }
    return { name: c.name, title: c.title, rows: c.rows, baselines: [...c.baselines], paths };
  }

  /** Write bench/results/<name>.json and print the whole report as Markdown. */
  finish(): void {
    this.observer.disconnect();
    const here = dirname(fileURLToPath(import.meta.url));
    // Compiled to dist/bench/: results go to the source tree's bench/results/.
    const dir = join(here, '..', '..', 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${this.name}.json`);
    const doc = { suite: this.name, env: this.env, config: this.config, notes: this.notes, extras: this.extras, cases: this.cases };
    writeFileSync(file, JSON.stringify(doc, null, 2) + '\n');
    console.log(`\n---- Markdown (bench:${this.name}) ----\n`);
    console.log(markdownReport(this.name, this.env, this.config, this.cases, this.notes));
    console.log(`results written to ${file}`);
  }
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function round3(x: number): number { return Math.round(x * 1000) / 1000; }

export function caseTable(c: CaseResult): string {
  const head = ['path', 'median ms', 'min–max ms', 'rows/s', ...c.baselines.map((b) => `× ${b}`), 'GCs/run (ms)'];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`];
  for (const p of c.paths) {
    const cells = [
      p.name, ms(p.medianMs), `${ms(p.minMs)}–${ms(p.maxMs)}`, formatRate(p.rowsPerSecond),
      ...c.baselines.map((b) => `${p.ratios[b]!.toFixed(2)}×`),
      `${p.gcPerRun} (${p.gcMsPerRun.toFixed(1)})`,
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

/** Milliseconds with about three significant digits. */
function ms(x: number): string {
  return x.toFixed(x < 1 ? 3 : x < 10 ? 2 : 1);
}

function formatRate(r: number): string {
  if (!Number.isFinite(r)) return '—';
  if (r >= 1e6) return `${(r / 1e6).toFixed(2)} M`;
  if (r >= 1e3) return `${(r / 1e3).toFixed(1)} k`;
  return String(r);
}

/** Row-like objects (bigint, string, Date, number) of about `mib` MiB, all alive. */
function makeBallast(mib: number): unknown[] {
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const out: unknown[] = [];
  for (let i = 0; process.memoryUsage().heapUsed - before < mib * 2 ** 20; i++) {
    for (let k = 0; k < 10_000; k++, i++) out.push({ id: BigInt(i), name: `ballast row ${i}`, at: new Date(i * 1000), score: i / 7 });
  }
  gc?.();
  console.log(`ballast: ${out.length} row objects, ${((process.memoryUsage().heapUsed - before) / 2 ** 20).toFixed(0)} MiB live`);
  return out;
}

function ballastLine(config: BenchConfig): string {
  return config.ballastMiB > 0 ? ` · ballast ${config.ballastMiB} MiB of live row objects` : '';
}

export function markdownReport(name: string, env: BenchEnvironment, config: BenchConfig, cases: readonly CaseResult[], notes: readonly string[]): string {
  const out = [
    `### bench:${name}`,
    '',
    `${env.date} · node ${env.node} (V8 ${env.v8}) · ${env.cpu} × ${env.cores} · load ${env.loadAverage.join(' ')} · chwire ${env.commit}`,
    `${config.rounds} measured rounds after ${config.warmup} warm-up, paths alternated; median, ratio = baseline median / path median${ballastLine(config)}.`,
  ];
  for (const n of notes) out.push(`- ${n}`);
  for (const c of cases) out.push('', `**${c.name}**: ${c.title} (${c.rows} rows)`, '', caseTable(c));
  return out.join('\n');
}
