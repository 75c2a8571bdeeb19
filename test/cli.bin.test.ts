// The `chwire` executable as npm installs it: package.json "bin" names a file that exists in the
// build, starts with a node shebang, and runs as a process: --help exits 0 and prints the usage, an
// unknown command exits 2, a failing query exits 1 with the server's message on stderr.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin?: Record<string, string> };

test('package.json bin: chwire → the built CLI, a node script', () => {
  const target = pkg.bin?.['chwire'];
  assert.equal(typeof target, 'string');
  const text = readFileSync(join(ROOT, target!), 'utf8');
  assert.ok(text.startsWith('#!/usr/bin/env node\n'), 'the bin must start with a node shebang');
});

test('the chwire process: --help, an unknown command, a failing query', { timeout: 60_000 }, () => {
  const bin = join(ROOT, pkg.bin!['chwire']!);
  const help = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
  assert.equal(help.status, 0);
  assert.match(help.stdout, /Usage: chwire <command>/);
  const unknown = spawnSync(process.execPath, [bin, 'nope'], { encoding: 'utf8' });
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /unknown command "nope"/);
  const failing = spawnSync(process.execPath, [bin, 'query', 'SELECT throwIf(1)', '--url', 'chdb://'], { encoding: 'utf8', env: { ...process.env, CHWIRE_PASSWORD: 'pw-must-not-show' } });
  assert.equal(failing.status, 1, failing.stderr);
  assert.match(failing.stderr, /^chwire query: .*throwIf/m);
  assert.doesNotMatch(failing.stderr + failing.stdout, /pw-must-not-show/);
});

test('the chwire process: a server error carrying escape sequences reaches the terminal escaped, never raw (engine and 18.16)', { timeout: 60_000 }, () => {
  const bin = join(ROOT, pkg.bin!['chwire']!);
  // The server decodes \x1b in the quoted identifier: its "unknown identifier" text carries a raw ESC, BEL and C1 CSI.
  const sql = 'SELECT `x\\x1b[2J\\x1b]0;owned\\x07y\\xc2\\x9bz`';
  const urls = ['chdb://', ...(process.env['CHWIRE_TEST_HTTP_URL'] ? [process.env['CHWIRE_TEST_HTTP_URL']] : [])];
  for (const url of urls) {
    const r = spawnSync(process.execPath, [bin, 'query', sql, '--url', url], { encoding: 'utf8' });
    assert.equal(r.status, 1, r.stderr);
    assert.doesNotMatch(r.stderr, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/, `${url}: a control character reached stderr`);
    assert.match(r.stderr, /x\\x1b\[2J\\x1b\]0;owned\\x07y\\x9bz/, `${url}: the identifier is shown, escaped`);
  }
});
