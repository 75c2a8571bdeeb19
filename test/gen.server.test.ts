// `chwire gen` against the real 18.16 server (CHWIRE_TEST_HTTP_URL), which answers in Native: the
// module it writes is used on every Native read path (fetch, stream, .batches()), proven by the
// public precompiledHits() in a process that refuses code generation (so nothing could have been
// compiled at run time); queries with {name:Type} placeholders (LIMIT included) are described on a
// server without defaultValueOfTypeName (18.16 cannot run them: query parameters need 19.11); `:one` returns one row; `{tbl:Identifier}` is refused
// with a message naming the query and the placeholder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { main } from '../src/cli/main.js';
import { REAL_URL, SKIP_REAL, realClient, uniqueName } from './support/ch-server.js';

const run = promisify(execFile);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

async function cli(args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: { write: (s: string) => { stdout += s; return true; } },
    stderr: { isTTY: false, write: (s: string) => { stderr += s; return true; } },
    env: {},
  });
  return { stdout, stderr, code };
}

const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (_, x: unknown) => (typeof x === 'bigint' ? `${x.toString()}n` : x)));

const RUNNER = `
import { createClient, precompiledHits } from 'chwire';
import { since, sinceStream, top, none, noneStream } from './db.js';
let refused = false;
try { new Function('return 1'); } catch { refused = true; }
const [url, mode] = process.argv.slice(2);
const client = createClient({ url });
const before = { sources: precompiledHits('native-sources'), rows: precompiledHits('native-rows'), rowbinary: precompiledHits('rowbinary') };
let rows = [];
if (mode === 'fetch') rows = [...await since(client)];
else if (mode === 'stream') { for await (const r of sinceStream(client)) rows.push(r); }
else if (mode === 'batches') { for await (const b of sinceStream(client).batches()) rows.push(...b); }
else if (mode === 'empty') { rows = [...await none(client)]; for await (const r of noneStream(client)) rows.push(r); }
else rows = [await top(client)];
const hits = { sources: precompiledHits('native-sources') - before.sources, rows: precompiledHits('native-rows') - before.rows, rowbinary: precompiledHits('rowbinary') - before.rowbinary, all: precompiledHits() };
await client.close();
process.stdout.write(JSON.stringify({ refused, hits, rows }, (_, x) => typeof x === 'bigint' ? x.toString() + 'n' : x));
`;

test('chwire gen on 18.16: fetch, stream and batches decode Native through the module\'s precompiled row functions', { skip: SKIP_REAL, timeout: 120_000 }, async () => {
  const client = realClient();
  const table = uniqueName('gen_srv');
  const dir = join(ROOT, 'dist', 'gen-test', uniqueName('srv'));
  mkdirSync(dir, { recursive: true });
  try {
    await client.execute(`CREATE TABLE ${table} (id UInt64, name String, at DateTime, score Nullable(Float64), tags Array(String)) ENGINE = MergeTree ORDER BY id`);
    await client.execute(`INSERT INTO ${table} SELECT number, concat('n', toString(number)), toDateTime(1700000000 + number * 61), if(number % 3 = 0, NULL, number / 4), arrayMap(x -> toString(x), range(number % 3)) FROM numbers(40)`);
    // 18.16 runs no query parameters (19.11+): the queries that run here have none (placeholders: the next test).
    const since = `SELECT id, name, at, score, tags FROM ${table} WHERE id >= 5 ORDER BY id`;
    const top = `SELECT id, name FROM ${table} ORDER BY id DESC LIMIT 1`;
    const out = join(dir, 'db.ts');
    const gen = await cli(['gen', '--url', REAL_URL!, '--table', table, '--query', `since=${since}`, '--query', `top :one=${top}`, '--query', `none=SELECT id FROM ${table} WHERE id > 1000`, '--out', out]);
    assert.equal(gen.code, 0, gen.stderr);
    const source = readFileSync(out, 'utf8');
    assert.match(source, /export async function top\(client: Client, params: TopParams = {}, opts: CallOptions = \{\}\): Promise<TopRow \| null>/);
    writeFileSync(join(dir, 'db.js'), ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText);
    writeFileSync(join(dir, 'runner.mjs'), RUNNER);

    const want = plain(await client.fetch(since));
    for (const mode of ['fetch', 'stream', 'batches']) {
      const r = await run(process.execPath, ['--disallow-code-generation-from-strings', join(dir, 'runner.mjs'), REAL_URL!, mode], { cwd: dir });
      const got = JSON.parse(r.stdout) as { refused: boolean; hits: { sources: number; rows: number; rowbinary: number; all: number }; rows: unknown };
      assert.equal(got.refused, true, 'the child must refuse new Function');
      assert.deepEqual(got.rows, want, `${mode}: the server's rows`);
      assert.equal(got.hits.sources, 1, `${mode}: the Native rows must come from the module's precompiled row function`);
      assert.equal(got.hits.rowbinary, 0, `${mode}: 18.16 answers in Native`);
      assert.equal(got.hits.all, 1, `${mode}: precompiledHits() counts every kind`);
    }
    // An empty result in Native has no header: the module's column check lets it through.
    const empty = await run(process.execPath, [join(dir, 'runner.mjs'), REAL_URL!, 'empty'], { cwd: dir });
    assert.deepEqual((JSON.parse(empty.stdout) as { rows: unknown[] }).rows, []);
    const one = await run(process.execPath, ['--disallow-code-generation-from-strings', join(dir, 'runner.mjs'), REAL_URL!, 'one'], { cwd: dir });
    const got = JSON.parse(one.stdout) as { hits: { sources: number }; rows: unknown[] };
    assert.deepEqual(got.rows, [plain((await client.fetch(`SELECT id, name FROM ${table} ORDER BY id DESC LIMIT 1`))[0])]);
    assert.equal(got.hits.sources, 1);
  } finally {
    await client.execute(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('chwire gen on 18.16: placeholders are described without defaultValueOfTypeName; an Identifier placeholder is refused by name', { skip: SKIP_REAL, timeout: 60_000 }, async () => {
  const dir = join(ROOT, 'dist', 'gen-test', uniqueName('srv'));
  mkdirSync(dir, { recursive: true });
  try {
    const out = join(dir, 'db.ts');
    const sql = "SELECT {a:UInt32} AS a, {s:String} AS s, {d:Date} AS d, {t:DateTime('UTC')} AS t, {n:Nullable(Int8)} AS n, {arr:Array(UInt16)} AS arr, {e:Enum8('x' = 1, 'y' = 2)} AS e, {u:UUID} AS u, {tp:Tuple(UInt8, String)} AS tp FROM system.one LIMIT {lim:UInt32} OFFSET {off:UInt64}";
    const gen = await cli(['gen', '--url', REAL_URL!, '--query', `typed=${sql}`, '--out', out]);
    assert.equal(gen.code, 0, gen.stderr);
    const source = readFileSync(out, 'utf8');
    assert.match(source, /const typedHeader: [^=]+= \[\["a","UInt32"\],\["s","String"\],\["d","Date"\],\["t","DateTime\('UTC'\)"\],\["n","Nullable\(Int8\)"\],\["arr","Array\(UInt16\)"\],\["e","Enum8\('x' = 1, 'y' = 2\)"\],\["u","UUID"\],\["tp","Tuple\(UInt8, String\)"\]\];/);
    assert.match(source, /readonly lim: number \| bigint \| string;/);
    const ident = await cli(['gen', '--url', REAL_URL!, '--query', 'byTable=SELECT count() AS c FROM {tbl:Identifier}', '--out', out]);
    assert.equal(ident.code, 2);
    assert.match(ident.stderr, /query byTable: placeholder \{tbl:Identifier\} names a table or column/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
