// A `chwire gen` module in every build a team has, run against the embedded engine: tsc with
// outDir (module nodenext, with and without allowJs/checkJs), CommonJS TypeScript (module commonjs,
// and node16 in a CJS package), esbuild with `"sideEffects": false` in the app's package.json,
// Node's type stripping (Node 26) and tsx. Each app calls a generated query function and an insert
// function and prints the rows with the public precompiledHits(): the test asserts the engine's rows
// and that the module's precompiled decoder and insert encoders ran (hits), i.e. the registration
// survived the build.
//
// The generated file is used unchanged in every setup (byte-equal copies).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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
  /** Why the run part cannot run here (the build still must pass), decided at run time. */
  readonly pending?: () => string | undefined;
  readonly skip?: () => string | false;
}

const STRICT = { strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, skipLibCheck: true, target: 'es2022', rootDir: '.', outDir: 'out', types: ['node'] };

/** `require('chwire')` from the app directory (CommonJS apps need the package's CJS entry). */
function cjsPending(dir: string): string | undefined {
  try {
    createRequire(join(dir, 'x.js')).resolve('chwire');
    return undefined;
  } catch {
    return "require('chwire') does not resolve yet (the package has no CommonJS entry on this branch): build checked, run pending";
  }
}

const tsc = (): string[] => [process.execPath, TSC, '-p', 'tsconfig.json'];
const SETUPS: Setup[] = [
  { name: 'tsc outDir, module nodenext', type: 'module', ext: '.js', tsconfig: { ...STRICT, module: 'nodenext', moduleResolution: 'nodenext' }, build: () => [tsc()], run: () => [process.execPath, 'out/app.js'] },
  { name: 'tsc outDir, nodenext, allowJs + checkJs', type: 'module', ext: '.js', tsconfig: { ...STRICT, module: 'nodenext', moduleResolution: 'nodenext', allowJs: true, checkJs: true }, build: () => [tsc()], run: () => [process.execPath, 'out/app.js'] },
  { name: 'tsc outDir, module commonjs (CJS package)', ext: '.js', tsconfig: { ...STRICT, module: 'commonjs', moduleResolution: 'node10' }, build: () => [tsc()], run: () => [process.execPath, 'out/app.js'] },
  { name: 'tsc outDir, module node16 (CJS package)', ext: '.js', tsconfig: { ...STRICT, module: 'node16', moduleResolution: 'node16' }, build: () => [tsc()], run: () => [process.execPath, 'out/app.js'] },
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
        writeFileSync(join(dir, 'app.ts'), app(s.ext));
        if (s.tsconfig !== undefined) writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: s.tsconfig, include: ['app.ts', 'db.ts'] }));
        // A CommonJS app needs the package's CommonJS entry (require('chwire')); without it, only
        // errors about resolving 'chwire' itself are tolerated (and reported), never one in the module.
        const pending = s.type === undefined ? cjsPending(dir) : undefined;
        for (const argv of s.build(dir)) {
          try {
            await run(argv[0]!, argv.slice(1), { cwd: dir });
          } catch (e) {
            const x = e as { stdout?: string; stderr?: string; message: string };
            const out = `${x.stdout ?? ''}${x.stderr ?? x.message}`;
            const errors = out.split('\n').filter((l) => /error TS\d+/.test(l));
            const aboutPackage = (l: string): boolean => /'chwire(\/codec)?'|"chwire(\/codec)?"/.test(l);
            if (pending !== undefined && errors.length > 0 && errors.every(aboutPackage)) {
              t.diagnostic(`${s.name}: ${pending}; tsc reports only the package's resolution: ${errors.map((l) => l.replace(/^.*error /, '')).join(' | ')}`);
              return;
            }
            assert.fail(`${s.name}: ${argv.slice(0, 3).join(' ')} failed:\n${out}`);
          }
        }
        if (pending !== undefined) {
          t.diagnostic(`${s.name}: ${pending}`);
          return;
        }
        const argv = s.run(dir);
        let r: { stdout: string };
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
      });
    }
  } finally {
    await client.execute('DROP TABLE IF EXISTS gen_build_t').catch(() => undefined);
    await client.close();
    rmSync(base, { recursive: true, force: true });
  }
});
