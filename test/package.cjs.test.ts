// CommonJS and ES module consumers of the packed package, checked the way a user's project meets
// it: the files `npm pack` would ship are copied into a temporary project's node_modules/chwire
// (so nothing outside the tarball can help), then
// - a plain `.cjs` script requires `chwire`, `chwire/codec` and `chwire/web` on this process's Node
//   (20 under `npm test`) and on Node 20/22/24/26 (.ci/runtimes, where installed; 26 must be), with no
//   warning on stderr, shares one copy of the error classes between the entries, and (where
//   CHWIRE_TEST_HTTP_URL names a server) runs a query through the required client;
// - TypeScript projects type-check against it in each module system a user may pick:
//   `"module": "commonjs"` (node10 resolution: no exports map, so typesVersions must serve the
//   subpaths), `node16` with a CommonJS file, `node16` with an ES module file, and `bundler`;
//   each compiled by the TypeScript API under this process's Node and Node 26;
// - the resolution check @arethetypeswrong/cli makes: for each entry and each resolution mode,
//   TypeScript finds declarations, and they describe the module Node really loads (the same
//   path with .d.ts for .js, and the same module system: CommonJS declarations for the
//   `require` target, ES declarations for the `import` target; a mismatch is what attw calls
//   "masquerading as ESM/CJS").
// Every entry of package.json's exports map is covered (the list is read from it), so an entry
// added later without its `require` condition fails here.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const RUNTIMES = join(ROOT, '.ci', 'runtimes', 'node_modules');
/** Node binaries by major version: this process's (20 under `npm test`), then .ci/runtimes'. */
const THIS = process.versions.node.split('.')[0]!;
const NODES: Record<string, string> = { [THIS]: process.execPath };
for (const major of ['20', '22', '24', '26']) {
  const bin = join(RUNTIMES, `node${major}`, 'bin', 'node');
  if (NODES[major] === undefined && existsSync(bin)) NODES[major] = bin;
}
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, { import: { types: string; default: string }; require: { types: string; default: string } }>;
};
/** `chwire`, `chwire/codec`, … from the exports map. */
const ENTRIES = Object.keys(pkg.exports).map((k) => (k === '.' ? 'chwire' : `chwire/${k.slice(2)}`));

let project = '';

before(() => {
  project = mkdtempSync(join(tmpdir(), 'chwire-cjs-'));
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const files = (JSON.parse(out) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
  const dest = join(project, 'node_modules', 'chwire');
  for (const f of files) {
    mkdirSync(dirname(join(dest, f)), { recursive: true });
    cpSync(join(ROOT, f), join(dest, f));
  }
  // The user's own dev dependencies: @types/node (chwire's Node entry mentions node:http types).
  mkdirSync(join(project, 'node_modules', '@types'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules', '@types', 'node'), join(project, 'node_modules', '@types', 'node'), 'dir');
  symlinkSync(join(ROOT, 'node_modules', 'undici-types'), join(project, 'node_modules', 'undici-types'), 'dir');
  // The optional peer of chwire/arrow, as an app using that entry installs it.
  symlinkSync(join(ROOT, 'node_modules', 'apache-arrow'), join(project, 'node_modules', 'apache-arrow'), 'dir');
  // And of chwire/kysely.
  symlinkSync(join(ROOT, 'node_modules', 'kysely'), join(project, 'node_modules', 'kysely'), 'dir');
});

after(() => {
  if (project !== '') rmSync(project, { recursive: true, force: true });
});

test('package.json: every entry has import and require conditions, each with types first', () => {
  for (const [sub, t] of Object.entries(pkg.exports)) {
    assert.deepEqual(Object.keys(t), ['import', 'require'], `exports["${sub}"]`);
    for (const cond of ['import', 'require'] as const) {
      assert.deepEqual(Object.keys(t[cond]), ['types', 'default'], `exports["${sub}"].${cond}`);
      assert.equal(t[cond].types.replace(/\.d\.ts$/, '.js'), t[cond].default, `exports["${sub}"].${cond}: types and default describe different modules`);
      assert.ok(existsSync(join(ROOT, t[cond].default)) && existsSync(join(ROOT, t[cond].types)), `exports["${sub}"].${cond} targets exist`);
    }
    assert.match(t.require.default, /^\.\/dist\/cjs\//);
    assert.match(t.import.default, /^\.\/dist\/src\//);
  }
  assert.equal(JSON.parse(readFileSync(join(ROOT, 'dist', 'cjs', 'package.json'), 'utf8')).type, 'commonjs');
});

const REQUIRE_SCRIPT = `
'use strict';
const entries = ${JSON.stringify(ENTRIES)};
const mods = Object.fromEntries(entries.map((e) => [e, require(e)]));
const main = mods['chwire'], codec = mods['chwire/codec'], web = mods['chwire/web'];
const out = { version: process.version, exports: Object.fromEntries(entries.map((e) => [e, Object.keys(mods[e]).sort()])) };
out.sameErrors = main.ChwireError === codec.ChwireError && main.ChwireError === web.ChwireError && main.ChwireConfigError === web.ChwireConfigError;
out.isCjs = typeof module === 'object' && require.resolve('chwire').endsWith('/dist/cjs/index.js');
out.type = codec.printType(codec.parseType('Map(String, Array(Nullable(Decimal(18, 4))))'));
try { main.createClient({ compression: 'nope' }); } catch (e) { out.configError = e.name + ' ' + (e instanceof main.ChwireConfigError); }
(async () => {
  const url = process.env.CHWIRE_TEST_HTTP_URL;
  if (url) {
    for (const create of [main.createClient, web.createClient]) {
      const client = create({ url });
      const rows = await client.fetch('SELECT number AS n, toString(number) AS s FROM system.numbers LIMIT 3');
      (out.rows ??= []).push(JSON.stringify([...rows], (k, v) => typeof v === 'bigint' ? v.toString() + 'n' : v));
      await client.close();
    }
  }
  console.log(JSON.stringify(out));
})().catch((e) => { console.error(e); process.exit(1); });
`;

for (const [major, bin] of Object.entries(NODES)) {
  test(`Node ${major}: a .cjs script requires every entry (no warning), and the client works`, () => {
    const script = join(project, 'use.cjs');
    writeFileSync(script, REQUIRE_SCRIPT);
    const res = spawn(bin, [script]);
    assert.equal(res.stderr, '', `stderr of ${bin}: ${res.stderr}`);
    const got = JSON.parse(res.stdout) as { version: string; exports: Record<string, string[]>; sameErrors: boolean; isCjs: boolean; type: string; configError: string; rows?: string[] };
    assert.ok(got.version.startsWith(`v${major}.`), got.version);
    assert.equal(got.isCjs, true, 'require(chwire) must load the CommonJS build');
    for (const e of ENTRIES) assert.ok(got.exports[e]!.length > 0, `require('${e}') exported nothing`);
    for (const e of ['chwire', 'chwire/codec', 'chwire/web']) assert.ok(got.exports[e]!.includes('ChwireError'), `${e} exports ${got.exports[e]!.join(', ')}`);
    for (const e of ['chwire', 'chwire/web']) {
      for (const n of ['createClient', 'createQueryClient', 'insert', 'fetchColumns', 'streamColumns', 'refreshSchema']) assert.ok(got.exports[e]!.includes(n), `${e} lacks ${n}`);
    }
    for (const n of ['parseType', 'decodeRowBinary', 'decodeNative', 'compileNativeEncoder']) assert.ok(got.exports['chwire/codec']!.includes(n), n);
    assert.equal(got.sameErrors, true, 'the entries must share one copy of the error classes');
    assert.equal(got.type, 'Map(String, Array(Nullable(Decimal(18, 4))))');
    assert.equal(got.configError, 'ChwireConfigError true');
    if (process.env['CHWIRE_TEST_HTTP_URL'] !== undefined) {
      const want = JSON.stringify([{ n: '0n', s: '0' }, { n: '1n', s: '1' }, { n: '2n', s: '2' }]);
      assert.deepEqual(got.rows, [want, want]);
    }
  });
}

test('Node 26 is among the runtimes checked', { skip: existsSync(RUNTIMES) ? false : 'no .ci/runtimes (npm run runtimes)' }, () => {
  assert.ok(NODES['26'] !== undefined, 'node26 missing from .ci/runtimes');
});

function spawn(bin: string, args: string[]): { stdout: string; stderr: string } {
  try {
    const stdout = execFileSync(bin, args, { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
    return { stdout, stderr: '' };
  } catch (e) {
    const err = e as { stdout: string; stderr: string; message: string };
    assert.fail(`${bin} ${args.join(' ')} failed: ${err.message}\n${err.stdout}\n${err.stderr}`);
  }
}

// ---------------------------------------------------------------------------------------------
// TypeScript projects, and the attw-style resolution check, run by a child under each Node.

/** A consumer file: uses the types each entry's calls need, so a missing or `any` type fails. */
function consumer(kind: 'cjs' | 'esm'): string {
  const imp = kind === 'cjs'
    ? `import chwire = require('chwire');\nimport codec = require('chwire/codec');\nimport web = require('chwire/web');\n`
    : `import * as chwire from 'chwire';\nimport * as codec from 'chwire/codec';\nimport * as web from 'chwire/web';\n`;
  return `${imp}
type Expect<T extends true> = T;
type IsAny<T> = 0 extends 1 & T ? true : false;
export type NotAny = Expect<IsAny<typeof chwire.createClient> extends true ? false : true>;
const client: chwire.Client = chwire.createClient({ url: 'http://localhost:8123' });
export async function read(): Promise<number> {
  const r = await client.fetch<{ n: string }>('SELECT 1 AS n');
  const n: string = r[0]!.n;
  const row: chwire.ObjectRow = { n };
  const params: web.QueryParams = { x: 1 };
  const wc: web.Client = web.createClient({ url: 'http://localhost:8123', requestStreams: false });
  const qc: web.QueryClient = web.createQueryClient({ url: 'http://localhost:8123' });
  const ins: web.InsertResult = await web.insert(qc, 't', [{ n: 1 }]);
  const cols: chwire.ColumnsResult = await chwire.fetchColumns(chwire.createQueryClient(), 'SELECT 1');
  // @ts-expect-error: a query client has no insert method (the function insert takes it)
  void qc.insert;
  void wc; void row; void params; void ins; void cols;
  return n.length;
}
// @ts-expect-error: createClient takes an options object
chwire.createClient(42);
const t: codec.TypeNode = codec.parseType('UInt8');
export const printed: string = codec.printType(t);
export const err: chwire.ChwireError = new codec.ChwireConfigError('x');
`;
}

const CHECK_SCRIPT = `
const ts = require(${JSON.stringify(join(ROOT, 'node_modules', 'typescript'))});
const path = require('node:path');
const fs = require('node:fs');
const project = process.argv[2];
const entries = JSON.parse(process.argv[3]);
const projects = {
  commonjs: { dir: 'p-commonjs', file: 'index.ts', type: 'commonjs', options: { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10 } },
  'node16-cjs': { dir: 'p-node16-cjs', file: 'index.cts', type: 'module', options: { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 } },
  'node16-esm': { dir: 'p-node16-esm', file: 'index.mts', type: 'commonjs', options: { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 } },
  bundler: { dir: 'p-bundler', file: 'index.ts', type: 'module', options: { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler } },
};
// How TypeScript (and Node) read a declaration file: .d.mts ESM, .d.cts CommonJS, .d.ts by the
// nearest package.json's "type".
function formatOf(file) {
  if (file.endsWith('.d.mts')) return 'esm';
  if (file.endsWith('.d.cts')) return 'cjs';
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const pj = path.join(dir, 'package.json');
    if (fs.existsSync(pj)) return JSON.parse(fs.readFileSync(pj, 'utf8')).type === 'module' ? 'esm' : 'cjs';
    if (path.dirname(dir) === dir) return 'cjs';
  }
}
const out = {};
for (const [name, p] of Object.entries(projects)) {
  const dir = path.join(project, p.dir);
  const options = { ...p.options, target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts'], strict: true, noEmit: true, types: ['node'], esModuleInterop: true };
  const file = path.join(dir, p.file);
  const host = ts.createCompilerHost(options);
  const program = ts.createProgram([file], options, host);
  const diags = ts.getPreEmitDiagnostics(program).map((d) => (d.file ? path.relative(project, d.file.fileName) + ': ' : '') + ts.flattenDiagnosticMessageText(d.messageText, '\\n'));
  // What each entry resolves to from this file, and in which module system TypeScript reads it.
  const mode = program.getSourceFile(file).impliedNodeFormat;
  const resolved = {};
  for (const e of entries) {
    const r = ts.resolveModuleName(e, file, options, host, undefined, undefined, name === 'commonjs' ? undefined : mode).resolvedModule;
    if (r === undefined) { resolved[e] = null; continue; }
    resolved[e] = { file: path.relative(path.join(project, 'node_modules', 'chwire'), r.resolvedFileName), format: formatOf(r.resolvedFileName) };
  }
  out[name] = { diags, resolved };
}
console.log(JSON.stringify(out));
`;

function writeProjects(): void {
  const put = (dir: string, type: string, file: string, text: string): void => {
    mkdirSync(join(project, dir), { recursive: true });
    writeFileSync(join(project, dir, 'package.json'), JSON.stringify({ type }));
    writeFileSync(join(project, dir, file), text);
  };
  put('p-commonjs', 'commonjs', 'index.ts', consumer('cjs'));
  put('p-node16-cjs', 'module', 'index.cts', consumer('cjs'));
  put('p-node16-esm', 'commonjs', 'index.mts', consumer('esm'));
  put('p-bundler', 'module', 'index.ts', consumer('esm'));
  writeFileSync(join(project, 'check.cjs'), CHECK_SCRIPT);
}

/** What Node itself loads for `entry` under require and under import, relative to the package. */
function nodeTargets(entry: string): { require: string; import: string } {
  writeFileSync(join(project, 'targets.mjs'), [
    "import { createRequire } from 'node:module';",
    "import { join, relative } from 'node:path';",
    "import { fileURLToPath } from 'node:url';",
    "const base = join(process.cwd(), 'node_modules', 'chwire');",
    "const e = process.argv[2];",
    "console.log(JSON.stringify({ require: relative(base, createRequire(import.meta.url).resolve(e)), import: relative(base, fileURLToPath(import.meta.resolve(e))) }));",
  ].join('\n'));
  return JSON.parse(spawn(process.execPath, [join(project, 'targets.mjs'), entry]).stdout) as { require: string; import: string };
}

for (const major of [...new Set([THIS, '26'])]) {
  test(`TypeScript projects (commonjs, node16 CJS, node16 ESM, bundler) type-check against the packed package, checked under Node ${major}; declarations match what Node loads`, { skip: NODES[major] === undefined ? `no node${major}` : false }, () => {
    writeProjects();
    const res = spawn(NODES[major]!, [join(project, 'check.cjs'), project, JSON.stringify(ENTRIES)]);
    const got = JSON.parse(res.stdout) as Record<string, { diags: string[]; resolved: Record<string, { file: string; format: string } | null> }>;
    for (const [name, r] of Object.entries(got)) {
      assert.deepEqual(r.diags, [], `${name}: type errors`);
      for (const e of ENTRIES) {
        const t = r.resolved[e];
        assert.ok(t !== null && t !== undefined, `${name}: no declarations for ${e}`);
        const system = name === 'node16-esm' || name === 'bundler' ? 'import' : 'require';
        const js = nodeTargets(e)[system];
        // The declarations describe the very module Node loads, in the same module system.
        assert.equal(t.file, js.replace(/\.js$/, '.d.ts'), `${name}: ${e} types ${t.file}, Node loads ${js}`);
        if (name !== 'commonjs' && name !== 'bundler') assert.equal(t.format, system === 'import' ? 'esm' : 'cjs', `${name}: ${e} declarations read as ${t.format}`);
      }
    }
  });
}
