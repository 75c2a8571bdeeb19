// Without the optional `chdb` package, a chdb:// client fails on first use with a
// ChwireConfigError that says how to install it, and an HTTP client never loads it.
// Runs in a child process whose module resolver hides `chdb`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const index = fileURLToPath(new URL('../src/index.js', import.meta.url));
const hook = 'export async function resolve(s, c, next) { if (s === "chdb") { const e = new Error("Cannot find package \\"chdb\\""); e.code = "ERR_MODULE_NOT_FOUND"; throw e; } return next(s, c); }';
const register = `import { register } from 'node:module'; register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}));`;

function run(script: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, '--input-type=module', '-e', script], { timeout: 20_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${err.message}\n${stderr}`));
      else resolve(stdout.trim());
    });
  });
}

test('chdb:// without the chdb package: ChwireConfigError naming `npm install chdb`', async () => {
  const out = await run(`
    const { createClient } = await import(${JSON.stringify(index)});
    const c = createClient({ url: 'chdb://' });
    try { await c.fetch('SELECT 1'); console.log('no error'); }
    catch (e) { console.log(JSON.stringify({ name: e.name, code: e.code, message: e.message })); }`);
  const e = JSON.parse(out) as { name: string; code: string; message: string };
  assert.equal(e.name, 'ChwireConfigError');
  assert.equal(e.code, 'CHWIRE_CONFIG');
  assert.match(e.message, /npm install chdb/);
});

test('importing chwire and using HTTP options never loads chdb', async () => {
  const out = await run(`
    const { createClient } = await import(${JSON.stringify(index)});
    const c = createClient({ url: 'http://127.0.0.1:1' });
    await c.close();
    console.log('ok');`);
  assert.equal(out, 'ok');
});
