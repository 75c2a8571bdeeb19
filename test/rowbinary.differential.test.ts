// Differential tests: the compiled decoder (whole body and stream, split anywhere) must produce
// exactly the rows of the reference decoder, on property-generated schemas and values written by
// an independent test writer (test/support/rowbinary-writer.ts), under several option sets and
// both row shapes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { decodeRowBinary, decodeRowBinaryReference, createRowBinaryDecoder, type RowBinaryOptions } from '../src/codec.js';
import { arbBody, writeBody } from './support/rowbinary-writer.js';

const OPTION_SETS: RowBinaryOptions[] = [
  {},
  { rows: 'array' },
  { int64: 'string', int128: 'string', decimal: 'number', datetime: 'string', date: 'string', time: 'number', strings: 'bytes', uuid: 'bytes', maps: 'Map' },
  { rows: 'array', int64: 'number', int128: 'number', datetime: 'number' },
  // Per-column overrides, including for a column named "__proto__" (an own key of `columns`).
  { int64: 'number', columns: { a: { int64: 'string', strings: 'bytes', maps: 'Map' }, ['__proto__']: { datetime: 'string', uuid: 'bytes' }, '': { decimal: 'number', date: 'string' } } },
];

function streamed(bytes: Uint8Array, chunks: number[], options: RowBinaryOptions): unknown[] {
  const d = createRowBinaryDecoder(options);
  const rows: unknown[] = [];
  let at = 0;
  for (const cut of [...chunks, bytes.length]) {
    const part = bytes.slice(at, cut);
    rows.push(...d.push(part));
    part.fill(0xee); // the decoder may not keep a view of a pushed chunk
    at = cut;
  }
  d.end();
  return rows;
}

test('compiled == reference on generated schemas and values, every option set', () => {
  fc.assert(fc.property(arbBody(), ({ columns, rows }) => {
    const bytes = writeBody(columns, rows);
    for (const options of OPTION_SETS) {
      const ref = decodeRowBinaryReference(bytes, options);
      const got = decodeRowBinary(bytes, options);
      assert.equal(got.rows.length, rows.length);
      if (!isDeepStrictEqual(got.rows, ref.rows)) assert.deepEqual(got.rows, ref.rows);
      assert.deepEqual(got.columns, ref.columns);
    }
  }), { numRuns: 300 });
});

test('per-column overrides apply to their column only (compiled and reference)', () => {
  const cols = [{ name: 'x', type: { kind: 'UInt64' } as const }, { name: '__proto__', type: { kind: 'UInt64' } as const }, { name: 'toString', type: { kind: 'UInt64' } as const }];
  const bytes = writeBody(cols, [[2n ** 64n - 1n, 5n, 6n]]);
  const options: RowBinaryOptions = { rows: 'array', int64: 'number', columns: { x: { int64: 'string' }, ['__proto__']: { int64: 'bigint' } } };
  for (const decode of [decodeRowBinary, decodeRowBinaryReference]) {
    assert.deepEqual(decode(bytes, options).rows, [['18446744073709551615', 5n, 6]]);
  }
  // An inherited property of a plain `columns` object ("toString") is not an override.
  assert.deepEqual(decodeRowBinary(bytes, { rows: 'array', columns: {} }).rows, [[2n ** 64n - 1n, 5n, 6n]]);
});

test('binary type header decodes like the text header', () => {
  fc.assert(fc.property(arbBody(), ({ columns, rows }) => {
    const text = decodeRowBinary(writeBody(columns, rows));
    const bin = decodeRowBinary(writeBody(columns, rows, true), { binaryTypes: true });
    assert.ok(isDeepStrictEqual(bin.rows, text.rows));
    assert.deepEqual(bin.columns, text.columns);
  }), { numRuns: 100 });
});

test('stream split at random points == whole body', () => {
  fc.assert(fc.property(arbBody(), fc.array(fc.nat(), { maxLength: 6 }), fc.constantFrom(...OPTION_SETS), ({ columns, rows }, cuts, options) => {
    const bytes = writeBody(columns, rows);
    const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
    const whole = decodeRowBinary(bytes, options).rows;
    assert.ok(isDeepStrictEqual(streamed(bytes, points, options), whole));
  }), { numRuns: 200 });
});

test('stream split at EVERY byte position (and byte by byte) == whole body', () => {
  fc.assert(fc.property(arbBody(), ({ columns, rows }) => {
    const bytes = writeBody(columns, rows);
    const whole = decodeRowBinary(bytes).rows;
    for (let cut = 0; cut <= bytes.length; cut++) {
      if (!isDeepStrictEqual(streamed(bytes, [cut], {}), whole)) assert.fail(`split at ${cut} of ${bytes.length}`);
    }
    const ones = Array.from({ length: bytes.length }, (_, i) => i);
    assert.ok(isDeepStrictEqual(streamed(bytes, ones, {}), whole));
  }), { numRuns: 25 });
});
