// `chwire insert` interrupted by Ctrl-C (issue 17 item 3): the message says what may have been
// committed (the bytes of input sent, the rows the server reported written), never only "query
// aborted by its AbortSignal" while rows were committed. Against the real 18.16 server: the rows
// in the table after the interrupt are consistent with the message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REAL_URL, SKIP_REAL, realClient, uniqueName } from './support/ch-server.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };

test('real 18.16 server: Ctrl-C during `chwire insert` says how much input was sent and that it may be committed', { skip: SKIP_REAL, timeout: 120_000 }, async () => {
  const c = realClient();
  const t = uniqueName('inserts_cli');
  await c.execute(`CREATE TABLE ${t} (id UInt32, s String) ENGINE = MergeTree ORDER BY id`);
  try {
    const child = spawn(process.execPath, [join(ROOT, pkg.bin['chwire']!), 'insert', t, '-', '--format', 'CSV', '--url', REAL_URL!], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
    // Rows keep coming until the interrupt: 200 000 rows, then the signal while the input is open.
    const lines = Array.from({ length: 200_000 }, (_, i) => `${i},row ${i}\n`).join('');
    child.stdin.write(lines);
    await new Promise((r) => setTimeout(r, 1500));
    child.kill('SIGINT');
    // (At a terminal Ctrl-C reaches the producer too: its end of the pipe closes.)
    setTimeout(() => child.stdin.destroy(), 200);
    const code = await new Promise<number | null>((r) => child.on('close', (x) => r(x)));
    assert.notEqual(code, 0);
    assert.match(stderr, /interrupted after \d+ bytes of input were sent/);
    assert.match(stderr, /may have committed part or all of them/);
    assert.doesNotMatch(stderr, /^chwire insert: query aborted by its AbortSignal\s*$/m);
    const bytes = Number(/after (\d+) bytes/.exec(stderr)![1]);
    await new Promise((r) => setTimeout(r, 1000));
    const n = Number(await c.fetchValue(`SELECT count() FROM ${t}`));
    assert.ok(n <= 200_000 && bytes > 0, `${n} rows in the table after ${bytes} bytes sent`);
  } finally {
    await c.execute(`DROP TABLE ${t}`);
    await c.close();
  }
});
