// npm run official-suites -- <checkout> <server-url> [--suite NAME] [--grep TEXT] [--keep DIR] [--chwire DIR …]
// Runs the official client's own test suites (a checkout of ClickHouse/clickhouse-js kept outside
// this project, its dependencies installed and `npm run build` done) twice against one server: once
// with the official client (the repository's own `dist` aliases), once with `@clickhouse/client`,
// `@clickhouse/client-common` and the repository's internal `@clickhouse/client-node` aliased to
// this project's built chwire/compat (and `@clickhouse/client-web` to chwire/compat/web). Prints, per suite, the tests that pass with the official
// client and fail with compat (with compat's first error line), and the counts. --chwire names
// another built chwire to alias (a folder holding dist/src/compat.js, e.g. an older commit's
// build); given more than once, the official run is shared and each build is reported in turn.
// The suites address their server as http://127.0.0.1:8123 (or the client's default, localhost:8123):
// unless <server-url> is that, this script forwards 127.0.0.1:8123 to <server-url> while it runs,
// byte for byte (a TCP relay), and refuses to start when that port is taken.
// Invariant: nothing of the checkout is copied into this project; the run writes only to a
// temporary folder (its vitest config and JSON reports), which --keep names instead.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const SUITES: Readonly<Record<string, string>> = {
  'oss-dependents': 'packages/client-node/__tests__/oss-dependents/*.test.ts',
  'common-integration': 'packages/client-common/__tests__/integration/*.test.ts',
  'node-integration': 'packages/client-node/__tests__/integration/*.test.ts',
};

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    suite: { type: 'string', multiple: true },
    grep: { type: 'string' },
    keep: { type: 'string' },
    chwire: { type: 'string', multiple: true },
    // With --keep: a report already in that folder (same suite, same target position) is read, not rerun.
    reuse: { type: 'boolean', default: false },
    'test-timeout': { type: 'string', default: '60000' },
  },
});
const [checkoutArg, serverArg] = positionals;
if (checkoutArg === undefined || serverArg === undefined) {
  console.error('usage: node dist/scripts/official-suites.js <clickhouse-js checkout> <server url> [--suite oss-dependents|common-integration|node-integration] [--grep TEXT] [--keep DIR]');
  process.exit(2);
}
const checkout = resolve(checkoutArg);
const server = new URL(serverArg);
const project = fileURLToPath(new URL('../..', import.meta.url));
const builds = (values.chwire ?? [project]).map((d) => resolve(d));
const compatEntry = (build: string): string => join(build, 'dist/src/compat.js');
const compatWebEntry = (build: string): string => join(build, 'dist/src/compat-web.js');
const vitestBin = join(checkout, 'node_modules/vitest/vitest.mjs');
for (const [what, path] of [['the checkout\'s vitest (npm ci in the checkout)', vitestBin], ['the official client\'s build (npm run build in the checkout)', join(checkout, 'packages/client-node/dist/index.js')], ...builds.map((b) => ['chwire\'s build (npm run build there)', compatEntry(b)] as const)] as const) {
  if (!existsSync(path)) {
    console.error(`missing ${what}: ${path}`);
    process.exit(2);
  }
}
const theirs = JSON.parse(readFileSync(join(checkout, 'packages/client-node/package.json'), 'utf8')) as { version: string };
const ours = JSON.parse(readFileSync(join(project, 'node_modules/@clickhouse/client/package.json'), 'utf8')) as { version: string };
if (theirs.version !== ours.version) console.warn(`note: the checkout is @clickhouse/client ${theirs.version}; this project's devDependency is ${ours.version}`);

const suites = values.suite ?? Object.keys(SUITES);
for (const s of suites) if (SUITES[s] === undefined) throw new Error(`unknown suite ${s} (${Object.keys(SUITES).join(', ')})`);
const work = values.keep !== undefined ? resolve(values.keep) : mkdtempSync(join(tmpdir(), 'chwire-official-'));
mkdirSync(work, { recursive: true });

/** 'official', or the folder of a chwire build whose compat entry is aliased. */
type Target = string;

/** A vitest config (a plain object: it is loaded from outside the checkout, so it imports nothing). */
function configFor(target: Target, suite: string): string {
  const dist = join(checkout, 'packages/client-node/dist');
  const client = target === 'official' ? dist : compatEntry(target);
  const config = {
    root: checkout,
    test: {
      include: [SUITES[suite]],
      setupFiles: ['packages/client-node/vitest.setup.ts'],
      maxWorkers: 3,
      testTimeout: Number(values['test-timeout']),
      hookTimeout: Number(values['test-timeout']),
      ...(values.grep !== undefined ? { testNamePattern: values.grep } : {}),
    },
    resolve: {
      alias: {
        '@clickhouse/client-common': client,
        '@clickhouse/client-node': client,
        '@clickhouse/client': client,
        // The web client (hyperdx's browser path runs under Node too): chwire/compat/web, where the build has it.
        ...(target !== 'official' && existsSync(compatWebEntry(target)) ? { '@clickhouse/client-web': compatWebEntry(target) } : {}),
        '@test': join(checkout, 'packages/client-common/__tests__'),
      },
    },
  };
  const file = join(work, `vitest.${label(target)}.${suite}.config.mjs`);
  writeFileSync(file, `export default ${JSON.stringify(config, null, 2)};\n`);
  return file;
}

interface Assertion { fullName: string; status: string; failureMessages?: string[] }
interface Report { testResults: { name: string; message?: string; assertionResults: Assertion[] }[] }

async function run(target: Target, suite: string): Promise<Map<string, Assertion>> {
  const out = join(work, `report.${label(target)}.${suite}.json`);
  if (values.reuse && values.keep !== undefined && existsSync(out)) return readReport(out);
  rmSync(out, { force: true });
  const child = spawn(process.execPath, [vitestBin, 'run', '--config', configFor(target, suite), '--reporter=json', `--outputFile=${out}`], {
    cwd: checkout,
    env: { ...process.env, TEST_MODE: 'integration', TEST_TARGET: 'dist', CLICKHOUSE_TEST_ENVIRONMENT: 'local_single_node' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => { if (stderr.length < 20_000) stderr += c.toString('utf8'); });
  await once(child, 'close');
  if (!existsSync(out)) throw new Error(`vitest wrote no report for ${target}/${suite}:\n${stderr}`);
  return readReport(out);
}

function readReport(out: string): Map<string, Assertion> {
  const report = JSON.parse(readFileSync(out, 'utf8')) as Report;
  const byName = new Map<string, Assertion>();
  for (const file of report.testResults) {
    const rel = file.name.startsWith(checkout) ? file.name.slice(checkout.length + 1) : file.name;
    if (file.assertionResults.length === 0) {
      // A file that failed to load: one entry, so its loss shows.
      byName.set(`${rel} › (file)`, { fullName: '(file)', status: 'failed', failureMessages: [file.message ?? ''] });
    }
    for (const a of file.assertionResults) byName.set(`${rel} › ${a.fullName}`, a);
  }
  return byName;
}

/** Relays 127.0.0.1:8123 to the server, unless the server is that address. */
async function relay(): Promise<(() => void) | undefined> {
  const host = server.hostname;
  const port = Number(server.port || (server.protocol === 'https:' ? 443 : 80));
  if ((host === '127.0.0.1' || host === 'localhost') && port === 8123) return undefined;
  if (server.protocol !== 'http:') throw new Error('the suites speak http:// to 127.0.0.1:8123: give an http:// server URL');
  const sockets = new Set<Socket>();
  const s = createServer((inbound) => {
    const outbound = createConnection({ host, port });
    sockets.add(inbound).add(outbound);
    const end = (): void => { inbound.destroy(); outbound.destroy(); sockets.delete(inbound); sockets.delete(outbound); };
    inbound.on('error', end).on('close', end);
    outbound.on('error', end).on('close', end);
    inbound.pipe(outbound);
    outbound.pipe(inbound);
  });
  s.listen(8123, '127.0.0.1');
  await once(s, 'listening');
  return () => { s.close(); for (const k of sockets) k.destroy(); };
}

function label(target: Target): string {
  return target === 'official' ? 'official' : `compat-${builds.indexOf(target)}`;
}

function firstLine(a: Assertion | undefined): string {
  if (a === undefined) return 'not run';
  const m = (a.failureMessages ?? [])[0] ?? a.status;
  return m.split('\n')[0]!.slice(0, 200);
}

const stopRelay = await relay();
let compatOnly = 0;
try {
  for (const suite of suites) {
    const official = await run('official', suite);
    const passed = [...official].filter(([, a]) => a.status === 'passed').map(([k]) => k);
    for (const build of builds) {
      const compat = await run(build, suite);
      const failing = passed.filter((k) => compat.get(k)?.status !== 'passed');
      const compatPassed = [...compat.values()].filter((a) => a.status === 'passed').length;
      if (build === builds[builds.length - 1]) compatOnly += failing.length;
      const which = builds.length > 1 ? ` [${build}]` : '';
      console.log(`\n## ${suite}${which}: ${official.size} tests; official passes ${passed.length}, compat passes ${compatPassed}; ${failing.length} pass with the official client and fail with compat`);
      for (const k of failing) console.log(`- ${k}\n    ${firstLine(compat.get(k))}`);
    }
  }
} finally {
  stopRelay?.();
  if (values.keep === undefined) rmSync(work, { recursive: true, force: true });
}
console.log(`\ncompat-only failures${builds.length > 1 ? ' (last build)' : ''}: ${compatOnly}`);
process.exitCode = compatOnly === 0 ? 0 : 1;
