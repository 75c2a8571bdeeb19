// `chwire gen` end to end on the embedded engine: the module it writes for a table and named queries
// type-checks strictly with no `any` (and misuse stays a type error), its query functions return the
// engine's rows in a Node process where code generation from strings is disallowed (the decoders
// come precompiled from the companion file), `--check` passes on an unchanged table and fails with a
// diff after the table changed, and the output is deterministic. Also the pieces: placeholders found
// only in code, the .sql file format, the precompiled registry's matching rules, the line diff.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import fc from 'fast-check';
import ts from 'typescript';
import { createClient } from '../src/index.js';
import { main } from '../src/cli/main.js';
import { findPlaceholders, parseQueriesFile, placeholderTypes, trimStatement, typedLiteral, withTypedDefaults } from '../src/gen/sql-text.js';
import { parseType } from '../src/types/parse.js';
import { lineDiff } from '../src/cli/diff.js';
import { lookupPrecompiled, precompiledHits, registerPrecompiled } from '../src/codegen/precompiled.js';
import { hashKey } from '../src/codegen/compile.js';

const run = promisify(execFile);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

interface Captured { stdout: string; stderr: string; code: number }

async function cli(args: string[], tty = false): Promise<Captured> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: { write: (s: string) => { stdout += s; return true; } },
    stderr: { isTTY: tty, write: (s: string) => { stderr += s; return true; } },
    env: {},
  });
  return { stdout, stderr, code };
}

/** A directory inside the package (so `chwire` resolves to this build by self-reference). */
function workDir(): string {
  const dir = join(ROOT, 'dist', 'gen-test', `${process.pid}-${Date.now().toString(36)}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

const USAGE = `
import { createClient } from 'chwire';
import { topEvents, topEventsStream, byKind, insertGenEvents, type GenEventsRow, type GenEventsInsert, type TopEventsRow } from './db.js';

export async function use(): Promise<void> {
  const client = createClient({ url: 'chdb://' });
  const rows = await topEvents(client, { min: 1n, kinds: ['a'] });
  const first: TopEventsRow | undefined = rows[0];
  if (first !== undefined) {
    const id: bigint = first.id;
    const name: string = first.name;
    const at: Date = first.at;
    const kind: 'a' | 'b c' = first.kind;
    const score: number | null = first.score;
    void [id, name, at, kind, score];
    // @ts-expect-error id is a bigint with the default options, not a number
    const wrong: number = first.id;
    void wrong;
  }
  for await (const r of topEventsStream(client, { min: 0, kinds: [] })) void r.tags.length;
  // @ts-expect-error a parameter is missing
  await topEvents(client, { min: 1 });
  // @ts-expect-error a parameter of the wrong type
  await topEvents(client, { min: 1, kinds: 'a' });
  // @ts-expect-error decode options are fixed by the module
  await topEvents(client, { min: 1, kinds: [] }, { int64: 'number' });
  await byKind(client, { kind: 'b c' });
  // @ts-expect-error not a label of the Enum
  await byKind(client, { kind: 'z' });
  const ins: GenEventsInsert = { id: 1, name: 'x', at: new Date(), tags: [], kind: 'a' };
  await insertGenEvents(client, [ins]);
  // @ts-expect-error insert<Table>() is bound to its table's Insert type
  await insertGenEvents(client, [{ id: 1, other: 'x' }]);
  // @ts-expect-error a required column is missing
  const bad: GenEventsInsert = { id: 1, name: 'x', at: new Date(), tags: [] };
  void [ins, bad];
  const row: GenEventsRow | undefined = undefined;
  void row;
}
`;

const QUERIES = `-- name: topEvents
SELECT id, name, at, kind, score, tags
FROM gen_events
WHERE id >= {min:UInt64} AND (length({kinds:Array(String)}) = 0 OR has({kinds:Array(String)}, toString(kind)))
ORDER BY id;

-- name: byKind
SELECT count() AS n, {kind:Enum8('a' = 1, 'b c' = 2)} AS k FROM gen_events WHERE kind = {kind:Enum8('a' = 1, 'b c' = 2)}
`;

test('chwire gen on chdb://: strict types, eval-free query functions with the engine\'s rows, --check', { timeout: 240_000 }, async () => {
  const dir = workDir();
  // On disk: the child process below opens the same database once this process has closed it.
  const url = `chdb://${join(dir, 'engine')}`;
  let client = createClient({ url });
  try {
    await client.execute('DROP TABLE IF EXISTS gen_events');
    await client.execute("CREATE TABLE gen_events (id UInt64, name String, at DateTime('UTC'), kind Enum8('a' = 1, 'b c' = 2), score Nullable(Float64), tags Array(String), note String DEFAULT 'n', m UInt8 MATERIALIZED 1) ENGINE = MergeTree ORDER BY id");
    await client.execute("INSERT INTO gen_events (id, name, at, kind, score, tags) VALUES (1, 'x', '2024-01-02 03:04:05', 'a', NULL, ['t1','t2']), (2, 'y\"', '1990-05-06 07:08:09', 'b c', 1.5, []), (3, 'z', '2030-01-01 00:00:00', 'a', -0.25, ['q'])");
    writeFileSync(join(dir, 'queries.sql'), QUERIES);
    const args = ['gen', '--url', url, '--table', 'gen_events', '--queries', join(dir, 'queries.sql'), '--out', join(dir, 'db.ts')];

    const first = await cli(args);
    assert.equal(first.code, 0, first.stderr);
    const ts1 = readFileSync(join(dir, 'db.ts'), 'utf8');
    assert.doesNotMatch(ts1, /\bany\b/, 'the module must contain no any');
    assert.doesNotMatch(ts1, /new Function|eval\(/);
    assert.match(ts1, /^\/\/ Generated by `chwire gen`[^\n]*\n/, 'one file');
    assert.doesNotMatch(ts1, /@ts-nocheck/, 'the whole module is type-checked: only the lines of the untyped decoder bodies are ignored');
    assert.match(ts1, /export interface GenEventsInsert/);
    // Hover text: the SQL above each query function, the ClickHouse type above each property.
    assert.match(ts1, /\/\*\*\n \* Runs topEvents and returns all its rows\.\n \*\n \* ```sql\n \* SELECT id, name, at, kind, score, tags\n \* FROM gen_events\n[^]*? \* ```\n \*\/\nexport async function topEvents\(/);
    assert.match(ts1, /  \/\*\* `Enum8\('a' = 1, 'b c' = 2\)` \*\/\n  kind: "a" \| "b c";/);
    assert.match(ts1, /  \/\*\* `String` DEFAULT \*\/\n  readonly note\?: /);
    assert.match(ts1, /export async function insertGenEvents\(client: Client, rows: InsertInput<GenEventsInsert>, opts: InsertOptions = \{\}\): Promise<InsertResult>/);
    assert.match(ts1, /readonly note\?: /, 'a column with a default is optional on insert');
    assert.doesNotMatch(ts1.slice(ts1.indexOf('GenEventsInsert')), /readonly m\b/, 'a MATERIALIZED column is not insertable');

    // Deterministic: the same schema gives the same bytes.
    assert.equal((await cli(args)).code, 0);
    assert.equal(readFileSync(join(dir, 'db.ts'), 'utf8'), ts1);
    const check = await cli([...args, '--check']);
    assert.equal(check.code, 0, check.stdout + check.stderr);

    // tsc --strict (plus the strictest flags users turn on) over the module as generated (every
    // line checked but those of the decoder bodies, each marked @ts-ignore) and a user of it.
    const checked = join(dir, 'checked');
    mkdirSync(checked);
    const checkedTs = ts1;
    writeFileSync(join(checked, 'db.ts'), checkedTs);
    writeFileSync(join(checked, 'usage.ts'), USAGE);
    const program = ts.createProgram([join(checked, 'usage.ts')], {
      strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, noImplicitAny: true, noEmit: true,
      noImplicitReturns: true, noFallthroughCasesInSwitch: true, noImplicitOverride: true, noPropertyAccessFromIndexSignature: true,
      noUnusedLocals: true, noUnusedParameters: true, allowUnreachableCode: false, useUnknownInCatchVariables: true,
      isolatedDeclarations: true, declaration: true, erasableSyntaxOnly: true, verbatimModuleSyntax: true, isolatedModules: true,
      target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: ['node'], skipLibCheck: true,
    } as ts.CompilerOptions);
    const diags = ts.getPreEmitDiagnostics(program).filter((d) => d.file === undefined || !d.file.fileName.includes('/node_modules/'));
    assert.equal(ts.formatDiagnostics(diags, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => dir, getNewLine: () => '\n' }), '');
    assert.ok(program.getSourceFiles().some((f) => f.fileName.endsWith('dist/src/index.d.ts')), "'chwire' must resolve to the shipped declarations");

    // Run the query functions in a process that refuses code generation from strings.
    const js = ts.transpileModule(ts1, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    writeFileSync(join(dir, 'db.js'), js);
    writeFileSync(join(dir, 'runner.mjs'), `
      import { createClient } from 'chwire';
      import { topEvents, byKind } from './db.js';
      let refused = false;
      try { new Function('return 1'); } catch { refused = true; }
      const client = createClient({ url: process.argv[2] });
      const rows = await topEvents(client, { min: 2n, kinds: [] });
      const k = await byKind(client, { kind: 'a' });
      const all = await topEvents(client, { min: 0, kinds: ['a'] });
      await client.close();
      const plain = (v) => JSON.stringify(v, (_, x) => typeof x === 'bigint' ? x.toString() + 'n' : x);
      process.stdout.write(plain({ refused, rows, k, all }));
    `);
    await client.close();
    const out = await run(process.execPath, ['--disallow-code-generation-from-strings', join(dir, 'runner.mjs'), url], { cwd: dir });
    client = createClient({ url });
    const got = JSON.parse(out.stdout) as { refused: boolean; rows: unknown; k: unknown; all: unknown };
    assert.equal(got.refused, true, 'the child process must refuse new Function');
    const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (_, x: unknown) => (typeof x === 'bigint' ? `${x.toString()}n` : x)));
    const opts = { params: {} };
    assert.deepEqual(got.rows, plain(await client.fetch('SELECT id, name, at, kind, score, tags FROM gen_events WHERE id >= 2 ORDER BY id', opts)));
    assert.deepEqual(got.k, plain(await client.fetch("SELECT count() AS n, CAST('a', 'Enum8(\\'a\\' = 1, \\'b c\\' = 2)') AS k FROM gen_events WHERE kind = 'a'", opts)));
    assert.deepEqual(got.all, plain(await client.fetch("SELECT id, name, at, kind, score, tags FROM gen_events WHERE kind = 'a' ORDER BY id", opts)));

    // The table changes: --check fails and names what differs; nothing is written.
    await client.execute('ALTER TABLE gen_events ADD COLUMN extra Int32');
    const stale = await cli([...args, '--check']);
    assert.equal(stale.code, 1);
    assert.match(stale.stdout, /\n\+\s+readonly extra: number \| bigint \| string;\n/);
    assert.match(stale.stdout, /\n\+\s+extra: number;\n/);
    assert.equal(readFileSync(join(dir, 'db.ts'), 'utf8'), ts1, '--check must not write');
    // A type change: unified hunks with context, the line on disk (-) before the new one (+).
    await client.execute('ALTER TABLE gen_events MODIFY COLUMN name LowCardinality(String)');
    const changed = await cli([...args, '--check']);
    assert.equal(changed.code, 1);
    assert.match(changed.stdout, /^--- .*db\.ts \(on disk\)\n\+\+\+ .*db\.ts \(from the server now\)\n@@ -\d+,\d+ \+\d+,\d+ @@\n /);
    assert.match(changed.stdout, /\n   id: bigint;\n-  \/\*\* `String` \*\/\n\+  \/\*\* `LowCardinality\(String\)` \*\/\n   name: string;\n/);
    // The server cannot be reached: exit 3, not the "out of date" 1.
    const down = await cli(['gen', '--url', 'http://127.0.0.1:9', '--table', 'gen_events', '--out', join(dir, 'db.ts'), '--check']);
    assert.equal(down.code, 3, down.stderr);
    assert.match(down.stderr, /table gen_events: the server could not be reached/);
    // A query the server refuses: exit 4, naming the query.
    const refused = await cli(['gen', '--url', url, '--query', 'countEvents=SELECT count(nope) FROM gen_events', '--out', join(dir, 'x.ts')]);
    assert.equal(refused.code, 4, refused.stderr);
    assert.match(refused.stderr, /query countEvents: the server could not describe it: .*nope/);
  } finally {
    await client.execute('DROP TABLE IF EXISTS gen_events').catch(() => undefined);
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('chwire gen: usage errors exit 2 with a message; --help for every command', async () => {
  const none = await cli(['gen', '--url', 'chdb://', '--out', 'x.ts']);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /at least one --table, --query or --queries/);
  const badName = await cli(['gen', '--url', 'chdb://', '--query', '1x=SELECT 1', '--out', 'x.ts']);
  assert.equal(badName.code, 2);
  assert.match(badName.stderr, /not a JavaScript identifier/);
  const unknown = await cli(['gen', '--nope']);
  assert.equal(unknown.code, 2);
  for (const c of ['gen', 'query', 'insert']) {
    const h = await cli([c, '--help']);
    assert.equal(h.code, 0);
    assert.match(h.stdout, new RegExp(`Usage: chwire ${c}`));
  }
  assert.equal((await cli(['frobnicate'])).code, 2);
});

test('chwire query and insert move bytes untouched (chdb://)', { timeout: 120_000 }, async () => {
  const client = createClient({ url: 'chdb://' });
  const dir = workDir();
  try {
    const csv = join(dir, 'out.csv');
    const q = await cli(['query', 'SELECT number AS n, toString(number * 3) AS s FROM numbers(1000)', '--url', 'chdb://', '--format', 'CSVWithNames', '--out', csv]);
    assert.equal(q.code, 0, q.stderr);
    const raw = readFileSync(csv, 'utf8');
    const chunks: Uint8Array[] = [];
    for await (const c of client.streamRaw('SELECT number AS n, toString(number * 3) AS s FROM numbers(1000)', { format: 'CSVWithNames' })) chunks.push(c);
    assert.equal(raw, Buffer.concat(chunks).toString('utf8'));
    assert.equal(q.stderr, '', 'no progress text when stderr is not a terminal');
    const shown = await cli(['query', 'SELECT number FROM numbers(100000)', '--url', 'chdb://', '--out', join(dir, 'n.tsv')], true);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stderr, /\r\x1b\[K[\d,]+ rows, [\d.]+ (B|KiB|MiB), [\d,]+ rows\/s, [\d.]+ s/, 'a progress line on a terminal');
    assert.ok(shown.stderr.endsWith('\r\x1b[K'), 'the line is cleared at the end');

    await client.execute('DROP TABLE IF EXISTS gen_cli_in');
    await client.execute('CREATE TABLE gen_cli_in (n UInt64, s String) ENGINE = Memory');
    const ins = await cli(['insert', 'gen_cli_in', csv, '--url', 'chdb://', '--format', 'CSVWithNames']);
    assert.equal(ins.code, 0, ins.stderr);
    assert.deepEqual(await client.fetch('SELECT sum(n) AS t, count() AS c FROM gen_cli_in'), [{ t: 499500n, c: 1000n }]);
    const noFormat = await cli(['insert', 'gen_cli_in', csv, '--url', 'chdb://']);
    assert.equal(noFormat.code, 2);
    const fail = await cli(['query', 'SELECT throwIf(1)', '--url', 'chdb://', '--out', join(dir, 'x')]);
    assert.equal(fail.code, 1);
    assert.match(fail.stderr, /throwIf|FUNCTION_THROW_IF_VALUE_IS_NON_ZERO|Value passed/);
  } finally {
    await client.execute('DROP TABLE IF EXISTS gen_cli_in').catch(() => undefined);
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('placeholders are found only in code, never in literals, quoted names or comments', () => {
  const sql = "SELECT '{a:UInt8}', \"{b:UInt8}\", `{c:UInt8}` -- {d:UInt8}\n/* {e:UInt8} /* {f:UInt8} */ */ {g:Enum8('x}' = 1)} # {h:UInt8}\n, { i : Array(Tuple(UInt8, String)) }";
  assert.deepEqual(findPlaceholders(sql).map((p) => [p.name, p.type]), [['g', "Enum8('x}' = 1)"], ['i', 'Array(Tuple(UInt8, String))']]);
  assert.equal(withTypedDefaults('SELECT {x:UInt8} + 1'), "SELECT defaultValueOfTypeName('UInt8') + 1");
  assert.equal(withTypedDefaults('SELECT {x:UInt8} + 1 LIMIT {n:UInt32} OFFSET {o:UInt32}', 'literal'), "SELECT CAST(0, 'UInt8') + 1 LIMIT 1 OFFSET 1");
  assert.equal(withTypedDefaults('SELECT 1 LIMIT {a:UInt32}, {b:UInt32}'), 'SELECT 1 LIMIT 1, 1');
  assert.equal(typedLiteral(parseType('Tuple(Nullable(String), Array(UInt8))')), "CAST(tuple(CAST(NULL, 'Nullable(String)'), CAST([], 'Array(UInt8)')), 'Tuple(Nullable(String), Array(UInt8))')");
  assert.throws(() => withTypedDefaults('SELECT * FROM {t:Identifier}'), /names a table or column/);
  assert.throws(() => placeholderTypes('SELECT {x:UInt8}, {x:String}'), /declared as UInt8 and as String/);
  assert.throws(() => findPlaceholders("SELECT 'open"), /unterminated/);
  // Property: a placeholder inside a string literal is never found, whatever surrounds it.
  fc.assert(fc.property(fc.string(), fc.string(), (pre, post) => {
    const lit = `'${(pre + '{p:UInt8}' + post).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
    return findPlaceholders(`SELECT ${lit}`).length === 0;
  }));
});

test('.sql files: one query per "-- name:" line, sqlc\'s :one/:many/:exec, trailing comments, errors on their line', () => {
  assert.deepEqual(parseQueriesFile('-- a comment\n-- name: one\nSELECT 1;\n\n--name:two\nSELECT 2\nFROM t;\n'), [
    { name: 'one', sql: 'SELECT 1', kind: 'many', line: 2 }, { name: 'two', sql: 'SELECT 2\nFROM t', kind: 'many', line: 5 },
  ]);
  assert.deepEqual(parseQueriesFile('-- name: GetUser :one\nSELECT 1 AS id LIMIT 1;\n-- name: ListUsers :many\nSELECT 2; -- trailing comment\n-- name: DeleteUser :exec\nALTER TABLE u DELETE WHERE id = {id:UInt64}; /* done */\n'), [
    { name: 'GetUser', sql: 'SELECT 1 AS id LIMIT 1', kind: 'one', line: 1 },
    { name: 'ListUsers', sql: 'SELECT 2', kind: 'many', line: 3 },
    { name: 'DeleteUser', sql: 'ALTER TABLE u DELETE WHERE id = {id:UInt64}', kind: 'exec', line: 5 },
  ]);
  assert.equal(trimStatement("SELECT '-- not a comment;' ; -- c\n/* d */ ;"), "SELECT '-- not a comment;'");
  assert.throws(() => parseQueriesFile('SELECT 1\n-- name: x\nSELECT 2', 'q.sql'), /q\.sql:1: SQL before the first/);
  assert.throws(() => parseQueriesFile('-- name: x\n\n', 'q.sql'), /q\.sql:1: query x is empty/);
  assert.throws(() => parseQueriesFile('-- name: a\nSELECT 1\n-- name: get-user\nSELECT 2', 'q.sql'), /q\.sql:3: query name "get-user" is not a JavaScript identifier/);
  assert.throws(() => parseQueriesFile('-- name: a :maybe\nSELECT 1', 'q.sql'), /q\.sql:1: query a has the annotation :maybe; use :one, :many or :exec/);
});

test('precompiled functions match only their exact key and the source they came from', () => {
  const f = (): string => 'precompiled';
  registerPrecompiled([{ kind: 'test-kind', key: 'k1', hash: hashKey('SOURCE'), factory: f }]);
  assert.equal(precompiledHits('test-kind'), 0);
  assert.equal(lookupPrecompiled('test-kind', 'k1', 'SOURCE'), f);
  assert.equal(lookupPrecompiled('test-kind', 'k1', 'SOURCE changed by another chwire version'), undefined);
  assert.equal(lookupPrecompiled('test-kind', 'k2', 'SOURCE'), undefined);
  assert.equal(lookupPrecompiled('other-kind', 'k1', 'SOURCE'), undefined);
  assert.equal(precompiledHits('test-kind'), 1, 'only the lookup that found a function counts');
  assert.equal(precompiledHits('other-kind'), 0);
  assert.throws(() => registerPrecompiled([{ kind: 'x', key: 'y', hash: 'z' } as never]), /factory/);
});

test('line diff: unified hunks; applying them to the old text gives the new one; - before +', () => {
  const lines = fc.array(fc.constantFrom('a', 'b', 'c', 'd', ''), { maxLength: 30 }).map((l) => (l.length === 0 ? '' : `${l.join('\n')}\n`));
  fc.assert(fc.property(lines, lines, fc.integer({ min: 0, max: 4 }), (a, b, context) => {
    const d = lineDiff(a, b, context);
    if (a === b) return d === '';
    const old = a === '' ? [] : a.replace(/\n$/, '').split('\n');
    const out: string[] = [];
    let i = 0; // next old line not yet copied
    const rows = d.split('\n').slice(0, -1);
    for (let k = 0; k < rows.length;) {
      const h = /^@@ -(\d+),(\d+) \+(\d+),(\d+) @@$/.exec(rows[k]!);
      assert.ok(h !== null, rows[k]);
      const aStart = Number(h[2]) === 0 ? Number(h[1]) : Number(h[1]) - 1;
      assert.ok(aStart >= i, 'hunks in order, not overlapping');
      out.push(...old.slice(i, aStart));
      i = aStart;
      let aLen = 0;
      let bLen = 0;
      let sawPlus = false;
      for (k++; k < rows.length && !rows[k]!.startsWith('@@'); k++) {
        const op = rows[k]!;
        if (op.startsWith('+')) { out.push(op.slice(1)); bLen++; sawPlus = true; continue; }
        if (op.startsWith('-')) assert.equal(sawPlus, false, 'a removed line after an added one in the same change');
        else sawPlus = false;
        assert.equal(old[i], op.slice(1));
        if (op.startsWith(' ')) { out.push(op.slice(1)); bLen++; }
        aLen++;
        i++;
      }
      assert.equal(aLen, Number(h[2]));
      assert.equal(bLen, Number(h[4]));
    }
    const rebuilt = [...out, ...old.slice(i)];
    return (rebuilt.length === 0 ? '' : `${rebuilt.join('\n')}\n`) === b;
  }));
  // Context lines around one change, as diff -u prints them.
  assert.equal(lineDiff('1\n2\n3\n4\n5\n6\n7\n8\n', '1\n2\n3\n4\nX\n6\n7\n8\n', 2), '@@ -3,5 +3,5 @@\n 3\n 4\n-5\n+X\n 6\n 7\n');
});
