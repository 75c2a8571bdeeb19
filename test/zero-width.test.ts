// Values that take no bytes (empty tuples) in both formats, against engine-made bytes and hostile
// ones. RowBinary writes nothing for `()`: a count of them is charged to a per-body budget
// (MAX_ZERO_WIDTH_VALUES plus ZERO_WIDTH_PER_BYTE per byte of rows) on every decoding path, and a
// result whose rows are only empty tuples is refused (the body cannot carry its row count).
// Native writes one byte per empty tuple, so its counts are bounded by the bytes and such results
// decode with every row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import {
  decodeRowBinary, decodeRowBinaryReference, createRowBinaryDecoder, compileRowDecoder, decodeNative, decodeNativeColumns,
  createNativeDecoder, ChwireDecodeError, ChwireTypeError, isChwireError, parseType, encodeBinaryType, type Row,
} from '../src/codec.js';
import { interpretPlan } from '../src/rowbinary/compiled.js';
import { resolvePlan } from '../src/plan/resolve.js';
import { readHeader } from '../src/rowbinary/header.js';
import { MAX_ZERO_WIDTH_VALUES, ZERO_WIDTH_PER_BYTE } from '../src/io/fault.js';
import { engineBytes, engineJsonRows } from './support/engine.js';

const RB = 'RowBinaryWithNamesAndTypes';

function varUInt(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) { out.push((n % 0x80) | 0x80); n = Math.floor(n / 0x80); }
  out.push(n);
  return out;
}

const text = (s: string): number[] => [...varUInt(Buffer.byteLength(s)), ...Buffer.from(s)];

/** A RowBinaryWithNamesAndTypes body: one column `a` of `type`, then raw row bytes. */
function rbBody(type: string, raw: number[]): Uint8Array {
  return Uint8Array.from([1, ...text('a'), ...text(type), ...raw]);
}

/** The rows of `bytes` through every RowBinary path: compiled, reference, interpreted, 1-byte chunks. */
function rowBinaryPaths(bytes: Uint8Array): (() => Row[])[] {
  return [
    () => decodeRowBinary(bytes).rows,
    () => decodeRowBinaryReference(bytes).rows,
    () => {
      const h = readHeader(bytes, 0, bytes.length, false);
      const rows: Row[] = [];
      interpretPlan(resolvePlan(h.columns, undefined)).decode(bytes, h.offset, bytes.length, rows, true);
      return rows;
    },
    () => {
      const d = createRowBinaryDecoder();
      const rows: Row[] = [];
      for (let i = 0; i < bytes.length; i++) rows.push(...d.push(bytes.subarray(i, i + 1)));
      d.end();
      return rows;
    },
  ];
}

function nativePaths(bytes: Uint8Array): (() => unknown)[] {
  return [
    () => decodeNative(bytes).rows,
    () => decodeNativeColumns(bytes).columns,
    () => {
      const d = createNativeDecoder();
      const rows: Row[] = [];
      for (let i = 0; i < bytes.length; i += 3) rows.push(...d.push(bytes.subarray(i, i + 3)));
      d.end();
      return rows;
    },
  ];
}

/** Every path fails with a ChwireDecodeError quickly; returns the errors. */
function failsFast(paths: (() => unknown)[], ms: number): ChwireDecodeError[] {
  return paths.map((run, i) => {
    const t0 = performance.now();
    let err: unknown;
    try { run(); } catch (e) { err = e; }
    const took = performance.now() - t0;
    assert.ok(err instanceof ChwireDecodeError, `path ${i}: expected a ChwireDecodeError, got ${String(err)}`);
    assert.ok(took < ms, `path ${i}: failed after ${Math.round(took)} ms`);
    return err;
  });
}

const HONEST = [
  'SELECT [(), ()] AS a, 1 AS n',
  'SELECT [[(), ()], [()]] AS a',
  'SELECT map(1, ()) AS m, map() :: Map(UInt8, Tuple()) AS e',
  'SELECT tuple(tuple(), 7 :: UInt8) AS t FROM numbers(2)',
  'SELECT arrayMap(x -> tuple(), range(number)) AS a, number AS n FROM numbers(6)',
  // Deeper than the generated code inlines (prebuilt readers).
  'SELECT [[[[(), ()]], [[()]]]] AS a, [[[[[()]]]]] AS b',
  'SELECT [(), ()] :: Dynamic AS d, [[()]] :: Variant(Array(Array(Tuple())), UInt8) AS v',
  'SELECT tuple(tuple()) AS t, [tuple(tuple())] AS u FROM numbers(3)',
];

test('honest empty tuples decode the same on every RowBinary and Native path', async () => {
  for (const sql of HONEST) {
    const rb = await engineBytes(sql, RB);
    const native = await engineBytes(sql, 'Native');
    const expected = decodeNative(native).rows;
    assert.equal(expected.length, (await engineJsonRows(sql)).length, sql);
    for (const run of rowBinaryPaths(rb)) assert.ok(isDeepStrictEqual(run(), expected), `${sql}: RowBinary = Native`);
    const chunked = nativePaths(native)[2]!() as Row[];
    assert.ok(isDeepStrictEqual(chunked, expected), `${sql}: chunked Native`);
    decodeNativeColumns(native);
  }
  const rows = decodeRowBinary(await engineBytes('SELECT arrayMap(x -> tuple(), range(number)) AS a FROM numbers(4)', RB)).rows;
  assert.deepEqual(rows, [{ a: [] }, { a: [[]] }, { a: [[], []] }, { a: [[], [], []] }]);
});

test('a result of only empty tuples: RowBinary refuses (ChwireTypeError naming Native), Native gives every row', async () => {
  for (const [sql, n] of [['SELECT tuple() AS t FROM numbers(5)', 5], ['SELECT tuple() AS t, tuple(tuple()) AS u FROM numbers(3)', 3], ['SELECT tuple() AS t FROM numbers(0)', 0]] as const) {
    const rb = await engineBytes(sql, RB);
    for (const run of rowBinaryPaths(rb)) {
      assert.throws(run, (e: unknown) => e instanceof ChwireTypeError && /format: 'Native'/.test(e.message) && /"t" Tuple\(\)/.test(e.message), sql);
    }
    const native = await engineBytes(sql, 'Native');
    assert.equal((await engineJsonRows(sql)).length, n);
    const [rows, columns, chunked] = nativePaths(native).map((run) => run());
    for (const got of [rows, chunked] as Record<string, unknown>[][]) {
      assert.equal(got.length, n, sql);
      for (const r of got) assert.deepEqual(r.t, []);
    }
    assert.equal((columns as unknown[][])[0]?.length ?? 0, n, `${sql}: columns`);
  }
  // Columns with width beside empty tuples: RowBinary counts those rows.
  const mixed = decodeRowBinary(await engineBytes('SELECT tuple() AS t, number AS n FROM numbers(3)', RB)).rows;
  assert.equal(mixed.length, 3);
});

test('a 22-byte Array(Tuple()) of 2^24 (or 2^28) fails with a ChwireDecodeError at once on every RowBinary path', () => {
  for (const n of [2 ** 24, 2 ** 28, MAX_ZERO_WIDTH_VALUES + ZERO_WIDTH_PER_BYTE * 8 + 1]) {
    const body = rbBody('Array(Tuple())', varUInt(n));
    if (n === 2 ** 24) assert.equal(body.length, 22);
    for (const e of failsFast(rowBinaryPaths(body), 1000)) {
      assert.equal(e.column, 'a');
      assert.equal(e.row, 0);
      assert.match(e.message, /values that take no bytes/);
      assert.match(e.message, new RegExp(`${MAX_ZERO_WIDTH_VALUES} such values per body plus ${ZERO_WIDTH_PER_BYTE} per byte`));
    }
  }
  // The same through Map, the prebuilt readers (deep nesting) and Dynamic (a type from the data).
  failsFast(rowBinaryPaths(rbBody('Map(Tuple(), Tuple())', varUInt(2 ** 28))), 1000);
  failsFast(rowBinaryPaths(rbBody('Array(Array(Array(Array(Array(Tuple())))))', [1, 1, 1, 1, ...varUInt(2 ** 28)])), 1000);
  const dynType = [...encodeBinaryType(parseType('Array(Tuple())'))];
  failsFast(rowBinaryPaths(rbBody('Dynamic', [...dynType, ...varUInt(2 ** 28)])), 1000);
  failsFast(rowBinaryPaths(rbBody('Array(Dynamic)', [1, ...dynType, ...varUInt(2 ** 24)])), 1000);
});

test('the budget runs over the whole body, grows with its bytes, and an incomplete row gives back what it charged', () => {
  const per = 2 ** 16;
  const allowed = MAX_ZERO_WIDTH_VALUES / per;
  const rows = (k: number): number[] => Array.from({ length: k }, () => varUInt(per)).flat();
  // Exactly the budget: every path gives every row, however the bytes are chunked.
  const full = rbBody('Array(Tuple())', rows(allowed));
  for (const run of rowBinaryPaths(full)) {
    const got = run();
    assert.equal(got.length, allowed);
    assert.equal((got[allowed - 1] as { a: unknown[] }).a.length, per);
  }
  // One row more: the row past the budget fails, on every path, at the same row.
  for (const e of failsFast(rowBinaryPaths(rbBody('Array(Tuple())', rows(allowed + 1))), 5000)) {
    assert.equal(e.row, allowed);
    assert.match(e.message, /values that take no bytes/);
  }
  // A long honest result earns ZERO_WIDTH_PER_BYTE per byte: 400 000 rows of [(), ()] (3 bytes each
  // with a String column) decode, beyond the base budget, on every path and chunking.
  const long = Uint8Array.from([2, ...text('a'), ...text('s'), ...text('Array(Tuple())'), ...text('String'),
    ...Array.from({ length: 400_000 }, () => [2, 1, 0x78]).flat()]);
  for (const run of [() => decodeRowBinary(long).rows, () => decodeRowBinaryReference(long).rows, () => {
    const d = createRowBinaryDecoder();
    const got: Row[] = [];
    for (let i = 0; i < long.length; i += 4099) got.push(...d.push(long.subarray(i, i + 4099)));
    d.end();
    return got;
  }]) {
    const got = run();
    assert.equal(got.length, 400_000);
    assert.deepEqual(got[399_999], { a: [[], []], s: 'x' });
  }
  // One compiled decoder reused for two bodies (rowBase 0 = a new body): each has its own budget.
  const dec = compileRowDecoder([{ name: 'a', type: parseType('Array(Tuple())') }]);
  const raw = Uint8Array.from(rows(allowed));
  for (let k = 0; k < 2; k++) {
    const out: Row[] = [];
    assert.equal(dec.decode(raw, 0, raw.length, out, true), raw.length);
    assert.equal(out.length, allowed);
  }
});

test('Native: an empty tuple takes a byte per value, so few bytes cannot announce many values', () => {
  // 15 bytes: one block of 2^24 rows of one Tuple() column (and 2^28).
  for (const n of [2 ** 24, 2 ** 28]) {
    const block = Uint8Array.from([1, ...varUInt(n), ...text('t'), ...text('Tuple()')]);
    if (n === 2 ** 24) assert.equal(block.length, 15);
    failsFast(nativePaths(block), 1000);
  }
  // Array(Tuple()) whose one offset says 2^28 elements: 8 bytes cannot hold them.
  const offsets = Buffer.alloc(8);
  offsets.writeBigUInt64LE(2n ** 28n);
  failsFast(nativePaths(Uint8Array.from([1, 1, ...text('a'), ...text('Array(Tuple())'), ...offsets])), 1000);
  // The placeholder byte's value is not checked (the engine skips it too).
  const five = Uint8Array.from([1, 5, ...text('t'), ...text('Tuple()'), 0x30, 0x30, 0x00, 0xff, 0x30]);
  assert.equal(decodeNative(five).rows.length, 5);
  // One byte short: a truncated body, never 5 rows.
  assert.throws(() => decodeNative(five.subarray(0, five.length - 1)), (e: unknown) => isChwireError(e));
});
