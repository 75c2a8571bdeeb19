// Type-name parser and printer on fixed inputs: every type in the golden fixtures' headers, a
// hand-written corpus of hostile names, the AST shapes of the normalised aliases, whitespace and
// pretty-printed names, and the errors (ChwireTypeError with the position) of malformed names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChwireTypeError } from '../src/errors.js';
import { parseType, printType, type TypeNode } from '../src/types/index.js';
import { fixtureBytes, fixtureIndex } from './support/fixtures.js';
import { headerTextTypes } from './support/header.js';
import { CANONICAL_CORPUS } from './support/type-corpus.js';

test('print(parse(x)) === x for every column type of every golden fixture', () => {
  const seen = new Set<string>();
  for (const c of fixtureIndex().cases) {
    if (c.settings['output_format_binary_encode_types_in_binary_format'] !== undefined) continue;
    const bytes = fixtureBytes(c.name, 'rowbinary');
    if (bytes.length === 0) continue;
    for (const t of headerTextTypes(bytes).types) {
      seen.add(t);
      assert.equal(printType(parseType(t)), t, `fixture ${c.name}`);
    }
  }
  // The fixtures cover every family; make sure the loop did not silently see nothing.
  assert.ok(seen.size > 100, `only ${seen.size} distinct types`);
});

test('print(parse(x)) === x for a corpus of canonical names with hostile content', () => {
  for (const x of CANONICAL_CORPUS) assert.equal(printType(parseType(x)), x);
});

test('ASTs of selected names', () => {
  const cases: [string, TypeNode][] = [
    ["Enum8('it\\'s' = -1, 'b\\\\' = 2)", { kind: 'Enum8', entries: [{ label: "it's", value: -1 }, { label: 'b\\', value: 2 }] }],
    ['Tuple(`a b` UInt8, c String)', { kind: 'Tuple', elements: [{ kind: 'UInt8' }, { kind: 'String' }], names: ['a b', 'c'] }],
    ['Tuple(UInt8, Nullable(String))', { kind: 'Tuple', elements: [{ kind: 'UInt8' }, { kind: 'Nullable', inner: { kind: 'String' } }] }],
    ["DateTime64(6, 'UTC')", { kind: 'DateTime64', precision: 6, timezone: 'UTC' }],
    ['DateTime', { kind: 'DateTime' }],
    ['IntervalQuarter', { kind: 'Interval', unit: 'Quarter' }],
    ['SimpleAggregateFunction(sum, UInt64)', { kind: 'SimpleAggregateFunction', func: 'sum', inner: { kind: 'UInt64' } }],
    ['AggregateFunction(groupArray(3), UInt8)', { kind: 'AggregateFunction', args: 'groupArray(3), UInt8' }],
    ['QBit(Float32, 3)', { kind: 'QBit', element: { kind: 'Float32' }, dimension: 3 }],
    ["JSON(a.b UInt8, SKIP `c`.d, SKIP REGEXP 're')", {
      kind: 'JSON', typedPaths: [{ path: 'a.b', type: { kind: 'UInt8' } }], skipPaths: ['c.d'], skipRegexps: ['re'],
    }],
    ['Nested(a UInt8)', { kind: 'Nested', names: ['a'], elements: [{ kind: 'UInt8' }] }],
    ['Point', { kind: 'Point' }],
  ];
  for (const [text, ast] of cases) assert.deepStrictEqual(parseType(text), ast, text);
});

test('aliases and defaults normalise to what the server prints', () => {
  const cases: [string, string][] = [
    ['Decimal32(2)', 'Decimal(9, 2)'],
    ['Decimal64(3)', 'Decimal(18, 3)'],
    ['Decimal128(0)', 'Decimal(38, 0)'],
    ['Decimal256(20)', 'Decimal(76, 20)'],
    ['Decimal(5)', 'Decimal(5, 0)'],
    ['Decimal', 'Decimal(10, 0)'],
    ['DateTime64', 'DateTime64(3)'],
    ['Time64', 'Time64(3)'],
    ['Dynamic(max_types=32)', 'Dynamic'],
    ['Dynamic( max_types = 5 )', 'Dynamic(max_types=5)'],
    ['JSON(max_dynamic_paths=1024, max_dynamic_types=32)', 'JSON'],
    ['JSON()', 'JSON'],
    ['JSON(max_dynamic_paths = 3, max_dynamic_types = 2)', 'JSON(max_dynamic_types=2, max_dynamic_paths=3)'],
    // Enum without explicit values: the server numbers them from 1, each the previous + 1.
    ["Enum8('a', 'b', 'c')", "Enum8('a' = 1, 'b' = 2, 'c' = 3)"],
    ["Enum('a' = 5, 'b')", "Enum8('a' = 5, 'b' = 6)"],
    ["Enum('a' = 5, 'b' = 300)", "Enum16('a' = 5, 'b' = 300)"],
    // Other escapes the server's parser accepts, printed in the server's escape set.
    ["Enum8('h\\xC3\\xA9' = 1, 'it''s' = 2, '\\z' = 3, '\\a\\v\\e' = 4)", "Enum8('hé' = 1, 'it\\'s' = 2, 'z' = 3, '\x07\x0b\x1b' = 4)"],
    ['Tuple(`a``b` UInt8)', 'Tuple(`a\\`b` UInt8)'],
    ['Tuple(`plain` UInt8)', 'Tuple(plain UInt8)'],
    // Variant members are sorted by name and deduplicated: the discriminator indexes that order.
    ['Variant(UInt64, String, Array(UInt8), String)', 'Variant(Array(UInt8), String, UInt64)'],
  ];
  for (const [text, canonical] of cases) assert.equal(printType(parseType(text)), canonical, text);
});

test('SQL aliases and case-insensitive families resolve as the server resolves them', () => {
  const cases: [string, string][] = [
    ['INT', 'Int32'], ['int unsigned', 'UInt32'], ['BIGINT  UNSIGNED', 'UInt64'], ['DOUBLE PRECISION', 'Float64'],
    ['national character large object', 'String'], ['VARCHAR(255)', 'String'], ['INT(11)', 'Int32'],
    ['FLOAT(10, 2)', 'Float32'], ['UInt8(3)', 'UInt8'], ['BINARY(5)', 'FixedString(5)'], ['DEC(10, 2)', 'Decimal(10, 2)'],
    ['TIMESTAMP', 'DateTime'], ['TIMESTAMP(3)', 'DateTime64(3)'], ["DateTime(3, 'UTC')", "DateTime64(3, 'UTC')"],
    ['DateTime(0)', 'DateTime'], ['TIME(6)', 'Time64(6)'], ['Time(0)', 'Time'], ['datetime64', 'DateTime64(3)'],
    ['bool', 'Bool'], ['json', 'JSON'], ['decimal32(2)', 'Decimal(9, 2)'], ["ENUM('a' = 1)", "Enum8('a' = 1)"],
    ['Nullable(varchar)', 'Nullable(String)'], ['Array(DOUBLE PRECISION)', 'Array(Float64)'], ['Nested(a INT)', 'Nested(a Int32)'],
    ['Map(TEXT, BIGINT SIGNED)', 'Map(String, Int64)'], ['SET', 'UInt64'], ['INET6', 'IPv6'],
  ];
  for (const [text, canonical] of cases) assert.equal(printType(parseType(text)), canonical, text);
});

test('whitespace and newlines between tokens (pretty-printed DESCRIBE output)', () => {
  const pretty = 'Tuple(\n    x UInt8,\n    `y z` Map(\n        String,\n        Array(Nullable(String))))';
  assert.equal(printType(parseType(pretty)), 'Tuple(x UInt8, `y z` Map(String, Array(Nullable(String))))');
  assert.equal(printType(parseType("  Nullable ( DateTime64 ( 3 , 'UTC' ) )\n")), "Nullable(DateTime64(3, 'UTC'))");
  assert.equal(printType(parseType("\tEnum8 ( 'a' = -1 ,\n'b'=2 )")), "Enum8('a' = -1, 'b' = 2)");
});

test('malformed names throw ChwireTypeError with the position of the problem', () => {
  const cases: [string, number][] = [
    ['Array(', 6],
    ['Decimal(x)', 8],
    ["Enum8('a' = )", 12],
    ['FixedString(-1)', 12],
    ['FixedString(0)', 12],
    ['Strin', 0],
    ['Array(Foo)', 6],
    ['UInt8 garbage', 6],
    ['UInt8)', 5],
    ['Nullable(UInt8', 14],
    ['', 0],
    ['Bool(1)', 4],
    ['UUID(1)', 4],
    ['Int8(1, 2)', 8], // one ignored display width at most, as the server says
    ["Int32('x')", 6],
    ['string', 0], // String is case-sensitive on the server too
    ['Decimal(77, 2)', 8],
    ['Decimal(10, 11)', 12],
    ['DateTime64(10)', 11],
    ["DateTime('UTC", 9],
    ["Enum8('a' = 1, 'a' = 2)", 15],
    ["Enum8('a' = 1, 'b' = 1)", 19],
    ["Enum8('a' = 1, 'b', 'c' = 5)", 20],
    ["Enum8('a' = 127, 'b')", 0],
    ["Enum8('a' = 128)", 0],
    ['Tuple(a UInt8, String)', 15],
    ['Map(String)', 10],
    ['Dynamic(max_types=255)', 18],
    ['Dynamic(size=3)', 8],
    ["Enum8('a\\x4' = 1)", 8],
    ['Object(\'json\')', 0],
    ['AggregateFunction()', 18],
    ['AggregateFunction(sum, UInt8', 17], // the unclosed "("
    ['Tuple(`a UInt8)', 6],
  ];
  for (const [text, position] of cases) {
    assert.throws(() => parseType(text), (e: unknown) => {
      assert.ok(e instanceof ChwireTypeError, `${text}: ${String(e)}`);
      assert.equal(e.text, text);
      assert.equal(e.position, position, `${text}: ${e.message}`);
      assert.match(e.message, /at position \d+ in type/);
      return true;
    }, text);
  }
});

test('nesting deeper than the limit is an error, not a stack overflow', () => {
  const deep = 'Array('.repeat(1001) + 'UInt8' + ')'.repeat(1001);
  assert.throws(() => parseType(deep), ChwireTypeError);
  const ok = 'Array('.repeat(100) + 'UInt8' + ')'.repeat(100);
  assert.equal(printType(parseType(ok)), ok);
});

test('a negative zero in an enum value is the integer 0 (found by the mangled-names property)', () => {
  const t = parseType("Enum8('a' = -00)");
  assert.ok(t.kind === 'Enum8' && Object.is(t.entries[0]!.value, 0));
  assert.deepStrictEqual(parseType(printType(t)), t);
});
