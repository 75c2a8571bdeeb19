// A String value longer than the longest JavaScript string (V8: 2^29 - 24 UTF-16 units) is a
// ChwireDecodeError that names the column and the way out (strings: 'bytes'), not a plain
// ERR_STRING_TOO_LONG, on the RowBinary (compiled, whose fault location re-reads through the
// reference decoder) and Native paths. One real value of 2^29 - 14 ASCII bytes: ~540 MB, built once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { freemem } from 'node:os';
import { constants } from 'node:buffer';
import { decodeRowBinary, decodeNative, ChwireDecodeError } from '../src/codec.js';
import { MAX_STRING_LENGTH } from '../src/io/utf8.js';

const N = MAX_STRING_LENGTH + 10;
const varUInt = (n: number): number[] => { const out: number[] = []; while (n >= 0x80) { out.push((n & 0x7f) | 0x80); n = Math.floor(n / 128); } out.push(n); return out; };
const ascii = (s: string): number[] => [...Buffer.from(s)];

test('the decoder knows the runtime limit', () => {
  assert.equal(MAX_STRING_LENGTH, constants.MAX_STRING_LENGTH);
});

test('a String value beyond the longest JS string: ChwireDecodeError naming the column and strings: \'bytes\'', { skip: freemem() < 3 * 2 ** 30 ? 'needs ~3 GiB of free memory for one 540 MB value' : false }, () => {
  // RowBinaryWithNamesAndTypes: 1 column "big" String, one row; Native: one block, one row.
  const rb = [1, 3, ...ascii('big'), 6, ...ascii('String'), ...varUInt(N)];
  const nat = [1, 1, 3, ...ascii('big'), 6, ...ascii('String'), ...varUInt(N)];
  const pre = Math.max(rb.length, nat.length);
  const buf = new Uint8Array(pre + N);
  buf.fill(0x61, pre);
  const check = (e: unknown): boolean => e instanceof ChwireDecodeError && /column "big"/.test(e.message) && /strings: 'bytes'/.test(e.message) && /longer than the longest JavaScript string/.test(e.message);
  buf.set(rb, pre - rb.length);
  assert.throws(() => decodeRowBinary(buf.subarray(pre - rb.length)), check);
  buf.set(nat, pre - nat.length);
  assert.throws(() => decodeNative(buf.subarray(pre - nat.length)), check);
});
