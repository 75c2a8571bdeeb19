// npm run bench:cli — the `chwire` command line against the floor it can reach (issue 28 item 4):
//   startup  `chwire query "SELECT 1"` (the package's bin, and the ES module entry) beside a
//            bare `node -e 0` of the same binary: the ratio is what chwire adds to a process.
//   export   `chwire query "<rows>" --format CSV` to a file beside curl reading the same SQL's
//            bytes from the same server to a file.
//   import   `chwire insert t FILE --format CSV` beside curl posting the same file (streamed, -T).
// Paths alternate within each round; the outputs (export) and the table's count and hash
// (import) are checked equal before timing. Medians of BENCH_CLI_RUNS rounds (startup: ×3);
// each case's load average is printed beside it: on a shared machine compare the ratios.
// Server: CHWIRE_BENCH_URL (default http://127.0.0.1:8123); rows: BENCH_CLI_ROWS (3 000 000).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { environment, formatEnvironment } from './env.js';
import { BENCH_URL, serverReachable } from './remote.js';

const RUNS = Number(process.env['BENCH_CLI_RUNS'] ?? 7);
const ROWS = Number(process.env['BENCH_CLI_ROWS'] ?? 3_000_000);
const ONLY = process.env['BENCH_ONLY']?.split(',');
const NODE = process.execPath;
const BIN = fileURLToPath(new URL('../cjs/cli/bin.js', import.meta.url));
const ESM_BIN = fileURLToPath(new URL('../src/cli/bin.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'chwire-bench-cli-'));
const env = { ...process.env, CHWIRE_URL: BENCH_URL };
const results: Record<string, unknown> = {};

/** Runs a command with stdout to `out` (or discarded); returns wall milliseconds. Fails loudly. */
function run(cmd: string, args: string[], out?: string): number {
  const t = performance.now();
  const r = spawnSync(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 2 ** 31 });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${cmd} ${args.slice(0, 2).join(' ')} exited ${r.status}: ${r.stderr.toString().slice(0, 500)}`);
  if (out !== undefined) writeFileSync(out, r.stdout);
  return ms;
}

/** To a file without the bench holding the bytes: the shell redirects. */
function runTo(file: string, cmd: string, args: string[]): number {
  const t = performance.now();
  const r = spawnSync('sh', ['-c', '"$0" "$@" > "$OUT_FILE"', cmd, ...args], { env: { ...env, OUT_FILE: file }, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${cmd} exited ${r.status}: ${r.stderr.toString().slice(0, 500)}`);
  return ms;
}

const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[(s.length - 1) >> 1]!; };
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');

function alternate(paths: Record<string, () => number>, rounds: number): Record<string, number[]> {
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(paths).map((k) => [k, []]));
  for (let i = 0; i < rounds; i++) for (const [k, f] of Object.entries(paths)) samples[k]!.push(f());
  return samples;
}

function report(name: string, samples: Record<string, number[]>, base: string): void {
  const l = load();
  const floor = median(samples[base]!);
  console.log(`\n${name} (median of ${samples[base]!.length}, load average ${l})`);
  const out: Record<string, unknown> = { loadavg: l };
  for (const [k, xs] of Object.entries(samples)) {
    const m = median(xs);
    console.log(`  ${k.padEnd(34)} ${m.toFixed(0).padStart(6)} ms  ${(m / floor).toFixed(2)}× ${base}`);
    out[k] = { medianMs: m, ratio: m / floor, samples: xs.map((x) => Math.round(x)) };
  }
  results[name] = out;
}

function curlQuery(sql: string): string[] {
  return ['-sS', '--fail-with-body', '--data-binary', sql, `${BENCH_URL}/`];
}

const problem = await serverReachable();
if (problem !== undefined) { console.error(problem); process.exit(1); }
execFileSync('curl', ['--version'], { stdio: 'ignore' });
const e = environment();
console.log(formatEnvironment(e));

try {
  if (ONLY === undefined || ONLY.includes('startup')) {
    run(NODE, [BIN, 'query', 'SELECT 1']); // fills the compile cache (Node 22.1+)
    const want = execFileSync('curl', curlQuery('SELECT 1')).toString();
    const got = spawnSync(NODE, [BIN, 'query', 'SELECT 1'], { env }).stdout.toString();
    if (got !== want) throw new Error(`chwire printed ${JSON.stringify(got)}, curl ${JSON.stringify(want)}`);
    report('startup', alternate({
      'node -e 0': () => run(NODE, ['-e', '0']),
      'chwire query "SELECT 1" (bin)': () => run(NODE, [BIN, 'query', 'SELECT 1']),
      'chwire query (ES module entry)': () => run(NODE, [ESM_BIN, 'query', 'SELECT 1']),
      'curl "SELECT 1"': () => run('curl', curlQuery('SELECT 1')),
    }, RUNS * 3), 'node -e 0');
  }

  const SQL = `SELECT number AS id, concat('user-', toString(number)) AS name, toDateTime(1700000000 + number, 'UTC') AS at, number / 3 AS f, toInt32(number % 1000) AS i FROM system.numbers LIMIT ${ROWS}`;
  const csv = join(dir, 'rows.csv');
  if (ONLY === undefined || ONLY.includes('export') || ONLY.includes('import')) {
    const viaCurl = join(dir, 'curl.csv');
    runTo(viaCurl, 'curl', curlQuery(`${SQL} FORMAT CSV`));
    runTo(csv, NODE, [BIN, 'query', SQL, '--format', 'CSV']);
    if (!readFileSync(csv).equals(readFileSync(viaCurl))) throw new Error('chwire and curl exported different bytes');
    console.log(`\n${ROWS} rows, ${(statSync(csv).size / 2 ** 20).toFixed(1)} MiB of CSV, byte-identical from both`);
    rmSync(viaCurl);
  }
  if (ONLY === undefined || ONLY.includes('export')) {
    const a = join(dir, 'a.csv');
    report('export', alternate({
      'curl > file': () => runTo(a, 'curl', curlQuery(`${SQL} FORMAT CSV`)),
      'chwire query --format CSV > file': () => runTo(a, NODE, [BIN, 'query', SQL, '--format', 'CSV']),
    }, RUNS), 'curl > file');
  }
  if (ONLY === undefined || ONLY.includes('import')) {
    const table = 'chwire_bench_cli';
    const q = (sql: string): string => execFileSync('curl', curlQuery(sql)).toString();
    q(`DROP TABLE IF EXISTS ${table}`);
    q(`CREATE TABLE ${table} (id UInt64, name String, at DateTime('UTC'), f Float64, i Int32) ENGINE = MergeTree ORDER BY id`);
    const check = (): string => q(`SELECT count(), sum(cityHash64(id, name, at, f, i)) FROM ${table}`);
    const expected = q(`SELECT count(), sum(cityHash64(id, name, at, f, i)) FROM (${SQL})`);
    const curlInsert = (): number => run('curl', ['-sS', '--fail-with-body', '-X', 'POST', '-T', csv, `${BENCH_URL}/?query=${encodeURIComponent(`INSERT INTO ${table} FORMAT CSV`)}`]);
    const chwireInsert = (): number => run(NODE, [BIN, 'insert', table, csv, '--format', 'CSV']);
    for (const f of [curlInsert, chwireInsert]) {
      q(`TRUNCATE TABLE ${table}`);
      f();
      const got = check();
      if (got !== expected) throw new Error(`after ${f.name} the table holds ${got.trim()}, expected ${expected.trim()}`);
    }
    const truncating = (f: () => number) => (): number => { q(`TRUNCATE TABLE ${table}`); return f(); };
    report('import', alternate({ 'curl -T file': truncating(curlInsert), 'chwire insert FILE --format CSV': truncating(chwireInsert) }, RUNS), 'curl -T file');
    q(`DROP TABLE ${table}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const file = fileURLToPath(new URL(`../../bench/results/cli-node${process.versions.node.split('.')[0]}.json`, import.meta.url));
writeFileSync(file, `${JSON.stringify({ environment: e, rows: ROWS, runs: RUNS, results }, null, 2)}\n`);
console.log(`\nwritten to ${file}`);
