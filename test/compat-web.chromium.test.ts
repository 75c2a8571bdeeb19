// chwire/compat/web beside the official @clickhouse/client-web 1.23.1, in headless Chromium: one page
// (runtimes/compat-web-entry.ts, bundled with esbuild) makes the same calls through both clients
// and the results must be equal, step by step: query + json() in JSONEachRow, JSONCompactEachRow and
// JSON, text(), stream() of rows (a ReadableStream of row arrays), exec, command, insert of values,
// ping, server errors (ClickHouseError fields), abort, misuse errors. Against the 18.16 server
// (CHWIRE_TEST_HTTP_URL) and, for what 18.16 lacks (query parameters, the 23.x+ exception text with
// its name), the loopback test server. The page is served by a loopback server that forwards every
// other path to the ClickHouse server, so the page and the server share an origin (18.16 answers
// no CORS preflight: test/web.cors.test.ts), and that server records the headers each request
// carried: chwire underneath is seen there (X-ClickHouse-User, where the official web client sends
// `Authorization: Basic`). Chromium is Debian's (/usr/bin/chromium, CHWIRE_CHROMIUM), driven by
// playwright-core from .ci/runtimes (npm run runtimes); without either the test is skipped.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { startTestServer } from './support/test-server.js';
import { REAL_URL } from './support/ch-server.js';
import { SKIP_CHROMIUM as SKIP, launchChromium, pageServer, type Browser, type Seen } from './support/chromium.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

type Outcomes = Record<string, unknown>;

let browser: Browser | undefined;
let pageJs: string | undefined;
after(async () => { await browser?.close(); });

async function runPage(backend: string, target: '18' | 'loop', tag: string): Promise<{ official: Outcomes; compat: Outcomes; seen: Seen[] }> {
  if (pageJs === undefined) {
    const r = await build({ entryPoints: [join(ROOT, 'dist', 'test', 'runtimes', 'compat-web-entry.js')], bundle: true, platform: 'browser', format: 'esm', target: 'es2022', write: false, logLevel: 'silent' });
    pageJs = r.outputFiles[0]!.text;
  }
  browser ??= await launchChromium();
  const ps = await pageServer(backend, 'compat', pageJs);
  const page = await browser.newPage();
  const logs: string[] = [];
  page.on('console', (m) => logs.push(m.text()));
  try {
    await page.goto(`${ps.origin}/compat.html?target=${target}&tag=${tag}`);
    await page.waitForFunction('window.__compat !== undefined', undefined, { timeout: 180_000 });
    const got = await page.evaluate<{ official: Outcomes; compat: Outcomes; error?: string }>('window.__compat');
    assert.equal(got.error, undefined, `${got.error} ${logs.join('\n')}`);
    return { official: got.official, compat: got.compat, seen: ps.seen };
  } finally {
    await page.close();
    await ps.close();
  }
}

/** Each step gave the same outcome through both clients (every step, by name, so a failure names it). */
function sameOutcomes(official: Outcomes, compat: Outcomes): void {
  assert.deepEqual(Object.keys(compat), Object.keys(official));
  for (const step of Object.keys(official)) assert.deepEqual(compat[step], official[step], `step "${step}" differs`);
}

/** The official web client authenticates with `Authorization: Basic`; chwire with X-ClickHouse-User/Key (no Authorization). */
function checkHeaders(seen: Seen[], tag: string): void {
  const of = (who: string): Seen => {
    const s = seen.find((r) => new URL(r.url, 'http://x').searchParams.get('query_id') === `qid-${tag}-${who}`);
    assert.ok(s !== undefined, `no request with query_id qid-${tag}-${who} reached the server`);
    return s;
  };
  const official = of('official');
  const compat = of('compat');
  assert.match(String(official.headers['authorization']), /^Basic /);
  assert.equal(official.headers['x-clickhouse-user'], undefined);
  assert.equal(compat.headers['authorization'], undefined, 'chwire sends no Authorization header for username/password');
  assert.equal(compat.headers['x-clickhouse-user'], 'default');
}

test('Chromium, 18.16: chwire/compat/web gives what @clickhouse/client-web gives, call by call', { skip: SKIP || (REAL_URL === undefined ? 'CHWIRE_TEST_HTTP_URL is not set' : false), timeout: 300_000 }, async () => {
  const { official, compat, seen } = await runPage(REAL_URL!, '18', 'r18');
  // The outcomes are real ones (the control: equal failures everywhere would prove nothing).
  assert.deepEqual(official['json JSONEachRow'], [0, 1, 2, 3, 4].map((n) => ({ n: String(n), s: String(n), f: n * 1.5 })));
  assert.deepEqual(official['insert read back'], [{ id: 1, name: 'a' }, { id: 2, name: 'b\nc' }]);
  assert.deepEqual(official['ping'], { success: true });
  assert.equal((official['stream JSONEachRow (20000 rows)'] as { rows: number }).rows, 20_000);
  sameOutcomes(official, compat);
  checkHeaders(seen, 'r18');
});

test('Chromium, loopback server (26.x behaviour: query parameters, named exceptions): chwire/compat/web gives what @clickhouse/client-web gives', { skip: SKIP, timeout: 300_000 }, async () => {
  const server = await startTestServer();
  server.fault('/* cw-stall */', { kind: 'stall', at: 10 });
  server.fault('/* cw-hold */', { kind: 'detach', afterMs: 10_000, runsMs: 0 });
  try {
    const { official, compat, seen } = await runPage(server.url, 'loop', 'loop');
    assert.deepEqual(official['query_params'], [{ x: 42, s: 'abc' }]);
    assert.equal((official['server error'] as { clickHouseError: boolean }).clickHouseError, true);
    sameOutcomes(official, compat);
    checkHeaders(seen, 'loop');
    // Both inserts sent the same statement and the same body bytes.
    const inserts = server.requests.filter((r) => /^INSERT INTO compat_web_loop_/.test(r.sql));
    assert.equal(inserts.length, 2);
    assert.deepEqual(inserts.map((r) => r.sql.replace(/_(official|compat)\b/, '_X')), ['INSERT INTO compat_web_loop_X FORMAT JSONEachRow', 'INSERT INTO compat_web_loop_X FORMAT JSONEachRow']);
    assert.equal(inserts[1]!.body.toString('utf8'), inserts[0]!.body.toString('utf8'));
    assert.equal(inserts[0]!.body.toString('utf8'), '{"id":1,"name":"a"}\n{"id":2,"name":"b\\nc"}\n');
    if (process.env['CHWIRE_COMPAT_WEB_DUMP'] !== undefined) console.log(JSON.stringify(official, null, 1));
  } finally {
    await server.close();
  }
});
