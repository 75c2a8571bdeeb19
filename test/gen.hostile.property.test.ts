// `chwire gen` modules from hostile descriptions: tables and queries whose column names, enum
// labels, tuple element names, table names and SQL hold newlines (LF, CR, U+2028, U+2029), `*/`,
// `/*`, `//`, `${`, backticks, quotes, backslashes, NUL, lone surrogates, `__proto__` and code that
// would run if it escaped (`(globalThis.chwirePwned = 1)`), one of them 100 kB long. For each
// module, TypeScript's own parser must find exactly the top-level statements the input calls for
// (the imports, one declaration per generated name, one registerPrecompiled call: nothing else),
// no syntax error, and every server text back intact where it is a value (the property names of
// the Row and Insert interfaces, the table constant, the SQL constant, the header constant);
// importing the module runs none of the planted code. A few modules are also type-checked under
// strict settings. emitModule refuses a query name that is not an identifier and a default kind
// that is none of ClickHouse's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fc from 'fast-check';
import ts from 'typescript';
import { emitModule, functionName, pascalCase, type GenInput, type GenQuery, type GenTable } from '../src/gen/emit.js';
import { DEFAULT_KINDS } from '../src/gen/ts-types.js';
import { printType } from '../src/types/print.js';
import type { TypeNode } from '../src/types/ast.js';
import type { ResultColumn, TableColumn } from '../src/gen/describe.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const PAYLOAD = '(globalThis.chwirePwned = 1)';
const FRAGMENTS = [
  '\n', '\r\n', '\r', '\u2028', '\u2029', '*/', '/*', '//', '${', '`', '"', "'", '\\', '\u0000', '\ud800', '\udfff',
  '__proto__', 'constructor', '});', '<!--', '-->', '#!', ' ', 'a', `\n${PAYLOAD}//`, `*/ ${PAYLOAD} /*`, `\u2028${PAYLOAD}//`, `\`; ${PAYLOAD}; \``, `"]; ${PAYLOAD}; //`,
];
const hostile = fc.array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 3 })), { minLength: 1, maxLength: 6 }).map((a) => a.join(''));

const enumType = fc.uniqueArray(hostile, { minLength: 1, maxLength: 3 }).map((labels): TypeNode => ({ kind: 'Enum8', entries: labels.map((label, i) => ({ label, value: i + 1 })) }));
const tupleType = fc.uniqueArray(hostile, { minLength: 2, maxLength: 2 }).map((names): TypeNode => ({ kind: 'Tuple', elements: [{ kind: 'UInt8' }, { kind: 'String' }], names }));
const typeText = fc.oneof(
  fc.constantFrom('UInt64', 'String', 'Nullable(String)', 'Array(String)', 'AggregateFunction(uniq, UInt64)'),
  enumType.map(printType),
  tupleType.map(printType),
);

const columns = fc.uniqueArray(fc.record({ name: hostile, type: typeText, defaultKind: fc.constantFrom(...DEFAULT_KINDS) }), { minLength: 1, maxLength: 4, selector: (c) => c.name });

const table = (i: number): fc.Arbitrary<GenTable> => fc.record({ prefix: hostile, columns }).map(({ prefix, columns: cols }) => ({
  // Whatever precedes the last dot, the names are Tbl<i>Row, …: distinct per table.
  table: `${prefix}.tbl${i}`,
  columns: cols,
  result: cols.filter((c) => c.defaultKind !== 'MATERIALIZED' && c.defaultKind !== 'ALIAS').map((c) => ({ name: c.name, type: c.type })),
}));

const query = (i: number): fc.Arbitrary<GenQuery> => fc.record({
  stem: fc.constantFrom('q', 'delete', 'class', 'constructor', '__proto__', '$'),
  kind: fc.constantFrom('many' as const, 'one' as const, 'exec' as const),
  sql: hostile,
  result: fc.uniqueArray(fc.record({ name: hostile, type: typeText.filter((t) => !t.startsWith('AggregateFunction')) }), { minLength: 1, maxLength: 3, selector: (c) => c.name }),
  params: fc.array(enumType.map(printType), { maxLength: 2 }),
}).map(({ stem, kind, sql, result, params }) => ({
  name: stem === 'delete' || stem === 'class' ? (i === 0 ? stem : `${stem}${i}`) : `${stem}${i}`,
  kind,
  sql,
  result: kind === 'exec' ? [] : result,
  params: new Map(params.map((t, k) => [`p${k}`, t])),
}));

const inputs: fc.Arbitrary<GenInput> = fc.record({
  rows: fc.constantFrom('object' as const, 'array' as const),
  nTables: fc.integer({ min: 0, max: 2 }),
  nQueries: fc.integer({ min: 0, max: 2 }),
}).filter((x) => x.nTables + x.nQueries > 0).chain(({ rows, nTables, nQueries }) => fc.record({
  tables: fc.tuple(...Array.from({ length: nTables }, (_, i) => table(i))),
  queries: fc.tuple(...Array.from({ length: nQueries }, (_, i) => query(i))),
}).map(({ tables, queries }) => ({ options: { rows }, tables, queries })));

const unreadable = (c: ResultColumn): boolean => c.type.startsWith('AggregateFunction');

/** The top-level statements emitModule must write for `input`, in order, as `<kind> <name>`. */
function expectedStatements(input: GenInput): string[] {
  const rowDecl = input.options.rows === 'array' ? 'type' : 'interface';
  const out = ['import', 'import'];
  if (input.queries.some((q) => q.kind !== 'exec')) out.push('const DECODE', 'type CallOptions');
  for (const t of input.tables) {
    const p = pascalCase(t.table);
    if (t.result.some((c) => !unreadable(c))) out.push(`${rowDecl} ${p}Row`);
    const writable = t.columns.filter((c) => c.defaultKind !== 'MATERIALIZED' && c.defaultKind !== 'ALIAS');
    const blocking = writable.filter((c) => c.defaultKind === '' && unreadable(c));
    if (blocking.length === writable.length) continue;
    out.push(`interface ${p}Insert`, `const ${p[0]!.toLowerCase()}${p.slice(1)}Table`, `function insert${p}`);
  }
  for (const q of input.queries) {
    const p = pascalCase(q.name);
    out.push(`const ${q.name}Sql`, `type ${p}Params`);
    if (q.kind === 'exec') { out.push(`function ${functionName(q.name)}`); continue; }
    out.push(`${rowDecl} ${p}Row`, `const ${q.name}Header`, `function ${functionName(q.name)}`);
    if (q.kind === 'many') out.push(`function ${q.name}Stream`);
  }
  out.push('call registerPrecompiled');
  return out;
}

function nameText(n: ts.PropertyName | ts.BindingName | undefined): string {
  if (n === undefined) return '?';
  if (ts.isIdentifier(n) || ts.isStringLiteral(n) || ts.isPrivateIdentifier(n)) return n.text;
  return `<${ts.SyntaxKind[n.kind]}>`;
}

function describeStatement(s: ts.Statement): string {
  if (ts.isImportDeclaration(s)) return 'import';
  if (ts.isInterfaceDeclaration(s)) return `interface ${s.name.text}`;
  if (ts.isTypeAliasDeclaration(s)) return `type ${s.name.text}`;
  if (ts.isFunctionDeclaration(s)) return `function ${nameText(s.name)}`;
  if (ts.isVariableStatement(s) && (s.declarationList.flags & ts.NodeFlags.Const) !== 0 && s.declarationList.declarations.length === 1) return `const ${nameText(s.declarationList.declarations[0]!.name)}`;
  if (ts.isExpressionStatement(s) && ts.isCallExpression(s.expression) && ts.isIdentifier(s.expression.expression)) return `call ${s.expression.expression.text}`;
  return `<${ts.SyntaxKind[s.kind]}>`;
}

function stringOf(e: ts.Expression | undefined): string {
  assert.ok(e !== undefined && (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)), `expected a string literal, got ${e === undefined ? 'nothing' : ts.SyntaxKind[e.kind]}`);
  return e.text;
}

function constInit(sf: ts.SourceFile, name: string): ts.Expression | undefined {
  for (const s of sf.statements) {
    if (!ts.isVariableStatement(s)) continue;
    const d = s.declarationList.declarations[0]!;
    if (nameText(d.name) === name) {
      let e = d.initializer;
      while (e !== undefined && (ts.isAsExpression(e) || ts.isSatisfiesExpression(e))) e = e.expression;
      return e;
    }
  }
  return undefined;
}

function interfaceMembers(sf: ts.SourceFile, name: string): string[] | undefined {
  const s = sf.statements.find((x): x is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(x) && x.name.text === name);
  return s?.members.map((m) => nameText(m.name));
}

/** Everything the parser must see in a module emitted from `input`. */
function checkModule(input: GenInput, text: string): void {
  const { diagnostics } = ts.transpileModule(text, { reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
  assert.deepEqual((diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')), [], 'the module has no syntax error');
  const sf = ts.createSourceFile('db.ts', text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  assert.deepEqual(sf.statements.map(describeStatement), expectedStatements(input));
  for (const t of input.tables) {
    const p = pascalCase(t.table);
    assert.equal(stringOf(constInit(sf, `${p[0]!.toLowerCase()}${p.slice(1)}Table`) ?? ts.factory.createStringLiteral(t.table)), t.table);
    if (input.options.rows !== 'array') {
      const row = interfaceMembers(sf, `${p}Row`);
      if (row !== undefined) assert.deepEqual(row, t.result.filter((c) => !unreadable(c)).map((c) => c.name), 'the Row properties are the column names, intact');
    }
    const ins = interfaceMembers(sf, `${p}Insert`);
    if (ins !== undefined) assert.deepEqual(ins, t.columns.filter((c) => c.defaultKind !== 'MATERIALIZED' && c.defaultKind !== 'ALIAS' && !unreadable(c)).map((c) => c.name));
  }
  for (const q of input.queries) {
    assert.equal(stringOf(constInit(sf, `${q.name}Sql`)), q.sql);
    if (q.kind === 'exec') continue;
    const header = constInit(sf, `${q.name}Header`);
    assert.ok(header !== undefined && ts.isArrayLiteralExpression(header));
    assert.deepEqual(header.elements.map((e) => { assert.ok(ts.isArrayLiteralExpression(e)); return e.elements.map(stringOf); }), q.result.map((c) => [c.name, c.type]));
  }
  // The one registration call: an array of { kind, key, hash, factory: function } entries.
  const reg = sf.statements[sf.statements.length - 1]!;
  assert.ok(ts.isExpressionStatement(reg) && ts.isCallExpression(reg.expression));
  const arg = reg.expression.arguments[0];
  assert.ok(reg.expression.arguments.length === 1 && arg !== undefined && ts.isArrayLiteralExpression(arg));
  for (const e of arg.elements) {
    assert.ok(ts.isObjectLiteralExpression(e));
    assert.deepEqual(e.properties.map((p) => nameText(p.name)), ['kind', 'key', 'hash', 'factory']);
    const f = e.properties[3]!;
    assert.ok(ts.isPropertyAssignment(f) && ts.isFunctionExpression(f.initializer));
  }
}

function workDir(tag: string): string {
  const dir = join(ROOT, 'dist', 'gen-test', `hostile-${tag}-${process.pid}-${Date.now().toString(36)}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A table with every fragment at once and a 100 kB column name (the fixed example of the property). */
const BIG_COLUMNS: TableColumn[] = [
  { name: `${'x'.repeat(100_000)}\n${PAYLOAD}//`, type: 'String', defaultKind: 'DEFAULT' },
  { name: FRAGMENTS.join(''), type: printType({ kind: 'Enum8', entries: FRAGMENTS.map((label, i) => ({ label, value: i + 1 })) }), defaultKind: '' },
  { name: `a\n${PAYLOAD}//`, type: 'AggregateFunction(uniq, UInt64)', defaultKind: '' },
  { name: `t\u2028${PAYLOAD}//`, type: printType({ kind: 'Tuple', elements: [{ kind: 'UInt8' }, { kind: 'String' }], names: [`*/ ${PAYLOAD} /*`, '`${x}`'] }), defaultKind: 'EPHEMERAL' },
];
const BIG: GenInput = {
  options: {},
  tables: [{ table: `db\n${PAYLOAD}//.${FRAGMENTS.join('')}events`, columns: BIG_COLUMNS, result: BIG_COLUMNS.map((c): ResultColumn => ({ name: c.name, type: c.type })) }],
  queries: [{ name: 'q0', kind: 'many', sql: `SELECT 1 -- */ ${PAYLOAD} /*\n\u2028${PAYLOAD}//`, result: [{ name: `\`\${${PAYLOAD}}\``, type: 'String' }], params: new Map([['p', printType({ kind: 'Enum8', entries: [{ label: `*/${PAYLOAD}/*`, value: 1 }] })]]) }],
};

test('modules from hostile names: exactly the expected top-level statements, values intact, nothing runs on import', { timeout: 120_000 }, async () => {
  const dir = workDir('parse');
  let n = 0;
  try {
    await fc.assert(fc.asyncProperty(inputs, async (input) => {
      const text = emitModule(input).ts;
      checkModule(input, text);
      // Imported: the planted code must not run (the module registers its decoders, nothing else).
      const file = join(dir, `m${n++}.mjs`);
      writeFileSync(file, ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText);
      const mod = await import(pathToFileURL(file).href) as Record<string, unknown>;
      assert.equal((globalThis as { chwirePwned?: unknown }).chwirePwned, undefined, 'planted code ran on import');
      for (const t of input.tables) {
        const p = pascalCase(t.table);
        const c = mod[`${p[0]!.toLowerCase()}${p.slice(1)}Table`];
        if (c !== undefined) assert.equal(c, t.table);
      }
      for (const q of input.queries) assert.equal(mod[`${q.name}Sql`], q.sql);
    }), { numRuns: 150, examples: [[BIG]] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('modules from hostile names type-check under strict settings', { timeout: 180_000 }, () => {
  const dir = workDir('strict');
  try {
    const samples = [BIG, ...fc.sample(inputs.filter((x) => x.tables.length > 0 && x.queries.length > 0), { numRuns: 3, seed: 20261207 })];
    let old: ts.Program | undefined;
    samples.forEach((input, i) => {
      const file = join(dir, `db${i}.ts`);
      writeFileSync(file, emitModule(input).ts);
      const program = ts.createProgram([file], {
        strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, noImplicitAny: true, noEmit: true,
        noImplicitReturns: true, noPropertyAccessFromIndexSignature: true, noUnusedLocals: true, noUnusedParameters: true,
        useUnknownInCatchVariables: true, isolatedDeclarations: true, declaration: true, erasableSyntaxOnly: true,
        verbatimModuleSyntax: true, isolatedModules: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext, types: ['node'], skipLibCheck: true,
      } as ts.CompilerOptions, undefined, old);
      old = program;
      const diags = ts.getPreEmitDiagnostics(program).filter((d) => d.file === undefined || !d.file.fileName.includes('/node_modules/'));
      assert.equal(ts.formatDiagnostics(diags, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => dir, getNewLine: () => '\n' }), '', `sample ${i}`);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('emitModule refuses a query name that is not an identifier and a default kind that is none of ClickHouse\'s', () => {
  const q: GenQuery = { name: `q\n${PAYLOAD}//`, kind: 'many', sql: 'SELECT 1', result: [{ name: 'x', type: 'UInt8' }], params: new Map() };
  assert.throws(() => emitModule({ options: {}, tables: [], queries: [q] }), /query name "q\\n\(globalThis\.chwirePwned = 1\)\/\/" is not a JavaScript identifier/);
  const t: GenTable = { table: 't', columns: [{ name: 'id', type: 'UInt64', defaultKind: `DEFAULT */ } ${PAYLOAD}; interface Z { /*` }], result: [{ name: 'id', type: 'UInt64' }] };
  assert.throws(() => emitModule({ options: {}, tables: [t], queries: [] }), /table t: column "id" has the default kind "DEFAULT \*\\\/ \} .*", which is none of DEFAULT, MATERIALIZED, ALIAS, EPHEMERAL or none/);
});
