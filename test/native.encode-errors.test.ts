// Client-side validation of the Native encoder: the engine would wrap integers, skip Decimal
// precision, store Bool 2 and ignore unknown columns (native.md §6), so each of these must be a
// ChwireEncodeError naming the column and the caller's row before any byte is produced.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChwireEncodeError, describeValue } from '../src/errors.js';
import { compileNativeEncoder } from '../src/native/write/encoder.js';
import { nativeBlocks } from '../src/native/write/blocks.js';

function encodeOne(type: string, value: unknown, shape: 'object' | 'array' = 'object'): Uint8Array[] {
  const enc = compileNativeEncoder([{ name: 'ok', type: 'UInt8' }, { name: 'c', type }], shape);
  const bad = shape === 'object' ? { ok: 1, c: value } : [1, value];
  // Only rows[start, end) are encoded: the junk around the slice must not be looked at.
  const rows = [Symbol('junk'), bad, Symbol('junk')];
  return enc.encodeBlock(rows, 1, 2, 11);
}

function expectEncodeError(type: string, value: unknown, expected: RegExp, offending: unknown): void {
  for (const shape of ['object', 'array'] as const) {
    assert.throws(() => encodeOne(type, value, shape), (e: unknown) => {
      assert.ok(e instanceof ChwireEncodeError, `${type} ${String(value)}: ${String(e)}`);
      assert.equal(e.column, 'c');
      assert.equal(e.row, 11, 'rowBase + index in the slice');
      assert.match(e.expected, expected);
      assert.equal(e.value, describeValue(offending), 'the error describes the offending (innermost) value, never quoting it');
      assert.ok(e.message.endsWith(`column "c", row 11: expected ${e.expected}, got ${e.value}`), e.message);
      return true;
    });
  }
}

const BAD: [string, unknown, RegExp, unknown?][] = [
  ['UInt8', 256, /\[0, 255\]/],
  ['UInt8', -1, /\[0, 255\]/],
  ['UInt8', 1.5, /integer/],
  ['Int8', 128, /\[-128, 127\]/],
  ['Int16', '40000', /\[-32768, 32767\]/],
  ['UInt32', 2 ** 32, /4294967295/],
  ['Int32', 2 ** 31, /2147483647/],
  ['UInt64', -1, /\[0, 18446744073709551615\]/],
  ['UInt64', 2n ** 64n, /18446744073709551615/],
  ['Int64', 2 ** 63, /bigint or a string/],
  ['Int128', 2n ** 127n, /integer/],
  ['UInt256', -1n, /integer/],
  ['Int32', 'abc', /integer/],
  ['Int32', null, /integer/],
  ['Float64', 'abc', /number/],
  ['Float64', {}, /number/],
  ['Bool', 2, /boolean/],
  ['Bool', 'true', /boolean/],
  ["Enum8('a' = 1, 'b' = 2)", 'c', /"a", "b"/],
  ["Enum8('a' = 1, 'b' = 2)", 3, /labels/],
  ['FixedString(2)', 'abc', /at most 2 bytes/],
  ['FixedString(2)', 'éé', /at most 2 bytes/],
  ['FixedString(2)', new Uint8Array(3), /at most 2 bytes/],
  ['Decimal(9, 2)', '10000000', /Decimal\(9, 2\)/],
  ['Decimal(9, 2)', '1.234', /Decimal\(9, 2\)/],
  ['Decimal(9, 2)', 2147483647n, /Decimal\(9, 2\)/],
  ['Decimal(9, 2)', 'x', /Decimal/],
  ['Decimal(38, 0)', 10n ** 38n, /Decimal\(38, 0\)/],
  ['Decimal(18, 2)', NaN, /Decimal/],
  ['Date', '2149-06-07', /Date/],
  ['Date', '1969-12-31', /Date/],
  ['Date', '2024-02-30', /Date/],
  ['Date32', new Date(NaN), /Date32/],
  ['DateTime', new Date(-1000), /DateTime/],
  ['DateTime', '2024-13-01 00:00:00', /DateTime/],
  ['DateTime', 'yesterday', /DateTime/],
  ['DateTime64(3)', 'x', /DateTime64\(3\)/],
  ['Time', 1.5, /Time/],
  ['UUID', '0011223344556677-8899-aabbccddeeff', /UUID/],
  ['UUID', new Uint8Array(15), /UUID/],
  ['IPv4', '1.2.3.256', /IPv4/],
  ['IPv4', -1, /IPv4/],
  ['IPv6', '1:2:3:4:5:6:7:8:9', /IPv6/],
  ['IPv6', '1::2::3', /IPv6/],
  ['String', 5, /string/],
  ['String', null, /string/],
  ['Array(UInt8)', 'abc', /array/],
  ['Array(UInt8)', [1, 300], /\[0, 255\]/, 300],
  ['Array(Array(Int8))', [[1], [], [-129]], /\[-128, 127\]/, -129],
  ['Tuple(UInt8, String)', [1], /2 values/],
  ['Tuple(a UInt8, b String)', { a: 1, b: 'x', z: 2 }, /unknown key "z"/],
  ['Map(String, UInt8)', [['a', 1]], /Map or a plain object/],
  ['Map(String, UInt8)', { a: 1, b: 256 }, /\[0, 255\]/, 256],
  ['Map(UInt8, String)', { 300: 'x' }, /\[0, 255\]/, '300'],
  ['Nullable(UInt8)', 256, /\[0, 255\]/],
  ['LowCardinality(String)', 5, /string/],
  ['LowCardinality(Nullable(FixedString(1)))', 'ab', /at most 1 bytes/],
  ['Variant(String, UInt64)', true, /Variant/],
  ['JSON', '[1]', /JSON/],
  ['JSON', 'not json', /JSON/],
];

for (const [type, value, expected, ...inner] of BAD) {
  test(`encode error: ${type} rejects ${typeof value === 'bigint' ? `${value}n` : JSON.stringify(value) ?? String(value)}`, () => {
    expectEncodeError(type, value, expected, inner.length > 0 ? inner[0] : value);
  });
}

test('encode error: the value is described by its kind only', () => {
  const cases: [unknown, string][] = [
    ['abc', 'a string (3 characters)'], ['x', 'a string (1 character)'], [1.5, 'a number'], [NaN, 'NaN'],
    [-Infinity, '-Infinity'], [2n ** 70n, 'a bigint'], [new Date(NaN), 'an invalid Date'], [new Date(0), 'a Date'],
    [null, 'null'], [undefined, 'undefined'], [[1, 2, 3], 'an array of 3'], [new Map(), 'an object (Map)'],
    [{}, 'an object (Object)'], [Object.create(null), 'an object (null prototype)'], [new Uint8Array(15), 'an object (Uint8Array, 15 bytes)'],
    [true, 'a boolean'], [Symbol('secret'), 'a symbol'],
  ];
  for (const [v, kind] of cases) {
    assert.equal(describeValue(v), kind);
    const rows = [{ ok: 1, c: v }];
    assert.throws(() => compileNativeEncoder([{ name: 'ok', type: 'UInt8' }, { name: 'c', type: 'IPv4' }], 'object').encodeBlock(rows, 0, 1, 4),
      (e: unknown) => e instanceof ChwireEncodeError && e.value === kind && e.message === `value does not fit its column: column "c", row 4: expected ${e.expected}, got ${kind}`);
  }
});

test('encode error: nested failures report the caller row, not the flat element index', () => {
  const enc = compileNativeEncoder([{ name: 'a', type: 'Array(LowCardinality(String))' }], 'array');
  const rows = [[['x', 'y']], [[]], [['x', 'z', 'x']], [['y', 7]]];
  assert.throws(() => enc.encodeBlock(rows, 0, 4, 100), (e: unknown) => e instanceof ChwireEncodeError && e.row === 103 && e.column === 'a');
});

test('encode error: unknown keys in object rows are named; undefined-valued extras are ignored', () => {
  const enc = compileNativeEncoder([{ name: 'a', type: 'UInt8' }, { name: 'b', type: 'Nullable(String)' }], 'object');
  assert.throws(() => enc.encodeBlock([{ a: 1 }, { a: 1, bb: 'typo' }], 0, 2, 0), (e: unknown) => {
    assert.ok(e instanceof ChwireEncodeError);
    assert.equal(e.column, 'bb');
    assert.equal(e.row, 1);
    assert.match(e.message, /unknown column/);
    return true;
  });
  assert.ok(enc.encodeBlock([{ a: 1, extra: undefined }], 0, 1, 0).length > 0);
  assert.throws(() => enc.encodeBlock([{ a: 1 }, null], 0, 2, 5), (e: unknown) => e instanceof ChwireEncodeError && e.row === 6);
  assert.throws(() => enc.encodeBlock([[1, 'x']], 0, 1, 0), (e: unknown) => e instanceof ChwireEncodeError && /object keyed by column name/.test(e.message));
  const arr = compileNativeEncoder([{ name: 'a', type: 'UInt8' }], 'array');
  assert.throws(() => arr.encodeBlock([[1, 2]], 0, 1, 0), (e: unknown) => e instanceof ChwireEncodeError && /array of 1 values/.test(e.message));
  // A missing required value is an error, not a default.
  assert.throws(() => enc.encodeBlock([{ b: 'x' }], 0, 1, 0), (e: unknown) => e instanceof ChwireEncodeError && e.column === 'a');
});

test('nativeBlocks: a bad row in block k stops after blocks 0..k-1; blockSize 0 yields nothing', async () => {
  const enc = compileNativeEncoder([{ name: 'a', type: 'UInt8' }], 'object');
  const rows = Array.from({ length: 10 }, (_, k) => ({ a: k === 7 ? 999 : k }));
  for (const input of [() => rows, () => rows.values(), async function* () { yield* rows; }]) {
    const got: Uint8Array[][] = [];
    await assert.rejects(async () => {
      for await (const b of nativeBlocks(input(), enc, 3)) got.push(b);
    }, (e: unknown) => e instanceof ChwireEncodeError && e.row === 7 && e.column === 'a');
    assert.equal(got.length, 2, 'blocks of rows 0-2 and 3-5 were produced, block 6-8 was not');
    const all: Uint8Array[][] = [];
    await assert.rejects(async () => {
      for await (const b of nativeBlocks(input(), enc, 0)) all.push(b);
    }, ChwireEncodeError);
    assert.equal(all.length, 0);
  }
  await assert.rejects(async () => {
    for await (const _ of nativeBlocks(rows, enc, -1)) { /* unreachable */ }
  }, /blockSize/);
});
