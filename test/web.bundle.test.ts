// chwire/web as a browser and edge bundle, built by esbuild from the compiled entry:
// - for `--platform=browser` (where a `node:` import or a Node-only package cannot resolve and
//   fails the build) with `@opentelemetry/api` made unresolvable, as in an app that does not
//   install it: the build must succeed and hold no import at all (a dangling
//   `import("@opentelemetry/api")` is what workerd refuses to load). A control shows the same
//   build of the Node entry fails;
// - the sizes (`--minify --bundle`, gzip level 9) of three apps, printed and held to their budgets:
//   (a) a read-only page (createQueryClient: fetch and stream), (b) a Worker that reads and
//   inserts (createQueryClient and the insert function), (c) that Worker on createClient; and
//   that (a) bundles no insert or columnar module and (b) no columnar one;
// - the same apps bundled with code splitting (`--splitting --format=esm`, as Vite, Rollup and
//   webpack do by default): the parts chwire loads on first use (client/lazy.ts: the Native and the
//   RowBinary reader, the query-parameter formatting, the insert path) become chunks of their own.
//   The size a page or Worker loads before its first query is its INITIAL chunks: the entry chunk
//   and every chunk it imports statically (not the dynamic `import()`s). Printed and held to
//   budgets: the initial chunks, the initial chunks plus what a first fetch on a current server
//   loads (the RowBinary reader's chunks), and the total of every chunk (each gzipped on its own,
//   as each is a request); the initial chunks hold no reader, no parameter formatting, no insert;
// - the split read page runs in Node against the 18.16 server (CHWIRE_TEST_HTTP_URL: Native, so it
//   loads the Native reader's chunk); with that chunk deleted its fetch is a ChwireConnectionError
//   naming the Native reader, and no query was sent; the split Worker runs in workerd (miniflare,
//   its chunks as modules) against the same server;
// - in that minified bundle every error class keeps its name (`e.name`), in Node and in workerd
//   (miniflare, with `scriptPath`, from .ci/runtimes; skipped where that is not installed).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const WEB = join(ROOT, 'dist', 'src', 'web.js');
const TMP = mkdtempSync(join(tmpdir(), 'chwire-bundle-'));
after(() => rmSync(TMP, { recursive: true, force: true }));

/**
 * Budgets in bytes, minified + gzipped: the sizes measured (Node 20, esbuild 0.28) plus about 5 %,
 * a regression guard. (a) and (b) use createQueryClient and the functions they call; (c) is the
 * whole Client of createClient, for reference. The goals, 30 kB for (a) and 35 kB for (b),
 * are not reached: what remains is the read path itself (two wire formats, generated and
 * interpreted decoders, the type parser, the transport, errors that say what went wrong), and since
 * issue 25 the insert path's value checks that query parameters run (+4.5 kB for (a));
 * docs/web.md "Bundle size" has the profile.
 */
// (b) and (c) grew by 5 kB gz with issue 26 (JSON rows written by column type, the server's Variant
// member order, Map keys read back from their text); (a) by 8.6 kB with issue 25 (parameter value
// checks, masking of every spelling, result bounds, redirect and format-header refusals); each by
// about 1.5 kB with issue 28, when the parts loaded on first use became modules an unsplit bundle
// initialises lazily (the split sizes below are what issue 28 brought down); each by about 2 kB with
// issue 32 (held-memory bounds and ceilings, reading what a fetch runtime decoded, per-call settings guard).
const BUDGET = { read: 73_000, worker: 96_000, full: 102_500 } as const;

/**
 * Budgets of the split bundles (bytes gzipped, each chunk on its own; measured + about 4 %):
 * `initial` is what the app loads before its first query, `firstFetch` that plus the RowBinary
 * reader a first fetch on a server of 20.1 or later loads, `total` every chunk. Issue 28's goals,
 * 40 kB for (a) and 55 kB for (b), are for `initial`.
 */
const SPLIT_BUDGET = {
  read: { initial: 40_000, firstFetch: 64_000, total: 105_000 },
  worker: { initial: 40_200, firstFetch: 64_200, total: 105_300 },
} as const;
/** (b) once it has fetched (RowBinary) and inserted: every chunk it has loaded then. */
const SPLIT_WORKER_WITH_INSERT = 92_000;

/** `@opentelemetry/api` as in an app that does not install it: any import of it fails the build. */
const noOtel: Plugin = {
  name: 'no-opentelemetry',
  setup(b) {
    b.onResolve({ filter: /^@opentelemetry\// }, (a) => ({ errors: [{ text: `${a.path} is not installed in this app` }] }));
  },
};

/** `inputs`: every module the bundler visited; `kept`: those with code in the output (the rest were tree-shaken). */
async function bundle(entry: { path: string } | { contents: string }, minify: boolean): Promise<{ code: string; inputs: string[]; kept: string[]; imports: string[] }> {
  const r = await build({
    ...('path' in entry ? { entryPoints: [entry.path] } : { stdin: { contents: entry.contents, resolveDir: TMP, loader: 'js' as const } }),
    bundle: true, minify, platform: 'browser', format: 'esm', target: 'es2022',
    plugins: [noOtel], write: false, metafile: true, logLevel: 'silent',
  });
  const out = Object.values(r.metafile.outputs)[0]!;
  return { code: r.outputFiles[0]!.text, inputs: Object.keys(r.metafile.inputs), kept: Object.entries(out.inputs).filter(([, v]) => v.bytesInOutput > 0).map(([k]) => k), imports: out.imports.map((i) => `${i.kind} ${i.path}`) };
}

const gz = (code: string): number => gzipSync(code, { level: 9 }).length;

interface SplitChunk { file: string; code: string; gz: number; modules: string[]; imports: string[]; dynamic: string[] }

/** The app bundled with code splitting into `outdir` (written there when `write`), chunk by chunk. */
async function splitBundle(contents: string, outdir: string, write = false): Promise<{ chunks: Map<string, SplitChunk>; initial: Set<string>; closure: (file: string) => Set<string> }> {
  const r = await build({
    stdin: { contents, resolveDir: TMP, loader: 'js', sourcefile: 'app.js' }, bundle: true, minify: true, splitting: true, outdir, entryNames: 'app',
    platform: 'browser', format: 'esm', target: 'es2022', plugins: [noOtel], write: false, metafile: true, logLevel: 'silent',
  });
  const chunks = new Map<string, SplitChunk>();
  const base = (p: string): string => p.replace(/^.*\//, '');
  for (const f of r.outputFiles) {
    if (write) { mkdirSync(outdir, { recursive: true }); writeFileSync(f.path, f.text); }
    const meta = Object.entries(r.metafile.outputs).find(([k]) => base(k) === base(f.path))![1];
    chunks.set(base(f.path), {
      file: base(f.path), code: f.text, gz: gz(f.text),
      modules: Object.entries(meta.inputs).filter(([, v]) => v.bytesInOutput > 0).map(([k]) => k.replace(/^.*dist\/src\//, '')),
      imports: meta.imports.filter((i) => i.kind === 'import-statement').map((i) => base(i.path)),
      dynamic: meta.imports.filter((i) => i.kind === 'dynamic-import').map((i) => base(i.path)),
    });
  }
  const closure = (file: string, seen = new Set<string>()): Set<string> => {
    if (!seen.has(file)) { seen.add(file); for (const i of chunks.get(file)!.imports) closure(i, seen); }
    return seen;
  };
  return { chunks, initial: closure('app.js'), closure };
}

/** (a) a page that only reads: fetch and stream. */
const READ_APP = `
import { createQueryClient } from ${JSON.stringify(WEB)};
const client = createQueryClient({ url: location.origin });
export async function load() {
  const top = await client.fetch('SELECT 1 AS x');
  const all = [];
  for await (const row of client.stream('SELECT number AS n FROM numbers(10)')) all.push(row);
  return [top, all];
}`;

/** (b) a Worker that reads and inserts. */
const WORKER_APP = `
import { createQueryClient, insert } from ${JSON.stringify(WEB)};
export default {
  async fetch(request, env) {
    const client = createQueryClient({ url: env.CLICKHOUSE_URL });
    const rows = await client.fetch('SELECT 1 AS x');
    await insert(client, 'events', [{ id: 1, name: 'a' }]);
    return new Response(JSON.stringify(rows));
  },
};`;

/** (c) the same Worker on the whole client (every call a method). */
const FULL_APP = `
import { createClient } from ${JSON.stringify(WEB)};
export default {
  async fetch(request, env) {
    const client = createClient({ url: env.CLICKHOUSE_URL });
    const rows = await client.fetch('SELECT 1 AS x');
    await client.insert('events', [{ id: 1, name: 'a' }]);
    return new Response(JSON.stringify(rows));
  },
};`;

const APPS = [['read', READ_APP], ['worker', WORKER_APP], ['full', FULL_APP]] as const;

test('chwire/web bundles for the browser with nothing from Node, no @opentelemetry/api, and no import left', async () => {
  const { inputs, imports } = await bundle({ path: WEB }, true);
  assert.deepEqual(inputs.filter((i) => i.startsWith('node:') || i.includes('node_modules')), [], 'Node modules or packages in the bundle');
  assert.ok(inputs.some((i) => i.endsWith('dist/src/transport/fetch.js')) && inputs.some((i) => i.endsWith('dist/src/client/client.js')), 'the bundle must hold the client and the fetch transport');
  // A single file that imports nothing: loads in workerd with scriptPath, in a page, anywhere.
  assert.deepEqual(imports, [], 'the bundle still imports a module');
});

test('bundle sizes: (a) a read-only page and (b) a Worker that reads and inserts, within budget; (c) the whole client for reference', async () => {
  const sizes: Record<string, { min: number; gz: number }> = {};
  for (const [name, contents] of APPS) {
    const { code } = await bundle({ contents }, true);
    sizes[name] = { min: code.length, gz: gz(code) };
  }
  const kB = (n: number): string => (n / 1000).toFixed(1);
  console.log(`# chwire/web bundles (esbuild --minify --bundle, gzip -9): (a) read-only page ${kB(sizes.read!.min)} kB min, ${kB(sizes.read!.gz)} kB gz; (b) Worker read+insert ${kB(sizes.worker!.min)} kB min, ${kB(sizes.worker!.gz)} kB gz; (c) the same Worker on createClient ${kB(sizes.full!.min)} kB min, ${kB(sizes.full!.gz)} kB gz`);
  for (const [name] of APPS) assert.ok(sizes[name]!.gz <= BUDGET[name], `(${name}) is ${sizes[name]!.gz} B, over its budget of ${BUDGET[name]} B`);
  // The README's figures stay current: within 10 % of what was just measured.
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  for (const [name, words] of [['read', 'a page that only reads'], ['worker', 'a Worker that reads and inserts']] as const) {
    const quoted = new RegExp(`${words}[^\\n]*?(\\d+(?:\\.\\d+)?) kB`).exec(readme);
    assert.ok(quoted !== null, `README must quote the size of ${words} ("${words} … NN.N kB")`);
    assert.ok(Math.abs(Number(quoted[1]) * 1000 - sizes[name]!.gz) / sizes[name]!.gz < 0.1, `README quotes ${quoted[1]} kB for ${words}, measured ${kB(sizes[name]!.gz)} kB`);
  }
});

test('split bundles: what (a) and (b) load before their first query, with a first fetch, and in all, within budget; the initial chunks hold no reader, parameter formatting or insert', async () => {
  const kB = (n: number): string => (n / 1000).toFixed(1);
  const lines: string[] = [];
  for (const [name, contents] of [['read', READ_APP], ['worker', WORKER_APP]] as const) {
    const { chunks, initial, closure } = await splitBundle(contents, join(TMP, `split-${name}`));
    const sum = (files: Iterable<string>): number => [...files].reduce((a, f) => a + chunks.get(f)!.gz, 0);
    const entry = (module: string): string => [...chunks.values()].find((c) => c.modules.includes(module))?.file ?? assert.fail(`no chunk holds ${module}`);
    const rowBinary = entry('rowbinary/decode.js');
    const sizes = { initial: sum(initial), firstFetch: sum(new Set([...initial, ...closure(rowBinary)])), total: sum(chunks.keys()) };
    lines.push(`(${name}) initial ${kB(sizes.initial)} kB gz in ${initial.size} chunks, with a first fetch ${kB(sizes.firstFetch)} kB, all ${chunks.size} chunks ${kB(sizes.total)} kB`);
    for (const k of ['initial', 'firstFetch', 'total'] as const) assert.ok(sizes[k] <= SPLIT_BUDGET[name][k], `(${name}) split ${k} is ${sizes[k]} B, over its budget of ${SPLIT_BUDGET[name][k]} B`);
    const initialModules = [...initial].flatMap((f) => chunks.get(f)!.modules);
    const lazy = initialModules.filter((m) => m.startsWith('native/') || m.startsWith('rowbinary/') || /^client\/(insert\/(?!insert-call)|sql\/(params|value-check|chunk-)|read\/chunk-)/.test(m) || m.startsWith('convert/encode-values'));
    assert.deepEqual(lazy, [], `(${name}) the initial chunks hold parts loaded on first use`);
    // The control: those parts are in the bundle, in chunks of their own.
    assert.ok([...chunks.values()].some((c) => c.modules.includes('native/read/row-decoder.js')) && [...chunks.values()].some((c) => c.modules.includes('client/sql/params.js')), `(${name}) the lazy parts must be bundled`);
    if (name === 'worker') {
      assert.ok([...chunks.values()].some((c) => c.modules.includes('native/write/encoder.js') && !initial.has(c.file)), 'the Worker must hold the insert encoders in a chunk loaded on first insert');
      // A first fetch (RowBinary) and a first insert: the insert path brings no Native reader.
      const both = new Set([...initial, ...closure(rowBinary), ...closure(entry('client/insert/insert.js'))]);
      assert.deepEqual([...both].filter((f) => chunks.get(f)!.modules.some((m) => m.startsWith('native/read/'))), [], 'the insert path loads the Native reader');
      lines.push(`(worker) with a first fetch and a first insert ${kB(sum(both))} kB`);
      assert.ok(sum(both) <= SPLIT_WORKER_WITH_INSERT, `(worker) split with a first fetch and a first insert is ${sum(both)} B, over its budget of ${SPLIT_WORKER_WITH_INSERT} B`);
    }
  }
  console.log(`# chwire/web split bundles (esbuild --splitting --minify, each chunk gzip -9): ${lines.join('; ')}`);
});

/** The read page on a given server URL, run where it is written (Node, workerd). */
const SPLIT_READ_APP = `
import { createQueryClient, ChwireError } from ${JSON.stringify(WEB)};
export async function read(url) {
  const client = createQueryClient({ url, retry: false });
  try {
    const top = await client.fetch('SELECT toUInt8(1) AS x, toString(number) AS s FROM system.numbers LIMIT 2');
    const all = [];
    for await (const row of client.stream('SELECT number AS n FROM system.numbers LIMIT 3')) all.push(row);
    return JSON.parse(JSON.stringify({ top, all }, (k, v) => typeof v === 'bigint' ? String(v) : v));
  } catch (e) {
    return { error: e instanceof ChwireError ? e.name + ': ' + e.message : String(e) };
  } finally {
    await client.close();
  }
}
export default { async fetch(request) { return new Response(JSON.stringify(await read(new URL(request.url).searchParams.get('url')))); } };`;

const SERVER_URL = process.env['CHWIRE_TEST_HTTP_URL'];
const WANT_ROWS = { top: [{ x: 1, s: '0' }, { x: 1, s: '1' }], all: [{ n: '0' }, { n: '1' }, { n: '2' }] };

test('the split read page in Node against 18.16 loads the Native reader on first use; without its chunk the fetch is a ChwireConnectionError naming it', { skip: SERVER_URL === undefined ? 'CHWIRE_TEST_HTTP_URL is not set' : false }, async () => {
  const dir = join(TMP, 'split-node');
  const { chunks } = await splitBundle(SPLIT_READ_APP, dir, true);
  const { read } = (await import(pathToFileURL(join(dir, 'app.js')).href)) as { read: (url: string) => Promise<unknown> };
  assert.deepEqual(await read(SERVER_URL!), WANT_ROWS);
  // The same bundle without the Native reader's chunk (a fresh copy: Node caches loaded modules).
  const broken = join(TMP, 'split-node-broken');
  mkdirSync(broken);
  const nativeChunk = [...chunks.values()].find((c) => c.modules.includes('native/read/row-decoder.js'))!.file;
  for (const f of readdirSync(dir)) if (f !== nativeChunk) writeFileSync(join(broken, f), readFileSync(join(dir, f)));
  const { read: readBroken } = (await import(pathToFileURL(join(broken, 'app.js')).href)) as { read: (url: string) => Promise<unknown> };
  const got = (await readBroken(SERVER_URL!)) as { error?: string };
  assert.match(got.error ?? '', /^ChwireConnectionError: could not load the Native reader \(chunk-native-reader\), a part of chwire loaded on first use: /);
});

test('what a call does not use is not bundled: the read-only page holds no insert encoder and no columnar call; the Worker no columnar call', async () => {
  const inputsOf = async (app: string): Promise<string[]> => (await bundle({ contents: app }, true)).kept.map((i) => i.replace(/^.*dist\/src\//, ''));
  const read = await inputsOf(READ_APP);
  const worker = await inputsOf(WORKER_APP);
  const full = await inputsOf(FULL_APP);
  const insertModules = (l: string[]): string[] => l.filter((i) => i.startsWith('native/write/') || /^client\/insert/.test(i) || i === 'client/insert/table-schema.js');
  const columnModules = (l: string[]): string[] => l.filter((i) => /^client\/read\/(columns|column-stream|columns-call)\.js$/.test(i) || i === 'native/read/columns.js');
  assert.deepEqual(insertModules(read), [], 'insert modules in the read-only page');
  assert.deepEqual(columnModules(read), [], 'columnar modules in the read-only page');
  assert.deepEqual(columnModules(worker), [], 'columnar modules in the Worker');
  // The control: the Worker does hold the encoders, and the whole client every call.
  assert.ok(worker.includes('native/write/encoder.js') && worker.includes('client/insert/insert.js'), 'the Worker must hold the insert path');
  assert.ok(columnModules(full).length >= 3 && insertModules(full).length > 5, 'the whole client holds every call');
});

/** Builds one instance of each error class of a module's exports, by the class's own constructor. */
const MAKE_ERRORS = `
export function errorNames(m) {
  const made = {
    ChwireError: new m.ChwireError('CHWIRE_CONFIG', 'm'),
    ChwireTypeError: new m.ChwireTypeError('m', 'T', 0),
    ChwireDecodeError: new m.ChwireDecodeError('m', { offset: 0 }),
    ChwireEncodeError: new m.ChwireEncodeError('m', { column: 'c', row: 0, expected: 'x', value: 1 }),
    ChwireServerError: new m.ChwireServerError('m', { serverCode: 1 }),
    ChwireConnectionError: new m.ChwireConnectionError('m'),
    ChwireTimeoutError: new m.ChwireTimeoutError('m'),
    ChwireAbortError: new m.ChwireAbortError('m'),
    ChwireConfigError: new m.ChwireConfigError('m'),
    ChwireLimitError: new m.ChwireLimitError('m', { limit: 'maxResultBytes', bound: 1 }),
  };
  const names = Object.fromEntries(Object.entries(made).map(([k, e]) => [k, e.name]));
  let thrown;
  try { m.createClient({ compression: 'nope' }); } catch (e) { thrown = e.name; }
  let tracing;
  try { m.createClient({ tracing: true }); } catch (e) { tracing = e.name + ': ' + e.message; }
  // Renamed by the minifier? (the control: the test means something only if they were)
  const renamed = Object.entries(made).filter(([k, e]) => e.constructor.name !== k).length;
  return { names, thrown, tracing, renamed };
}`;

const EXPECTED_NAMES = Object.fromEntries(['ChwireError', 'ChwireTypeError', 'ChwireDecodeError', 'ChwireEncodeError', 'ChwireServerError',
  'ChwireConnectionError', 'ChwireTimeoutError', 'ChwireAbortError', 'ChwireConfigError', 'ChwireLimitError'].map((n) => [n, n]));

interface NamesResult { names: Record<string, string>; thrown: string; tracing: string; renamed: number }

function checkNames(got: NamesResult): void {
  assert.ok(got.renamed > 0, 'the minifier renamed no class: the check below proves nothing');
  assert.deepEqual(got.names, EXPECTED_NAMES);
  assert.equal(got.thrown, 'ChwireConfigError');
  // chwire/web looks up no global tracer: tracing: true names the way to pass one.
  assert.match(got.tracing, /^ChwireConfigError: option tracing needs a tracer here: pass tracing: \{ tracer/);
}

test('error classes keep their names in a minified bundle (Node)', async () => {
  const { code } = await bundle({ contents: `import * as m from ${JSON.stringify(WEB)};\n${MAKE_ERRORS}\nexport const result = errorNames(m);` }, true);
  const file = join(TMP, 'names.mjs');
  writeFileSync(file, code);
  const { result } = (await import(pathToFileURL(file).href)) as { result: NamesResult };
  checkNames(result);
});

const runtimes = createRequire(join(ROOT, '.ci', 'runtimes', 'package.json'));
const hasMiniflare = existsSync(join(ROOT, '.ci', 'runtimes', 'node_modules', 'miniflare'));

test('workerd (miniflare, scriptPath): the minified Worker bundle built without @opentelemetry/api loads, names its errors, and its fetch fails as ChwireConnectionError', { skip: hasMiniflare ? false : 'miniflare is not installed (npm run runtimes)' }, async () => {
  const { code } = await bundle({
    contents: `import * as m from ${JSON.stringify(WEB)};\n${MAKE_ERRORS}
export default { async fetch() {
  const out = errorNames(m);
  const client = m.createClient({ url: 'http://127.0.0.1:9', retry: false });
  try { await client.fetch('SELECT 1'); out.fetch = 'no error'; } catch (e) { out.fetch = e.name; }
  return new Response(JSON.stringify(out));
} };`,
  }, true);
  const scriptPath = join(TMP, 'worker.mjs');
  writeFileSync(scriptPath, code);
  interface Mf { dispatchFetch(url: string): Promise<{ text(): Promise<string>; status: number }>; dispose(): Promise<void> }
  const { Miniflare } = (await import(pathToFileURL(runtimes.resolve('miniflare')).href)) as { Miniflare: new (o: Record<string, unknown>) => Mf };
  const mf = new Miniflare({ modules: true, scriptPath, modulesRoot: TMP, compatibilityDate: '2025-06-01' });
  try {
    const res = await mf.dispatchFetch('http://bundle.local/');
    const text = await res.text();
    assert.equal(res.status, 200, text.slice(0, 2000));
    const got = JSON.parse(text) as NamesResult & { fetch: string };
    checkNames(got);
    assert.equal(got.fetch, 'ChwireConnectionError');
  } finally {
    await mf.dispose();
  }
});

test('workerd (miniflare): the split read page, its chunks as modules, reads from 18.16 through the Native reader loaded on first use', { skip: !hasMiniflare ? 'miniflare is not installed (npm run runtimes)' : SERVER_URL === undefined ? 'CHWIRE_TEST_HTTP_URL is not set' : false }, async () => {
  const dir = join(TMP, 'split-workerd');
  const { chunks } = await splitBundle(SPLIT_READ_APP, dir, true);
  const modules = ['app.js', ...[...chunks.keys()].filter((f) => f !== 'app.js')].map((f) => ({ type: 'ESModule', path: join(dir, f) }));
  interface Mf { dispatchFetch(url: string): Promise<{ text(): Promise<string>; status: number }>; dispose(): Promise<void> }
  const { Miniflare } = (await import(pathToFileURL(runtimes.resolve('miniflare')).href)) as { Miniflare: new (o: Record<string, unknown>) => Mf };
  const mf = new Miniflare({ modules, modulesRoot: dir, compatibilityDate: '2025-06-01' });
  try {
    const res = await mf.dispatchFetch(`http://split.local/?url=${encodeURIComponent(SERVER_URL!)}`);
    const text = await res.text();
    assert.equal(res.status, 200, text.slice(0, 2000));
    assert.deepEqual(JSON.parse(text), WANT_ROWS);
  } finally {
    await mf.dispose();
  }
});

test('the checker can fail: the Node entry does not bundle for the browser', async () => {
  await assert.rejects(bundle({ path: join(ROOT, 'dist', 'src', 'index.js') }, false), (e: Error) => /node:|opentelemetry/.test(e.message));
});

// chwire/compat/web: the same check as chwire/web's, and the size of a page on it beside the same
// page on the official @clickhouse/client-web (a devDependency, bundled from node_modules).
const COMPAT_WEB = join(ROOT, 'dist', 'src', 'compat-web.js');
const compatPage = (from: string): string => `
import { createClient } from ${JSON.stringify(from)};
const client = createClient({ url: location.origin });
export async function load() {
  const rs = await client.query({ query: 'SELECT 1 AS x', format: 'JSONEachRow' });
  await client.insert({ table: 't', values: [{ x: 1 }], format: 'JSONEachRow' });
  return rs.json();
}`;
/** Measured (Node 20, esbuild 0.28): 70.9 kB gz (the official client's page: 14.5 kB); a generous regression guard. */
const COMPAT_WEB_BUDGET = 80_000;

test('chwire/compat/web bundles for the browser with nothing from Node and no import left; its page size beside @clickhouse/client-web\'s', async () => {
  const { inputs, imports } = await bundle({ path: COMPAT_WEB }, true);
  assert.deepEqual(inputs.filter((i) => i.startsWith('node:') || i.includes('node_modules')), [], 'Node modules or packages in the bundle');
  assert.ok(inputs.some((i) => i.endsWith('dist/src/transport/fetch.js')) && inputs.some((i) => i.endsWith('dist/src/compat/web/client.js')), 'the bundle must hold the compat client and the fetch transport');
  assert.deepEqual(imports, [], 'the bundle still imports a module');
  const ours = gz((await bundle({ contents: compatPage(COMPAT_WEB) }, true)).code);
  const official = gz((await bundle({ contents: compatPage(createRequire(import.meta.url).resolve('@clickhouse/client-web')) }, true)).code);
  console.log(`# a page on chwire/compat/web: ${(ours / 1000).toFixed(1)} kB gz; the same page on @clickhouse/client-web 1.23.1: ${(official / 1000).toFixed(1)} kB gz`);
  assert.ok(ours <= COMPAT_WEB_BUDGET, `the chwire/compat/web page is ${ours} B, over its budget of ${COMPAT_WEB_BUDGET} B`);
});

test('the checker can fail: chwire/compat (Node) does not bundle for the browser', async () => {
  await assert.rejects(bundle({ path: join(ROOT, 'dist', 'src', 'compat.js') }, false), (e: Error) => /node:/.test(e.message));
});
