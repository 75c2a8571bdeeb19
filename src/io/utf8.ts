// UTF-8 bytes → JS string, with invalid sequences replaced by U+FFFD (never a throw).
//
// Invariant: the result equals `new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)` for
// every input (a leading BOM is data, not a marker); test/convert.test.ts checks it on random
// bytes and on every short ASCII length. Short strings skip TextDecoder, whose per-call overhead
// dominates below ~512 bytes (bench/micro/utf8.ts, Node 20: ≤ 16 ASCII bytes via one fixed-arity fromCharCode ~45-70 ns;
// 4-64 bytes via Buffer#utf8Slice 80-240 ns; TextDecoder 120-380 ns). The codec layer does not
// import `node:`: a global Buffer is detected at run time; without it (browser, worker) short
// ASCII takes fromCharCode and the rest TextDecoder.

import { DecodeFault } from './fault.js';

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** Up to this many ASCII bytes, one fixed-arity String.fromCharCode call builds the string. */
export const SHORT_ASCII_MAX = 16;
/** With Buffer: up to this many bytes Buffer#utf8Slice beats TextDecoder (it still ties at 512:
 * TextDecoder pays a subarray allocation and a JS wrapper per call). */
export const NATIVE_SLICE_MAX = 512;

type Slicer = (this: Uint8Array, start: number, end: number) => string;
const bufferProto = (globalThis as { Buffer?: { prototype?: { utf8Slice?: Slicer } } }).Buffer?.prototype;
const utf8Slice: Slicer | undefined = typeof bufferProto?.utf8Slice === 'function' ? bufferProto.utf8Slice : undefined;
const fcc = String.fromCharCode;

/**
 * 1-16 ASCII bytes as a string, or undefined when a byte is not ASCII. A fixed-arity
 * fromCharCode call makes one flat string in a builtin, with no call into C++ (measured, Node 20:
 * 43-53 ns for 4-8 bytes and 50-70 ns for 9-16 against 80-110 ns for Buffer#utf8Slice, and
 * 60-100 ns for a concatenation loop, which also leaves a cons string).
 */
function shortAscii(b: Uint8Array, p: number, n: number): string | undefined {
  let or = 0;
  for (let i = p; i < p + n; i++) or |= b[i]!;
  if (or >= 0x80) return undefined;
  switch (n) {
    case 1: return fcc(b[p]!);
    case 2: return fcc(b[p]!, b[p + 1]!);
    case 3: return fcc(b[p]!, b[p + 1]!, b[p + 2]!);
    case 4: return fcc(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!);
    case 5: return fcc(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!);
    case 6: return fcc(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!, b[p + 5]!);
    case 7: return fcc(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!, b[p + 5]!, b[p + 6]!);
    case 8: return fcc(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!, b[p + 5]!, b[p + 6]!, b[p + 7]!);
    case 9: return fcc(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!, b[p + 5]!, b[p + 6]!, b[p + 7]!, b[p + 8]!);
    case 10: return fcc(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!, b[p + 5]!, b[p + 6]!, b[p + 7]!, b[p + 8]!, b[p + 9]!);
    case 11: return fcc(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!, b[p + 5]!, b[p + 6]!, b[p + 7]!, b[p + 8]!, b[p + 9]!, b[p + 10]!);
    case 12: return fcc(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!, b[p + 5]!, b[p + 6]!, b[p + 7]!, b[p + 8]!, b[p + 9]!, b[p + 10]!, b[p + 11]!);
    case 13: return fcc(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!, b[p + 5]!, b[p + 6]!, b[p + 7]!, b[p + 8]!, b[p + 9]!, b[p + 10]!, b[p + 11]!, b[p + 12]!);
    case 14: return fcc(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!, b[p + 5]!, b[p + 6]!, b[p + 7]!, b[p + 8]!, b[p + 9]!, b[p + 10]!, b[p + 11]!, b[p + 12]!, b[p + 13]!);
    case 15: return fcc(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!, b[p + 5]!, b[p + 6]!, b[p + 7]!, b[p + 8]!, b[p + 9]!, b[p + 10]!, b[p + 11]!, b[p + 12]!, b[p + 13]!, b[p + 14]!);
    default: return fcc(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!, b[p + 4]!, b[p + 5]!, b[p + 6]!, b[p + 7]!, b[p + 8]!, b[p + 9]!, b[p + 10]!, b[p + 11]!, b[p + 12]!, b[p + 13]!, b[p + 14]!, b[p + 15]!);
  }
}

/** Decode bytes[start, end) as UTF-8. */
export function utf8Decode(bytes: Uint8Array, start: number, end: number): string {
  const n = end - start;
  if (n <= SHORT_ASCII_MAX) {
    if (n === 0) return '';
    const s = shortAscii(bytes, start, n);
    if (s !== undefined) return s;
  }
  if (utf8Slice !== undefined && n <= NATIVE_SLICE_MAX) return utf8Slice.call(bytes, start, end);
  // A string has at most as many UTF-16 units as UTF-8 bytes: only beyond the limit can it fail.
  if (n > MAX_STRING_LENGTH) return longString(bytes, start, end);
  return decoder.decode(bytes.subarray(start, end));
}

/**
 * V8's maximum string length (UTF-16 units) on 64-bit platforms since V8 6.2 (Node's
 * `buffer.constants.MAX_STRING_LENGTH`; this module may not import `node:`).
 */
export const MAX_STRING_LENGTH = 0x1fffffe8;

/** Bytes beyond MAX_STRING_LENGTH: decoded if their text fits, else a DecodeFault saying what to do. */
function longString(bytes: Uint8Array, start: number, end: number): string {
  try {
    return decoder.decode(bytes.subarray(start, end));
  } catch {
    throw new DecodeFault(`a String value of ${end - start} bytes is longer than the longest JavaScript string (${MAX_STRING_LENGTH} UTF-16 units): read this column with strings: 'bytes'`, start);
  }
}

/** The TextDecoder path only (tests compare the fast paths against it). */
export function utf8DecodeStandard(bytes: Uint8Array, start: number, end: number): string {
  if (end - start > MAX_STRING_LENGTH) return longString(bytes, start, end);
  return decoder.decode(bytes.subarray(start, end));
}
