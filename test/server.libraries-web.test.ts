// @hypequery/clickhouse's browser path in headless Chromium, through the two library installs of
// test/server.libraries.test.ts (issue 27, item 2): the browser example
// (.ci/libraries/examples/hypequery-browser.mjs: the app makes the client with @clickhouse/client-web's
// createClient and hands it to createQueryBuilder) is bundled with esbuild for the browser twice, its
// bare imports resolved inside .ci/libraries/official (the official web client) and inside
// .ci/libraries/chwire (@clickhouse/client-web is chwire's alias/client-web: chwire/compat/web).
// Each page is served on the 18.16 server's origin by a loopback server that forwards the ClickHouse
// paths and records their headers (test/support/chromium.ts). Both pages must give the same lines
// (results and error shapes), every ClickHouse request of the chwire page must be chwire's
// (X-ClickHouse-User, no `Authorization: Basic`) and every one of the official page the official
// client's. Skips, saying why, without the server, the installs, Chromium or playwright-core, and
// under .ci/runtimes' Nodes (as server.libraries.test.ts does).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { REAL_URL, SKIP_REAL } from './support/ch-server.js';
import { SKIP_CHROMIUM, launchChromium, pageServer, type Browser, type Seen } from './support/chromium.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const LIBS = join(ROOT, '.ci', 'libraries');
const EXAMPLES = join(LIBS, 'examples');
const INSTALLS = { official: join(LIBS, 'official'), chwire: join(LIBS, 'chwire') } as const;
type Install = keyof typeof INSTALLS;

const installed = (i: Install): boolean => ['@hypequery/clickhouse', '@clickhouse/client-web'].every((p) => existsSync(join(INSTALLS[i], 'node_modules', p, 'package.json')));
const skip: string | false = SKIP_REAL
  || (!installed('official') || !installed('chwire')
    ? 'the library installs are absent: run `npm run libraries` (npm ci in .ci/libraries/official and .ci/libraries/chwire; .ci/run does)'
    : false)
  || (process.execPath.includes(`${sep}.ci${sep}runtimes${sep}`) ? 'run under the Node of npm test; not repeated under .ci/runtimes\' Nodes' : false)
  || SKIP_CHROMIUM;

const DB = 'chwire_libs_web';
const SETUP = [
  `DROP DATABASE IF EXISTS ${DB}`,
  `CREATE DATABASE ${DB}`,
  `CREATE TABLE ${DB}.hq_orders (id UInt32, region String, status String, amount Float64) ENGINE = MergeTree ORDER BY id`,
  `INSERT INTO ${DB}.hq_orders VALUES (1, 'eu', 'completed', 10.5), (2, 'us', 'completed', 4), (3, 'eu', 'completed', 1.25), (4, 'eu', 'cancelled', 99)`,
];

async function setup(): Promise<void> {
  for (const sql of SETUP) {
    const res = await fetch(REAL_URL!, { method: 'POST', body: sql });
    assert.ok(res.ok, `setup: ${sql}: ${await res.text()}`);
  }
}

const NODE_BUILTINS = new Set(builtinModules);

/**
 * The example's bare imports resolve inside `install` (as the app's own would), its relative ones
 * beside it. What a browser bundler does with Node-only modules: Node's built-ins are empty modules
 * (as Vite's browser-external makes them), and dotenv is a no-op: hypequery 2.10.1's index loads
 * its type generator, which calls dotenv.config() on load (reading .env from disk, which fails in a
 * browser before the app runs), the same on both pages; the browser path calls neither.
 */
function resolveIn(install: string): Plugin {
  return {
    name: 'resolve-in-install',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path === 'dotenv') return { path: args.path, namespace: 'dotenv-noop' };
        if (args.path.startsWith('node:') || NODE_BUILTINS.has(args.path)) return { path: args.path, namespace: 'browser-external' };
        return args.importer.startsWith(EXAMPLES + sep) ? b.resolve(args.path, { kind: args.kind, resolveDir: install }) : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: 'dotenv-noop' }, () => ({ contents: 'export default { config() { return { parsed: {} }; } };', loader: 'js' }));
      b.onLoad({ filter: /.*/, namespace: 'browser-external' }, () => ({ contents: 'module.exports = {};', loader: 'js' }));
    },
  };
}

async function bundle(install: Install): Promise<string> {
  const r = await build({
    entryPoints: [join(EXAMPLES, 'hypequery-browser.mjs')],
    bundle: true, platform: 'browser', format: 'esm', target: 'es2022', keepNames: true, define: { 'process.env.NODE_ENV': '"production"' }, write: false, logLevel: 'silent',
    plugins: [resolveIn(INSTALLS[install])],
  });
  return r.outputFiles[0]!.text;
}

let browser: Browser | undefined;
after(async () => { await browser?.close(); });

async function runPage(install: Install): Promise<{ lines: unknown[]; seen: Seen[] }> {
  const js = await bundle(install);
  await setup();
  browser ??= await launchChromium();
  const ps = await pageServer(REAL_URL!, 'hypequery', js);
  const page = await browser.newPage();
  const logs: string[] = [];
  page.on('console', (m) => logs.push(m.text()));
  page.on('pageerror', (e) => logs.push(`page error: ${e.message}`));
  try {
    await page.goto(`${ps.origin}/hypequery.html?db=${DB}`);
    await page.waitForFunction('window.__hypequery !== undefined', undefined, { timeout: 60_000 }).catch((e: unknown) => { throw new Error(`the ${install} page did not finish: ${String(e)}\n${logs.join('\n')}`); });
    const got = await page.evaluate<{ lines: unknown[]; error?: string }>('window.__hypequery');
    assert.equal(got.error, undefined, `the ${install} page failed: ${got.error}\n${logs.join('\n')}`);
    return { lines: got.lines, seen: ps.seen };
  } finally {
    await page.close();
    await ps.close();
  }
}

test('Chromium, 18.16: @hypequery/clickhouse in a browser gives the same results and errors through chwire\'s alias as with the official web client, every request from chwire', { skip, timeout: 300_000 }, async () => {
  const official = await runPage('official');
  const chwire = await runPage('chwire');
  const context = `\nofficial: ${JSON.stringify(official.lines)}\nchwire:   ${JSON.stringify(chwire.lines)}`;
  // The lines are real ones (equal failures on both pages would prove nothing).
  const byLabel = new Map(official.lines.map((l) => [(l as [string, unknown])[0], (l as [string, unknown])[1]]));
  assert.deepEqual(byLabel.get('select'), [{ id: 1, region: 'eu', amount: 10.5 }, { id: 2, region: 'us', amount: 4 }], context);
  assert.deepEqual(byLabel.get('revenueByRegion'), [{ region: 'eu', revenue: 11.75 }, { region: 'apac', revenue: 7.75 }, { region: 'us', revenue: 4 }], context);
  assert.match((byLabel.get('server error') as { message: string }).message, /^Code: 47, .*Unknown identifier: nope/, context);
  assert.notEqual(byLabel.get('abort'), 'no error', context);
  assert.deepEqual(chwire.lines, official.lines, `the pages' lines differ${context}`);
  // Which client sent each ClickHouse request: the official web client authenticates with
  // `Authorization: Basic`, chwire/compat/web with X-ClickHouse-User (and no Authorization).
  for (const [install, seen] of [['official', official.seen], ['chwire', chwire.seen]] as const) {
    assert.ok(seen.length >= 6, `the ${install} page sent ${seen.length} ClickHouse requests`);
    for (const s of seen) {
      const who = `a request of the ${install} page (${s.url})`;
      if (install === 'chwire') {
        assert.equal(s.headers['authorization'], undefined, `${who} carried Authorization: it did not come from chwire`);
        assert.equal(s.headers['x-clickhouse-user'], 'default', `${who} carried no X-ClickHouse-User: it did not come from chwire`);
      } else {
        assert.match(String(s.headers['authorization']), /^Basic /, who);
        assert.equal(s.headers['x-clickhouse-user'], undefined, who);
      }
    }
  }
});
