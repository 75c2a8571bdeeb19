// `chwire` as a data tool on the real 18.16 (issue 26 items 9-11): `--setting NAME=VALUE` reaches
// the server on query and insert (format_csv_delimiter changes how a CSV import parses) and a bad
// name is a usage error; an import that fails after the server committed some blocks says the
// table may hold part of the input (and the table does); the final line on 18.16, which sends no
// summary, gives the rows counted by the client and says so; the progress line of a file insert
// shows the share of the file sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REAL_URL, SKIP_REAL, realClient, uniqueName } from './support/ch-server.js';
import { main } from '../src/cli/main.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(ROOT, 'dist', 'src', 'cli', 'bin.js');
const ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CHWIRE_')));

function run(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: ENV, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const csv = (n: number, sep: string, bad = -1): string => Array.from({ length: n }, (_, i) => (i === bad ? `not a number${sep}x\n` : `${i}${sep}row ${i}\n`)).join('');

test('chwire query and insert --setting NAME=VALUE (18.16): the server applies it; a name that is no identifier is a usage error', { skip: SKIP_REAL, timeout: 60_000 }, async () => {
  const c = realClient();
  const t = uniqueName('cli_setting');
  const dir = mkdtempSync(join(tmpdir(), 'chwire-setting-'));
  await c.execute(`CREATE TABLE ${t} (id UInt32, s String) ENGINE = MergeTree ORDER BY id`);
  try {
    const q = run(['query', "SELECT value FROM system.settings WHERE name = 'max_threads'", '--url', REAL_URL!, '--setting', 'max_threads=3']);
    assert.equal(q.code, 0, q.stderr);
    assert.equal(q.stdout, '3\n');
    const file = join(dir, 'semi.csv');
    writeFileSync(file, csv(3000, ';'));
    // Without the setting, ';' is no CSV delimiter on 18.16: the import fails.
    const without = run(['insert', t, file, '--format', 'CSV', '--url', REAL_URL!]);
    assert.equal(without.code, 1);
    const withSetting = run(['insert', t, file, '--format', 'CSV', '--url', REAL_URL!, '--setting', 'format_csv_delimiter=;']);
    assert.equal(withSetting.code, 0, withSetting.stderr);
    assert.deepEqual(await c.fetch(`SELECT count() AS n, max(id) AS hi, any(s) LIKE 'row %' AS ok FROM ${t}`), [{ n: 3000n, hi: 2999, ok: 1 }]);
    for (const cmd of [['query', 'SELECT 1'], ['insert', t, file, '--format', 'CSV']]) {
      const bad = run([...cmd, '--url', REAL_URL!, '--setting', 'max_threads&readonly=1']);
      assert.equal(bad.code, 2, bad.stderr);
      assert.match(bad.stderr, /--setting: setting name "max_threads&readonly" is not an identifier/);
      const noEq = run([...cmd, '--url', REAL_URL!, '--setting', 'max_threads']);
      assert.equal(noEq.code, 2);
      assert.match(noEq.stderr, /--setting must look like name=value/);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await c.execute(`DROP TABLE ${t}`);
    await c.close();
  }
});

test('chwire insert failing at line 3 501 after blocks were committed (18.16): the error says the table may hold part of the input, and it does', { skip: SKIP_REAL, timeout: 60_000 }, async () => {
  const c = realClient();
  const t = uniqueName('cli_partial');
  const dir = mkdtempSync(join(tmpdir(), 'chwire-partial-'));
  await c.execute(`CREATE TABLE ${t} (id UInt32, s String) ENGINE = MergeTree ORDER BY id`);
  try {
    const file = join(dir, 'bad.csv');
    writeFileSync(file, csv(5000, ',', 3500));
    // Blocks of 1 000 rows (not squashed into one): the first 3 000 rows are committed before the error.
    const r = run(['insert', t, file, '--format', 'CSV', '--url', REAL_URL!, '--setting', 'max_insert_block_size=1000', '--setting', 'min_insert_block_size_rows=1000']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /Cannot parse input/);
    assert.match(r.stderr, /after \d+ bytes of input, 5000 rows as lines had been sent: the server may have committed part of them into cli_partial\S*.*check the table before inserting again/s);
    const n = Number(await c.fetchValue(`SELECT count() FROM ${t}`));
    assert.ok(n > 0 && n < 5000, `${n} rows committed`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await c.execute(`DROP TABLE ${t}`);
    await c.close();
  }
});

test('chwire insert on a terminal (18.16): the last line counts the rows (by the client: 18.16 sends no summary); the progress line shows the share of the file', { skip: SKIP_REAL, timeout: 60_000 }, async () => {
  const c = realClient();
  const t = uniqueName('cli_done');
  const dir = mkdtempSync(join(tmpdir(), 'chwire-done-'));
  await c.execute(`CREATE TABLE ${t} (id UInt32, s String) ENGINE = MergeTree ORDER BY id`);
  try {
    const file = join(dir, 'rows.csv');
    writeFileSync(file, `id,s\n${csv(200_000, ',')}`);
    let err = '';
    const tty = { isTTY: true, write: (s: string) => { err += s; return true; } };
    const code = await main(['insert', t, file, '--format', 'CSVWithNames', '--url', REAL_URL!], { stdout: { write: () => true }, stderr: tty, env: ENV });
    assert.equal(code, 0, err);
    assert.match(err, /chwire insert: 200000 rows into cli_done\S* \(counted by chwire as lines of input: this server reports no row count/);
    assert.match(err, /\d+(?:\.\d)? (?:B|KiB|MiB), [\d,]+ rows\/s, [\d.]+ s \d{1,3}\.\d%/, 'a percentage of the file');
    assert.equal(await c.fetchValue(`SELECT count() FROM ${t}`), 200_000n);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await c.execute(`DROP TABLE ${t}`);
    await c.close();
  }
});
