// npm run bench:eval-free — decoding where code generation from strings is refused (issue 12).
//
// For schemas (a)–(e) (BENCH_ROWS rows, default 200k) the embedded engine writes one
// RowBinaryWithNamesAndTypes body (the client's default wire format); each path decodes it whole
// with decodeRowBinary, the decoder the client builds for that header, each path in its own child
// process (the same script, fresh, differing only in the flag and the module imported):
//   compiled     `new Function` allowed: the run-time compiled decoder
//   interpreted  a child under --disallow-code-generation-from-strings with no generated module:
//                the interpreted fallback (the reference decoder reading the plan)
//   generated    a child under --disallow-code-generation-from-strings that imported the
//                `.decoders.js` file `chwire gen`'s emitter (emitModule) writes for exactly these
//                result schemas: the decoders compiled ahead of time, found by lookupPrecompiled
// This process produces the bodies and the module and drives the children over IPC; each child
// times its own runs. Rounds alternate the three paths (order rotated every round), decoders warm
// (built once, as for a repeated query), gc() before each timed run (children run --expose-gc).
// Checks before timing: in each child the rows' digest (SHA-256 of a canonical text of every
// value, key order included) equals that of the reference decoder in this process; the compiled
// child generates code and the other two refuse `new Function`; the generated child's decoder came
// from the registry (precompiledHits counts one hit per schema and no more during the timed runs),
// the other two children's did not (they have nothing registered).
// Floors (issue 12): generated ≥ 2× interpreted on (b); generated time ≤ 1.2 × compiled time (on
// wall-time medians; each child's CPU time per run is reported next to them, since on a shared
// machine wall time also counts waiting for a core).
// Results: bench/results/eval-free-<node major>.json and a Markdown table. BENCH_CHILD_FLAGS adds
// node flags to every child (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where time goes).
import { fork, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { PerformanceObserver, performance, type PerformanceEntry } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { decodeRowBinary, decodeRowBinaryReference, type DecodedRows } from '../src/codec.js';
import { codeGenerationAllowed } from '../src/codegen/compile.js';
import { precompiledCount, precompiledHits } from '../src/codegen/precompiled.js';
import ts from 'typescript';
import { emitModule, type GenQuery } from '../src/gen/emit.js';
import { benchConfig, caseTable, markdownReport, median, type CaseResult, type PathResult } from './harness.js';
import { environment, formatEnvironment } from './env.js';
import { SCHEMA_TITLES, fillEngineTable, plain, selectAll } from './schemas.js';

const SCHEMAS = ['a', 'b', 'c', 'd', 'e'];
const PATHS = ['compiled', 'interpreted', 'generated'] as const;
type PathName = (typeof PATHS)[number];
const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');
const NO_EVAL = '--disallow-code-generation-from-strings';
const CHILD_FLAGS = (process.env['BENCH_CHILD_FLAGS'] ?? '').split(' ').filter((f) => f !== '');

/** A stable text of a decoded value (bigint, Date, bytes, Map, -0, NaN; object keys in order). */
function canon(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'boolean') return String(v);
  if (v instanceof Date) return `Date(${v.getTime()})`;
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}[${Array.from(v as unknown as ArrayLike<number | bigint>, String).join(',')}]`;
  if (v instanceof Map) return `Map{${[...v].map(([k, x]) => `${canon(k)}=>${canon(x)}`).join(',')}}`;
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  if (typeof v === 'object') return `${Object.getPrototypeOf(v) === null ? 'null-proto' : ''}{${Object.keys(v).map((k) => `${JSON.stringify(k)}:${canon((v as Record<string, unknown>)[k])}`).join(',')}}`;
  return typeof v;
}

function digest(d: DecodedRows): string {
  const h = createHash('sha256');
  h.update(canon(d.columns));
  for (const r of d.rows) h.update(canon(r)).update('\n');
  return `${d.rows.length} rows, sha256 ${h.digest('hex').slice(0, 16)}`;
}

// ---- Timing, the same in every process --------------------------------------------------------

const gc = (globalThis as { gc?: () => void }).gc;
/** Keeps the last result alive until the next run, so no work can be optimised away. */
let sink: unknown;

/** Wall time, GC events inside it, and the process's CPU time (user + system, all threads) over it. */
interface Sample { ms: number; gcs: number; gcMs: number; cpuMs: number }

/**
 * Timed windows of one case and the GC events that started inside them. GC entries arrive
 * asynchronously (sometimes well after the run), so they are attributed when the case ends.
 */
class Windows {
  private readonly windows: [number, number, number][] = [];
  private readonly entries: PerformanceEntry[] = [];
  private readonly observer = new PerformanceObserver((list) => { this.entries.push(...list.getEntries()); });
  constructor() { this.observer.observe({ entryTypes: ['gc'] }); }

  async time(run: () => unknown): Promise<number> {
    sink = undefined;
    gc?.();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    sink = run();
    const t1 = performance.now();
    const c = process.cpuUsage(c0);
    this.windows.push([t0, t1, (c.user + c.system) / 1000]);
    await new Promise((r) => setImmediate(r));
    return t1 - t0;
  }

  /** Every window with its GC events, then forget them (the next case starts afresh). */
  async drain(): Promise<Sample[]> {
    await new Promise((r) => setTimeout(r, 50));
    const out = this.windows.map(([a, b, cpuMs]) => {
      const inside = this.entries.filter((e) => e.startTime >= a && e.startTime < b);
      return { ms: b - a, gcs: inside.length, gcMs: inside.reduce((s, e) => s + e.duration, 0), cpuMs };
    });
    this.windows.length = 0;
    this.entries.length = 0;
    return out;
  }
}

// ---- A child: one path under --disallow-code-generation-from-strings ---------------------------

type Request =
  | { op: 'init'; decoders: string | null }
  | { op: 'load'; schema: string; file: string }
  | { op: 'run' }
  | { op: 'samples' };

interface LoadReply { digest: string; hits: number; ms: number }
interface InitReply { codegen: boolean; registered: number; pid: number }

async function child(): Promise<void> {
  let bin: Uint8Array | undefined;
  let hitsAfterLoad = 0;
  const windows = new Windows();
  const send = (m: unknown): void => { process.send!(m); };
  process.on('message', (m: Request) => {
    void (async () => {
      try {
        if (m.op === 'init') {
          if (m.decoders !== null) await import(pathToFileURL(m.decoders).href);
          send({ codegen: codeGenerationAllowed(), registered: precompiledCount(), pid: process.pid } satisfies InitReply);
        } else if (m.op === 'load') {
          bin = undefined;
          sink = undefined;
          bin = plain(readFileSync(m.file));
          const before = precompiledHits('rowbinary');
          const t0 = performance.now();
          const rows = decodeRowBinary(bin);
          const ms = performance.now() - t0;
          hitsAfterLoad = precompiledHits('rowbinary');
          send({ digest: digest(rows), hits: hitsAfterLoad - before, ms } satisfies LoadReply);
        } else if (m.op === 'run') {
          const ms = await windows.time(() => decodeRowBinary(bin!));
          // The decoder was built once, at load: a timed run must not build (or look up) another.
          if (precompiledHits('rowbinary') !== hitsAfterLoad) throw new Error('a timed run looked up another decoder');
          send({ ms });
        } else {
          send(await windows.drain());
        }
      } catch (e) {
        send({ error: (e as Error).stack ?? String(e) });
      }
    })();
  });
  process.on('disconnect', () => process.exit(0));
}

// ---- The parent --------------------------------------------------------------------------------

class Child {
  private readonly proc: ChildProcess;
  private waiting: ((m: unknown) => void) | undefined;
  private exited: string | undefined;

  constructor(readonly path: PathName) {
    this.proc = fork(fileURLToPath(import.meta.url), ['--child'], {
      execArgv: [...(path === 'compiled' ? ['--expose-gc'] : [NO_EVAL, '--expose-gc']), ...CHILD_FLAGS],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.proc.on('message', (m) => { const w = this.waiting; this.waiting = undefined; w?.(m); });
    this.proc.on('exit', (code, signal) => {
      this.exited = `the ${path} child exited (${code ?? signal})`;
      const w = this.waiting; this.waiting = undefined; w?.({ error: this.exited });
    });
  }

  async ask<T>(req: Request): Promise<T> {
    if (this.exited !== undefined) throw new Error(this.exited);
    const reply = await new Promise<unknown>((res) => { this.waiting = res; this.proc.send(req); });
    const err = (reply as { error?: string }).error;
    if (err !== undefined) throw new Error(`${this.path} child: ${err}`);
    return reply as T;
  }

  close(): void { if (this.exited === undefined) this.proc.disconnect(); }
}

function summarise(name: string, title: string, rows: number, samples: Map<PathName, Sample[]>): CaseResult {
  const baselines = ['interpreted', 'compiled'];
  const paths: PathResult[] = PATHS.map((p) => {
    const s = samples.get(p)!;
    const ms = s.map((x) => x.ms);
    const med = median(ms);
    const r3 = (x: number): number => Math.round(x * 1000) / 1000;
    return {
      name: p, samplesMs: ms.map(r3), medianMs: r3(med), minMs: r3(Math.min(...ms)), maxMs: r3(Math.max(...ms)),
      rowsPerSecond: Math.round(rows / (med / 1000)),
      gcPerRun: median(s.map((x) => x.gcs)), gcMsPerRun: r3(median(s.map((x) => x.gcMs))), ratios: {},
    };
  });
  for (const b of baselines) {
    const base = paths.find((p) => p.name === b)!.medianMs;
    for (const p of paths) p.ratios[b] = Math.round((base / p.medianMs) * 100) / 100;
  }
  return { name, title, rows, baselines, paths };
}

async function parent(): Promise<void> {
  const config = benchConfig();
  const env = environment();
  const major = process.versions.node.split('.')[0]!;
  const suite = `eval-free-${major}`;
  console.log(`# chwire bench: ${suite}\n${formatEnvironment(env)}`);
  console.log(`rounds ${config.rounds} measured after ${config.warmup} warm-up · rows ${config.rows}\n`);
  const { engineBytes, engineExec } = await import('../test/support/engine.js');
  const notes: string[] = [];
  const note = (t: string): void => { notes.push(t); console.log(`note: ${t}`); };

  const schemas = SCHEMAS.filter((s) => config.only === undefined || config.only.includes(s));
  // A temp dir with the bodies and the generated module; `chwire` resolves to this build through a
  // node_modules link (as in a project that installed it).
  const dir = mkdtempSync(join(tmpdir(), 'chwire-eval-free-'));
  const children: Child[] = [];
  try {
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(ROOT, join(dir, 'node_modules', 'chwire'), 'dir');
    const queries: GenQuery[] = [];
    const bodies = new Map<string, { file: string; bytes: number }>();
    for (const s of schemas) {
      const table = `bench_evalfree_${s}`;
      await fillEngineTable(engineExec, table, s, config.rows);
      const bin = plain(await engineBytes(selectAll(table), 'RowBinaryWithNamesAndTypes'));
      await engineExec(`DROP TABLE ${table}`);
      const file = join(dir, `${s}.rowbinary`);
      writeFileSync(file, bin);
      bodies.set(s, { file, bytes: bin.length });
      const header = decodeRowBinaryReference(bin.subarray(0, headerLength(bin))).columns;
      queries.push({ name: `schema${s.toUpperCase()}`, sql: selectAll(table), result: header.map((c) => ({ name: c.name, type: c.type })), params: new Map() });
    }
    // Exactly what `chwire gen --query schemaA='SELECT * FROM …' …` writes for these headers.
    const mod = emitModule({ options: {}, tables: [], queries });
    if (/new Function|eval\(/.test(mod.ts)) throw new Error('the generated decoders must not generate code');
    writeFileSync(join(dir, 'bench.ts'), mod.ts);
    // The child imports the module as a build would emit it (types erased, nothing else changed).
    writeFileSync(join(dir, 'bench.decoders.js'), ts.transpileModule(mod.ts, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText);
    note(`generated module: ${(mod.ts.length / 1024).toFixed(1)} KiB for ${queries.length} schemas (emitModule, as \`chwire gen\` writes it), imported from a temp dir`);

    const comp = new Child('compiled');
    const interp = new Child('interpreted');
    const gen = new Child('generated');
    children.push(comp, interp, gen);
    const c0 = await comp.ask<InitReply>({ op: 'init', decoders: null });
    const i0 = await interp.ask<InitReply>({ op: 'init', decoders: null });
    const g0 = await gen.ask<InitReply>({ op: 'init', decoders: join(dir, 'bench.decoders.js') });
    if (!c0.codegen) throw new Error('the compiled child cannot generate code');
    for (const [c, r] of [[interp, i0], [gen, g0]] as const) {
      if (r.codegen) throw new Error(`the ${c.path} child allows new Function: it must run under ${NO_EVAL}`);
    }
    if (c0.registered !== 0 || i0.registered !== 0) throw new Error('the compiled or interpreted child has precompiled decoders');
    if (g0.registered !== 4 * queries.length) throw new Error(`the generated child registered ${g0.registered} functions, expected ${4 * queries.length}`);
    note(`each path in its own child process; interpreted and generated under ${NO_EVAL} (new Function refused, checked); the generated child registered ${g0.registered} precompiled functions (a RowBinary decoder and three Native row functions per schema)`);

    const cases: CaseResult[] = [];
    const cpuMedians: Record<string, Record<PathName, number>> = {};
    const cpuLines: string[] = [];
    const floors: { schema: string; floor: string; value: number; want: number; met: boolean }[] = [];
    for (const s of schemas) {
      const { file, bytes } = bodies.get(s)!;
      // 1. Correctness and provenance first.
      const expected = digest(decodeRowBinaryReference(plain(readFileSync(file))));
      const lc = await comp.ask<LoadReply>({ op: 'load', schema: s, file });
      const li = await interp.ask<LoadReply>({ op: 'load', schema: s, file });
      const lg = await gen.ask<LoadReply>({ op: 'load', schema: s, file });
      for (const [p, got] of [['compiled', lc.digest], ['interpreted', li.digest], ['generated', lg.digest]] as const) {
        if (got !== expected) throw new Error(`(${s}) ${p}: ${got}, the reference decoder: ${expected}`);
      }
      if (lc.hits !== 0 || li.hits !== 0) throw new Error(`(${s}) the compiled or interpreted child used a precompiled decoder`);
      if (lg.hits !== 1) throw new Error(`(${s}) the generated child did not use the precompiled decoder (registry hits ${lg.hits}): it fell back`);
      console.log(`## ${s}: ${SCHEMA_TITLES[s]} (${(bytes / 2 ** 20).toFixed(1)} MiB RowBinary)`);
      console.log(`   rows equal across the 3 paths and the reference decoder (${expected}); generated decoder from the registry (1 hit)`);
      // 2. Warm-up and measured rounds, the three paths alternated, order rotated per round.
      const child: Record<PathName, Child> = { compiled: comp, interpreted: interp, generated: gen };
      for (let r = 0; r < config.warmup + config.rounds; r++) {
        for (let i = 0; i < PATHS.length; i++) await child[PATHS[(i + r) % PATHS.length]!].ask({ op: 'run' });
      }
      const samples = new Map<PathName, Sample[]>();
      for (const p of PATHS) samples.set(p, (await child[p].ask<Sample[]>({ op: 'samples' })).slice(config.warmup));
      const c = summarise(s, `${SCHEMA_TITLES[s]}: RowBinary → rows, ${(bytes / 2 ** 20).toFixed(1)} MiB`, config.rows, samples);
      cases.push(c);
      console.log(caseTable(c));
      // CPU time is not inflated by waiting for a core on a shared machine (wall time is): shown next to it.
      const cpu = Object.fromEntries(PATHS.map((p) => [p, Math.round(median(samples.get(p)!.map((x) => x.cpuMs)) * 10) / 10])) as Record<PathName, number>;
      cpuMedians[s] = cpu;
      const cpuLine = `(${s}) CPU ms per run (median, user + system, all threads): compiled ${cpu.compiled}, interpreted ${cpu.interpreted}, generated ${cpu.generated}; generated ÷ compiled ${(cpu.generated / cpu.compiled).toFixed(2)}, interpreted ÷ generated ${(cpu.interpreted / cpu.generated).toFixed(2)}`;
      cpuLines.push(cpuLine);
      console.log(cpuLine);
      const g = c.paths.find((p) => p.name === 'generated')!;
      const cm = c.paths.find((p) => p.name === 'compiled')!;
      const within = Math.round((g.medianMs / cm.medianMs) * 100) / 100;
      floors.push({ schema: s, floor: 'generated time / compiled time', value: within, want: 1.2, met: within <= 1.2 });
      if (s === 'b') floors.push({ schema: s, floor: '× interpreted (generated)', value: g.ratios['interpreted']!, want: 2, met: g.ratios['interpreted']! >= 2 });
    }
    const floorLines = floors.map((f) => `(${f.schema}) ${f.floor} = ${f.value.toFixed(2)} (floor ${f.floor.startsWith('×') ? '≥' : '≤'} ${f.want}): ${f.met ? '✓ met' : '✗ NOT met'}`);
    console.log(`\nfloors (issue 12):\n${floorLines.map((l) => `  ${l}`).join('\n')}`);

    const out = join(ROOT, 'bench', 'results', `${suite}.json`);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify({ suite, env, config, notes, extras: { floors, cpuMsMedians: cpuMedians, childExecArgv: { compiled: ['--expose-gc', ...CHILD_FLAGS], interpreted: [NO_EVAL, '--expose-gc', ...CHILD_FLAGS], generated: [NO_EVAL, '--expose-gc', ...CHILD_FLAGS] } }, cases }, null, 2) + '\n');
    console.log(`\n---- Markdown (bench:eval-free) ----\n`);
    console.log(markdownReport(suite, env, config, cases, notes));
    console.log(['', 'CPU time (not inflated by waiting for a core):', ...cpuLines.map((l) => `- ${l}`), '', 'Floors (issue 12, on wall-time medians):', ...floorLines.map((l) => `- ${l}`)].join('\n'));
    console.log(`results written to ${out}`);
  } finally {
    for (const c of children) c.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Length of a RowBinaryWithNamesAndTypes header (column count, names, types), for a header-only body. */
function headerLength(bin: Uint8Array): number {
  let p = 0;
  const leb = (): number => {
    let v = 0;
    for (let shift = 0; ; shift += 7) {
      const b = bin[p++]!;
      v += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return v;
    }
  };
  const n = leb();
  for (let i = 0; i < 2 * n; i++) { const len = leb(); p += len; }
  return p;
}

if (process.argv[2] === '--child') await child();
else await parent();
