// The install of docs/migrating.md ("Libraries built on @clickhouse/client"), as a user runs it:
// npm, an empty folder, chwire from a tarball (`npm pack` of this checkout) and from a folder, then
// `npx chwire alias`. Afterwards @clickhouse/client, -common and -web load chwire/compat from the
// app and from a library's own folder, package.json holds exactly the entries the docs show, and
// `npm ci` from the lockfile it wrote installs the same again.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const work = mkdtempSync(join(tmpdir(), 'chwire-install-'));
after(() => rmSync(work, { recursive: true, force: true }));

const npm = (cwd: string, ...args: string[]): string =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--prefer-offline'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_loglevel: 'error' } });

/** The JSON block of migrating.md that shows the alias entries. */
function documentedEntries(): { dependencies: Record<string, string>; overrides: Record<string, string> } {
  const md = readFileSync(join(ROOT, 'docs', 'migrating.md'), 'utf8');
  const section = md.slice(md.indexOf('### Libraries built on `@clickhouse/client`'));
  const block = /```json\n([\s\S]*?)```/.exec(section);
  assert.ok(block, 'migrating.md shows the entries as a JSON block');
  return JSON.parse(block[1]!) as never;
}

function checkInstalled(app: string): void {
  // From the app and from inside a library (a folder under node_modules with its own require).
  mkdirSync(join(app, 'node_modules', 'some-library'), { recursive: true });
  writeFileSync(join(app, 'node_modules', 'some-library', 'index.js'),
    "module.exports = [require('@clickhouse/client'), require('@clickhouse/client-common'), require('@clickhouse/client-web')];\n");
  const out = execFileSync(process.execPath, ['-e', `
    const [c, common, web] = require('some-library');
    const compat = require('chwire/compat');
    console.log(JSON.stringify({
      same: c.ClickHouseError === compat.ClickHouseError && common.ClickHouseError === compat.ClickHouseError,
      web: typeof web.createClient,
      version: require('@clickhouse/client/package.json').version,
      parse: c.parseColumnType('Nullable(String)').type,
    }));`], { cwd: app, encoding: 'utf8' });
  assert.deepEqual(JSON.parse(out), { same: true, web: 'function', version: '1.23.1+chwire', parse: 'Nullable' });
}

function runDocumentedSteps(app: string, chwireSpec: string, folder?: string): void {
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, 'package.json'), `${JSON.stringify({ name: 'app', version: '1.0.0', private: true }, null, 2)}\n`);
  npm(app, 'install', chwireSpec);
  const printed = execFileSync(process.execPath, [join(app, 'node_modules', 'chwire', 'dist', 'cjs', 'cli', 'bin.js'), 'alias'], { cwd: app, encoding: 'utf8' });
  assert.match(printed, /served by chwire\/compat/);
  const pkg = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; overrides: Record<string, string> };
  const docs = documentedEntries();
  for (const key of ['dependencies', 'overrides'] as const) {
    for (const [name, spec] of Object.entries(docs[key])) {
      if (name === 'chwire') continue;
      // From a folder, the entries lead to that folder's alias/ (the docs say so beside the block).
      const expected = folder === undefined ? spec : spec.replace('./node_modules/chwire', relative(app, folder));
      assert.equal(pkg[key][name], expected, `${key}.${name} as the docs show it`);
    }
  }
  assert.deepEqual(Object.keys(pkg.overrides).sort(), Object.keys(docs.overrides).sort());
  checkInstalled(app);
  rmSync(join(app, 'node_modules'), { recursive: true, force: true });
  npm(app, 'ci');
  checkInstalled(app);
}

test('the documented install from a tarball: npm install chwire, then npx chwire alias; npm ci from its lockfile', { timeout: 180_000 }, () => {
  const packed = npm(ROOT, 'pack', '--pack-destination', work).trim().split('\n').pop()!;
  runDocumentedSteps(join(work, 'from-tarball'), `file:${join(work, packed)}`);
});

test('the documented install from a folder (a checkout of chwire): the same steps', { timeout: 180_000 }, () => {
  runDocumentedSteps(join(work, 'from-folder'), `file:${ROOT}`, ROOT);
});

test('chwire alias before chwire is installed: refused with the step to take, package.json untouched', () => {
  const app = join(work, 'not-installed');
  mkdirSync(app, { recursive: true });
  const text = '{\n    "name": "app"\n}\n';
  writeFileSync(join(app, 'package.json'), text);
  let stderr = '';
  try {
    execFileSync(process.execPath, [join(ROOT, 'dist', 'cjs', 'cli', 'bin.js'), 'alias'], { cwd: app, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    assert.fail('chwire alias succeeded without chwire installed');
  } catch (e) {
    stderr = String((e as { stderr?: unknown }).stderr);
    assert.equal((e as { status?: number }).status, 1);
  }
  assert.match(stderr, /chwire is not installed in .*node_modules.*npm install chwire/);
  assert.equal(readFileSync(join(app, 'package.json'), 'utf8'), text);
});
