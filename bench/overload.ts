// npm run bench:overload — the overload drill of issue 17 item 17: a Debian clickhouse-server 18.16
// started here with a low `max_concurrent_queries` (code 202 TOO_MANY_SIMULTANEOUS_QUERIES for
// every query over it), hammered by many concurrent callers of one client. Three retry settings,
// alternated round by round on the same server:
//   budget   the default: 3 attempts, retries at most 20 % of recent calls + 10 per 10 s
//   old      3 attempts, no budget (the behaviour before the budget: every 202 retried twice)
//   none     retry: false
// Reported per setting: HTTP requests per call (hosts()[0].requests / calls), successful calls per
// second, failed calls, p50/p99 latency of all calls. Configuration by environment:
// OVERLOAD_CALLERS (default 64), OVERLOAD_LIMIT (server max_concurrent_queries, default 4),
// OVERLOAD_QUEUE_MS (the server's queue_max_wait_ms, default 0: over the limit is a 202 at once),
// OVERLOAD_SECONDS (per round and setting, default 8), OVERLOAD_ROUNDS (default 3),
// OVERLOAD_SQL (default a ~10 ms aggregation). Needs the clickhouse-server binary.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient, type ClientOptions } from '../src/index.js';
import { environment, formatEnvironment } from './env.js';

const CALLERS = Number(process.env['OVERLOAD_CALLERS'] ?? 64);
const LIMIT = Number(process.env['OVERLOAD_LIMIT'] ?? 4);
const SECONDS = Number(process.env['OVERLOAD_SECONDS'] ?? 8);
const ROUNDS = Number(process.env['OVERLOAD_ROUNDS'] ?? 3);
const SQL = process.env['OVERLOAD_SQL'] ?? 'SELECT sum(number) FROM numbers(1000000)';
const HTTP_PORT = Number(process.env['OVERLOAD_PORT'] ?? 34717);
// 18.16 queues a query over the limit for up to queue_max_wait_ms (default 5 000) before the 202.
const QUEUE_MS = Number(process.env['OVERLOAD_QUEUE_MS'] ?? 0);

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const bin = ['/usr/sbin/clickhouse-server', '/usr/bin/clickhouse-server'].find((p) => { try { readFileSync(p, { flag: 'r' }); return true; } catch { return false; } });
if (bin === undefined) { console.error('bench:overload needs clickhouse-server (Debian 18.16)'); process.exit(1); }

const dir = mkdtempSync(join(tmpdir(), 'chwire-overload-'));
execFileSync(join(root, '.ci', 'clickhouse-config.sh'), [dir, String(HTTP_PORT), String(HTTP_PORT + 1)]);
const cfg = join(dir, 'config.xml');
writeFileSync(cfg, readFileSync(cfg, 'utf8').replace(/<max_concurrent_queries>\d+<\/max_concurrent_queries>/, `<max_concurrent_queries>${LIMIT}</max_concurrent_queries>`));
const users = join(dir, 'users.xml');
writeFileSync(users, readFileSync(users, 'utf8').replace('<max_memory_usage>', `<queue_max_wait_ms>${QUEUE_MS}</queue_max_wait_ms><max_memory_usage>`));
const server = spawn(bin, [`--config-file=${cfg}`], { stdio: 'ignore' });
const url = `http://127.0.0.1:${HTTP_PORT}`;
const stopServer = (): void => { if (server.exitCode === null) server.kill('SIGTERM'); };
process.on('exit', () => { stopServer(); rmSync(dir, { recursive: true, force: true }); });

async function waitUp(): Promise<void> {
  for (let i = 0; i < 120; i++) {
    try { if ((await fetch(`${url}/ping`)).ok) return; } catch { /* starting */ }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the server did not answer /ping within 30 s');
}

const SETTINGS: Record<string, ClientOptions['retry']> = {
  budget: undefined,
  old: { budget: false },
  none: false,
};

interface Sample { calls: number; ok: number; failed: number; requests: number; seconds: number; latencies: number[]; codes: Record<string, number> }

async function drill(retry: ClientOptions['retry']): Promise<Sample> {
  const c = createClient({ url, maxOpenConnections: CALLERS, requestTimeout: 30_000, ...(retry === undefined ? {} : { retry }) });
  await c.fetchValue('SELECT 1'); // the version probe, outside the window
  const base = c.hosts()[0]!.requests;
  const latencies: number[] = [];
  const codes: Record<string, number> = {};
  let ok = 0;
  let failed = 0;
  const t0 = performance.now();
  const end = t0 + SECONDS * 1000;
  await Promise.all(Array.from({ length: CALLERS }, async () => {
    while (performance.now() < end) {
      const t = performance.now();
      try {
        await c.fetchValue(SQL);
        ok++;
      } catch (e) {
        failed++;
        const k = String((e as { serverCode?: number; code?: string }).serverCode ?? (e as { code?: string }).code);
        codes[k] = (codes[k] ?? 0) + 1;
      }
      latencies.push(performance.now() - t);
    }
  }));
  const seconds = (performance.now() - t0) / 1000;
  const requests = c.hosts()[0]!.requests - base;
  await c.close();
  return { calls: ok + failed, ok, failed, requests, seconds, latencies, codes };
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

await waitUp();
const env = environment();
console.log(formatEnvironment(env));
console.log(`server ${url}: 18.16, max_concurrent_queries ${LIMIT}, queue_max_wait_ms ${QUEUE_MS}; ${CALLERS} callers; ${SECONDS} s per setting per round; ${ROUNDS} rounds; ${SQL}`);
const names = Object.keys(SETTINGS);
const all: Record<string, Sample[]> = Object.fromEntries(names.map((n) => [n, []]));
await drill(false); // warm-up
for (let r = 0; r < ROUNDS; r++) {
  for (let i = 0; i < names.length; i++) {
    const n = names[(i + r) % names.length]!;
    const s = await drill(SETTINGS[n]);
    all[n]!.push(s);
    console.log(`round ${r + 1} ${n.padEnd(6)} calls ${s.calls} ok ${s.ok} failed ${s.failed} requests/call ${(s.requests / s.calls).toFixed(3)} ok/s ${(s.ok / s.seconds).toFixed(0)} p99 ${quantile(s.latencies, 0.99).toFixed(1)} ms ${JSON.stringify(s.codes)}`);
  }
}
const rows = names.map((n) => {
  const ss = all[n]!;
  const sum = (f: (s: Sample) => number): number => ss.reduce((a, s) => a + f(s), 0);
  const lat = ss.flatMap((s) => s.latencies);
  return {
    setting: n,
    calls: sum((s) => s.calls),
    requestsPerCall: sum((s) => s.requests) / sum((s) => s.calls),
    okPerSecond: sum((s) => s.ok) / sum((s) => s.seconds),
    failedShare: sum((s) => s.failed) / sum((s) => s.calls),
    p50Ms: quantile(lat, 0.5),
    p99Ms: quantile(lat, 0.99),
  };
});
console.log('\n| retry | calls | HTTP requests per call | successful calls/s | failed | p50 | p99 |\n|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(`| ${r.setting} | ${r.calls} | ${r.requestsPerCall.toFixed(2)} | ${r.okPerSecond.toFixed(0)} | ${(r.failedShare * 100).toFixed(1)} % | ${r.p50Ms.toFixed(1)} ms | ${r.p99Ms.toFixed(1)} ms |`);
}
const out = join(root, 'bench', 'results', 'overload.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify({ environment: env, callers: CALLERS, limit: LIMIT, queueMs: QUEUE_MS, seconds: SECONDS, rounds: ROUNDS, sql: SQL, rows }, null, 2)}\n`);
console.log(`\nresults: ${out}`);
stopServer();
