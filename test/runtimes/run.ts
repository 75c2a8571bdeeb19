// The runtime smoke run (.ci/run; by hand: `node --test dist/test/runtimes/run.js`): the smoke
// suite (smoke.ts) against one loopback test server, in Node first (the reference), then in Bun
// (both entries), Deno (chwire/web), Node with --disallow-code-generation-from-strings (both
// entries), workerd through miniflare (chwire/web; code generation refused there) and headless
// Chromium (a page importing the browser bundle of chwire/web, from another origin than the
// server, so CORS is real; and the example page of docs/web.md), and chwire/web in Node 22, 24 and 26
// (each its own undici). The server compresses its answers as a 26.x does by default (in the codec of
// the Accept-Encoding each runtime's fetch sends by itself): every chwire/web run must have been
// answered compressed, with default options. Every check must give exactly
// the reference's text, an abort must have reached the server as KILL QUERY, and where code
// generation is refused the smoke must have run without it. Also in workerd: the query functions of
// a module `chwire gen` wrote (gen-worker.ts) return the engine's rows through the module's
// precompiled decoders (the registry's hits prove it), not the interpreted fallback. In workerd and
// Chromium the smoke runs again from a bundle split into chunks (esbuild --splitting), so the parts
// chwire/web loads on first use (client/lazy.ts) come through dynamic imports. The runtimes come from
// .ci/runtimes (npm run runtimes); a missing one fails its test.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import * as chwire from '../../src/index.js';
import * as chwireCompat from '../../src/compat.js';
import { startTestServer } from '../support/test-server.js';
import { engineBytes, engineBytesBound, engineExec } from '../support/engine.js';
import { decodeRowBinaryReference } from '../../src/codec.js';
import { canon, runSmoke, type SmokeEntry, type SmokeResult } from './smoke.js';
import { GEN_DDL, GEN_MIN, GEN_QUERY, GEN_TABLE, generatedWorker } from './gen-worker.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const RUNTIMES = join(ROOT, '.ci', 'runtimes', 'node_modules');
const HERE = join(ROOT, 'dist', 'test', 'runtimes');
const BUN = join(RUNTIMES, '@oven', 'bun-linux-x64', 'bin', 'bun');
const DENO = join(RUNTIMES, '@deno', 'linux-x64-glibc', 'deno');
const CHROMIUM = process.env['CHWIRE_CHROMIUM'] ?? '/usr/bin/chromium';

type Server = Awaited<ReturnType<typeof startTestServer>>;
function withFaults(s: Server): Server {
  s.fault('/* smoke-stall */', { kind: 'stall', at: 50 });
  s.fault('/* smoke-redirect */', { kind: 'status', status: 307, location: 'http://127.0.0.1:9/elsewhere?token=secret' });
  s.fault('/* smoke-cut-exception */', { kind: 'exception-tagged', at: 1 + 2 + 7 + 10000 * 8, message: 'Code: 241. DB::Exception: Memory limit exceeded. (MEMORY_LIMIT_EXCEEDED) (version 26.7.2.1)' });
  return s;
}
const server = withFaults(await startTestServer({ storeInserts: true, cors: true }));
// The same behind a proxy that shows the page every response header (Content-Encoding among them).
const exposing = withFaults(await startTestServer({ storeInserts: true, cors: 'expose' }));
after(async () => { await server.close(); await exposing.close(); });

const reference = await runSmoke({ ...chwire, compat: chwireCompat } as unknown as SmokeEntry, server.url, 'reference');

test('reference run (Node, chwire): every check ran, errors are the expected ChwireErrors', () => {
  const bad = Object.entries(reference.checks).filter(([, v]) => v.startsWith('UNEXPECTED'));
  assert.deepEqual(bad, []);
  assert.equal(reference.checks['server-error'], 'ChwireServerError 60');
  assert.equal(reference.checks['exception-after-rows'], 'ChwireServerError 241 after 10000 rows');
  assert.equal(reference.checks['abort'], 'ChwireAbortError');
  assert.equal(reference.checks['timeout'], 'ChwireTimeoutError');
  assert.equal(reference.checks['redirect'], 'ChwireConnectionError not followed');
  assert.equal(reference.codegen, true);
  // createQueryClient has no insert method; the insert function stored 1500 rows; fetchColumns read them.
  assert.equal(reference.checks['query-client-functions'], canon([false, 'string', { c: 1500n, s: 1124250n }, 1500, ['q0', 'q1', 'q2']]));
  assert.equal(reference.checks['compat'], canon([1000, { n: 999, s: '999' }, '0,"0"\n1,"1"\n2,"2"\n', 'ClickHouseError 60']));
  assert.equal(Object.keys(reference.checks).length, 20);
});

/**
 * The answers to a run's requests (those that carry its tag): with chwire/web, every one compressed
 * (the runtime's fetch asked; default options did not), `compression: true`'s too. Returns the codecs.
 */
function answeredCompressed(tag: string, srv: Server): string {
  const table = new RegExp(`FROM smoke_${tag}\\b`);
  const mine = srv.requests.filter((r) => r.sql.includes(`smoke-compat-${tag}`) || r.sql.includes(`smoke-asked-${tag}`) || table.test(r.sql) || r.params.get('session_id') === `smoke-session-${tag}`);
  assert.ok(mine.length >= 5, `${mine.length} requests of ${tag} seen`);
  for (const r of mine) {
    assert.ok(r.responseEncoding !== undefined, `${tag}: ${r.sql.slice(0, 80)} was answered uncompressed (Accept-Encoding ${String(r.headers['accept-encoding'])})`);
    assert.equal(r.params.get('enable_http_compression'), r.sql.includes('smoke-asked-') ? '1' : null);
  }
  return [...new Set(mine.map((r) => `${r.responseEncoding} (Accept-Encoding: ${String(r.headers['accept-encoding'])})`))].join(', ');
}

async function sawKill(tag: string, srv: Server): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if (srv.requests.some((r) => r.sql.startsWith('KILL QUERY') && r.sql.includes(`'smoke-abort-${tag}'`))) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

async function verify(tag: string, result: SmokeResult, codegen: boolean | undefined, srv: Server = server): Promise<void> {
  assert.deepEqual(Object.keys(result.checks).sort(), Object.keys(reference.checks).sort());
  for (const [name, want] of Object.entries(reference.checks)) assert.equal(result.checks[name], want, `check ${name}`);
  if (codegen !== undefined) assert.equal(result.codegen, codegen, codegen ? 'code generation expected' : 'code generation should have been refused');
  assert.ok(await sawKill(tag, srv), `the abort of ${tag} did not reach the server as KILL QUERY`);
  // chwire/web: answered compressed (chwire's node:http sends no Accept-Encoding of its own).
  if (!tag.endsWith('_node')) console.log(`# ${tag}: answered in ${answeredCompressed(tag, srv)}`);
}

function run(cmd: string, args: string[]): Promise<SmokeResult> {
  assert.ok(existsSync(cmd), `${cmd} is missing: run npm run runtimes`);
  return new Promise((resolveRun, reject) => {
    execFile(cmd, args, { cwd: ROOT, maxBuffer: 1 << 26, timeout: 300_000, env: { ...process.env, NO_COLOR: '1' } }, (err, stdout, stderr) => {
      const line = stdout.split('\n').find((l) => l.startsWith('SMOKE '));
      if (line === undefined) { reject(new Error(`${cmd} ${args.join(' ')} gave no result${err ? ` (${err.message})` : ''}\n${stderr.slice(-4000)}`)); return; }
      resolveRun(JSON.parse(line.slice(6)) as SmokeResult);
    });
  });
}

const cli = join(HERE, 'cli-entry.js');

for (const entry of ['node', 'web'] as const) {
  test(`Bun, ${entry === 'node' ? 'chwire' : 'chwire/web'}`, async () => {
    const tag = `bun_${entry}`;
    await verify(tag, await run(BUN, [cli, entry, server.url, tag]), true);
  });
}

test('Deno, chwire/web', async () => {
  await verify('deno_web', await run(DENO, ['run', `--allow-net=127.0.0.1`, `--allow-read=${ROOT}`, cli, 'web', server.url, 'deno_web']), true);
});

for (const entry of ['node', 'web'] as const) {
  test(`Node --disallow-code-generation-from-strings, ${entry === 'node' ? 'chwire' : 'chwire/web'}`, async () => {
    const tag = `noeval_${entry}`;
    await verify(tag, await run(process.execPath, ['--disallow-code-generation-from-strings', cli, entry, server.url, tag]), false);
  });
}

// chwire/web in the other Node majors of .ci/runtimes: each has its own undici (its fetch, its decoders).
for (const major of [22, 24, 26]) {
  test(`Node ${major}, chwire/web`, async () => {
    const tag = `node${major}_web`;
    await verify(tag, await run(join(RUNTIMES, `node${major}`, 'bin', 'node'), [cli, 'web', server.url, tag]), true);
  });
}

/** A package of .ci/runtimes, loaded from there (it is not a dependency of chwire). */
async function runtimePackage<T>(name: string): Promise<T> {
  const req = createRequire(join(ROOT, '.ci', 'runtimes', 'package.json'));
  return (await import(pathToFileURL(req.resolve(name)).href)) as T;
}

async function bundle(entry: string): Promise<string> {
  const r = await build({ entryPoints: [entry], bundle: true, platform: 'browser', format: 'esm', target: 'es2022', write: false, logLevel: 'silent' });
  return r.outputFiles[0]!.text;
}

/** The entry bundled with code splitting: file name → code, the entry as `entry.js`. */
async function splitBundle(entry: string): Promise<Map<string, string>> {
  const r = await build({ entryPoints: { entry }, bundle: true, splitting: true, outdir: '/split', platform: 'browser', format: 'esm', target: 'es2022', write: false, logLevel: 'silent' });
  const files = new Map(r.outputFiles.map((f) => [f.path.replace(/^.*\//, ''), f.text]));
  assert.ok(files.size > 3 && [...files.values()].some((code) => /\bimport\(/.test(code)), 'the split bundle must have chunks loaded by import()');
  return files;
}

test('workerd (miniflare), chwire/web split into chunks: the parts loaded on first use come from their chunks', async () => {
  interface Mf { dispatchFetch(url: string): Promise<{ text(): Promise<string>; status: number }>; dispose(): Promise<void> }
  const { Miniflare } = await runtimePackage<{ Miniflare: new (o: Record<string, unknown>) => Mf }>('miniflare');
  const files = await splitBundle(join(HERE, 'worker-entry.js'));
  const dir = mkdtempSync(join(tmpdir(), 'chwire-split-'));
  for (const [f, code] of files) writeFileSync(join(dir, f), code);
  const modules = ['entry.js', ...[...files.keys()].filter((f) => f !== 'entry.js')].map((f) => ({ type: 'ESModule', path: join(dir, f) }));
  const mf = new Miniflare({ modules, modulesRoot: dir, compatibilityDate: '2025-06-01' });
  try {
    const res = await mf.dispatchFetch(`http://smoke.local/?url=${encodeURIComponent(server.url)}&tag=workerd_split`);
    const text = await res.text();
    assert.equal(res.status, 200, text.slice(0, 2000));
    await verify('workerd_split', JSON.parse(text) as SmokeResult, false);
  } finally {
    await mf.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('workerd (miniflare), chwire/web', async () => {
  interface Mf { dispatchFetch(url: string): Promise<{ text(): Promise<string>; status: number }>; dispose(): Promise<void> }
  const { Miniflare } = await runtimePackage<{ Miniflare: new (o: Record<string, unknown>) => Mf }>('miniflare');
  const script = await bundle(join(HERE, 'worker-entry.js'));
  const mf = new Miniflare({ modules: true, script, compatibilityDate: '2025-06-01' });
  try {
    const res = await mf.dispatchFetch(`http://smoke.local/?url=${encodeURIComponent(server.url)}&tag=workerd_web`);
    const text = await res.text();
    assert.equal(res.status, 200, text.slice(0, 2000));
    await verify('workerd_web', JSON.parse(text) as SmokeResult, false);
  } finally {
    await mf.dispose();
  }
});

test('workerd (miniflare): a chwire gen module\'s query function returns the engine\'s rows through its precompiled decoders', { timeout: 240_000 }, async () => {
  interface Mf { dispatchFetch(url: string): Promise<{ text(): Promise<string>; status: number }>; dispose(): Promise<void> }
  const { Miniflare } = await runtimePackage<{ Miniflare: new (o: Record<string, unknown>) => Mf }>('miniflare');
  await engineExec(`DROP TABLE IF EXISTS ${GEN_TABLE}`);
  for (const sql of GEN_DDL) await engineExec(sql);
  const gen = await generatedWorker(ROOT);
  let mf: Mf | undefined;
  try {
    assert.match(gen.ts, /export async function eventsSince\(client: Client, params: EventsSinceParams/);
    assert.doesNotMatch(gen.ts, /new Function|eval\(/);
    mf = new Miniflare({ modules: true, script: gen.script, compatibilityDate: '2025-06-01' });
    const res = await mf.dispatchFetch(`http://gen.local/?url=${encodeURIComponent(server.url)}`);
    const text = await res.text();
    assert.equal(res.status, 200, text.slice(0, 2000));
    const got = JSON.parse(text) as {
      codegen: boolean; registered: number; before: number; afterQuery: number; afterTable: number; columns: unknown; rows: string; table: string;
      nativeBefore: number; afterNativeFetch: number; afterNativeBatches: number; native: string; batched: string;
    };
    assert.equal(got.codegen, false, 'workerd must refuse code generation');
    assert.equal(got.registered, 10, 'the module registers a RowBinary decoder and three Native row functions for the table and for the query, and two insert encoders (object and array rows) for the table');
    assert.equal(got.afterQuery - got.before, 1, 'eventsSince() must decode with the module\'s precompiled decoder, not the interpreted fallback');
    assert.equal(got.afterTable - got.afterQuery, 1, 'SELECT * of the table must decode with the module\'s precompiled decoder');
    // The engine's own rows for the same queries (its bytes, read by the reference decoder).
    const want = decodeRowBinaryReference(await engineBytesBound(GEN_QUERY, 'RowBinaryWithNamesAndTypes', {}, { min: String(GEN_MIN) }));
    assert.equal(want.rows.length, 600 - GEN_MIN);
    assert.deepEqual(got.columns, want.columns);
    assert.equal(got.rows, canon(want.rows));
    const table = decodeRowBinaryReference(await engineBytes(`SELECT * FROM ${GEN_TABLE} ORDER BY id`, 'RowBinaryWithNamesAndTypes'));
    assert.equal(got.table, canon(table.rows));
    // Native reads (the format of servers before 20.1) use the module's row functions too.
    assert.equal(got.native, got.rows);
    assert.equal(got.batched, got.rows);
    assert.equal(got.afterNativeFetch - got.nativeBefore, 1, 'a Native fetch must build its rows with the module\'s precompiled row function');
    assert.equal(got.afterNativeBatches - got.afterNativeFetch, 1, 'a Native stream\'s batches must build their rows with the module\'s precompiled row function');
  } finally {
    await mf?.dispose();
    gen.cleanup();
    await engineExec(`DROP TABLE IF EXISTS ${GEN_TABLE}`);
  }
});

test('headless Chromium: a page importing the browser bundle of chwire/web, and the example page', async () => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install -y chromium`);
  const smokeJs = await bundle(join(HERE, 'browser-entry.js'));
  const split = await splitBundle(join(HERE, 'browser-entry.js'));
  const webJs = await bundle(join(ROOT, 'dist', 'src', 'web.js'));
  const example = readFileSync(join(ROOT, 'docs', 'examples', 'browser.html'), 'utf8');
  // The page's origin (this server) differs from the ClickHouse server's: requests are cross-origin.
  const pages = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const send = (type: string, body: string): void => { res.setHeader('Content-Type', type); res.end(body); };
    if (path === '/smoke.html') send('text/html', '<!doctype html><meta charset="utf-8"><title>smoke</title><script type="module" src="/smoke.js"></script>');
    else if (path === '/smoke.js') send('text/javascript', smokeJs);
    else if (path === '/split/smoke.html') send('text/html', '<!doctype html><meta charset="utf-8"><title>smoke</title><script type="module" src="/split/entry.js"></script>');
    else if (path.startsWith('/split/') && split.has(path.slice(7))) send('text/javascript', split.get(path.slice(7))!);
    else if (path === '/example/browser.html') send('text/html', example);
    else if (path === '/example/chwire-web.js') send('text/javascript', webJs);
    else { res.statusCode = 404; res.end(); }
  });
  await new Promise<void>((r) => pages.listen(0, '127.0.0.1', () => r()));
  const origin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  interface Page { goto(u: string): Promise<unknown>; waitForFunction(f: string, a?: unknown, o?: { timeout: number }): Promise<unknown>; evaluate<T>(f: string): Promise<T>; on(e: string, f: (m: { text(): string }) => void): void }
  interface Browser { newPage(): Promise<Page>; close(): Promise<void> }
  type Chromium = { launch(o: Record<string, unknown>): Promise<Browser> };
  const pw = await runtimePackage<{ chromium?: Chromium; default?: { chromium: Chromium } }>('playwright-core');
  const chromium = (pw.chromium ?? pw.default?.chromium)!;
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    const page = await browser.newPage();
    const logs: string[] = [];
    page.on('console', (m) => logs.push(m.text()));
    await page.goto(`${origin}/smoke.html?url=${encodeURIComponent(server.url)}&tag=chromium_web`);
    await page.waitForFunction('window.__smoke !== undefined', undefined, { timeout: 120_000 });
    const result = await page.evaluate<SmokeResult & { error?: string }>('window.__smoke');
    assert.equal(result.error, undefined, `${result.error} ${logs.join('\n')}`);
    await verify('chromium_web', result, true);

    // The same smoke from the bundle split into chunks (each chunk a request of the page).
    const splitPage = await browser.newPage();
    splitPage.on('console', (m) => logs.push(m.text()));
    await splitPage.goto(`${origin}/split/smoke.html?url=${encodeURIComponent(server.url)}&tag=chromium_split`);
    await splitPage.waitForFunction('window.__smoke !== undefined', undefined, { timeout: 120_000 });
    const splitResult = await splitPage.evaluate<SmokeResult & { error?: string }>('window.__smoke');
    assert.equal(splitResult.error, undefined, `${splitResult.error} ${logs.join('\n')}`);
    await verify('chromium_split', splitResult, true);

    // Against a server whose every response header the page sees: Content-Encoding too.
    const exposed = await browser.newPage();
    exposed.on('console', (m) => logs.push(m.text()));
    await exposed.goto(`${origin}/smoke.html?url=${encodeURIComponent(exposing.url)}&tag=chromium_exposed`);
    await exposed.waitForFunction('window.__smoke !== undefined', undefined, { timeout: 120_000 });
    const exposedResult = await exposed.evaluate<SmokeResult & { error?: string }>('window.__smoke');
    assert.equal(exposedResult.error, undefined, `${exposedResult.error} ${logs.join('\n')}`);
    await verify('chromium_exposed', exposedResult, true, exposing);

    const ex = await browser.newPage();
    await ex.goto(`${origin}/example/browser.html?url=${encodeURIComponent(server.url)}`);
    await ex.waitForFunction('document.querySelector("#status")?.textContent?.startsWith("done")', undefined, { timeout: 60_000 });
    const cells = await ex.evaluate<string[]>('[...document.querySelectorAll("tbody td")].map((td) => td.textContent)');
    assert.deepEqual(cells.slice(0, 4), ['0', 'zero', '1', 'one']);
  } finally {
    await browser?.close();
    pages.closeAllConnections();
    await new Promise<void>((r) => pages.close(() => r()));
  }
});
