// The `chwire` executable as a process, against the real 18.16 server and chdb://: SIGINT and
// SIGTERM stop the query on the server (system.processes) and exit 130 / 143; a reader that
// closes stdout early (`| head`) ends the query quietly with exit 0; file errors are one line;
// `--out` holds a complete result or nothing (no partial, no empty file, an old file kept); a
// password in an argument is refused with a pointer to CHWIRE_PASSWORD; errors name CLI flags,
// never API options; with stderr redirected, nothing but errors is printed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AUTH_PASSWORD, AUTH_USER, REAL_URL, SKIP_REAL, realClient, uniqueName } from './support/ch-server.js';
import type { Client } from '../src/index.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(ROOT, 'dist', 'src', 'cli', 'bin.js');
const skip = SKIP_REAL;
// No CHWIRE_* from the test's own environment leaks into the process under test.
const ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CHWIRE_')));

function run(args: string[], env: NodeJS.ProcessEnv = {}): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...ENV, ...env }, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function exited(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr?.on('data', (b: Buffer) => { stderr += b.toString(); });
  return new Promise((res) => child.on('close', (code) => res({ code, stderr })));
}

/** Running queries whose text carries `marker` (the polling query itself excluded). */
async function running(c: Client, marker: string): Promise<number> {
  const rows = await c.fetch(`SELECT count() AS n FROM system.processes WHERE query LIKE '%${marker}%' AND query NOT LIKE '%system.processes%'`);
  return Number((rows[0] as { n: bigint }).n);
}

async function until(what: string, ms: number, cond: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) assert.fail(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function workDir(): string {
  return mkdtempSync(join(tmpdir(), 'chwire-cli-'));
}

// A query that runs ~30 s writing nothing until its end: the server notices a dropped connection
// only when it writes, so only a KILL QUERY stops it early.
const slowSql = (marker: string): string => `SELECT count() FROM (SELECT sleepEachRow(0.5) FROM numbers(60)) /* ${marker} */ SETTINGS max_block_size = 1`;

for (const [sig, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  test(`chwire query under ${sig}: the query stops on 18.16, exit ${code}, --out left as it was`, { skip, timeout: 60_000 }, async () => {
    const c = realClient();
    const dir = workDir();
    const marker = uniqueName(`cli_${sig}`);
    try {
      const out = join(dir, 'result.tsv');
      const child = spawn(process.execPath, [BIN, 'query', slowSql(marker), '--url', REAL_URL!, '--out', out], { env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
      const done = exited(child);
      await until('the query shows in system.processes', 20_000, async () => (await running(c, marker)) === 1);
      child.kill(sig);
      const r = await done;
      assert.equal(r.code, code, r.stderr);
      assert.equal(r.stderr, `chwire query: stopped by ${sig}; the server was asked to stop the query\n`);
      // Before: SIGTERM ended the process with the query running on; SIGINT's KILL QUERY was cut off by close().
      await until('the query is gone from system.processes', 5_000, async () => (await running(c, marker)) === 0);
      assert.deepEqual(readdirSync(dir), [], 'no result file and no temporary file');
    } finally {
      await c.execute(`KILL QUERY WHERE query LIKE '%${marker}%' ASYNC`).catch(() => undefined);
      await c.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('chwire query | head: a closed stdout ends the query quietly, exit 0, query stopped on 18.16', { skip, timeout: 60_000 }, async () => {
  const c = realClient();
  const marker = uniqueName('cli_epipe');
  try {
    const child = spawn(process.execPath, [BIN, 'query', `SELECT number FROM system.numbers /* ${marker} */`, '--url', REAL_URL!], { env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    const done = exited(child);
    // What `head -2` does: read two lines, close the pipe.
    const lines = await new Promise<string[]>((res) => {
      let text = '';
      child.stdout!.on('data', (b: Buffer) => {
        text += b.toString();
        const ls = text.split('\n');
        if (ls.length > 2) { child.stdout!.destroy(); res(ls.slice(0, 2)); }
      });
    });
    assert.deepEqual(lines, ['0', '1']);
    const r = await done;
    assert.equal(r.stderr, '', 'no "write EPIPE"');
    assert.equal(r.code, 0);
    await until('the query is gone from system.processes', 5_000, async () => (await running(c, marker)) === 0);
  } finally {
    await c.execute(`KILL QUERY WHERE query LIKE '%${marker}%' ASYNC`).catch(() => undefined);
    await c.close();
  }
});

test('chwire insert from a file that cannot be read: one line naming the file and the cause, exit 1', { timeout: 60_000 }, () => {
  const dir = workDir();
  try {
    const missing = join(dir, 'nonexistent.csv');
    const cases: [string, string][] = [[missing, 'no such file or directory'], [dir, 'is a directory'], [join(dir, 'nonexistent', 'x.csv'), 'no such file or directory']];
    const noRead = join(dir, 'secret.csv');
    writeFileSync(noRead, '1\n');
    chmodSync(noRead, 0o000);
    // root reads any file: the permission case only means something for another user.
    if (process.getuid?.() !== 0) cases.push([noRead, 'permission denied']);
    const notDir = join(dir, 'plain');
    writeFileSync(notDir, '');
    cases.push([join(notDir, 'x.csv'), 'a part of the path is not a directory']);
    for (const [path, cause] of cases) {
      const r = run(['insert', 't', path, '--format', 'CSV', '--url', 'chdb://']);
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.stderr, `chwire insert: cannot read ${path}: ${cause}\n`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('chwire query --out: a failure mid-stream on 18.16 leaves no partial file and keeps an old one; success renames', { skip, timeout: 60_000 }, () => {
  const dir = workDir();
  try {
    const out = join(dir, 'export.tsv');
    // 18.16 streams the first blocks, then appends the exception after them.
    const failing = 'SELECT number, throwIf(number = 300000) FROM numbers(400000) SETTINGS max_block_size = 10000';
    const r = run(['query', failing, '--url', REAL_URL!, '--out', out]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /^chwire query: .*(throwIf|Value passed)/);
    assert.deepEqual(readdirSync(dir), [], 'neither the partial export nor a temporary file');
    writeFileSync(out, 'the previous export\n');
    assert.equal(run(['query', failing, '--url', REAL_URL!, '--out', out]).code, 1);
    assert.equal(readFileSync(out, 'utf8'), 'the previous export\n');
    assert.deepEqual(readdirSync(dir), ['export.tsv']);
    const ok = run(['query', 'SELECT number FROM numbers(100000)', '--url', REAL_URL!, '--out', out]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stderr, '');
    assert.equal(readFileSync(out, 'utf8'), Array.from({ length: 100000 }, (_, i) => `${i}\n`).join(''));
    assert.deepEqual(readdirSync(dir), ['export.tsv']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('chwire query --out on chdb://: a failing query leaves no 0-byte file; an unwritable destination fails before the query', { timeout: 60_000 }, () => {
  const dir = workDir();
  try {
    const out = join(dir, 'x.tsv');
    const r = run(['query', 'SELECT throwIf(1)', '--url', 'chdb://', '--out', out]);
    assert.equal(r.code, 1);
    assert.equal(existsSync(out), false, 'no empty file under the final name');
    assert.deepEqual(readdirSync(dir), []);
    const nowhere = join(dir, 'no', 'such', 'dir.tsv');
    const w = run(['query', 'SELECT 1', '--url', 'chdb://', '--out', nowhere]);
    assert.equal(w.code, 1);
    assert.equal(w.stderr, `chwire query: cannot write ${nowhere}: no such file or directory\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a password in an argument is refused and points to CHWIRE_PASSWORD; CHWIRE_URL may carry one', { skip, timeout: 60_000 }, () => {
  const withPw = new URL(REAL_URL!);
  withPw.username = AUTH_USER;
  withPw.password = AUTH_PASSWORD;
  for (const cmd of [['query', 'SELECT currentUser()'], ['insert', 't', '-', '--format', 'CSV'], ['gen', '--table', 't', '--out', 'x.ts']]) {
    const r = run([...cmd, '--url', withPw.href]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /--url carries a password.*CHWIRE_PASSWORD/);
    assert.doesNotMatch(r.stderr + r.stdout, new RegExp(AUTH_PASSWORD));
    const p = run([...cmd, '--password', 'hunter2-not-shown']);
    assert.equal(p.code, 2, p.stderr);
    assert.match(p.stderr, /--password is not accepted.*set CHWIRE_PASSWORD/);
    assert.doesNotMatch(p.stderr, /hunter2/);
  }
  const bare = new URL(REAL_URL!);
  // The user has a password (18.16 has no currentUser()): the query runs only when it arrived.
  assert.equal(run(['query', 'SELECT 1', '--url', bare.href, '--user', AUTH_USER]).code, 1, 'no password, no query');
  const viaEnv = run(['query', "SELECT 'in'"], { CHWIRE_URL: withPw.href });
  assert.equal(viaEnv.code, 0, viaEnv.stderr);
  assert.equal(viaEnv.stdout, 'in\n');
  const viaPw = run(['query', "SELECT 'in'", '--url', bare.href, '--user', AUTH_USER], { CHWIRE_PASSWORD: AUTH_PASSWORD });
  assert.equal(viaPw.code, 0, viaPw.stderr);
  assert.equal(viaPw.stdout, 'in\n');
});

test('CLI errors name CLI flags, not API options; redirected stderr carries nothing but errors (18.16)', { skip, timeout: 60_000 }, async () => {
  const lookalike = 'Code: 60, e.displayText() = DB::Exception: Table default.x does not exist, e.what() = DB::Exception';
  const sql = `SELECT arrayJoin(['first row', '${lookalike}']) AS line`;
  const r = run(['query', sql, '--url', REAL_URL!]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /pass --appended-exceptions wait/);
  assert.doesNotMatch(r.stderr, /appendedExceptions/);
  const w = run(['query', sql, '--url', REAL_URL!, '--appended-exceptions', 'wait']);
  assert.equal(w.code, 0, w.stderr);
  assert.equal(w.stdout, `first row\n${lookalike}\n`);
  const bad = run(['query', 'SELECT 1', '--url', REAL_URL!, '--appended-exceptions', 'later']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--appended-exceptions must be detect or wait/);

  const c = realClient();
  const table = uniqueName('cli_quiet');
  const dir = workDir();
  try {
    await c.execute(`CREATE TABLE ${table} (n UInt64) ENGINE = Memory`);
    const csv = join(dir, 'in.csv');
    writeFileSync(csv, '1\n2\n3\n');
    const ins = run(['insert', table, csv, '--format', 'CSV', '--url', REAL_URL!]);
    assert.equal(ins.code, 0, ins.stderr);
    assert.equal(ins.stderr, '', 'the "rows written" line only on a terminal');
    assert.equal(ins.stdout, '');
    assert.deepEqual(await c.fetch(`SELECT sum(n) AS s FROM ${table}`), [{ s: 6n }]);
  } finally {
    await c.execute(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
    await c.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
