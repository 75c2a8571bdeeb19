// What the `chwire` process loads and writes (issue 28): each command imports only its own
// modules (query: the query client and the transports, never the insert encoders, the columnar
// readers or the code generator; insert: never the code generator; help: no client at all), read
// from the CommonJS module cache of the package's bin at exit, not from timing. And stdout
// redirected to a file (written through an asynchronous file stream) holds the same bytes as a
// pipe, appends with `>>`, and a file stays byte-identical to the server's result (real 18.16).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REAL_URL, SKIP_REAL } from './support/ch-server.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
const BIN = join(ROOT, pkg.bin['chwire']!);
const CJS = join(ROOT, 'dist', 'cjs');
const ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CHWIRE_')));
const dir = mkdtempSync(join(tmpdir(), 'chwire-cli-startup-'));
const PRELOAD = join(dir, 'record-loaded.cjs');
// At exit the preload writes the files in the CommonJS module cache (every chwire module the bin required).
// (And Node's built-in modules loaded, from process.moduleLoadList, after a marker.)
writeFileSync(PRELOAD, "process.on('exit', () => require('fs').writeFileSync(process.env.LOADED_FILE, JSON.stringify([...Object.keys(require.cache), '--builtins--', ...process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13))])));\n");
test.after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the bin with `args`; returns its exit code and the chwire modules it loaded (paths under dist/cjs). */
function loaded(args: string[]): { code: number | null; modules: string[]; builtins: string[]; stderr: string } {
  const file = join(dir, 'loaded.json');
  rmSync(file, { force: true });
  const r = spawnSync(process.execPath, ['--require', PRELOAD, BIN, ...args], { encoding: 'utf8', env: { ...ENV, LOADED_FILE: file }, timeout: 60_000 });
  const all = JSON.parse(readFileSync(file, 'utf8')) as string[];
  const mark = all.indexOf('--builtins--');
  return { code: r.status, stderr: r.stderr, modules: all.slice(0, mark).filter((f) => f.startsWith(CJS)).map((f) => relative(CJS, f)), builtins: all.slice(mark + 1) };
}

const NEVER_FOR_QUERY = [/^gen\//, /^cli\/gen\.js$/, /^cli\/insert/, /^native\/write\//, /^client\/insert/, /^client\/read\/column/, /^arrow\//, /^compat\//, /^index\.js$/];

test('chwire query loads the query client only: no insert encoders, columnar readers, code generator', { timeout: 60_000 }, () => {
  // Port 9 (discard) refuses the connection: the command runs its whole path and fails with exit 1.
  const r = loaded(['query', 'SELECT 1', '--url', 'http://127.0.0.1:9']);
  assert.equal(r.code, 1, r.stderr);
  assert.ok(r.modules.includes('client/query-client.js') && r.modules.includes('transport/http.js'), `the query path ran: ${r.modules.join(' ')}`);
  const extra = r.modules.filter((m) => NEVER_FOR_QUERY.some((re) => re.test(m)));
  assert.deepEqual(extra, [], `chwire query loaded ${extra.join(', ')}`);
  // An http:// query without compression needs neither TLS nor zlib (node:https alone is ~25 ms of a start).
  assert.ok(r.builtins.includes('http'), `the built-ins were recorded: ${r.builtins.join(' ')}`);
  const unneeded = r.builtins.filter((m) => ['https', 'tls', 'zlib', 'fs/promises'].includes(m));
  assert.deepEqual(unneeded, [], `chwire query to http:// loaded node:${unneeded.join(', node:')}`);
});

test('chwire insert does not load the code generator; --help loads no client', { timeout: 60_000 }, () => {
  const ins = loaded(['insert', 'some_table', join(dir, 'missing.csv'), '--format', 'CSV']);
  assert.equal(ins.code, 1, ins.stderr);
  assert.match(ins.stderr, /cannot read .*missing\.csv/);
  assert.deepEqual(ins.modules.filter((m) => /^gen\/|^cli\/gen\.js$/.test(m)), []);
  const help = loaded(['--help']);
  assert.equal(help.code, 0);
  // (args.ts checks setting names with the client's own check: client/options/setting-name.js is allowed.)
  assert.deepEqual(help.modules.filter((m) => /^(client\/(?!options\/setting-name)|transport\/|native\/|rowbinary\/|gen\/|codegen\/|index\.js)/.test(m)), [], 'chwire --help loaded the client');
  assert.deepEqual(help.modules.filter((m) => /^cli\/(gen|query|insert)\.js$/.test(m)), []);
});

test('chwire query > file: the same bytes as through a pipe, >> appends (real 18.16)', { skip: SKIP_REAL, timeout: 120_000 }, () => {
  const sql = "SELECT number, concat('row-', toString(number)) FROM system.numbers LIMIT 300000";
  const env = { ...ENV, CHWIRE_URL: REAL_URL! };
  const piped = spawnSync(process.execPath, [BIN, 'query', sql, '--format', 'CSV'], { env, maxBuffer: 2 ** 28, timeout: 60_000 });
  assert.equal(piped.status, 0, piped.stderr?.toString());
  assert.equal(piped.stdout.toString().split('\n').length, 300_001);
  const file = join(dir, 'out.csv');
  writeFileSync(file, 'kept\n');
  const fd = openSync(file, 'a');
  try {
    const r = spawnSync(process.execPath, [BIN, 'query', sql, '--format', 'CSV'], { env, stdio: ['ignore', fd, 'pipe'], timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr?.toString());
  } finally {
    closeSync(fd);
  }
  const got = readFileSync(file);
  assert.ok(got.equals(Buffer.concat([Buffer.from('kept\n'), piped.stdout])), `the file holds ${got.length} bytes, expected ${piped.stdout.length + 5}`);
});
