// Map keys under maps:'object' are the engine's own text of each key (issue 10, item 9): for keys
// of every type, the property names of a decoded Map equal the keys of the engine's JSON output of
// the same Map (and its toString of each key), in order, on every read path: RowBinary compiled,
// prebuilt readers (deep nesting), reference and streamed; Native rows and Native columns.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeRowBinary, decodeRowBinaryReference, createRowBinaryDecoder, decodeNative, decodeNativeColumns } from '../src/codec.js';
import { engineBytes, engineText } from './support/engine.js';

const UTC = { session_timezone: 'UTC' };

const obj = (row: unknown): Record<string, unknown> => row as Record<string, unknown>;

/** The decoded Map of column `v` on every path, as [path, object] pairs. */
async function decodedEverywhere(sql: string): Promise<[string, Record<string, unknown>][]> {
  const rb = await engineBytes(sql, 'RowBinaryWithNamesAndTypes', UTC);
  const nat = await engineBytes(sql, 'Native', UTC);
  const streamed = createRowBinaryDecoder();
  const rows = [...streamed.push(rb.slice(0, 5)), ...streamed.push(rb.slice(5))] as Record<string, unknown>[];
  streamed.end();
  const cols = decodeNativeColumns(nat);
  const at = cols.names.indexOf('v');
  return [
    ['rowbinary compiled', obj(decodeRowBinary(rb).rows[0]).v as Record<string, unknown>],
    ['rowbinary reference', obj(decodeRowBinaryReference(rb).rows[0]).v as Record<string, unknown>],
    ['rowbinary streamed', rows[0]!.v as Record<string, unknown>],
    // Nested 4 levels deep, the compiled decoder hands the Map to the prebuilt readers.
    ['rowbinary prebuilt', ((((obj(decodeRowBinary(rb).rows[0]).deep as unknown[])[0] as unknown[])[0] as unknown[])[0] as unknown[])[0] as Record<string, unknown>],
    ['native rows', obj(decodeNative(nat).rows[0]).v as Record<string, unknown>],
    ['native columns', (cols.columns[at] as unknown[])[0] as Record<string, unknown>],
  ];
}

/** The engine's text of each key of `mapExpr`: the keys of its JSON output, and toString of each. */
async function engineKeys(mapExpr: string): Promise<{ json: string[]; toString: string[] }> {
  const line = await engineText(`SELECT ${mapExpr} AS v, arrayMap(x -> toString(x), mapKeys(v)) AS t`, 'JSONEachRow', UTC);
  const row = JSON.parse(line) as { v: Record<string, unknown>; t: string[] };
  return { json: Object.keys(row.v), toString: row.t };
}

async function checkKeys(mapExpr: string): Promise<void> {
  const sql = `SELECT ${mapExpr} AS v, [[[[v]]]] AS deep`;
  const engine = await engineKeys(mapExpr);
  for (const [path, obj] of await decodedEverywhere(sql)) {
    assert.deepEqual(Object.keys(obj), engine.json, `${path}: ${mapExpr}`);
    // One value per distinct key: no two keys collided.
    assert.equal(Object.keys(obj).length, engine.toString.length, `${path}: ${mapExpr} keys collided`);
  }
}

// Two keys per map that String(value) of the decoded key used to print alike, or that print
// differently in the engine than in JavaScript; the map's values number the keys.
const KEY_CASES: string[] = [
  "map(['a,b'], 1, ['a','b'], 2)",
  "map(('a,b','c'), 1, ('a','b,c'), 2)",
  "map(CAST(('x', 1), 'Tuple(s String, n UInt8)'), 1, CAST(('x,1', 2), 'Tuple(s String, n UInt8)'), 2)",
  "map(['it''s', 'back\\\\slash', 'new\\nline', 'tab\\tnul\\0', 'ctl\\x01\\x7f\\x08\\x0c\\r'], 1, [''], 2, CAST([], 'Array(String)'), 3)",
  "map(CAST(['a', NULL], 'Array(Nullable(String))'), 1, CAST(['a', 'NULL'], 'Array(Nullable(String))'), 2)",
  "map([[1, 2], [3]], 1, [[1], [2, 3]], 2)",
  "map(tuple(1), 1, tuple(2), 2)",
  "map(map('a', 1), 1, map('a', 2, 'b', 3), 2)",
  "map([toFixedString('a', 2)], 1, [toFixedString('ab', 2)], 2, [toFixedString('\\'', 2)], 3)",
  // Keys of mixed types: the engine makes the key a Variant.
  "map([toDateTime('2024-01-02 03:04:05', 'UTC')], 1, (toDateTime64('2024-01-02 03:04:05.5', 1, 'Asia/Kolkata'), toDate('2024-01-02')), 2, ['x'], 3)",
  "map(1, 1, 'a', 2, toDate('2024-01-02'), 3, [1.5], 4, toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0'), 5, toInt64(-7), 6)",
  "map(toFixedString('ab', 3), 1, toFixedString('a', 3), 2)",
  "map(CAST(1.5, 'Float64'), 1, nan, 2, inf, 3, -inf, 4, CAST(-0., 'Float64'), 5, 0., 6, 1e21, 7, 1e-7, 8, 1e20, 9, 5e-324, 10)",
  "map(toFloat32(0.1), 1, toFloat32(3.4e38), 2, toFloat32(16777217), 3, toFloat32(-0.), 4, toFloat32(1e-45), 5)",
  "map(toBFloat16(1.1), 1, toBFloat16(-3), 2)",
  "map([1.5, nan, -inf, -0.], 1, [0.1], 2)",
  "map(toDateTime('2024-01-02 03:04:05', 'UTC'), 1, toDateTime(0, 'UTC'), 2)",
  "map(toDateTime('2024-01-02 03:04:05', 'Asia/Tokyo'), 1, toDateTime('2024-07-01 00:00:00', 'America/New_York'), 2)",
  "map(toDateTime('2024-01-02 03:04:05'), 1)",
  "map(toDateTime64('1969-12-31 23:59:59.999', 3, 'UTC'), 1, toDateTime64('2024-03-10 02:30:00.123456', 6, 'Europe/Berlin'), 2)",
  "map([toDateTime('2024-01-02 03:04:05', 'UTC')], 1, (toDateTime64('2024-01-02 03:04:05.5', 1, 'Asia/Kolkata'), toDate('2024-01-02')), 2)",
  "map(toDate('2024-01-02'), 1, toDate32('1900-01-01'), 2)",
  "map([toDate('2024-01-02')], 1, [toDate32('1900-01-01')], 2)",
  "map(true, 1, false, 2)",
  "map([true], 1, [false], 2)",
  "map(toInt64(-5), 1, toUInt64(18446744073709551615), 2, toInt128(-170141183460469231731687303715884105728), 3)",
  "map([toInt64(-5)], 1, [toUInt256(12)], 2)",
  "map(toDecimal32(1.5, 3), 1, toDecimal128(-0.001, 10), 2)",
  "map([toDecimal64(-1.50, 2)], 1, [toDecimal32(2, 1)], 2)",
  "map(toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0'), 1)",
  "map([toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0')], 1)",
  "map(toIPv4('1.2.3.4'), 1)",
  "map(toIPv6('::1'), 1)",
  "map((toIPv4('1.2.3.4'), toIPv6('2001:db8::1')), 1)",
  "map(CAST('a', 'Enum8(\\'a\\' = 1, \\'b,c\\' = 2)'), 1, CAST('b,c', 'Enum8(\\'a\\' = 1, \\'b,c\\' = 2)'), 2)",
  "map(CAST(['b,c'], 'Array(Enum8(\\'a\\' = 1, \\'b,c\\' = 2))'), 1, CAST(['a'], 'Array(Enum8(\\'a\\' = 1, \\'b,c\\' = 2))'), 2)",
  "map(toLowCardinality('__proto__'), 1, toLowCardinality('x'), 2)",
  "map([toLowCardinality('a,b')], 1, [toLowCardinality('a'), toLowCardinality('b')], 2)",
  "map('__proto__', 1, 'constructor', 2)",
];

for (const expr of KEY_CASES) {
  test(`map keys are the engine's text: ${expr}`, async () => {
    await checkKeys(expr);
  });
}

test('map keys: Time and Time64 keys, alone and inside arrays', async (t) => {
  const expr = "map(CAST(-3600, 'Time'), 1, CAST(59, 'Time'), 2)";
  try {
    await engineKeys(expr);
  } catch {
    t.skip('this engine has no Time map keys');
    return;
  }
  await checkKeys(expr);
  await checkKeys("map([CAST(-3600, 'Time')], 1, [CAST('12:34:56.789', 'Time64(3)')], 2)");
});

test('map keys: arrays of arbitrary strings are quoted as the engine quotes them (property)', async () => {
  await fc.assert(fc.asyncProperty(fc.uniqueArray(fc.array(fc.string({ unit: 'binary', maxLength: 6 }), { maxLength: 3 }), { minLength: 1, maxLength: 4, selector: (a) => JSON.stringify(a) }), async (keys) => {
    const lit = (s: string): string => `unhex('${Buffer.from(s, 'utf8').toString('hex')}')`;
    const expr = `map(${keys.map((k, i) => `CAST([${k.map(lit).join(', ')}], 'Array(String)'), ${i}`).join(', ')})`;
    await checkKeys(expr);
  }), { numRuns: 40 });
});

test('map keys: floats print as the engine prints them (property)', async () => {
  await fc.assert(fc.asyncProperty(fc.uniqueArray(fc.double(), { minLength: 1, maxLength: 4, selector: (x) => (Object.is(x, -0) ? '-0' : String(x)) }), fc.uniqueArray(fc.float(), { minLength: 1, maxLength: 3, selector: (x) => (Object.is(x, -0) ? '-0' : String(x)) }), async (ds, fs) => {
    const f64 = (x: number): string => `reinterpretAsFloat64(unhex('${Buffer.from(new Float64Array([x]).buffer).toString('hex')}'))`;
    const f32 = (x: number): string => `reinterpretAsFloat32(unhex('${Buffer.from(new Float32Array([x]).buffer).toString('hex')}'))`;
    // NaN payloads differ but all print "nan": keep one NaN per map.
    const one = <T>(xs: T[]): T[] => xs.filter((x, i) => !Number.isNaN(x) || xs.findIndex((y) => Number.isNaN(y)) === i);
    await checkKeys(`map(${one(ds).map((x, i) => `${f64(x)}, ${i}`).join(', ')})`);
    await checkKeys(`map(${one(fs).map((x, i) => `[${f32(x)}], ${i}`).join(', ')})`);
  }), { numRuns: 30 });
});

test('map keys: a Float32 halfway between two shortest spellings rounds to even, as the engine prints it', async () => {
  // 170294.625 is exactly between 170294.62 and 170294.63 (found by the property above).
  for (const x of [170294.625, -170294.625]) {
    const hex = Buffer.from(new Float32Array([x]).buffer).toString('hex');
    await checkKeys(`map([reinterpretAsFloat32(unhex('${hex}'))], 0)`);
  }
});
