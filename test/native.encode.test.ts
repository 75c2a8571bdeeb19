// The Native encoder judged by the engine: for every type, JS input values are encoded, the engine
// reads the file (`file(..., 'Native')`, with and without an explicit structure, and through
// INSERT ... FROM INFILE into a Memory table), and what it prints must equal what it prints for
// the same values written as SQL expressions. No expected output is written by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileNativeEncoder } from '../src/native/write/encoder.js';
import { nativeBlocks } from '../src/native/write/blocks.js';
import { engineJsonRows } from './support/engine.js';
import { writeNativeFile, engineReadNative, engineInsertNative, sqlString } from './support/native-engine.js';

/** [type, [JS input, SQL expression of the same value]...] */
type Case = [string, [unknown, string][]];

const UUID = '00112233-4455-6677-8899-aabbccddeeff';
const CASES: Case[] = [
  ['UInt8', [[0, '0'], [255, '255'], [7n, '7'], ['12', '12']]],
  ['Int8', [[-128, '-128'], [127, '127'], [-1, '-1']]],
  ['UInt16', [[65535, '65535'], [0, '0']]],
  ['Int16', [[-32768, '-32768'], [32767, '32767']]],
  ['UInt32', [[4294967295, '4294967295'], [1, '1']]],
  ['Int32', [[-2147483648, '-2147483648'], [2147483647, '2147483647']]],
  // Numbers on both sides of the one-word (32-bit) fast path of the 64-bit columns.
  ['UInt64', [[0, '0'], [18446744073709551615n, '18446744073709551615'], [Number.MAX_SAFE_INTEGER, String(Number.MAX_SAFE_INTEGER)], ['123', '123'],
    [2 ** 32 - 1, String(2 ** 32 - 1)], [2 ** 32, String(2 ** 32)], [-0, '0']]],
  ['Int64', [[-9223372036854775808n, '-9223372036854775808'], [9223372036854775807n, '9223372036854775807'], [-1, '-1'], [-(2 ** 40) - 3, String(-(2 ** 40) - 3)],
    [-(2 ** 31), String(-(2 ** 31))], [-(2 ** 31) - 1, String(-(2 ** 31) - 1)], [2 ** 31 - 1, String(2 ** 31 - 1)], [2 ** 31, String(2 ** 31)], [Number.MIN_SAFE_INTEGER, String(Number.MIN_SAFE_INTEGER)]]],
  ['UInt128', [[2n ** 128n - 1n, `'${2n ** 128n - 1n}'`], [5, '5']]],
  ['Int128', [[-(2n ** 127n), `'${-(2n ** 127n)}'`], [-2n, '-2']]],
  ['UInt256', [[2n ** 256n - 1n, `'${2n ** 256n - 1n}'`], [0, '0']]],
  ['Int256', [[-(2n ** 255n), `'${-(2n ** 255n)}'`], [2n ** 255n - 1n, `'${2n ** 255n - 1n}'`], [-7, '-7']]],
  ['Float32', [[1.5, '1.5'], [-0.25, '-0.25'], [Infinity, 'inf'], ['nan', 'nan']]],
  ['Float64', [[0.1, '0.1'], [-1e308, '-1e308'], [5e-324, '5e-324'], [-Infinity, '-inf']]],
  ['BFloat16', [[1.5, '1.5'], [-2, '-2']]],
  ['Bool', [[true, 'true'], [false, 'false'], [1, 'true'], [0, 'false']]],
  ['Decimal(9, 2)', [['-1.5', '-1.5'], [123.45, '123.45'], [3n, '3'], ['9999999.99', '9999999.99'], ['1.50000', '1.5']]],
  ['Decimal(18, 3)', [['123456789012345.678', "'123456789012345.678'"], ['-0.001', "'-0.001'"], ['1e-3', "'0.001'"], [12e3, '12000']]],
  ['Decimal(38, 10)', [['-1', '-1'], ['1234567890123456789012345678.0123456789', "'1234567890123456789012345678.0123456789'"]]],
  ['Decimal(76, 5)', [['-12345678901234567890123456789012345678901234567890123456789012345678901.12345', "'-12345678901234567890123456789012345678901234567890123456789012345678901.12345'"]]],
  ['String', [['', "''"], ['hé\u0000\n', "'hé\\0\\n'"], ['x'.repeat(300), `repeat('x', 300)`], [new Uint8Array([0xff, 0x00]), "unhex('FF00')"], ['🎉'.repeat(50), `repeat('🎉', 50)`]]],
  ['FixedString(4)', [['ab', "'ab'"], ['abcd', "'abcd'"], [new Uint8Array([1, 2, 3, 4]), "unhex('01020304')"], ['é', "'é'"]]],
  ['Date', [[new Date(Date.UTC(2024, 1, 29)), "'2024-02-29'"], ['1970-01-01', "'1970-01-01'"], ['2149-06-06', "'2149-06-06'"], [10957, "'2000-01-01'"]]],
  ['Date32', [['1900-01-01', "'1900-01-01'"], ['2299-12-31', "'2299-12-31'"], [new Date(Date.UTC(1969, 11, 31)), "'1969-12-31'"]]],
  ["DateTime('UTC')", [[new Date(Date.UTC(2024, 0, 2, 3, 4, 5)), "'2024-01-02 03:04:05'"], ['2106-02-07T06:28:15Z', "'2106-02-07 06:28:15'"], [1500, "'1970-01-01 00:25:00'"], ['2024-01-02 05:04:05+02:00', "'2024-01-02 03:04:05'"]]],
  ["DateTime64(3, 'UTC')", [[new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 678)), "'2024-01-02 03:04:05.678'"], [-1, "'1969-12-31 23:59:59.999'"], ['1900-01-01T00:00:00.001Z', "'1900-01-01 00:00:00.001'"]]],
  ["DateTime64(9, 'UTC')", [['1969-12-31T23:59:59.123456789Z', "'1969-12-31 23:59:59.123456789'"], [1n, "'1970-01-01 00:00:00.000000001'"], [new Date(1234), "'1970-01-01 00:00:01.234'"]]],
  ["DateTime64(0, 'UTC')", [[new Date(1999), "'1970-01-01 00:00:01'"]]],
  ['Time', [['12:34:56', "'12:34:56'"], [-3600, "'-01:00:00'"], ['999:59:59', "'999:59:59'"]]],
  ['Time64(3)', [['12:34:56.789', "'12:34:56.789'"], [1.5, "'00:00:01.5'"], ['-00:00:01.250', "'-00:00:01.25'"]]],
  ["Enum8('a' = -128, 'b' = 1, 'it''s' = 127)", [['b', "'b'"], [-128, "'a'"], ["it's", "'it''s'"]]],
  ["Enum16('z' = 1000, 'y' = -1000)", [['z', "'z'"], [-1000, "'y'"]]],
  ['UUID', [[UUID, `'${UUID}'`], [new Uint8Array([0, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff]), `'${UUID}'`]]],
  ['IPv4', [['1.2.3.4', "'1.2.3.4'"], [0xffffffff, "'255.255.255.255'"]]],
  ['IPv6', [['2001:db8::ff00:42:8329', "'2001:db8::ff00:42:8329'"], ['::ffff:1.2.3.4', "'::ffff:1.2.3.4'"], ['1.2.3.4', "'::ffff:1.2.3.4'"], ['::', "'::'"], ['1::', "'1::'"]]],
  ['IntervalDay', [[-1, 'toIntervalDay(-1)'], [5n, 'toIntervalDay(5)']]],
  ['Nullable(Int32)', [[null, 'NULL'], [-5, '-5'], [undefined, 'NULL']]],
  ['Nullable(String)', [[null, 'NULL'], ['', "''"], ['s', "'s'"]]],
  ['Nullable(Decimal(9, 2))', [[null, 'NULL'], ['1.25', '1.25']]],
  ['LowCardinality(String)', [['a', "'a'"], ['b', "'b'"], ['a', "'a'"], ['', "''"]]],
  ['LowCardinality(Nullable(String))', [['a', "'a'"], [null, 'NULL'], ['a', "'a'"], ['', "''"]]],
  ['LowCardinality(UInt32)', [[7, '7'], [7, '7'], [0, '0']]],
  ['Array(UInt8)', [[[], '[]'], [[1, 2, 3], '[1, 2, 3]'], [new Uint8Array([9]), '[9]']]],
  ['Array(Array(Nullable(String)))', [[[[null, 'x'], []], "[[NULL, 'x'], []]"], [[], '[]']]],
  ['Array(LowCardinality(String))', [[['x', 'y', 'x'], "['x', 'y', 'x']"], [[], '[]']]],
  ['Array(Int64)', [[[], '[]'], [[1n, -2, '3'], '[1, -2, 3]']]],
  ['Tuple(UInt8, String)', [[[1, 'x'], "(1, 'x')"]]],
  ['Tuple(a UInt8, b Nullable(String))', [[{ a: 1, b: null }, '(1, NULL)'], [[2, 'q'], "(2, 'q')"], [{ a: 3 }, '(3, NULL)']]],
  ['Map(String, UInt64)', [[{ a: 1, b: 2n }, "map('a', 1, 'b', 2)"], [{}, 'map()'], [new Map([['k', 3]]), "map('k', 3)"]]],
  ['Map(UInt8, Array(String))', [[new Map([[1, ['x']], [2, []]]), "map(1, ['x'], 2, [])"], [{ 5: ['y'] }, "map(5, ['y'])"]]],
  ['Map(LowCardinality(String), LowCardinality(String))', [[{ a: 'x', b: 'x' }, "map('a', 'x', 'b', 'x')"]]],
  ['Nested(a UInt8, b String)', [[[{ a: 1, b: 'x' }, [2, 'y']], "[(1, 'x'), (2, 'y')]"], [[], '[]']]],
  ['Variant(String, UInt64)', [[42, '42::UInt64'], [null, 'NULL'], ['s', "'s'"]]],
  ['Variant(UInt64, String)', [[7, '7::UInt64'], ['x', "'x'"]]],
  ['Variant(Array(UInt8), Float64, String)', [[[1], '[1]::Array(UInt8)'], [1.5, '1.5::Float64'], ['t', "'t'"]]],
  ['JSON', [[{ a: 1, b: { c: 'x' } }, `'{"a":1,"b":{"c":"x"}}'`], ['{"z": [1, 2], "s": "t"}', `'{"z": [1, 2], "s": "t"}'`], [{}, "'{}'"], [{ big: 2n ** 63n - 1n }, `'{"big": 9223372036854775807}'`]]],
  ['Dynamic', [[1, '1::Int64'], ['s', "'s'"], [null, 'NULL'], [1.5, '1.5::Float64'], [true, 'true'], [2n ** 64n - 1n, '18446744073709551615::UInt64'], [new Date(1500), "toDateTime64('1970-01-01 00:00:01.500', 3, 'UTC')"],
    [[1, -2n], '[1, -2]::Array(Int64)'], [[1, 2.5], '[1, 2.5]::Array(Float64)'], [['a', new Uint8Array([0x62])], "['a', 'b']::Array(String)"], [[true, false], '[true, false]::Array(Bool)'],
    [[], '[]::Array(String)'], [[new Date(0)], "[toDateTime64(0, 3, 'UTC')]::Array(DateTime64(3, 'UTC'))"]]],
  ['Array(Dynamic)', [[[1, 'x', null], "[1::Int64, 'x', NULL]::Array(Dynamic)"], [[], '[]::Array(UInt8)']]],
  ['Point', [[[1.5, -2], '(1.5, -2)']]],
  ['Ring', [[[[0, 0], [1, 1]], '[(0, 0), (1, 1)]']]],
  ['Polygon', [[[[[0, 0], [1, 0]], []], '[[(0, 0), (1, 0)], []]']]],
  ['MultiPolygon', [[[[[[0, 0]]]], '[[[(0, 0)]]]']]],
  ['SimpleAggregateFunction(sum, UInt64)', [[5, '5']]],
  ['Nullable(Nothing)', [[null, 'NULL'], [null, 'NULL']]],
];

/** Engine settings for reading back: allow every type we write; keep Nested as one column. */
const READ = { allow_suspicious_low_cardinality_types: 1, flatten_nested: 0 };

/** What the engine prints for these SQL values cast to `type`, in order. */
function expectedRows(type: string, exprs: string[]): Promise<unknown[][]> {
  const parts = exprs.map((e, i) => `SELECT ${i} AS k, CAST(${e}, ${sqlString(type)}) AS c`);
  return engineJsonRows(`SELECT c FROM (${parts.join(' UNION ALL ')}) ORDER BY k`, { allow_suspicious_variant_types: 1, allow_suspicious_low_cardinality_types: 1 });
}

for (const [type, pairs] of CASES) {
  test(`encode ${type}: the engine reads what the SQL values give`, async () => {
    const want = await expectedRows(type, pairs.map((p) => p[1]));
    for (const shape of ['object', 'array'] as const) {
      const enc = compileNativeEncoder([{ name: 'c', type }], shape);
      const rows = pairs.map((p) => (shape === 'object' ? { c: p[0] } : [p[0]]));
      const path = writeNativeFile([enc.encodeBlock(rows, 0, rows.length, 0)]);
      assert.deepEqual(await engineReadNative(path, undefined, READ), want, `${shape} rows, structure from the file`);
      if (shape === 'object') {
        assert.deepEqual(await engineReadNative(path, `c ${type}`, READ), want, 'explicit structure');
      }
    }
  });
}

test('encode: a mixed schema in several blocks goes through INSERT ... FROM INFILE', async () => {
  const columns = [
    { name: 'id', type: 'UInt64' }, { name: 's', type: 'String' }, { name: 'd', type: "DateTime('UTC')" },
    { name: 'f', type: 'Float64' }, { name: 'i', type: 'Int32' }, { name: 'lc', type: 'LowCardinality(Nullable(String))' },
    { name: 'a', type: 'Array(Nullable(Int16))' }, { name: 'm', type: 'Map(String, Decimal(18, 4))' },
  ];
  const enc = compileNativeEncoder(columns, 'object');
  const rows = Array.from({ length: 1000 }, (_, k) => ({
    id: k, s: `s${k % 17}é`, d: new Date(Date.UTC(2020, 0, 1) + k * 1000), f: k / 7, i: -k * 1000,
    lc: k % 5 === 0 ? null : `v${k % 3}`, a: k % 4 === 0 ? [] : [k % 100, null], m: { x: `${k}.0001` },
  }));
  const blocks: Uint8Array[][] = [];
  for await (const b of nativeBlocks(rows, enc, 300)) blocks.push(b);
  assert.equal(blocks.length, 4);
  const path = writeNativeFile(blocks);
  const got = await engineInsertNative(path, 'h5_mixed', columns.map((c) => `${c.name} ${c.type}`).join(', '));
  const want = await engineJsonRows(
    `SELECT number AS id, concat('s', toString(number % 17), 'é'), toDateTime('2020-01-01 00:00:00', 'UTC') + number, number / 7, toInt32(-1000 * number),
       if(number % 5 = 0, NULL, concat('v', toString(number % 3)))::LowCardinality(Nullable(String)),
       if(number % 4 = 0, [], [toInt16(number % 100), NULL]), map('x', toDecimal64(concat(toString(number), '.0001'), 4))
     FROM numbers(1000)`,
  );
  assert.deepEqual(got, want);
});

test('encode: LowCardinality dictionaries of 300 and 70 000 entries (UInt16 and UInt32 keys)', async () => {
  for (const distinct of [300, 70000]) {
    const enc = compileNativeEncoder([{ name: 'k', type: 'UInt32' }, { name: 'lc', type: 'LowCardinality(Nullable(String))' }], 'array');
    const rows = Array.from({ length: distinct + 5 }, (_, k) => [k, k % 7 === 3 ? null : `v${k % distinct}`]);
    const path = writeNativeFile([enc.encodeBlock(rows, 0, rows.length, 0)]);
    const got = await engineReadNative(path);
    const want = await engineJsonRows(`SELECT toUInt32(number), if(number % 7 = 3, NULL, concat('v', toString(number % ${distinct}))) FROM numbers(${distinct + 5})`);
    assert.deepEqual(got, want);
  }
});

test('encode: Dynamic values get the documented types', async () => {
  const enc = compileNativeEncoder([{ name: 'd', type: 'Dynamic' }], 'array');
  const values = [1, 'x', null, 1.5, true, 2n ** 64n - 1n, -(2n ** 63n), new Date(0), new Uint8Array([0x61]), [1, 2], [0.5, 1], ['x'], [true], [new Date(0)], [], [3n]];
  const path = writeNativeFile([enc.encodeBlock(values.map((v) => [v]), 0, values.length, 0)]);
  const got = await engineJsonRows(`SELECT dynamicType(d) FROM file(${sqlString(path)}, 'Native', 'd Dynamic')`);
  assert.deepEqual(got.map((r) => r[0]), ['Int64', 'String', 'None', 'Float64', 'Bool', 'UInt64', 'Int64', "DateTime64(3, 'UTC')", 'String',
    'Array(Int64)', 'Array(Float64)', 'Array(String)', 'Array(Bool)', "Array(DateTime64(3, 'UTC'))", 'Array(String)', 'Array(Int64)']);
  assert.throws(() => enc.encodeBlock([[{}]], 0, 1, 0), /Dynamic value/);
  for (const bad of [[1, 'x'], [null], [[1]], [2n ** 64n - 1n], [1n, 0.5]]) {
    assert.throws(() => enc.encodeBlock([[bad]], 0, 1, 0), /Dynamic array/, JSON.stringify(bad, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x)));
  }
});

test('encode: object rows may list the columns in any order and omit Nullable ones', async () => {
  const enc = compileNativeEncoder([{ name: 'a', type: 'UInt8' }, { name: 'b', type: 'Nullable(String)' }], 'object');
  const path = writeNativeFile([enc.encodeBlock([{ b: 'x', a: 1 }, { a: 2 }, { a: 3, b: undefined }], 0, 3, 0)]);
  assert.deepEqual(await engineReadNative(path), [[1, 'x'], [2, null], [3, null]]);
});

test('encode: hostile column names become neither code nor prototypes', async () => {
  const names = ['__proto__', 'constructor', 'a"b', "it's", 'x\\', '*/', '${x}', '\u2028', 'toString', 'é'];
  const columns = names.map((name, k) => ({ name, type: k % 2 ? 'String' : 'UInt8' }));
  const enc = compileNativeEncoder(columns, 'object');
  for (const n of ['a"b', "it's", '*/', '${x}', '\u2028']) assert.ok(!enc.source.includes(n) || enc.source.includes(JSON.stringify(n)), `name ${JSON.stringify(n)} only appears quoted`);
  assert.ok(!enc.source.includes('"__proto__"') && !enc.source.includes('"constructor"'), 'inherited names are read as own properties through K');
  const row: Record<string, unknown> = {};
  columns.forEach((c, k) => Object.defineProperty(row, c.name, { value: k % 2 ? `v${k}` : k, enumerable: true }));
  const path = writeNativeFile([enc.encodeBlock([row], 0, 1, 0)]);
  const want = [columns.map((_c, k) => (k % 2 ? `v${k}` : k))];
  assert.deepEqual(await engineReadNative(path), want);
  // Without an own `constructor` key the inherited Object function must not be read.
  const enc2 = compileNativeEncoder([{ name: 'constructor', type: 'Nullable(String)' }], 'object');
  assert.deepEqual(await engineReadNative(writeNativeFile([enc2.encodeBlock([{}], 0, 1, 0)])), [[null]]);
});

test('encode: the generated source names its sourceURL and is cached per schema and shape', () => {
  const cols = [{ name: 'a', type: 'UInt8' }];
  const e1 = compileNativeEncoder(cols, 'object');
  assert.equal(compileNativeEncoder([{ name: 'a', type: 'UInt8' }], 'object'), e1);
  assert.notEqual(compileNativeEncoder(cols, 'array'), e1);
  assert.match(e1.source, /\/\/# sourceURL=chwire\/native-encoder\/[0-9a-f]{16}\.js\n$/);
});

test('encode: bad schemas are rejected when compiling', () => {
  assert.throws(() => compileNativeEncoder([{ name: '', type: 'UInt8' }], 'object'), /empty/);
  assert.throws(() => compileNativeEncoder([{ name: 'a', type: 'UInt8' }, { name: 'a', type: 'String' }], 'array'), /twice/);
  assert.throws(() => compileNativeEncoder([{ name: 'a', type: 'Geometry' }], 'object'), (e: Error) => e.name === 'ChwireTypeError');
  assert.throws(() => compileNativeEncoder([{ name: 'a', type: 'Array(' }], 'object'), (e: Error) => e.name === 'ChwireTypeError');
});

test('encode: an empty range gives no bytes and nativeBlocks never yields an empty block', async () => {
  const enc = compileNativeEncoder([{ name: 'a', type: 'UInt8' }], 'object');
  assert.deepEqual(enc.encodeBlock([], 0, 0, 0), []);
  const none: Uint8Array[][] = [];
  for await (const b of nativeBlocks([], enc, 10)) none.push(b);
  for await (const b of nativeBlocks((async function* () {})(), enc, 0)) none.push(b);
  assert.equal(none.length, 0);
});
