// What a generated module checks and types beyond the happy path: a result whose header is not the
// one the module was generated for (join_use_nulls makes a column Nullable) fails loudly in fetch,
// `:one` and streams, naming the query, the column, the expected and the received type, once per
// result; tuple parameters are typed element by element; reserved words as query names compile.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { createClient, ChwireDecodeError } from '../src/index.js';
import { emitModule, type GenQuery } from '../src/gen/emit.js';
import { describeQuery } from '../src/gen/describe.js';
import { placeholderTypes } from '../src/gen/sql-text.js';
import { uniqueName } from './support/ch-server.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const USAGE = `
import { createClient, tuple } from 'chwire';
import { pairs, delete_, class_ } from './db.js';
const client = createClient({ url: 'chdb://' });
await pairs(client, { ps: [tuple(1n, 'a'), tuple(2, 'b')] });
// @ts-expect-error a tuple's elements are typed: a string for UInt64, a number for String
await pairs(client, { ps: [tuple('not-a-number', 42)] });
// @ts-expect-error a tuple of three for Tuple(UInt64, String)
await pairs(client, { ps: [tuple(1, 'a', true)] });
await delete_(client);
const r = await class_(client);
const n: number | undefined = r?.default;
void n;
`;

test('generated functions check the result header once per result; tuple parameters are typed; reserved words compile', { timeout: 120_000 }, async () => {
  const client = createClient({ url: 'chdb://' });
  const a = uniqueName('gen_chk_a');
  const b = uniqueName('gen_chk_b');
  const dir = join(ROOT, 'dist', 'gen-test', uniqueName('checks'));
  mkdirSync(dir, { recursive: true });
  try {
    await client.execute(`CREATE TABLE ${a} (id UInt64) ENGINE = Memory`);
    await client.execute(`CREATE TABLE ${b} (id UInt64, email String) ENGINE = Memory`);
    await client.execute(`INSERT INTO ${a} VALUES (1), (2)`);
    await client.execute(`INSERT INTO ${b} VALUES (1, 'x@y')`);
    const specs: [string, GenQuery['kind'], string][] = [
      ['withEmail', 'many', `SELECT ${a}.id AS id, ${b}.email AS email FROM ${a} LEFT JOIN ${b} ON ${a}.id = ${b}.id ORDER BY id`],
      ['firstEmail', 'one', `SELECT ${a}.id AS id, ${b}.email AS email FROM ${a} LEFT JOIN ${b} ON ${a}.id = ${b}.id ORDER BY id DESC LIMIT 1`],
      ['pairs', 'many', 'SELECT length({ps:Array(Tuple(UInt64, String))}) AS n'],
      ['delete', 'exec', `ALTER TABLE ${a} DELETE WHERE 0`],
      ['class', 'one', 'SELECT 1 AS default'],
    ];
    const queries: GenQuery[] = [];
    for (const [name, kind, sql] of specs) queries.push({ name, kind, sql, params: placeholderTypes(sql), result: kind === 'exec' ? [] : await describeQuery(client, sql) });
    const mod = emitModule({ options: {}, tables: [], queries });
    writeFileSync(join(dir, 'db.ts'), mod.ts);
    writeFileSync(join(dir, 'usage.ts'), USAGE);
    const program = ts.createProgram([join(dir, 'usage.ts')], {
      strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, types: ['node'], skipLibCheck: true,
    });
    const diags = ts.getPreEmitDiagnostics(program).filter((d) => d.file === undefined || !d.file.fileName.includes('/node_modules/'));
    assert.equal(ts.formatDiagnostics(diags, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => dir, getNewLine: () => '\n' }), '');

    writeFileSync(join(dir, 'db.js'), ts.transpileModule(mod.ts, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText);
    type Fn = (c: unknown, p?: unknown, o?: unknown) => Promise<unknown>;
    const m = await import(pathToFileURL(join(dir, 'db.js')).href) as { withEmail: Fn; firstEmail: Fn; withEmailStream: (c: unknown, p?: unknown, o?: unknown) => AsyncIterable<unknown> & { batches(): AsyncIterable<unknown[]> }; delete_: Fn; class_: Fn };
    // As generated: the rows.
    assert.deepEqual([...await m.withEmail(client) as unknown[]].map((r) => ({ ...(r as object) })), [{ id: 1n, email: 'x@y' }, { id: 2n, email: '' }]);
    assert.deepEqual({ ...(await m.firstEmail(client) as object) }, { id: 2n, email: '' });
    assert.deepEqual({ ...(await m.class_(client) as object) }, { default: 1 });
    await m.delete_(client);
    // join_use_nulls makes email Nullable(String): every path fails, naming query, column and both types.
    const opts = { settings: { join_use_nulls: 1 } };
    const named = (what: string) => (e: unknown): boolean => {
      assert.ok(e instanceof ChwireDecodeError, String(e));
      assert.equal(e.column, 'email');
      assert.match(e.message, new RegExp(`^${what}: column "email" is Nullable\\(String\\) in the result, expected String: `));
      return true;
    };
    await assert.rejects(m.withEmail(client, {}, opts), named('withEmail'));
    await assert.rejects(m.firstEmail(client, {}, opts), named('firstEmail'));
    await assert.rejects((async () => { for await (const _ of m.withEmailStream(client, {}, opts)) { /* no row may arrive */ assert.fail('a row arrived'); } })(), named('withEmail'));
    await assert.rejects((async () => { for await (const _ of m.withEmailStream(client, {}, opts).batches()) assert.fail('a batch arrived'); })(), named('withEmail'));
    const rows: unknown[] = [];
    for await (const b2 of m.withEmailStream(client).batches()) rows.push(...b2);
    assert.equal(rows.length, 2);
  } finally {
    await client.execute(`DROP TABLE IF EXISTS ${a}`).catch(() => undefined);
    await client.execute(`DROP TABLE IF EXISTS ${b}`).catch(() => undefined);
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a table with an AggregateFunction column: that column is left out of the Row and Insert types with a note, the rest is generated and inserts', { timeout: 60_000 }, async () => {
  const client = createClient({ url: 'chdb://' });
  const t = uniqueName('gen_agg');
  const dir = join(ROOT, 'dist', 'gen-test', uniqueName('agg'));
  mkdirSync(dir, { recursive: true });
  try {
    await client.execute(`CREATE TABLE ${t} (k UInt64, n Nullable(String), u AggregateFunction(uniq, UInt64), d String DEFAULT 'dflt') ENGINE = AggregatingMergeTree ORDER BY (k, n, d) SETTINGS allow_nullable_key = 1`);
    let err = '';
    const { main } = await import('../src/cli/main.js');
    const code = await main(['gen', '--url', 'chdb://', '--table', t, '--query', `keys=SELECT k, finalizeAggregation(u) AS uniq FROM ${t}`, '--out', join(dir, 'db.ts')], {
      stdout: { write: () => true }, stderr: { write: (s: string) => { err += s; return true; } }, env: {},
    });
    assert.equal(code, 0, err);
    const { readFileSync, writeFileSync } = await import('node:fs');
    const text = readFileSync(join(dir, 'db.ts'), 'utf8');
    const pascal = /export interface (GenAgg\w*)Row /.exec(text)?.[1];
    assert.ok(pascal !== undefined, 'the Row type is generated');
    assert.match(text, /\/\/ "u" \(`AggregateFunction\(uniq, UInt64\)`\) is left out: AggregateFunction states cannot be decoded/);
    const row = text.slice(text.indexOf(`export interface ${pascal}Row`), text.indexOf('}', text.indexOf(`export interface ${pascal}Row`)));
    assert.match(row, /\bk: bigint;/);
    assert.match(row, /\bn: string \| null;/);
    assert.doesNotMatch(row, /\bu:/);
    const ins = text.slice(text.indexOf(`export interface ${pascal}Insert`), text.indexOf('}', text.indexOf(`export interface ${pascal}Insert`)));
    assert.match(ins, /readonly k: /);
    assert.match(ins, /readonly d: /, 'a column with a default is required once the insert names its columns');
    assert.match(ins, /"u" is left out/);
    assert.doesNotMatch(ins, /readonly u/);
    assert.match(text, /export async function keys\(/);
    // The generated insert function writes the other columns; the server writes u's empty state.
    const ts = (await import('typescript')).default;
    writeFileSync(join(dir, 'db.js'), ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText);
    const mod = await import(join(dir, 'db.js')) as Record<string, (c: unknown, rows: unknown[]) => Promise<unknown>>;
    await mod[`insert${pascal}`]!(client, [{ k: 1n, n: 'x', d: 'given' }, { k: 2n, n: null, d: 'dflt' }]);
    assert.deepEqual(await client.fetch(`SELECT k, n, d, finalizeAggregation(u) AS s FROM ${t} ORDER BY k`), [{ k: 1n, n: 'x', d: 'given', s: 0n }, { k: 2n, n: null, d: 'dflt', s: 0n }]);
  } finally {
    await client.execute(`DROP TABLE IF EXISTS ${t}`).catch(() => undefined);
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
