// The README is the front door; these checks keep it one:
// - its first screen holds the two set-up commands and the quick start;
// - the quick start runs as written against the real server (CHWIRE_TEST_HTTP_URL, Debian's 18.16
//   in CI): the code block is compiled by TypeScript and run as a module that imports `chwire`
//   through the package's exports map, with only its URL and table name substituted;
// - every link into docs/ names a file and a heading that exist;
// - no text is kept twice: no paragraph of the README is repeated in docs/ (the reference lives
//   there), and the type-mapping table is docs/types.md's alone;
// - CHWIRE_TEST_HTTP_URL2 is named wherever CHWIRE_TEST_HTTP_URL is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { renderTypeMapping } from '../src/plan/mapping.js';
import { createClient } from '../src/index.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const DOCS = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));
const URL_ = process.env['CHWIRE_TEST_HTTP_URL'];

test('README keeps its two set-up commands, on its first screen with the quick start', () => {
  assert.match(README, /npm install && npm run demo/);
  assert.match(README, /npm ci && npm test/);
  const lines = README.split('\n');
  const at = (re: RegExp): number => lines.findIndex((l) => re.test(l));
  assert.ok(at(/npm install && npm run demo/) < 20 && at(/npm ci && npm test/) < 20, 'the set-up commands are not on the first screen');
  assert.ok(at(/^## Quick start/) >= 0 && at(/^## Quick start/) < 30, 'the quick start does not start on the first screen');
});

/** The first ```ts block under "## Quick start". */
function quickStart(): string {
  const section = README.slice(README.indexOf('## Quick start'));
  const m = /```ts\n([\s\S]*?)```/.exec(section);
  assert.ok(m !== null, 'no ```ts block under ## Quick start');
  return m[1]!;
}

test('the quick start runs as written against the server', { skip: URL_ === undefined ? 'CHWIRE_TEST_HTTP_URL is not set' : false }, async () => {
  const code = quickStart();
  assert.ok(code.includes("'http://localhost:8123'") && code.includes('quickstart'), 'the quick start changed shape: update this test');
  assert.doesNotMatch(code, /\{[a-z]+:[A-Z]\w*\}/, 'the quick start must not use {name:Type} parameters (servers before 19.11 refuse them)');
  const table = `package_quickstart_${process.pid}_${Date.now()}`;
  const js = ts.transpileModule(code.replaceAll("'http://localhost:8123'", JSON.stringify(URL_)).replaceAll('quickstart', table), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  // Inside the package, so that `import 'chwire'` resolves through its own exports map.
  const file = join(ROOT, 'dist', 'test', `readme-quickstart-${process.pid}.mjs`);
  writeFileSync(file, js);
  try {
    const out = execFileSync(process.execPath, [file], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    assert.match(out, /\{\s*id: 1n,\s*name: 'a',\s*at: \d{4}-\d\d-\d\dT[\d:.]+Z\s*\}/, out);
    assert.match(out, /\{\s*id: 2n,\s*name: 'b'/);
    assert.match(out, /^0n\n1n\n2n$/m);
    assert.match(out, /\[ 'id' \] BigUint64Array\(2\) \[ 1n, 2n \]/);
  } finally {
    rmSync(file, { force: true });
    const c = createClient({ url: URL_ });
    await c.execute(`DROP TABLE IF EXISTS ${table}`);
    await c.close();
  }
});

/** GitHub's anchor of a heading. */
function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

test('every link of the README into docs/ names an existing file and heading', () => {
  const links = [...README.matchAll(/\]\((docs\/[^)#\s]+)(?:#([^)\s]+))?\)/g)].map((m) => ({ file: m[1]!, anchor: m[2] }));
  assert.ok(links.length > 15, `only ${links.length} links into docs/`);
  const bad: string[] = [];
  for (const { file, anchor } of links) {
    if (!existsSync(join(ROOT, file))) { bad.push(`${file}: no such file`); continue; }
    if (anchor === undefined || !file.endsWith('.md')) continue;
    const slugs = readFileSync(join(ROOT, file), 'utf8').split('\n').filter((l) => /^#{1,6} /.test(l)).map((l) => slug(l.replace(/^#+ /, '')));
    if (!slugs.includes(anchor)) bad.push(`${file}#${anchor}: no such heading`);
  }
  assert.deepEqual(bad, []);
});

test('no text is kept twice: no README paragraph is repeated in docs/, the type table lives in docs/types.md', () => {
  const docs = DOCS.map((f) => readFileSync(join(ROOT, 'docs', f), 'utf8').replace(/\s+/g, ' '));
  const twice = README.split(/\n\s*\n/).map((p) => p.replace(/\s+/g, ' ').trim())
    .filter((p) => p.length >= 120 && !p.startsWith('```') && !p.startsWith('|'))
    .filter((p) => docs.some((d) => d.includes(p)));
  assert.deepEqual(twice, []);
  const table = renderTypeMapping().split('\n').slice(1).join('\n').trim();
  assert.ok(readFileSync(join(ROOT, 'docs', 'types.md'), 'utf8').includes(table), 'docs/types.md lacks the type table');
  assert.ok(!README.includes(table.split('\n').slice(0, 3).join('\n')), 'the README repeats the type table');
  assert.match(README, /\]\(docs\/types\.md\)/, 'the README links the type table');
});

test('CHWIRE_TEST_HTTP_URL2 is named wherever CHWIRE_TEST_HTTP_URL is', () => {
  const paragraphs = README.split(/\n\s*\n/).filter((p) => /CHWIRE_TEST_HTTP_URL(?!2)/.test(p));
  assert.ok(paragraphs.length > 0);
  for (const p of paragraphs) assert.match(p, /CHWIRE_TEST_HTTP_URL2/, p);
});
