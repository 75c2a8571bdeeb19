// decodeNativeColumns judged by the engine: every column equals the engine's JSON of the same query
// (through the options contract), numeric columns are the right typed-array classes, single-block
// aligned columns are zero-copy views, multi-block results are concatenated, LowCardinality keeps
// dictionary + keys, and a caller-supplied type restores the DateTime zone the header drops.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ChwireConfigError, ChwireDecodeError } from '../src/errors.js';
import { decodeNativeColumns, decodeNative, type NativeColumn } from '../src/native/index.js';
import { engineBytes } from './support/engine.js';
import { engineResult } from './support/oracle-run.js';
import { expectedRows } from './support/oracle-compare.js';
import { fixtureBytes } from './support/fixtures.js';
import { cells } from './support/column-cells.js';

const NUMERIC_SQL = `SELECT toInt8(number % 100 - 50) AS i8, toUInt8(number % 256) AS u8, toInt16(-number) AS i16, toUInt16(number * 3) AS u16,
  toInt32(number * -100000) AS i32, toUInt32(number * 100000) AS u32, toInt64(number) * -1000000000000 AS i64, toUInt64(number) * 1000000000000 AS u64,
  toFloat32(number / 3) AS f32, number / 7 AS f64,
  if(number % 3 = 0, NULL, toInt32(number)) AS ni32, if(number % 4 = 0, NULL, number / 2) AS nf64,
  toLowCardinality(toString(number % 5)) AS lc, CAST(if(number % 6 = 0, NULL, toString(number % 4)) AS LowCardinality(Nullable(String))) AS lcn,
  toString(number) AS s, [number, number + 1] AS arr, toDecimal64(number / 4, 2) AS dec
  FROM numbers(1000)`;

const CLASSES: Record<string, unknown> = {
  i8: Int8Array, u8: Uint8Array, i16: Int16Array, u16: Uint16Array, i32: Int32Array, u32: Uint32Array,
  i64: BigInt64Array, u64: BigUint64Array, f32: Float32Array, f64: Float64Array,
};

async function checkAgainstEngine(sql: string, settings: Record<string, number>): Promise<ReturnType<typeof decodeNativeColumns>> {
  const r = await engineResult(sql, settings);
  const bytes = await engineBytes(sql, 'Native', settings);
  const got = decodeNativeColumns(bytes);
  const { rows } = expectedRows(r.columns, r.json, r.aux, { rows: 'array' });
  assert.deepEqual(got.names, r.columns.map((c) => c.name));
  assert.equal(got.rowCount, rows.length);
  got.columns.forEach((col, k) => {
    assert.deepEqual(cells(col, got.types[k]), (rows as unknown[][]).map((row) => row[k]), `column ${got.names[k]}`);
  });
  // Chunked input (cut at odd places) gives the same columns.
  const chunks = [bytes.subarray(0, 7), bytes.subarray(7, 1001), bytes.subarray(1001)];
  const again = decodeNativeColumns(chunks);
  again.columns.forEach((col, k) => assert.deepEqual(cells(col, got.types[k]), cells(got.columns[k]!, got.types[k]), `chunked ${got.names[k]}`));
  return got;
}

test('columns: numeric, nullable, LowCardinality and other columns equal the engine (one block)', async () => {
  const got = await checkAgainstEngine(NUMERIC_SQL, {});
  for (const [name, cls] of Object.entries(CLASSES)) {
    assert.equal(got.columns[got.names.indexOf(name)]!.constructor, cls, name);
  }
  const ni32 = got.columns[got.names.indexOf('ni32')]!;
  assert.ok(!Array.isArray(ni32) && !ArrayBuffer.isView(ni32) && ni32.kind === 'nullable' && ni32.values instanceof Int32Array);
  const lc = got.columns[got.names.indexOf('lc')]!;
  assert.ok(!Array.isArray(lc) && !ArrayBuffer.isView(lc) && lc.kind === 'lowCardinality');
  assert.ok(lc.keys instanceof Uint8Array && lc.dictionary.length <= 6, 'dictionary of the distinct values, UInt8 keys');
  assert.equal(lc.nulls, undefined);
  const lcn = got.columns[got.names.indexOf('lcn')]!;
  assert.ok(!Array.isArray(lcn) && !ArrayBuffer.isView(lcn) && lcn.kind === 'lowCardinality' && lcn.nulls instanceof Uint8Array);
});

test('columns: multi-block results are concatenated', async () => {
  const got = await checkAgainstEngine(NUMERIC_SQL, { max_block_size: 77 });
  const lc = got.columns[got.names.indexOf('lc')]!;
  assert.ok(!Array.isArray(lc) && !ArrayBuffer.isView(lc) && lc.kind === 'lowCardinality');
  // One merged dictionary: each distinct value once, each used (issue 17, item 9).
  assert.equal(new Set(lc.dictionary).size, lc.dictionary.length, 'no repeated entry');
  const used = new Set(lc.keys);
  assert.equal(used.size, lc.dictionary.length, 'every entry used');
});

test('columns: an aligned single-block column is a view of the input; others are copies', async () => {
  const bytes = await engineBytes('SELECT toUInt8(number) AS a, toFloat64(number) AS b FROM numbers(5)', 'Native');
  const buf = new Uint8Array(bytes.length + 16);
  // Place the body so that b's 40 bytes start at an 8-aligned address (after "a"'s 5 bytes the offset is odd otherwise).
  const bStart = bytes.length - 40;
  for (const shift of [0, 1, 2, 3, 4, 5, 6, 7]) {
    const view = buf.subarray(shift, shift + bytes.length);
    view.set(bytes);
    const got = decodeNativeColumns(view);
    const b = got.columns[1] as Float64Array;
    assert.deepEqual(Array.from(b), [0, 1, 2, 3, 4]);
    const aligned = (view.byteOffset + bStart) % 8 === 0;
    assert.equal(b.buffer === buf.buffer, aligned, `shift ${shift}: view iff aligned`);
    assert.equal((got.columns[0] as Uint8Array).buffer, buf.buffer, 'UInt8 is always aligned');
  }
});

test('columns: options.types restores a top-level DateTime zone and is checked', async () => {
  const bytes = await engineBytes("SELECT toDateTime(0, 'Asia/Tokyo') AS d, [toDateTime(0, 'Asia/Tokyo')] AS a", 'Native');
  const plain = decodeNativeColumns(bytes);
  assert.deepEqual(plain.types, ['DateTime', "Array(DateTime('Asia/Tokyo'))"]);
  const fixed = decodeNativeColumns(bytes, { types: { d: "DateTime('Asia/Tokyo')" } });
  assert.deepEqual(fixed.types, ["DateTime('Asia/Tokyo')", "Array(DateTime('Asia/Tokyo'))"]);
  // Columnar DateTime is seconds by default (a deliberate change of issue 13); an explicit option gives Dates.
  assert.deepEqual(fixed.columns[0], new Uint32Array([0]));
  assert.deepEqual(decodeNativeColumns(bytes, { datetime: 'Date' }).columns[0], [new Date(0)]);
  assert.throws(() => decodeNativeColumns(bytes, { types: { d: 'UInt32' } }), ChwireConfigError);
});

test('columns: empty body, fixtures, truncation', () => {
  assert.deepEqual(decodeNativeColumns(new Uint8Array(0)), { names: [], types: [], columns: [], rowCount: 0 });
  assert.deepEqual(decodeNativeColumns([]), { names: [], types: [], columns: [], rowCount: 0 });
  for (const name of ['ints_min_max', 'lowcardinality_wide_keys', 'nullable', 'multi_block', 'arrays', 'maps']) {
    const bytes = fixtureBytes(name, 'native');
    const cols = decodeNativeColumns(bytes);
    const rows = decodeNative(bytes, { rows: 'array' }).rows as unknown[][];
    cols.columns.forEach((col, k) => assert.deepEqual(cells(col, cols.types[k]), rows.map((r) => r[k]), `${name}.${cols.names[k]}`));
    assert.throws(() => decodeNativeColumns(bytes.subarray(0, bytes.length - 1)), ChwireDecodeError);
  }
});

test('columns property: random numeric tables split into random blocks', async () => {
  const kinds = ['Int8', 'UInt16', 'Int32', 'UInt32', 'Int64', 'UInt64', 'Float32', 'Float64', 'Nullable(Int16)', 'Nullable(Float64)'];
  await fc.assert(
    fc.asyncProperty(fc.subarray(kinds, { minLength: 1 }), fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 64 }), async (types, rows, block) => {
      const cols = types.map((t, k) => `CAST(if(number % ${k + 2} = 0 AND ${t.startsWith('Nullable') ? 1 : 0}, NULL, (number * ${k * 7919 + 13}) % 1000 - 300), '${t}') AS c${k}`);
      await checkAgainstEngine(`SELECT ${cols.join(', ')} FROM numbers(${rows})`, { max_block_size: block });
    }),
    { numRuns: 15, interruptAfterTimeLimit: 10_000, markInterruptAsFailure: false },
  );
});
