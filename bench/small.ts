// npm run bench:small — small queries (issue 28 item 6): what one `fetch` of 1 or 100 rows costs
// beside a bare keep-alive node:http request for the same bytes, and beside the official client.
//
// Cases `1`, `100` (sequential calls) and `1x<concurrency>` (1 000 calls at once):
//   chwire-fetch   client.fetch(sql): rows as objects (Native from an 18.16 server)
//   bare-request   a node:http POST on a keep-alive agent (as many sockets as the clients' pools,
//                  10) with the URL, headers and body chwire sends apart from the query id; the
//                  response drained and kept (Buffer.concat): the floor of any client
//   official-json  @clickhouse/client query({ format: 'JSONEachRow' }).json()
// The SQL is schema (b) of bench/schemas.ts over numbers(n) (UInt64, String, DateTime, Float64,
// Int32), run as is (no Memory table: a small call's server work is part of the floor).
// Checks before timing: chwire's rows equal the embedded engine's rows of the same SQL, the bare
// request's bytes decode to those rows, the official rows match them (bench/json-check.ts).
//
// What is reported: the harness's wall medians per run (BENCH_SMALL_CALLS calls in a run), and
// what this machine measures robustly under load: the process's CPU time per call
// (process.cpuUsage over the run / calls; the server is another process, so this is the client's
// own work plus its share of node:http). The concurrent case also reports each call's latency
// (p50 / p99 over every measured round). Configuration: BENCH_SMALL_CALLS (sequential calls per
// run, default 200), BENCH_SMALL_CONCURRENCY (default 1000), BENCH_ONLY=1,100,1x1000.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { decodeNative, decodeRowBinaryReference } from '../src/codec.js';
import { capabilitiesOf } from '../src/client/capabilities.js';
import { parseVersion } from '../src/transport/types.js';
import { engineBytes } from '../test/support/engine.js';
import { Bench, median } from './harness.js';
import { assertEqual } from './equal.js';
import { spotCheckJson } from './json-check.js';
import { schemaSelect } from './schemas.js';
import { BENCH_URL, chwireClient, officialClient, serverReachable } from './remote.js';

const bench = new Bench('small');
const CALLS = intEnv('BENCH_SMALL_CALLS', 200);
const CONCURRENCY = intEnv('BENCH_SMALL_CONCURRENCY', 1000);
const POOL = 10; // both clients' default sockets per host

const missing = await serverReachable();
if (missing !== undefined) {
  console.error(missing);
  process.exit(1);
}

const chwire = chwireClient();
const official = officialClient();
const version = await chwire.serverVersion();
const format = capabilitiesOf(parseVersion(version)).rowFormat;
bench.note(`server ${BENCH_URL}, ClickHouse ${version}: chwire reads ${format}; the bare request asks for the same format with the same URL parameters (query id aside); the official client reads JSONEachRow`);
bench.note(`${CALLS} sequential calls per run; CPU µs per call = process.cpuUsage() (user + system, all threads of this process) over a run / calls, median over rounds`);
const agent = new http.Agent({ keepAlive: true, maxSockets: POOL, maxFreeSockets: POOL, scheduling: 'lifo' });
const base = new URL(BENCH_URL);

/** CPU µs per call of each measured run, per case and path. */
const cpu = new Map<string, Map<string, number[]>>();
const cpuRows: string[] = [];

try {
  for (const n of [1, 100]) if (bench.wants(String(n))) await sequentialCase(n);
  if (bench.wants(`1x${CONCURRENCY}`)) await concurrentCase(1);
} finally {
  agent.destroy();
  await chwire.close();
  await official.close();
}
// Medians of the measured rounds only (each path's check run and warm-up rounds come first).
bench.extra('cpuMicrosPerCall', Object.fromEntries([...cpu].map(([c, m]) => [c, Object.fromEntries([...m.keys()].map((p) => [p, Math.round(median(measured(c, p)))]))])));
for (const line of cpuRows) bench.note(line);
bench.finish();

/** The bare request: the same POST chwire makes (format, body, credentials headers), read whole. */
function bareRequest(sql: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const body = Buffer.from(sql, 'utf8');
    const req = http.request({
      hostname: base.hostname, port: base.port, method: 'POST', path: `/?default_format=${format}`, agent,
      headers: { 'X-ClickHouse-User': 'default', 'X-ClickHouse-Key': '', 'Content-Length': String(body.length) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`HTTP ${res.statusCode}: ${Buffer.concat(chunks).toString('utf8').slice(0, 200)}`));
        else resolve(Buffer.concat(chunks));
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The expected rows (engine) and the checks of each path's result against them. */
async function oracleOf(sql: string): Promise<{ rows: unknown[]; check: Record<string, (r: any) => void> }> {
  const ref = decodeRowBinaryReference(await engineBytes(sql, 'RowBinaryWithNamesAndTypes'));
  const rows = ref.rows;
  const arrays = decodeRowBinaryReference(await engineBytes(sql, 'RowBinaryWithNamesAndTypes'), { rows: 'array' }).rows as unknown[][];
  const names = Object.keys(rows[0] as object);
  return {
    rows,
    check: {
      'chwire-fetch': (r: unknown[]) => assertEqual([...r], rows, 'chwire fetch vs engine rows'),
      'bare-request': (b: Buffer) => {
        if (format !== 'Native') throw new Error(`bare-request check decodes Native; this server reads ${format}`);
        assertEqual(decodeNative(b).rows, rows, 'bare request bytes (decoded) vs engine rows');
      },
      'official-json': (r: unknown[]) => { spotCheckJson(r, arrays, names); },
    },
  };
}

function record(caseName: string, path: string, micros: number): void {
  let m = cpu.get(caseName);
  if (m === undefined) cpu.set(caseName, m = new Map());
  let xs = m.get(path);
  if (xs === undefined) m.set(path, xs = []);
  xs.push(micros);
}

/** The last `rounds` samples of a path (the check run and warm-up rounds come first). */
function measured(caseName: string, path: string): number[] {
  const xs = cpu.get(caseName)?.get(path) ?? [];
  return xs.slice(-bench.config.rounds);
}

async function sequentialCase(n: number): Promise<void> {
  const sql = schemaSelect('b', n);
  const oracle = await oracleOf(sql);
  const name = String(n);
  // Each run: CALLS calls one after another; its CPU time over the run / CALLS is recorded.
  const timed = <T>(path: string, one: () => Promise<T>) => async (): Promise<T> => {
    const c0 = process.cpuUsage();
    let last: T | undefined;
    for (let i = 0; i < CALLS; i++) last = await one();
    const c = process.cpuUsage(c0);
    record(name, path, (c.user + c.system) / CALLS);
    return last!;
  };
  const result = await bench.run({
    name,
    title: `${CALLS} sequential calls of ${n} row${n === 1 ? '' : 's'} of schema (b) from ClickHouse ${version}`,
    rows: CALLS,
    baselines: ['bare-request', 'official-json'],
    paths: [
      { name: 'chwire-fetch', run: timed('chwire-fetch', () => chwire.fetch(sql)), check: oracle.check['chwire-fetch'] },
      { name: 'bare-request', run: timed('bare-request', () => bareRequest(sql)), check: oracle.check['bare-request'] },
      { name: 'official-json', run: timed('official-json', async () => (await official.query({ query: sql, format: 'JSONEachRow' })).json<unknown>()), check: oracle.check['official-json'] },
    ],
  });
  if (result !== undefined) report(name, result.paths.map((p) => ({ path: p.name, wallUs: (p.medianMs * 1000) / CALLS })));
}

async function concurrentCase(n: number): Promise<void> {
  const sql = schemaSelect('b', n);
  const oracle = await oracleOf(sql);
  const name = `1x${CONCURRENCY}`;
  const latencies = new Map<string, number[]>();
  // Each run: CONCURRENCY calls started at once; each call's latency (start → result) is kept.
  const timed = <T>(path: string, one: () => Promise<T>) => async (): Promise<T[]> => {
    const c0 = process.cpuUsage();
    const lat: number[] = latencies.get(path) ?? [];
    latencies.set(path, lat);
    const calls: Promise<T>[] = new Array(CONCURRENCY);
    for (let i = 0; i < CONCURRENCY; i++) {
      const t0 = performance.now();
      calls[i] = one().then((r) => { lat.push(performance.now() - t0); return r; });
    }
    const out = await Promise.all(calls);
    const c = process.cpuUsage(c0);
    record(name, path, (c.user + c.system) / CONCURRENCY);
    return out;
  };
  const every = (check: (r: any) => void) => (rs: unknown[]): void => {
    if (rs.length !== CONCURRENCY) throw new Error(`${rs.length} results, expected ${CONCURRENCY}`);
    for (const r of rs) check(r);
  };
  const result = await bench.run({
    name,
    title: `${CONCURRENCY} concurrent calls of ${n} row of schema (b) from ClickHouse ${version} (pools of ${POOL} sockets)`,
    rows: CONCURRENCY,
    baselines: ['bare-request', 'official-json'],
    paths: [
      { name: 'chwire-fetch', run: timed('chwire-fetch', () => chwire.fetch(sql)), check: every(oracle.check['chwire-fetch']!) },
      { name: 'bare-request', run: timed('bare-request', () => bareRequest(sql)), check: every(oracle.check['bare-request']!) },
      { name: 'official-json', run: timed('official-json', async () => (await official.query({ query: sql, format: 'JSONEachRow' })).json<unknown>()), check: every(oracle.check['official-json']!) },
    ],
  });
  if (result === undefined) return;
  // Latencies of the measured rounds only (the check run and warm-up came first).
  const keep = bench.config.rounds * CONCURRENCY;
  const pct = (xs: number[], q: number): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))]!; };
  const lat: Record<string, { p50: number; p99: number }> = {};
  for (const [p, xs] of latencies) {
    const m = xs.slice(-keep);
    lat[p] = { p50: Math.round(pct(m, 0.5) * 100) / 100, p99: Math.round(pct(m, 0.99) * 100) / 100 };
  }
  bench.extra(`latency.${name}`, lat);
  report(name, result.paths.map((p) => ({ path: p.name, wallUs: (p.medianMs * 1000) / CONCURRENCY, p50: lat[p.name]!.p50, p99: lat[p.name]!.p99 })));
}

/** Prints (and keeps for the report) CPU and wall per call, chwire's excess over the bare request, and the ratios. */
function report(caseName: string, rows: { path: string; wallUs: number; p50?: number; p99?: number }[]): void {
  const cpuOf = (p: string): number => median(measured(caseName, p));
  const bare = rows.find((r) => r.path === 'bare-request')!;
  const off = rows.find((r) => r.path === 'official-json')!;
  const lines = [`case ${caseName}: per call`];
  for (const r of rows) {
    const c = cpuOf(r.path);
    lines.push(`  ${r.path.padEnd(14)} CPU ${c.toFixed(0).padStart(5)} µs (${(c - cpuOf('bare-request')).toFixed(0).padStart(5)} over bare, ${(cpuOf('official-json') / c).toFixed(2)}× less than official) · wall ${r.wallUs.toFixed(0).padStart(5)} µs (${(r.wallUs - bare.wallUs).toFixed(0)} over bare, ${(off.wallUs / r.wallUs).toFixed(2)}× official)${r.p50 !== undefined ? ` · latency p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99!.toFixed(1)} ms` : ''}`);
  }
  console.log(lines.join('\n'));
  cpuRows.push(...lines);
}

function intEnv(name: string, dflt: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return dflt;
  const v = Number(raw);
  if (!Number.isSafeInteger(v) || v < 1) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return v;
}
