// Unsigned LEB128 (ClickHouse VarUInt): lengths, counts, and parts of binary type encodings.
//
// Invariant: returns an exact JS number or fails. A value needs at most 10 bytes; values above
// 2^53 cannot be exact and no length the engine sends comes near, so they are a DecodeFault.
// Running past `end` throws NEED_MORE (the caller decides whether that is "wait" or "truncated").
import { NEED_MORE } from './need-more.js';
import { fault } from './fault.js';
import type { Cursor } from './cursor.js';

/** Read a VarUInt at c.pos and advance. */
export function readVarUInt(c: Cursor): number {
  const u8 = c.u8;
  let p = c.pos;
  const end = c.end;
  if (p >= end) { c.need = p + 1; throw NEED_MORE; }
  let b = u8[p++]!;
  if (b < 0x80) { c.pos = p; return b; }
  let value = b & 0x7f;
  let mul = 0x80;
  for (let i = 1; i < 10; i++) {
    if (p >= end) { c.need = p + 1; throw NEED_MORE; }
    b = u8[p++]!;
    value += (b & 0x7f) * mul;
    if (b < 0x80) {
      if (value > Number.MAX_SAFE_INTEGER) throw fault(`VarUInt ${value} is beyond 2^53`, c.pos);
      c.pos = p;
      return value;
    }
    mul *= 0x80;
  }
  throw fault('VarUInt longer than 10 bytes', c.pos);
}

/** Bytes `readVarUInt` would consume for `value` (used by test writers and size estimates). */
export function varUIntSize(value: number): number {
  let n = 1;
  while (value >= 0x80) { value = Math.floor(value / 0x80); n++; }
  return n;
}
