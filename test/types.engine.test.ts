// The type layer against the embedded engine (ClickHouse 26.7): for a type name, the engine
// writes the header of `SELECT defaultValueOfTypeName(T) LIMIT 0` once as text and once in the
// binary type encoding. Its text must be our printType of our parse (our normalisation is the
// server's), its binary form must decode to the same AST, and our encoder must write the same bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ChwireTypeError } from '../src/errors.js';
import { encodeBinaryType, parseType, printType, readBinaryType, type TypeNode } from '../src/types/index.js';
import { engineBytes, engineText } from './support/engine.js';
import { fixtureBytes, fixtureIndex } from './support/fixtures.js';
import { headerNames, headerTextTypes } from './support/header.js';
import { engineTypeArbitrary, PERMISSIVE_TYPE_SETTINGS } from './support/engine-type-arbitrary.js';
import { CANONICAL_CORPUS, ENGINE_REFUSES } from './support/type-corpus.js';

/** SQL string literal, escaped independently of the code under test. */
function sqlString(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

interface EngineType { text: string; binary: Uint8Array }

async function engineType(typeText: string): Promise<EngineType> {
  const sql = `SELECT defaultValueOfTypeName(${sqlString(typeText)}) AS c LIMIT 0`;
  const textBody = await engineBytes(sql, 'RowBinaryWithNamesAndTypes', PERMISSIVE_TYPE_SETTINGS);
  const binBody = await engineBytes(sql, 'RowBinaryWithNamesAndTypes', { ...PERMISSIVE_TYPE_SETTINGS, output_format_binary_encode_types_in_binary_format: 1 });
  const { typesOffset } = headerNames(binBody);
  return { text: headerTextTypes(textBody).types[0]!, binary: binBody.subarray(typesOffset) };
}

function checkAgainstEngine(label: string, ast: TypeNode, e: EngineType): void {
  assert.equal(e.text, printType(ast), `${label}: engine text`);
  assert.deepStrictEqual(parseType(e.text), ast, `${label}: parse of the engine text`);
  const r = readBinaryType(e.binary, 0, e.binary.length);
  assert.deepStrictEqual(r.type, ast, `${label}: engine binary type`);
  assert.equal(r.offset, e.binary.length, `${label}: binary type length`);
  const ours = encodeBinaryType(ast);
  assert.deepStrictEqual(readBinaryType(ours, 0, ours.length).type, ast, `${label}: our binary encoding`);
  if (!hasUnorderedJsonLists(ast)) assert.deepStrictEqual([...ours], [...e.binary], `${label}: our binary bytes`);
}

/**
 * The engine writes a JSON type's paths in hash-table order in the binary encoding (sorted in
 * text), so bytes can only be compared when every such list has at most one entry.
 */
function hasUnorderedJsonLists(t: unknown): boolean {
  if (typeof t !== 'object' || t === null) return false;
  const n = t as { kind?: string; typedPaths?: unknown[]; skipPaths?: unknown[]; skipRegexps?: unknown[] };
  if (n.kind === 'JSON' && (n.typedPaths!.length > 1 || n.skipPaths!.length > 1 || n.skipRegexps!.length > 1)) return true;
  return Object.values(t).some(hasUnorderedJsonLists);
}

test('engine: the hand-written corpus is canonical, text and binary', async () => {
  for (const x of CANONICAL_CORPUS) {
    if (ENGINE_REFUSES.has(x)) continue;
    checkAgainstEngine(x, parseType(x), await engineType(x));
  }
});

test('engine: non-canonical spellings normalise exactly as the engine normalises them', async () => {
  const inputs = [
    'Decimal32(2)', 'Decimal64(3)', 'Decimal128(0)', 'Decimal256(20)', 'Decimal(5)', 'Decimal',
    'DateTime64', 'Time64', 'Dynamic(max_types=32)', 'Dynamic( max_types = 5 )',
    'JSON(max_dynamic_paths=1024, max_dynamic_types=32)', 'JSON(max_dynamic_paths = 3, max_dynamic_types = 2)',
    "Enum8('a', 'b', 'c')", "Enum('a' = 5, 'b')", "Enum('a' = 5, 'b' = 300)",
    "Enum8('h\\xC3\\xA9' = 1, 'it''s' = 2, '\\a\\v\\e' = 4)",
    'Tuple(`a``b` UInt8)', 'Tuple(`plain` UInt8)', 'Tuple(\n    x UInt8,\n    `y z` String)',
    "  Nullable ( DateTime64 ( 3 , 'UTC' ) )\n",
    'JSON(a.b UInt8, `c`.`d e` String)',
  ];
  for (const x of inputs) {
    const e = await engineType(x);
    assert.equal(printType(parseType(x)), e.text, JSON.stringify(x));
    checkAgainstEngine(x, parseType(x), e);
  }
});

test('engine: pretty-printed names (print_pretty_type_names=1) parse to the one-line form', async () => {
  const t = "Tuple(a Tuple(`b c` Map(String, Tuple(d UInt8, e Array(Tuple(f String))))), g Enum8('x' = 1))";
  const text = new TextDecoder().decode(await engineBytes(
    `SELECT toTypeName(defaultValueOfTypeName(${sqlString(t)}))`, 'TSVRaw', { print_pretty_type_names: 1 }));
  assert.match(text, /\n {4}/, 'the engine printed several lines');
  assert.equal(printType(parseType(text)), t);
});

test('engine: binary_type_header fixture decodes to the ASTs of the same query\'s text header', async () => {
  const c = fixtureIndex().cases.find((x) => x.name === 'binary_type_header')!;
  const bin = fixtureBytes(c.name, 'rowbinary');
  const textBody = await engineBytes(c.query, 'RowBinaryWithNamesAndTypes');
  const { names, types } = headerTextTypes(textBody);
  let { typesOffset: off, names: binNames } = headerNames(bin);
  assert.deepStrictEqual(binNames, names);
  assert.ok(types.length >= 10);
  for (const [i, text] of types.entries()) {
    const r = readBinaryType(bin, off, bin.length);
    assert.deepStrictEqual(r.type, parseType(text), `column ${names[i]}: ${text}`);
    if (!hasUnorderedJsonLists(r.type)) assert.deepStrictEqual([...encodeBinaryType(r.type)], [...bin.subarray(off, r.offset)], `column ${names[i]}: re-encoding`);
    off = r.offset;
  }
});

test('engine: random engine-valid types print, parse and encode exactly as the engine does', async () => {
  await fc.assert(fc.asyncProperty(engineTypeArbitrary(2), async (t) => {
    checkAgainstEngine(printType(t), t, await engineType(printType(t)));
  }), { numRuns: Number(process.env.H1_RUNS ?? 60) });
});

/** Arguments a family cannot go without, to make a creatable type of it. */
const REQUIRED_ARGS: Readonly<Record<string, string>> = {
  FixedString: '(3)', Enum: "('a' = 1)", Enum8: "('a' = 1)", Enum16: "('a' = 1)",
  Decimal32: '(2)', Decimal64: '(2)', Decimal128: '(2)', Decimal256: '(2)',
};

test('engine: every alias and case-insensitive family of system.data_type_families', async () => {
  const rows = (await engineText("SELECT name, alias_to, case_insensitive FROM system.data_type_families WHERE alias_to != '' OR case_insensitive", 'TSV'))
    .split('\n').filter((l) => l.length > 0).map((l) => l.split('\t') as [string, string, string]);
  assert.ok(rows.length > 60, `only ${rows.length} families`);
  for (const [name, aliasTo, ci] of rows) {
    const args = REQUIRED_ARGS[aliasTo || name] ?? '';
    for (const spelling of ci === '1' ? [name, name.toLowerCase(), name.toUpperCase()] : [name]) {
      const text = spelling + args;
      checkAgainstEngine(text, parseType(text), await engineType(text));
    }
  }
});

test('engine: odd inputs are accepted and rejected as the engine accepts and rejects them', async () => {
  const inputs = [
    'UInt8(3)', 'Float64(2)', 'FLOAT(10, 2)', 'Int8(1, 2)', "Int32('x')", 'String(10)', 'String(1, 2)', 'Bool(1)',
    'UUID(1)', 'Nothing(1)', 'IPv4(1)', 'DateTime(0)', 'DateTime(3)', "DateTime(9, 'UTC')", 'Time(0)', 'Time(3)',
    'string', 'IPV4', 'fixedstring(3)', 'nullable(Int32)', "Enum8('a', 'b')", "Enum8('a' = 1, 'b', 'c' = 5, 'd')",
    'Tuple(DOUBLE PRECISION)', 'Array(DOUBLE PRECISION)', 'FixedString(0)', 'Decimal(0)', 'Decimal(77)', 'Dynamic(max_types=255)',
    'JSON(max_dynamic_types=255)', 'Decimal(10, 11)', "Tuple(a UInt8, `a` String)", 'Variant(UInt8, UInt8)',
  ];
  for (const x of inputs) {
    let engine: EngineType | undefined;
    try { engine = await engineType(x); } catch { engine = undefined; }
    if (engine === undefined) {
      assert.throws(() => parseType(x), ChwireTypeError, `the engine refuses ${x}; so must we`);
    } else {
      assert.equal(printType(parseType(x)), engine.text, x);
    }
  }
});
