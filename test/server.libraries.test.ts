// Libraries built on @clickhouse/client, run on chwire through the documented step (issue 27, item 2;
// docs/migrating.md, "Libraries built on @clickhouse/client"). Two installs of the same five
// libraries at pinned versions: .ci/libraries/official (the official client) and .ci/libraries/chwire
// (@clickhouse/client, -common and -web installed as chwire's alias/ folders through npm overrides).
// Each library's README example (.ci/libraries/examples/*.mjs) runs once in each install, as an ES
// module in a child process, against the 18.16 server through a loopback proxy that records every
// request's User-Agent: both runs must print the same lines and end the same way, every request of
// the chwire run must come from chwire/compat, none of the official run. Then tsc with
// `skipLibCheck: false` checks the libraries' declarations and an app's code against chwire's types.
// Skips, saying why, without the server or without the two installs (`npm run libraries`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REAL_URL, SKIP_REAL } from './support/ch-server.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const LIBS = join(ROOT, '.ci', 'libraries');
const EXAMPLES = join(LIBS, 'examples');
const INSTALLS = { official: join(LIBS, 'official'), chwire: join(LIBS, 'chwire') } as const;
type Install = keyof typeof INSTALLS;

const installed = (i: Install): boolean => existsSync(join(INSTALLS[i], 'node_modules', '@clickhouse', 'client', 'package.json'));
// Once per CI run (time: the installs and these runs take a few minutes), under the Node of npm test,
// not again in .ci/run's repeat runs under .ci/runtimes' Node binaries.
const skip: string | false = SKIP_REAL
  || (!installed('official') || !installed('chwire')
    ? 'the library installs are absent: run `npm run libraries` (npm ci in .ci/libraries/official and .ci/libraries/chwire; .ci/run does)'
    : false)
  || (process.execPath.includes(`${sep}.ci${sep}runtimes${sep}`) ? 'run under the Node of npm test; not repeated under .ci/runtimes\' Nodes' : false);

const DB = 'chwire_libs';
const SETUP = [
  `DROP DATABASE IF EXISTS ${DB}`,
  `DROP DATABASE IF EXISTS ${DB}_mig`,
  `CREATE DATABASE ${DB}`,
  `CREATE TABLE ${DB}.kysely_events (id UInt32, name String, at DateTime) ENGINE = MergeTree ORDER BY id`,
  `INSERT INTO ${DB}.kysely_events VALUES (1, 'signup', '2024-01-02 03:04:05'), (2, 'login', '2024-01-03 00:00:00'), (3, 'o\\'clock', '2024-01-04 12:00:00')`,
  `CREATE TABLE ${DB}.hq_orders (id UInt32, region String, status String, amount Float64) ENGINE = MergeTree ORDER BY id`,
  `CREATE TABLE ${DB}.effect_people (id UInt32, name String) ENGINE = MergeTree ORDER BY id`,
  `CREATE TABLE ${DB}.cube_items (id UInt32, v String) ENGINE = MergeTree ORDER BY id`,
  `INSERT INTO ${DB}.cube_items VALUES (1, 'one'), (2, 'two')`,
];

async function setup(): Promise<void> {
  for (const sql of SETUP) {
    const res = await fetch(REAL_URL!, { method: 'POST', body: sql });
    assert.ok(res.ok, `setup: ${sql}: ${await res.text()}`);
  }
}

/** A loopback HTTP proxy to the server that records each request's User-Agent. */
async function recordingProxy(target: string): Promise<{ url: string; agents: string[]; close(): Promise<void> }> {
  const to = new URL(target);
  const agents: string[] = [];
  const server = http.createServer((req, res) => {
    agents.push(String(req.headers['user-agent']));
    const up = http.request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    agents,
    close: () => new Promise((ok) => { server.closeAllConnections(); server.close(() => ok()); }),
  };
}

interface Run { code: number | null; lines: unknown[]; stderrLines: string[]; out: string; err: string }

/** One example as an ES module evaluated in an install's folder (its bare imports resolve there). */
function runExample(install: Install, source: string, env: Record<string, string>): Promise<Run> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', source], {
      cwd: INSTALLS[install],
      env: { ...process.env, ...env, EXAMPLES },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => { out += c; });
    child.stderr.setEncoding('utf8').on('data', (c: string) => { err += c; });
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      // The examples' own lines are JSON arrays; the libraries' log lines are not compared.
      const lines = out.split('\n').filter((l) => l.startsWith('[')).flatMap((l) => {
        try { return [JSON.parse(l) as unknown]; } catch { return []; }
      });
      // clickhouse-migrations reports on stderr (colours stripped); its error path is compared there.
      const stderrLines = err.split('\n').map((l) => l.replace(/\x1b\[[0-9;]*m/g, '').trim()).filter((l) => l.startsWith('clickhouse-migrations :'));
      ok({ code, lines, stderrLines, out, err });
    });
  });
}

const EXAMPLE_RUNS: [name: string, file: string, env: Record<string, string>][] = [
  ['an app importing and requiring @clickhouse/client', 'app.mjs', {}],
  ['@founderpath/kysely-clickhouse (Kysely)', 'kysely.mjs', {}],
  ['@hypequery/clickhouse', 'hypequery.mjs', {}],
  ['@effect/sql-clickhouse', 'effect.mjs', {}],
  ["Cube's @cubejs-backend/clickhouse-driver", 'cube.mjs', {}],
  ['clickhouse-migrations', 'migrations.mjs', {}],
  ['clickhouse-migrations, a failing migration', 'migrations.mjs', { MIGRATIONS: 'migrations-broken' }],
];

for (const [name, file, extra] of EXAMPLE_RUNS) {
  test(`18.16 library example: ${name} gives the same results through chwire's alias as with the official client, every request from chwire/compat`, { skip }, async () => {
    const source = readFileSync(join(EXAMPLES, file), 'utf8');
    const runs = {} as Record<Install, Run & { agents: string[] }>;
    for (const install of ['official', 'chwire'] as const) {
      await setup();
      const proxy = await recordingProxy(REAL_URL!);
      try {
        const u = new URL(proxy.url);
        const run = await runExample(install, source, { ...extra, CH_URL: proxy.url, CH_DB: DB, CH_HOST: u.hostname, CH_PORT: u.port });
        runs[install] = { ...run, agents: [...proxy.agents] };
      } finally {
        await proxy.close();
      }
    }
    const { official, chwire } = runs;
    const context = `\n--- official stdout:\n${official.out}\n--- official stderr:\n${official.err}\n--- chwire stdout:\n${chwire.out}\n--- chwire stderr:\n${chwire.err}`;
    assert.ok(official.lines.length > 0 || official.stderrLines.length > 0, `the example printed nothing${context}`);
    assert.equal(chwire.code, official.code, `exit code${context}`);
    assert.deepEqual(chwire.lines, official.lines, `printed results${context}`);
    assert.deepEqual(chwire.stderrLines, official.stderrLines, `the library's reports${context}`);
    // Which client sent the requests: chwire/compat's User-Agent is `[<application> ]chwire-compat (…)`,
    // the official client's `[<application> ]clickhouse-js/<version> (…)`. The examples' own fetch()
    // calls (reading back what a migration wrote) send node's `node`.
    const fromClient = (agents: string[]): string[] => agents.filter((a) => a !== 'node');
    assert.ok(fromClient(chwire.agents).length > 0, `the chwire run sent no request through the library${context}`);
    for (const a of fromClient(chwire.agents)) assert.match(a, /chwire-compat \(/, `a request of the chwire run came from ${a}`);
    for (const a of fromClient(official.agents)) assert.match(a, /clickhouse-js\//, `a request of the official run came from ${a}`);
  });
}

test('the alias install resolves every official name to chwire (by real path), from the app and from inside each library; the official install to the official packages', { skip }, () => {
  const app = createRequire(join(INSTALLS.chwire, 'package.json'));
  const alias = join(ROOT, 'alias') + sep;
  for (const spec of ['@clickhouse/client', '@clickhouse/client/dist/config', '@clickhouse/client-common', '@clickhouse/client-web']) {
    assert.ok(realpathSync(app.resolve(spec)).startsWith(alias), `${spec} resolves to ${app.resolve(spec)}`);
  }
  for (const lib of ['@founderpath/kysely-clickhouse', 'clickhouse-migrations', '@effect/sql-clickhouse', '@hypequery/clickhouse', '@cubejs-backend/clickhouse-driver']) {
    const inLib = createRequire(join(INSTALLS.chwire, 'node_modules', lib, 'package.json'));
    assert.ok(realpathSync(inLib.resolve('@clickhouse/client')).startsWith(alias), `${lib} gets ${inLib.resolve('@clickhouse/client')}`);
  }
  // The official install resolves the same names inside itself (not to the checkout's own devDependency).
  const official = createRequire(join(INSTALLS.official, 'package.json'));
  for (const spec of ['@clickhouse/client', '@clickhouse/client-common', '@clickhouse/client-web']) {
    assert.ok(realpathSync(official.resolve(spec)).startsWith(INSTALLS.official + sep), `the official install's ${spec} is ${official.resolve(spec)}`);
  }
  // @clickhouse/client-web is chwire/compat/web where this build has it (dist/cjs/compat-web.js),
  // else a module whose createClient says so: never the official web client.
  const web = app('@clickhouse/client-web') as { createClient: (o: object) => unknown };
  const compatWeb = join(ROOT, 'dist', 'cjs', 'compat-web.js');
  if (existsSync(compatWeb)) assert.equal(web.createClient, (app(compatWeb) as { createClient: unknown }).createClient);
  else assert.throws(() => web.createClient({}), /no compat web entry \(chwire\/compat\/web\)/);
  // One module for all three names and for chwire/compat itself: one ClickHouseError class.
  const compat = app('@clickhouse/client') as { createClient: unknown; ClickHouseError: unknown };
  assert.equal((app('@clickhouse/client-common') as { createClient: unknown }).createClient, compat.createClient);
  assert.equal((app('chwire/compat') as { ClickHouseError: unknown }).ClickHouseError, compat.ClickHouseError);
});

// The one error tsc reports that is no client's: hypequery 2.10.1 ships dist/cli/index.d.ts with an
// extensionless relative import, which `moduleResolution: nodenext` refuses (TS2835). tsc reports
// the same line with the official client installed.
const LIBRARY_OWN_TS_ERRORS = [/^node_modules\/@hypequery\/clickhouse\/dist\/cli\/index\.d\.ts\(\d+,\d+\): error TS2835: /];

test('tsc (skipLibCheck: false) accepts the five libraries and an app through the alias: every name they import exists, a chwire/compat client is their ClickHouseClient', { skip }, async () => {
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const { code, out } = await new Promise<{ code: number | null; out: string }>((ok, fail) => {
    const child = spawn(process.execPath, [tsc, '-p', INSTALLS.chwire, '--pretty', 'false'], { cwd: INSTALLS.chwire, stdio: ['ignore', 'pipe', 'pipe'] });
    let o = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => { o += c; });
    child.stderr.setEncoding('utf8').on('data', (c: string) => { o += c; });
    child.on('error', fail);
    child.on('close', (c) => ok({ code: c, out: o }));
  });
  const errors = out.split('\n').filter((l) => /error TS\d+/.test(l));
  const ours = errors.filter((l) => !LIBRARY_OWN_TS_ERRORS.some((r) => r.test(l)));
  assert.deepEqual(ours, [], out);
  assert.ok(code === 0 || errors.length > 0, `tsc exited ${code} without an error line:\n${out}`);
});
