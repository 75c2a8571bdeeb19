// npm run bench:ingest — a long-running ingest's memory (issue 28, item 3): PRODUCERS concurrent
// producers, each an async generator of events into its own streamed insert, chwire's insert
// (Native, the docs' recommended way) against the official client's JSONEachRow insert from a
// Readable fed by the same generators.
//
// Each path runs in its own child process (so one path's heap and RSS never pollute the other's
// figures); paths alternate round by round, on the same table, truncated before every run. Per
// run: events/s (all producers' events over the wall time from the first insert call to the last
// one settled), peak RSS (process.memoryUsage().rss sampled every 50 ms, and the RSS before the
// inserts), the event-loop delay (perf_hooks monitorEventLoopDelay, median and p99) and the child's
// CPU time over the inserts (process.cpuUsage, user + system: less load-sensitive than the wall time).
// Checked first: after every run the table's count and exact sums equal those of the events.
//
// Table (16 columns): ts DateTime, id UInt64, producer UInt16, kind LowCardinality(String), host
// LowCardinality(String), user String, url String, status UInt16, latency Float64, bytes UInt32,
// ref Nullable(String), score Nullable(Int32), tags Array(String), amount Decimal(18, 4),
// flag UInt8, message String. Values are what both clients accept as they are (ts as
// 'YYYY-MM-DD hh:mm:ss' text in UTC; amount as a number with 4 decimals: 18.16 reads no quoted
// Decimal in JSONEachRow, and both clients store the number's shortest decimal text exactly).
// Both clients get a pool of PRODUCERS connections (the default of both is 10).
// Configuration: INGEST_PRODUCERS (default 20), INGEST_EVENTS (events per producer, default
// 50 000), BENCH_ROUNDS (runs per path, default 3), CHWIRE_BENCH_URL, INGEST_BLOCK_SIZE (chwire's
// blockSize; default: the client's).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { Bench, median } from './harness.js';
import { assertEqual } from './equal.js';
import { createClient as createOfficial } from '@clickhouse/client';
import { createClient } from '../src/index.js';
import { BENCH_URL, benchTable, chwireClient, serverReachable } from './remote.js';

const int = (name: string, dflt: number): number => {
  const raw = process.env[name];
  const v = raw === undefined || raw === '' ? dflt : Number(raw);
  if (!Number.isSafeInteger(v) || v < 1) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return v;
};
const PRODUCERS = int('INGEST_PRODUCERS', 20);
const EVENTS = int('INGEST_EVENTS', 50_000);
const PATHS = ['chwire', 'official'] as const;
type PathName = typeof PATHS[number];

const COLUMNS_SQL = 'ts DateTime(\'UTC\'), id UInt64, producer UInt16, kind LowCardinality(String), host LowCardinality(String), ' +
  'user String, url String, status UInt16, latency Float64, bytes UInt32, ref Nullable(String), score Nullable(Int32), ' +
  'tags Array(String), amount Decimal(18, 4), flag UInt8, message String';

interface Event {
  ts: string; id: number; producer: number; kind: string; host: string; user: string; url: string; status: number;
  latency: number; bytes: number; ref: string | null; score: number | null; tags: string[]; amount: number; flag: number; message: string;
}

const KINDS = ['view', 'click', 'purchase', 'signup', 'login', 'logout', 'search', 'error'];
const HOSTS = Array.from({ length: 50 }, (_, i) => `web-${String(i).padStart(2, '0')}.eu-west.example.net`);
const TAGS = ['mobile', 'desktop', 'beta', 'returning', 'campaign-42', 'ab-test-b'];
const T0 = 1_700_000_000;
const pad2 = (n: number): string => (n < 10 ? '0' : '') + n;

function tsText(sec: number): string {
  const d = new Date(sec * 1000);
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
}

/** Event i of producer p: deterministic, so the parent knows the table's sums without inserting. */
function event(p: number, i: number): Event {
  const id = p * EVENTS + i;
  const ntags = id % 4;
  const tags: string[] = [];
  for (let k = 0; k < ntags; k++) tags.push(TAGS[(id + k) % TAGS.length]!);
  return {
    ts: tsText(T0 + (id % 86_400)),
    id,
    producer: p,
    kind: KINDS[id % KINDS.length]!,
    host: HOSTS[id % HOSTS.length]!,
    user: `user_${id % 5000}`,
    url: `/api/v1/items/${id}?page=${id % 17}&sort=desc`,
    status: id % 50 === 0 ? 500 : 200,
    latency: (id % 1000) / 7,
    bytes: (id * 7919) % 1_000_000,
    ref: id % 3 === 0 ? null : `ref-${id % 10_000}`,
    score: id % 5 === 0 ? null : (id % 2001) - 1000,
    tags,
    amount: Number(`${id % 100_000}.${String(id % 10_000).padStart(4, '0')}`),
    flag: id & 1,
    message: `request ${id} from producer ${p} handled by the ingest pipeline without incident`,
  };
}

/** A producer: an async generator, as a service's event source would be. */
async function* producer(p: number): AsyncGenerator<Event> {
  for (let i = 0; i < EVENTS; i++) yield event(p, i);
}

/** The table's sums for all events, computed here (the check's oracle). */
function expected(): Record<string, string> {
  let n = 0n; let sid = 0n; let surl = 0n; let nulls = 0n; let stags = 0n; let amount = 0n; let sbytes = 0n; let smsg = 0n;
  for (let p = 0; p < PRODUCERS; p++) {
    for (let i = 0; i < EVENTS; i++) {
      const e = event(p, i);
      n++; sid += BigInt(e.id); surl += BigInt(e.url.length); smsg += BigInt(e.message.length);
      if (e.ref === null) nulls++;
      stags += BigInt(e.tags.length);
      amount += BigInt(e.id % 100_000) * 10_000n + BigInt(e.id % 10_000);
      sbytes += BigInt(e.bytes);
    }
  }
  return {
    n: String(n), sid: String(sid), surl: String(surl), smsg: String(smsg), nulls: String(nulls), stags: String(stags),
    amount: `${amount / 10_000n}.${String(amount % 10_000n).padStart(4, '0')}`, sbytes: String(sbytes),
  };
}

interface RunResult { path: PathName; events: number; ms: number; eventsPerSecond: number; rssBeforeMiB: number; peakRssMiB: number; heapAtPeakMiB: number; heapTotalAtPeakMiB: number; arrayBuffersAtPeakMiB: number; externalAtPeakMiB: number; loopP50Ms: number; loopP99Ms: number; cpuMs: number }

/** In a child process: one path's PRODUCERS concurrent inserts, measured. */
async function child(path: PathName, table: string): Promise<void> {
  const mib = (b: number): number => Math.round((b / 2 ** 20) * 10) / 10;
  // A connection per producer in both clients (their default pools hold 10): each insert streams
  // from its start, none waits for a socket.
  const chwire = path === 'chwire' ? createClient({ url: BENCH_URL, requestTimeout: 300_000, maxOpenConnections: PRODUCERS }) : undefined;
  const official = path === 'official' ? createOfficial({ url: BENCH_URL, max_open_connections: PRODUCERS, request_timeout: 300_000 }) : undefined;
  const blockSize = process.env['INGEST_BLOCK_SIZE'] !== undefined && process.env['INGEST_BLOCK_SIZE'] !== '' ? Number(process.env['INGEST_BLOCK_SIZE']) : undefined;
  // A connection and the client's first round trips (capabilities, schema) before measuring.
  if (chwire !== undefined) await chwire.fetchOne('SELECT 1');
  else await official!.query({ query: 'SELECT 1', format: 'JSONEachRow' }).then((r) => r.json());
  (globalThis as { gc?: () => void }).gc?.();
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  // At the peak: how much of it is the JS heap and how much ArrayBuffers (encoded bytes, sockets' buffers).
  let atPeak = { heapUsed: 0, heapTotal: 0, arrayBuffers: 0, external: 0 };
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    if (m.rss > peak) { peak = m.rss; atPeak = { heapUsed: m.heapUsed, heapTotal: m.heapTotal, arrayBuffers: m.arrayBuffers, external: m.external }; }
  }, 50);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: PRODUCERS }, (_, p) => chwire !== undefined
    ? chwire.insert(table, producer(p), blockSize === undefined ? {} : { blockSize })
    : official!.insert({ table, values: Readable.from(producer(p)), format: 'JSONEachRow' })));
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  loop.disable();
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  await chwire?.close();
  await official?.close();
  const events = PRODUCERS * EVENTS;
  const out: RunResult = {
    path, events, ms: Math.round(ms), eventsPerSecond: Math.round(events / (ms / 1000)),
    rssBeforeMiB: mib(rssBefore), peakRssMiB: mib(peak), heapAtPeakMiB: mib(atPeak.heapUsed), heapTotalAtPeakMiB: mib(atPeak.heapTotal), arrayBuffersAtPeakMiB: mib(atPeak.arrayBuffers), externalAtPeakMiB: mib(atPeak.external),
    loopP50Ms: Math.round(loop.percentile(50) / 1e4) / 100, loopP99Ms: Math.round(loop.percentile(99) / 1e4) / 100,
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

function runChild(path: PathName, table: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), 'child', path, table], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    c.stdout.setEncoding('utf8');
    c.stdout.on('data', (s: string) => { out += s; });
    c.on('error', reject);
    c.on('exit', (code) => {
      if (code !== 0) { reject(new Error(`${path} child exited with ${String(code)}: ${out.slice(-500)}`)); return; }
      const last = out.trim().split('\n').pop()!;
      resolve(JSON.parse(last) as RunResult);
    });
  });
}

async function parent(): Promise<void> {
  const bench = new Bench('ingest');
  const missing = await serverReachable();
  if (missing !== undefined) { bench.note(`ingest skipped: ${missing}`); bench.finish(); return; }
  const chwire = chwireClient();
  const table = benchTable('chwire_bench_ingest');
  const rounds = bench.config.rounds === 11 && (process.env['BENCH_ROUNDS'] ?? '') === '' ? 3 : bench.config.rounds;
  try {
    const version = await chwire.serverVersion();
    bench.note(`${PRODUCERS} producers × ${EVENTS} events into ${BENCH_URL}, ClickHouse ${version}; each path in its own child process (${process.execPath} ${process.execArgv.join(' ')}), ${rounds} runs per path, alternated; table ENGINE = MergeTree ORDER BY id, truncated before every run`);
    await chwire.execute(`DROP TABLE IF EXISTS ${table}`);
    // LowCardinality is experimental before 19.x: allowed for this table's creation.
    const old = /^(1[0-8])\./.test(version);
    await chwire.execute(`CREATE TABLE ${table} (${COLUMNS_SQL}) ENGINE = MergeTree ORDER BY id`, old ? { settings: { allow_experimental_low_cardinality_type: '1' } } : {});
    const want = expected();
    const results: RunResult[] = [];
    for (let r = 0; r < rounds; r++) {
      for (const path of r % 2 === 0 ? PATHS : [...PATHS].reverse()) {
        await chwire.execute(`TRUNCATE TABLE ${table}`);
        const res = await runChild(path, table);
        const got = await chwire.fetchOne<Record<string, string>>(
          `SELECT toString(count()) AS n, toString(sum(id)) AS sid, toString(sum(length(url))) AS surl, toString(sum(length(message))) AS smsg, ` +
          `toString(countIf(isNull(ref))) AS nulls, toString(sum(length(tags))) AS stags, toString(sum(amount)) AS amount, toString(sum(bytes)) AS sbytes FROM ${table}`);
        assertEqual(got, want, `${path} run ${r}: table contents`);
        results.push(res);
        console.log(`${path.padEnd(8)} run ${r}: ${res.events} events in ${res.ms} ms (${res.eventsPerSecond} events/s), RSS ${res.rssBeforeMiB} → peak ${res.peakRssMiB} MiB (heap ${res.heapAtPeakMiB} of ${res.heapTotalAtPeakMiB}, ArrayBuffers ${res.arrayBuffersAtPeakMiB}, external ${res.externalAtPeakMiB}), loop delay p50 ${res.loopP50Ms} ms p99 ${res.loopP99Ms} ms, CPU ${res.cpuMs} ms; table checked`);
      }
    }
    const of = (p: PathName, k: keyof RunResult): number => median(results.filter((x) => x.path === p).map((x) => x[k] as number));
    const lines = ['| path | events/s | peak RSS MiB | RSS before MiB | loop delay p50 ms | p99 ms | CPU s (user + system) |', '| --- | ---: | ---: | ---: | ---: | ---: | ---: |'];
    const r1 = (x: number): string => (Math.round(x * 10) / 10).toString();
    for (const p of PATHS) lines.push(`| ${p} | ${Math.round(of(p, 'eventsPerSecond'))} | ${r1(of(p, 'peakRssMiB'))} | ${r1(of(p, 'rssBeforeMiB'))} | ${r1(of(p, 'loopP50Ms'))} | ${r1(of(p, 'loopP99Ms'))} | ${r1(of(p, 'cpuMs') / 1000)} |`);
    const speed = of('chwire', 'eventsPerSecond') / of('official', 'eventsPerSecond');
    const rss = of('chwire', 'peakRssMiB') / of('official', 'peakRssMiB');
    console.log(`\n${lines.join('\n')}\n`);
    bench.note(`medians of ${rounds} runs per path:\n\n${lines.join('\n')}\n`);
    bench.extra('runs', results);
    bench.extra('ratio.eventsPerSecond', Math.round(speed * 100) / 100, `chwire ${speed.toFixed(2)}× the official client's events/s (target ≥ 1.00×: ${speed >= 1 ? 'met' : 'NOT met'})`);
    bench.extra('ratio.peakRss', Math.round(rss * 100) / 100, `chwire ${rss.toFixed(2)}× the official client's peak RSS (target ≤ 1.50×: ${rss <= 1.5 ? 'met' : 'NOT met'})`);
  } finally {
    await chwire.execute(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
    await chwire.close();
  }
  bench.finish();
}

if (process.argv[2] === 'child') await child(process.argv[3] as PathName, process.argv[4]!);
else await parent();
