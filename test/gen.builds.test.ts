// A `chwire gen` module in every build a team has, run against the embedded engine: tsc with
// outDir (module nodenext, with and without allowJs/checkJs), CommonJS TypeScript (module commonjs,
// and node16 in a CJS package), esbuild with `"sideEffects": false` in the app's package.json,
// Node's type stripping (Node 26) and tsx. Each app calls a generated query function and an insert
// function and prints the rows with the public precompiledHits(): the test asserts the engine's rows
// and that the module's precompiled decoder and insert encoders ran (hits), i.e. the registration
// survived the build. The CommonJS setups are built and run like the others, and must run on the
// package's CommonJS build: tsc emits require() calls, and a preload records that the modules Node
// loaded are dist/cjs's (the copy the module registers into is the copy the client looks up). A
// mixed setup (the module compiled to CommonJS, the app an ES module) checks that the ES build's
// client finds what the CommonJS copy registered (one registry per process).
//
// The generated file is used unchanged in every setup (byte-equal copies).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { main } from '../src/cli/main.js';
import { createClient } from '../src/index.js';

const run = promisify(execFile);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const ESBUILD = join(ROOT, 'node_modules', '.bin', 'esbuild');
const NODE26 = join(ROOT, '.ci', 'runtimes', 'node_modules', 'node26', 'bin', 'node');
const TSX = [process.env['CHWIRE_TEST_TSX'], join(ROOT, '.ci', 'runtimes', 'node_modules', '.bin', 'tsx')].find((p) => p !== undefined && p !== '' && existsSync(p));

const QUERY = "SELECT number AS id, concat('n', toString(number)) AS name, toDateTime(1700000000 + number, 'UTC') AS at, if(number % 2 = 0, NULL, number / 2) AS half FROM numbers({n:UInt32}) ORDER BY id";

/** The app, the same text in every setup (ESM syntax; tsc emits it as CommonJS where asked). */
function app(ext: string): string {
  return `
import { createClient, precompiledHits } from 'chwire';
import { firstRows, insertGenBuildT, type FirstRowsRow } from './db${ext}';

async function mainApp(): Promise<void> {
  const client = createClient({ url: 'chdb://' });
  await client.execute('CREATE TABLE gen_build_t (id UInt64, note String DEFAULT \\'d\\') ENGINE = Memory');
  const insertBefore = precompiledHits('native-insert');
  await insertGenBuildT(client, [{ id: 7 }]);
  await insertGenBuildT(client, [{ id: 8, note: 'x' }]);
  const insertHits = precompiledHits('native-insert') - insertBefore;
  const before = precompiledHits('rowbinary');
  const rows: FirstRowsRow[] = [...await firstRows(client, { n: 5 })];
  const hits = precompiledHits('rowbinary') - before;
  const table = await client.fetch('SELECT id, note FROM gen_build_t ORDER BY id');
  await client.close();
  process.stdout.write(JSON.stringify({ hits, insertHits, rows, table }, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() + 'n' : v)));
}
void mainApp();
`;
}

interface Setup {
  readonly name: string;
  /** The app package's "type" (undefined: CommonJS). */
  readonly type?: 'module';
  readonly sideEffects?: false;
  /** Import specifier extension of the app's import of the module. */
  readonly ext: '.js' | '.ts';
  /** Build steps (each an argv run in the app dir), then the command that runs the app. */
  readonly build: (dir: string) => string[][];
  readonly run: (dir: string) => string[];
  readonly tsconfig?: Record<string, unknown>;
  /**
   * `app`: a CommonJS app, which must load only chwire's CommonJS build (require conditions,
   * dist/cjs). `module`: the generated module is CommonJS (it registers in dist/cjs's copy) while
   * the app is an ES module (its client is dist/src's copy, which must find those registrations).
   */
  readonly cjs?: 'app' | 'module';
  /** The app's file name (default app.ts). */
  readonly appFile?: 'app.mts';
  readonly skip?: () => string | false;
}

const STRICT = { strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, skipLibCheck: true, target: 'es2022', rootDir: '.', outDir: 'out', types: ['node'] };

/**
 * Preloaded (`node -r`) into the CommonJS apps: on exit, writes to stderr which of chwire's files
 * Node loaded through require() (relative to the package), so the test sees the CommonJS copy ran.
 */
const CJS_PROBE = `
'use strict';
const { realpathSync } = require('node:fs');
const root = realpathSync(require('node:path').join(process.cwd(), 'node_modules', 'chwire')) + '/';
const app = realpathSync(process.cwd()) + '/';
process.on('exit', () => {
  // (The test's app directories lie inside the package's dist/: the app's own files are not chwire's;
  // nor are the package's own dependencies, such as chdb, under its node_modules/.)
  const files = Object.keys(require.cache).filter((f) => f.startsWith(root) && !f.startsWith(app) && !f.startsWith(root + 'node_modules/')).map((f) => f.slice(root.length)).sort();
  process.stderr.write(JSON.stringify({ required: files }));
});
`;

const tsc = (): string[] => [process.execPath, TSC, '-p', 'tsconfig.json'];
const SETUPS: Setup[] = [
  { name: 'tsc outDir, module nodenext', type: 'module', ext: '.js', tsconfig: { ...STRICT, module: 'nodenext', moduleResolution: 'nodenext' }, build: () => [tsc()], run: () => [process.execPath, 'out/app.js'] },
  { name: 'tsc outDir, nodenext, allowJs + checkJs', type: 'module', ext: '.js', tsconfig: { ...STRICT, module: 'nodenext', moduleResolution: 'nodenext', allowJs: true, checkJs: true }, build: () => [tsc()], run: () => [process.execPath, 'out/app.js'] },
  { name: 'tsc outDir, module commonjs (CJS package)', cjs: 'app', ext: '.js', tsconfig: { ...STRICT, module: 'commonjs', moduleResolution: 'node10' }, build: () => [tsc()], run: () => [process.execPath, '-r', './probe.cjs', 'out/app.js'] },
  { name: 'tsc outDir, module node16 (CJS package)', cjs: 'app', ext: '.js', tsconfig: { ...STRICT, module: 'node16', moduleResolution: 'node16' }, build: () => [tsc()], run: () => [process.execPath, '-r', './probe.cjs', 'out/app.js'] },
  {
    name: 'tsc outDir, node16 in a CJS package, an ES module app (app.mts) importing the CommonJS module', cjs: 'module', appFile: 'app.mts', ext: '.js',
    tsconfig: { ...STRICT, module: 'node16', moduleResolution: 'node16' }, build: () => [tsc()], run: () => [process.execPath, '-r', './probe.cjs', 'out/app.mjs'],
  },
  {
    name: 'esbuild bundle, "sideEffects": false', type: 'module', sideEffects: false, ext: '.js',
    build: () => [[ESBUILD, 'app.ts', '--bundle', '--platform=node', '--format=esm', '--outfile=out/app.mjs', '--external:chwire', '--external:chwire/*', '--log-level=warning']],
    run: () => [process.execPath, 'out/app.mjs'],
  },
  { name: 'Node 26 type stripping', type: 'module', ext: '.ts', build: () => [], run: () => [NODE26, 'app.ts'], skip: () => (existsSync(NODE26) ? false : `${NODE26} is missing (npm run runtimes)`) },
  { name: 'tsx', type: 'module', ext: '.js', build: () => [], run: () => [TSX!, 'app.ts'], skip: () => (TSX !== undefined ? false : 'tsx is not installed: set CHWIRE_TEST_TSX to its bin (npm i tsx), it is not a dependency of chwire') },
];

test('a chwire gen module builds unchanged in every setup and its precompiled decoders run', { timeout: 600_000 }, async (t) => {
  const base = join(ROOT, 'dist', 'gen-test', `builds-${process.pid}-${Date.now().toString(36)}`);
  mkdirSync(base, { recursive: true });
  const client = createClient({ url: 'chdb://' });
  try {
    await client.execute('DROP TABLE IF EXISTS gen_build_t');
    await client.execute("CREATE TABLE gen_build_t (id UInt64, note String DEFAULT 'd') ENGINE = Memory");
    let err = '';
    const code = await main(['gen', '--url', 'chdb://', '--table', 'gen_build_t', '--query', `firstRows=${QUERY}`, '--out', join(base, 'db.ts')], {
      stdout: { write: () => true }, stderr: { write: (s: string) => { err += s; return true; } }, env: {},
    });
    assert.equal(code, 0, err);
    const moduleText = readFileSync(join(base, 'db.ts'), 'utf8');
    const want = JSON.parse(JSON.stringify(await client.fetch(QUERY.replace('{n:UInt32}', '5')), (_k, v: unknown) => (typeof v === 'bigint' ? `${v.toString()}n` : v))) as unknown;

    for (const s of SETUPS) {
      await t.test(s.name, { skip: s.skip?.() ?? false }, async () => {
        const dir = join(base, s.name.replace(/[^A-Za-z0-9]+/g, '-'));
        mkdirSync(join(dir, 'node_modules'), { recursive: true });
        symlinkSync(ROOT, join(dir, 'node_modules', 'chwire'), 'dir');
        writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', private: true, ...(s.type === undefined ? {} : { type: s.type }), ...(s.sideEffects === undefined ? {} : { sideEffects: s.sideEffects }) }));
        writeFileSync(join(dir, 'db.ts'), moduleText);
        const appFile = s.appFile ?? 'app.ts';
        writeFileSync(join(dir, appFile), app(s.ext));
        if (s.tsconfig !== undefined) writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: s.tsconfig, include: [appFile, 'db.ts'] }));
        if (s.cjs !== undefined) writeFileSync(join(dir, 'probe.cjs'), CJS_PROBE);
        for (const argv of s.build(dir)) {
          try {
            await run(argv[0]!, argv.slice(1), { cwd: dir });
          } catch (e) {
            const x = e as { stdout?: string; stderr?: string; message: string };
            assert.fail(`${s.name}: ${argv.slice(0, 3).join(' ')} failed:\n${x.stdout ?? ''}${x.stderr ?? x.message}`);
          }
        }
        if (s.cjs !== undefined) {
          // tsc emitted CommonJS: the module (and a CommonJS app) require() the package, never import it.
          const emitted = readFileSync(join(dir, 'out', 'db.js'), 'utf8') + (s.cjs === 'app' ? readFileSync(join(dir, 'out', 'app.js'), 'utf8') : '');
          assert.match(emitted, s.cjs === 'app' ? /require\("chwire"\)/ : /require\("chwire\/codec"\)/);
          assert.match(emitted, /require\("chwire\/codec"\)/);
          assert.doesNotMatch(emitted, /\bimport\(|^import /m);
        }
        const argv = s.run(dir);
        let r: { stdout: string; stderr: string };
        try {
          r = await run(argv[0]!, argv.slice(1), { cwd: dir });
        } catch (e) {
          const x = e as { stderr?: string; message: string };
          assert.fail(`${s.name}: running the app failed:\n${x.stderr ?? x.message}`);
        }
        const got = JSON.parse(r.stdout) as { hits: number; insertHits: number; rows: unknown; table: unknown };
        assert.deepEqual(got.rows, want, 'the engine\'s rows');
        assert.equal(got.hits, 1, 'the module\'s precompiled decoder must have decoded the result (its registration survived the build)');
        assert.deepEqual(got.table, [{ id: '7n', note: 'd' }, { id: '8n', note: 'x' }], 'insert<Table>() with a DEFAULT column left out');
        assert.equal(got.insertHits, 2, 'both inserts (with and without the DEFAULT column) must encode with the module\'s precompiled encoders');
        if (s.cjs !== undefined) {
          const { required } = JSON.parse(r.stderr) as { required: string[] };
          for (const f of ['dist/cjs/codec.js', 'dist/cjs/codegen/precompiled.js', ...(s.cjs === 'app' ? ['dist/cjs/index.js'] : [])]) {
            assert.ok(required.includes(f), `${s.name}: ${f} was not required (loaded: ${required.slice(0, 5).join(', ')}…)`);
          }
          assert.deepEqual(required.filter((f) => !f.startsWith('dist/cjs/')), [], `${s.name}: only chwire's CommonJS build is required`);
          // The ES module app's client is the ES build's: the hits above prove it found what the
          // CommonJS copy registered (one registry per process, whichever copy registers).
          if (s.cjs === 'module') assert.ok(!required.includes('dist/cjs/index.js'), `${s.name}: the app's client must be the ES build's`);
        }
      });
    }
  } finally {
    await client.execute('DROP TABLE IF EXISTS gen_build_t').catch(() => undefined);
    await client.close();
    rmSync(base, { recursive: true, force: true });
  }
});
