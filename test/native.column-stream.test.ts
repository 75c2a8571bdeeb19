// Columnar reads of issue 13, judged by the engine: wire-integer defaults for dates, times,
// Decimal32/64, IPv4 and Enum (checked against the engine's rows through the shared converters,
// and against the engine's own integers), explicit value options and `wire: false` giving values,
// `strings: 'raw'`, and the push decoder (createNativeColumnsDecoder: one batch per block, any
// chunking) agreeing with the whole-buffer decoder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ChwireConfigError, ChwireDecodeError } from '../src/errors.js';
import {
  decodeNativeColumns, decodeNative, createNativeColumnsDecoder, NativeColumnsCollector, type NativeColumns,
} from '../src/native/index.js';
import * as codec from '../src/codec.js';
import { engineBytes, engineJsonRows } from './support/engine.js';
import { engineResult } from './support/oracle-run.js';
import { expectedRows } from './support/oracle-compare.js';
import { cells } from './support/column-cells.js';

const WIRE_SQL = `SELECT toDate('2024-02-29') + number AS d, toDate32('1900-01-01') + number AS d32,
  toDateTime(1700000000 + number * 3601, 'Asia/Tokyo') AS dt, toDateTime64(1700000000.123 + number, 3, 'UTC') AS dt64,
  toDateTime64('1969-12-31 23:59:59.123456789', 9) AS dt9, toDecimal32(number / 4 - 3, 2) AS dec32,
  toDecimal64(number * 1.5 - 1000, 6) AS dec64, toDecimal128(number, 10) AS dec128,
  toIPv4(3232235777 + number) AS ip, CAST(number % 3, 'Enum8(\\'a\\' = 0, \\'b\\' = 1, \\'c\\' = 2)') AS e8,
  CAST(number % 2 * 1000 - 500, 'Enum16(\\'lo\\' = -500, \\'hi\\' = 500)') AS e16,
  if(number % 3 = 0, NULL, toDateTime(number * 86400, 'UTC')) AS ndt, if(number % 4 = 0, NULL, toDecimal32(number, 3)) AS ndec,
  if(number % 5 = 0, NULL, toDate(number)) AS nd
  FROM numbers(300)`;

const WIRE_CLASSES: Record<string, unknown> = {
  d: Uint16Array, d32: Int32Array, dt: Uint32Array, dt64: BigInt64Array, dt9: BigInt64Array,
  dec32: Int32Array, dec64: BigInt64Array, ip: Uint32Array,
};

/** Engine rows (arrays, default options) of `sql`. */
async function engineRows(sql: string, settings: Record<string, number> = {}): Promise<unknown[][]> {
  const r = await engineResult(sql, settings);
  return expectedRows(r.columns, r.json, r.aux, { rows: 'array' }).rows as unknown[][];
}

function assertMatches(got: NativeColumns, rows: unknown[][], label: string): void {
  assert.equal(got.rowCount, rows.length, `${label}: rows`);
  got.columns.forEach((col, k) => assert.deepEqual(cells(col, got.types[k]), rows.map((r) => r[k]), `${label}: column ${got.names[k]}`));
}

test('columns: dates, times, Decimal32/64, IPv4 and Enum are typed arrays of their wire integers by default', async () => {
  const bytes = await engineBytes(WIRE_SQL, 'Native', { max_block_size: 64 });
  const got = decodeNativeColumns(bytes);
  for (const [name, cls] of Object.entries(WIRE_CLASSES)) assert.equal(got.columns[got.names.indexOf(name)]!.constructor, cls, name);
  assertMatches(got, await engineRows(WIRE_SQL), 'wire');
  // The integers are the engine's own: seconds, days, ticks, unscaled decimals, IPv4 as UInt32.
  const ints = await engineJsonRows(`SELECT toUInt16(d), toInt32(toInt64(d32) - 0) , toUInt32(dt), toString(toUnixTimestamp64Milli(dt64)),
    toString(toUnixTimestamp64Nano(dt9)), toString(toUInt32(ip)) FROM (${WIRE_SQL})`);
  const col = (n: string) => got.columns[got.names.indexOf(n)] as ArrayLike<number | bigint>;
  ints.forEach((r, i) => {
    assert.equal(col('d')[i], Number(r[0]));
    assert.equal(col('dt')[i], Number(r[2]));
    assert.equal(col('dt64')[i], BigInt(r[3] as string));
    assert.equal(col('dt9')[i], BigInt(r[4] as string));
    assert.equal(col('ip')[i], Number(r[5]));
  });
  // Types carry zone, precision and scale (a text header drops a top-level DateTime's zone: native.md §2).
  assert.deepEqual(got.types.slice(0, 6), ['Date', 'Date32', 'DateTime', "DateTime64(3, 'UTC')", 'DateTime64(9)', 'Decimal(9, 2)']);
  const e8 = got.columns[got.names.indexOf('e8')]!;
  assert.ok(!Array.isArray(e8) && !ArrayBuffer.isView(e8) && e8.kind === 'enum' && e8.codes instanceof Int8Array && e8.labels.get(2) === 'c');
  const ndt = got.columns[got.names.indexOf('ndt')]!;
  assert.ok(!Array.isArray(ndt) && !ArrayBuffer.isView(ndt) && ndt.kind === 'nullable' && ndt.values instanceof Uint32Array);
  assert.ok(Array.isArray(got.columns[got.names.indexOf('dec128')]), 'Decimal128 stays values (no 128-bit typed array)');
});

test('columns: explicit value options and wire: false give arrays of values', async () => {
  const bytes = await engineBytes(WIRE_SQL, 'Native');
  const rows = await engineRows(WIRE_SQL);
  const off = decodeNativeColumns(bytes, { wire: false });
  off.columns.forEach((col, k) => {
    if (k < 14) assert.ok(Array.isArray(col), `${off.names[k]} is values with wire: false`);
  });
  assertMatches(off, rows, 'wire: false');
  const explicit = decodeNativeColumns(bytes, { datetime: 'Date', date: 'Date', decimal: 'string' });
  for (const name of ['d', 'd32', 'dt', 'dt64', 'dec32', 'ndt', 'nd']) assert.ok(Array.isArray(explicit.columns[explicit.names.indexOf(name)]), name);
  assert.ok(explicit.columns[explicit.names.indexOf('ip')] instanceof Uint32Array, 'IPv4 has no value option: still wire');
  assertMatches(explicit, rows, 'explicit');
  const perColumn = decodeNativeColumns(bytes, { columns: { dt: { datetime: 'string' } } });
  assert.equal((perColumn.columns[perColumn.names.indexOf('dt')] as unknown[])[0], '2023-11-14T22:13:20Z');
  assert.ok(perColumn.columns[perColumn.names.indexOf('dt64')] instanceof BigInt64Array, 'other columns keep the default');
  assert.throws(() => decodeNativeColumns(bytes, { wire: 'yes' as unknown as boolean }), ChwireConfigError);
  assert.throws(() => decodeNativeColumns(bytes, { strings: 'utf16' as 'raw' }), ChwireConfigError);
});

test('columns: Time and Time64 are Int32Array seconds and BigInt64Array ticks', async () => {
  const sql = "SELECT toTime(number * 3599 - 100000) AS t, toTime64(number * 1.5, 3) AS t64 FROM numbers(50)";
  const settings = { enable_time_time64_type: 1 };
  const got = decodeNativeColumns(await engineBytes(sql, 'Native', settings));
  assert.ok(got.columns[0] instanceof Int32Array && got.columns[1] instanceof BigInt64Array);
  assertMatches(got, await engineRows(sql, settings), 'time');
});

test("columns: strings: 'raw' gives offsets and bytes, nested strings as bytes", async () => {
  const sql = `SELECT toString(number * number) AS s, repeat('é', number % 7) AS u, toFixedString(toString(number % 10), 3) AS f,
    if(number % 3 = 0, NULL, toString(number)) AS ns, [toString(number)] AS a, repeat('x', if(number = 5, 300, 1)) AS long FROM numbers(200)`;
  const bytes = await engineBytes(sql, 'Native', { max_block_size: 37 });
  const got = decodeNativeColumns(bytes, { strings: 'raw' });
  const s = got.columns[0]!;
  assert.ok(!Array.isArray(s) && !ArrayBuffer.isView(s) && s.kind === 'strings' && s.offsets.length === 201 && s.offsets[0] === 0);
  const ns = got.columns[3]!;
  assert.ok(!Array.isArray(ns) && !ArrayBuffer.isView(ns) && ns.kind === 'nullable' && !ArrayBuffer.isView(ns.values) && ns.values.kind === 'strings');
  assert.ok((got.columns[4] as unknown[][])[0]![0] instanceof Uint8Array, 'nested String is bytes');
  const rows = decodeNative(bytes, { rows: 'array' }).rows as unknown[][];
  for (const k of [0, 1, 2, 3, 5]) assert.deepEqual(cells(got.columns[k]!, got.types[k]), rows.map((r) => r[k]), got.names[k]);
  const perColumn = decodeNativeColumns(bytes, { columns: { u: { strings: 'raw' } } });
  assert.ok(Array.isArray(perColumn.columns[0]) && !Array.isArray(perColumn.columns[1]));
});

test('columns: an Enum code outside the type is a decode error', async () => {
  const bytes = Uint8Array.prototype.slice.call(await engineBytes("SELECT CAST('b', 'Enum8(\\'a\\' = 1, \\'b\\' = 2)') AS e", 'Native'));
  bytes[bytes.length - 1] = 7;
  assert.throws(() => decodeNativeColumns(bytes), (e: unknown) => e instanceof ChwireDecodeError && e.column === 'e' && /7/.test(e.message));
});

/** Batches of `bytes` pushed in the given chunk sizes (cycled), each chunk overwritten after push. */
function pushed(bytes: Uint8Array, sizes: readonly number[], options?: Parameters<typeof createNativeColumnsDecoder>[0]): NativeColumns[] {
  const d = createNativeColumnsDecoder(options);
  const out: NativeColumns[] = [];
  let k = 0;
  for (let at = 0; at < bytes.length; k++) {
    const n = Math.max(1, sizes[k % sizes.length]!);
    const chunk = Uint8Array.prototype.slice.call(bytes, at, at + n);
    out.push(...d.push(chunk));
    chunk.fill(0xee); // batches must not be views of what was pushed
    at += n;
  }
  d.end();
  return out;
}

const MIXED_SQL = `SELECT number AS n, toFloat32(number / 3) AS f, toString(number) AS s, toDateTime(number, 'UTC') AS t,
  if(number % 3 = 0, NULL, toInt16(number)) AS ni, toLowCardinality(toString(number % 4)) AS lc, [number] AS a,
  CAST(number % 2, 'Enum8(\\'x\\' = 0, \\'y\\' = 1)') AS e FROM numbers(500)`;

test('push decoder: one batch per block, equal to the whole-buffer columns, under any chunking', async () => {
  const bytes = await engineBytes(MIXED_SQL, 'Native', { max_block_size: 61 });
  const whole = decodeNativeColumns(bytes);
  const plainRows = decodeNative(bytes, { rows: 'array' }).rows as unknown[][];
  // With strings: 'raw', strings nested in other types (the LowCardinality dictionary) are bytes.
  const rawRows = decodeNative(bytes, { rows: 'array', columns: { lc: { strings: 'bytes' } } }).rows as unknown[][];
  await fc.assert(fc.property(fc.array(fc.integer({ min: 1, max: 900 }), { minLength: 1, maxLength: 8 }), fc.boolean(), (sizes, raw) => {
    const rows = raw ? rawRows : plainRows;
    const batches = pushed(bytes, sizes, raw ? { strings: 'raw' } : undefined);
    assert.deepEqual(batches.map((b) => b.rowCount), [...Array.from({ length: 8 }, () => 61), 12]);
    let row = 0;
    for (const b of batches) {
      assert.deepEqual(b.names, whole.names);
      b.columns.forEach((col, k) => assert.deepEqual(cells(col, b.types[k]), rows.slice(row, row + b.rowCount).map((r) => r[k]), `batch at ${row}, ${b.names[k]}`));
      row += b.rowCount;
    }
    // The collector (fetchColumns) joins the same blocks into the whole-buffer result.
    const c = new NativeColumnsCollector(raw ? { strings: 'raw' } : undefined);
    for (let at = 0, k = 0; at < bytes.length; k++) {
      const n = sizes[k % sizes.length]!;
      const chunk = Uint8Array.prototype.slice.call(bytes, at, at + n);
      c.push(chunk);
      chunk.fill(0xee);
      at += n;
    }
    const joined = c.finish();
    joined.columns.forEach((col, k) => assert.deepEqual(cells(col, joined.types[k]), rows.map((r) => r[k]), `joined ${joined.names[k]}`));
  }), { numRuns: 40 });
});

test('push decoder: truncation at end(), header of an empty result, chwire/codec export', async () => {
  const bytes = await engineBytes(MIXED_SQL, 'Native', { max_block_size: 100 });
  const d = codec.createNativeColumnsDecoder();
  assert.equal(d.push(bytes.subarray(0, bytes.length - 3)).length, 4);
  assert.throws(() => d.end(), (e: unknown) => e instanceof ChwireDecodeError && /ends inside a Native block/.test(e.message));
  const empty = await engineBytes('SELECT number AS n, toString(number) AS s FROM numbers(0)', 'Native');
  const e = codec.createNativeColumnsDecoder();
  assert.deepEqual(e.push(empty), []);
  e.end();
  if (empty.length > 0) assert.deepEqual(e.header, { names: ['n', 's'], types: ['UInt64', 'String'] });
});

// Blocks larger than a join step (70 000 > JOIN_STEP_ROWS rows): a step stops inside a block's part.
const BIG_SQL = `SELECT number AS n, toString(number) AS s, if(number % 3 = 0, NULL, number / 2) AS nf,
  toLowCardinality(toString(number % 300)) AS lc, CAST(if(number % 6 = 0, NULL, toString(number % 4)) AS LowCardinality(Nullable(String))) AS lcn,
  [number % 3] AS a FROM numbers(150000)`;

test('collector: finishSteps joins blocks larger than a step in bounded steps, equal to finish() and the engine', async () => {
  const bytes = await engineBytes(BIG_SQL, 'Native', { max_block_size: 70000 });
  const rows = decodeNative(bytes, { rows: 'array' }).rows as unknown[][];
  const rawRows = decodeNative(bytes, { rows: 'array', columns: { lc: { strings: 'bytes' }, lcn: { strings: 'bytes' } } }).rows as unknown[][];
  assert.equal(rows.length, 150000);
  for (const raw of [false, true]) {
    const options = raw ? { strings: 'raw' as const } : undefined;
    const feed = (): NativeColumnsCollector => {
      const c = new NativeColumnsCollector(options);
      for (let at = 0; at < bytes.length; at += 65536) c.push(Uint8Array.prototype.slice.call(bytes, at, at + 65536));
      return c;
    };
    const steps = feed().finishSteps();
    let count = 0;
    let step = steps.next();
    for (; step.done !== true; step = steps.next()) count++;
    const joined = step.value;
    // Every column of three blocks is joined in pieces: at least a pause per block and column.
    assert.ok(count >= 3 * joined.names.length, `${count} steps`);
    assert.equal(joined.rowCount, 150000);
    assert.deepEqual(joined, feed().finish(), 'the same columns as finish()');
    const want = raw ? rawRows : rows;
    joined.columns.forEach((col, k) => assert.deepEqual(cells(col, joined.types[k]), want.map((r) => r[k]), `${raw ? 'raw ' : ''}${joined.names[k]}`));
  }
});
