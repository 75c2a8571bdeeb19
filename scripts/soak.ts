// npm run soak [-- --minutes N] [--concurrency C]: N minutes (default 10) of concurrent mixed calls
// (fetch, stream, insert, abort, timeout) against a real clickhouse-server this script starts on
// its own ports (and restarts twice during the run), and against the loopback fault server with
// random scripted faults. Reports calls, errors by class, rows inserted vs acknowledged vs in the
// table (an acknowledged row must never be missing), and memory (RSS, V8 heap used, external and
// array buffers) at the start, after warm-up, every minute and at the end, each after a forced GC
// when run with --expose-gc (as `npm run soak` does). The fault server and its embedded engine run
// in a child process (scripts/soak-fault-server.ts), so this process's memory is chwire's own.
// --heap-snapshots DIR writes a V8 heap snapshot after warm-up and at the end (for leak hunting;
// writing one stalls the process for seconds and grows its RSS, so not for the reported figures).
// Not part of npm test. Needs /usr/sbin/clickhouse-server and the embedded engine (chdb) for the fault server.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { writeHeapSnapshot } from 'node:v8';
import { createClient, isChwireError, ChwireAbortError, ChwireTimeoutError, type Client } from '../src/index.js';
import { ownServer, SKIP_OWN } from '../test/support/own-server.js';
import type { Fault } from '../test/support/test-server.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '8' },
    warmup: { type: 'string' }, // seconds; default min(120, minutes × 12)
    'heap-snapshots': { type: 'string' },
  },
});
const minutes = Number(values.minutes);
const concurrency = Number(values.concurrency);
const warmupS = values.warmup === undefined ? Math.min(120, minutes * 12) : Number(values.warmup);
if (!(minutes > 0) || !(concurrency > 0)) throw new Error('--minutes and --concurrency must be positive numbers');
if (!(warmupS >= 0) || warmupS >= minutes * 60) throw new Error('--warmup must be a number of seconds shorter than the run');
if (SKIP_OWN !== false) throw new Error(SKIP_OWN);

// Memory in MB (one decimal), after a full GC when --expose-gc made one available.
const gc = (globalThis as { gc?: () => void }).gc;
interface Mem { rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number }
function mem(): Mem {
  gc?.();
  const m = process.memoryUsage();
  const r = (n: number): number => Math.round(n / 104857.6) / 10;
  return { rss: r(m.rss), heapUsed: r(m.heapUsed), heapTotal: r(m.heapTotal), external: r(m.external), arrayBuffers: r(m.arrayBuffers) };
}
const memory: { start: Mem; warm?: Mem; end?: Mem } = { start: mem() };
const timeline: ({ s: number; load1: number } & Mem)[] = [];
const snapshots: string[] = [];
function snapshot(label: string): void {
  if (values['heap-snapshots'] !== undefined) snapshots.push(writeHeapSnapshot(join(values['heap-snapshots'], `soak-${process.pid}-${label}.heapsnapshot`)));
}
const counts = { calls: 0, ok: 0 };
const errors = new Map<string, number>();
const byOp = new Map<string, { calls: number; errors: number }>();
let unexpected = 0;
const rows = { inserted: 0, acknowledged: 0, unacknowledged: 0 };
const acknowledged = new Map<number, number>(); // batch → rows
const unacked = new Map<number, number>();

const real = await ownServer();
await real.start();

// The fault server in its own process: its URL on the first stdout line, fault scripts over IPC.
const faultProc = fork(new URL('./soak-fault-server.js', import.meta.url), [], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'], execArgv: [] });
const faultUrl = await new Promise<string>((resolve, reject) => {
  const lines = createInterface({ input: faultProc.stdout! });
  lines.once('line', (l) => { lines.close(); resolve(l.trim()); });
  faultProc.once('exit', (code) => reject(new Error(`the fault server exited with ${code} before giving its URL`)));
});
const pendingScripts = new Map<number, () => void>();
faultProc.on('message', (m: { id: number }) => { pendingScripts.get(m.id)?.(); pendingScripts.delete(m.id); });
let scriptId = 0;
const fault = {
  url: faultUrl,
  script: (marker: string, steps: (Fault | 'ok')[]): Promise<void> => new Promise((resolve) => {
    const id = ++scriptId;
    pendingScripts.set(id, resolve);
    faultProc.send({ id, marker, steps });
  }),
};
const admin = createClient({ url: real.url, retry: { attempts: 30, baseDelay: 200, maxDelay: 1000 } });
const table = `soak_${process.pid}`;
await admin.execute(`CREATE TABLE ${table} (batch UInt32, i UInt32) ENGINE = MergeTree ORDER BY (batch, i)`);

const client = createClient({ url: real.url, maxOpenConnections: 10, requestTimeout: 10_000 });
const hasty = createClient({ url: real.url, requestTimeout: 300, retry: false });
const faulty = createClient({ url: fault.url, requestTimeout: 5_000, retry: { attempts: 3, baseDelay: 5, maxDelay: 50 } });
const FAULT_SQL = 'SELECT number AS n FROM numbers(2000)';
const faultSteps: (Fault | 'ok')[] = ['ok', { kind: 'reset' }, { kind: 'status', status: 503 }, { kind: 'status', status: 429, retryAfter: '0' }, { kind: 'cut-reset', at: 500 }];

let batch = 0;
let serial = 0;
type Op = (c: { client: Client; hasty: Client; faulty: Client }) => Promise<void>;
const ops: Record<string, Op> = {
  async fetch({ client }) {
    const v = await client.fetchValue<bigint>('SELECT sum(number) FROM numbers(10000)');
    if (v !== 49995000n) throw new Error(`wrong sum ${String(v)}`);
  },
  async stream({ client }) {
    let n = 0;
    for await (const b of client.stream('SELECT number FROM system.numbers LIMIT 50000').batches()) n += b.length;
    if (n !== 50000) throw new Error(`stream gave ${n} rows`);
  },
  async insert({ client }) {
    const b = ++batch;
    const size = 1000 + Math.floor(Math.random() * 5000);
    rows.inserted += size;
    try {
      await client.insert(table, Array.from({ length: size }, (_, i) => ({ batch: b, i })));
      rows.acknowledged += size;
      acknowledged.set(b, size);
    } catch (e) {
      rows.unacknowledged += size;
      unacked.set(b, size);
      throw e;
    }
  },
  async abort({ client }) {
    try {
      await client.fetch('SELECT sleep(1)', { signal: AbortSignal.timeout(100) });
      throw new Error('an aborted call succeeded');
    } catch (e) {
      if (!(e instanceof ChwireAbortError)) throw e;
    }
  },
  async timeout({ hasty }) {
    try {
      await hasty.fetch('SELECT sleep(1)');
      throw new Error('a call past requestTimeout succeeded');
    } catch (e) {
      if (!(e instanceof ChwireTimeoutError)) throw e;
    }
  },
  async faults({ faulty }) {
    const marker = `/* soak-${++serial} */`;
    await fault.script(marker, Array.from({ length: 3 }, () => faultSteps[Math.floor(Math.random() * faultSteps.length)]!));
    const got = await faulty.fetch<{ n: bigint }>(`${FAULT_SQL} ${marker}`);
    if (got.length !== 2000 || got[1999]!.n !== 1999n) throw new Error('wrong rows from the fault server');
  },
};
const names = Object.keys(ops);

const started = Date.now();
const endAt = started + minutes * 60_000;
const warmAt = started + warmupS * 1000;
const restarts = [started + minutes * 60_000 / 3, started + minutes * 120_000 / 3];

async function worker(): Promise<void> {
  while (Date.now() < endAt) {
    const name = names[Math.floor(Math.random() * names.length)]!;
    const s = byOp.get(name) ?? { calls: 0, errors: 0 };
    byOp.set(name, s);
    s.calls++;
    counts.calls++;
    try {
      await ops[name]!({ client, hasty, faulty });
      counts.ok++;
    } catch (e) {
      s.errors++;
      const cls = isChwireError(e) ? e.constructor.name : `other: ${String(e).slice(0, 120)}`;
      if (!isChwireError(e)) unexpected++;
      errors.set(`${name}: ${cls}`, (errors.get(`${name}: ${cls}`) ?? 0) + 1);
    }
  }
}

// Memory after warm-up and then every minute (a full GC each time: tens of ms on this heap).
async function sampler(): Promise<void> {
  const sample = (): Mem => {
    const m = mem();
    timeline.push({ s: Math.round((Date.now() - started) / 1000), load1: Math.round(loadavg()[0]! * 10) / 10, ...m });
    return m;
  };
  await new Promise((r) => setTimeout(r, Math.max(0, warmAt - Date.now())));
  memory.warm = sample();
  snapshot('warm');
  for (let at = started + 60_000; ; at += 60_000) {
    if (at <= warmAt) continue;
    if (at >= endAt) return;
    await new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));
    sample();
  }
}

async function restarter(): Promise<void> {
  for (const at of restarts) {
    await new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));
    console.log(`[${((Date.now() - started) / 1000).toFixed(0)} s] stopping the server`);
    await real.stop();
    await new Promise((r) => setTimeout(r, 2000));
    await real.start();
    console.log(`[${((Date.now() - started) / 1000).toFixed(0)} s] server back`);
  }
}

const loadAtStart = loadavg().map((l) => Math.round(l * 10) / 10);
await Promise.all([...Array.from({ length: concurrency }, () => worker()), restarter(), sampler()]);
memory.end = mem();
snapshot('end');

// Every acknowledged batch is whole in the table; unacknowledged ones may or may not be there.
const inTable = new Map<number, number>();
for (const r of await admin.fetch<[number, bigint]>(`SELECT batch, count() FROM ${table} GROUP BY batch`, { rows: 'array' })) inTable.set(Number(r[0]), Number(r[1]));
let missing = 0;
for (const [b, n] of acknowledged) if ((inTable.get(b) ?? 0) !== n) missing += n - (inTable.get(b) ?? 0);
let unackedPresent = 0;
for (const [b] of unacked) unackedPresent += inTable.get(b) ?? 0;
const total = [...inTable.values()].reduce((a, b) => a + b, 0);
await admin.execute(`DROP TABLE ${table}`);

const report = {
  minutes, concurrency, node: process.version, calls: counts.calls, ok: counts.ok,
  errors: Object.fromEntries([...errors].sort()), byOp: Object.fromEntries(byOp), errorsOutsideDocumentedClasses: unexpected,
  rows: { ...rows, inTable: total, acknowledgedMissing: missing, unacknowledgedPresent: unackedPresent },
  memoryMB: memory, gcForced: gc !== undefined, warmupSeconds: warmupS,
  rssEndVsWarm: `${(((memory.end.rss / memory.warm!.rss) - 1) * 100).toFixed(1)} %`,
  heapUsedEndVsWarm: `${(((memory.end.heapUsed / memory.warm!.heapUsed) - 1) * 100).toFixed(1)} %`,
  timeline, loadAverage: { start: loadAtStart, end: loadavg().map((l) => Math.round(l * 10) / 10) },
  ...(snapshots.length > 0 ? { heapSnapshots: snapshots } : {}),
  hosts: client.hosts(),
};
console.log(JSON.stringify(report, null, 2));
await Promise.all([client.close(), hasty.close(), faulty.close(), admin.close()]);
faultProc.disconnect();
if (faultProc.exitCode === null) await once(faultProc, 'exit');
await real.dispose();
process.exit(missing === 0 && unexpected === 0 ? 0 : 1);
