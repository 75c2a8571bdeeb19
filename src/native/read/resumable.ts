// Reading one top-level Native column of a streamed block a piece at a time, as its bytes arrive,
// so that a block of a million rows is neither held whole in the stream's queue nor decoded in one
// synchronous step when its last byte lands (the event loop would stall for its whole decode).
//
// Invariants:
// - A resumable read copies (or decodes) every byte it passes into state it owns, so the caller
//   may drop the input before the resume point; the bytes after it are read again on the next call.
// - `read(c, n, fresh)` starts the column at c.pos when `fresh`, else continues exactly at c.pos,
//   which must be the resume point the previous call left (the block reader guarantees it).
//   It returns the column once all n values are read; otherwise it sets `c.resume` to the resume
//   point and `c.need` to a position whose arrival lets it go further, and throws NEED_MORE.
// - Results equal those of the whole-column readers for the same bytes (the same converters run).
// - Nothing is allocated from a length before the bytes present bound it: a fixed-width column's
//   buffer (width × n) is allocated only once the block reader has checked n bytes are present.
import { NEED_MORE } from '../../io/need-more.js';
import { fault, MAX_LENGTH } from '../../io/fault.js';
import { readVarUInt } from '../../io/varint.js';
import type { NativeCursor } from '../../io/cursor.js';

/**
 * Bytes a resumable read waits for before it goes on (at most what the column still needs): an
 * older server sends its body in ~4 KiB chunks, and an attempt per chunk cost more than the copy.
 */
export const STEP_BYTES = 64 * 1024;

/** Stop here: the caller keeps `resume` and retries once `need` bytes exist (absolute positions). */
function stop(c: NativeCursor, resume: number, need: number): never {
  c.resume = resume;
  c.need = need;
  throw NEED_MORE;
}

/**
 * A fixed-width column's bytes copied into one buffer of width × n as they arrive; `done` turns
 * the complete buffer into the column's value (a typed array over it, raw data…).
 */
export class ResumableFixed<V> {
  private dst = new Uint8Array(0);
  private filled = 0;

  constructor(private readonly width: number, private readonly done: (u8: Uint8Array, n: number) => V) {}

  read(c: NativeCursor, n: number, fresh: boolean): V {
    const total = this.width * n;
    if (fresh) {
      // Whole column present: one copy, as the whole-column readers do.
      if (c.pos + total <= c.end) {
        const u8 = new Uint8Array(total);
        u8.set(c.u8.subarray(c.pos, c.pos + total));
        c.pos += total;
        return this.done(u8, n);
      }
      this.dst = new Uint8Array(total);
      this.filled = 0;
    }
    const take = Math.min(total - this.filled, c.end - c.pos);
    this.dst.set(c.u8.subarray(c.pos, c.pos + take), this.filled);
    this.filled += take;
    c.pos += take;
    if (this.filled < total) stop(c, c.pos, c.pos + Math.min(total - this.filled, STEP_BYTES));
    const out = this.dst;
    this.dst = new Uint8Array(0);
    return this.done(out, n);
  }
}

/**
 * A String column read value by value as its bytes arrive: `each(u8, start, end, i)` sees value
 * i's bytes while they are still in the input (decode them, or copy them). Resumes at the length
 * prefix of the first value not yet complete.
 */
export class ResumableStrings {
  /** Next value to read. */
  i = 0;

  constructor(private readonly each: (u8: Uint8Array, start: number, end: number, i: number) => void) {}

  /** Reads values [i, n); returns normally once all are read (c.pos after the column). */
  scan(c: NativeCursor, n: number): void {
    const u8 = c.u8;
    const end = c.end;
    const each = this.each;
    let p = c.pos;
    let i = this.i;
    for (; i < n; i++) {
      const at = p;
      let len: number;
      if (p < end && u8[p]! < 0x80) {
        len = u8[p++]!;
      } else {
        if (p >= end) { this.i = i; stop(c, at, at + 1); }
        c.pos = p;
        try {
          len = readVarUInt(c);
        } catch (e) {
          if (e === NEED_MORE) { this.i = i; stop(c, at, c.end + 1); }
          throw e;
        }
        if (len > MAX_LENGTH) throw fault(`string length ${len} is beyond the engine's limit`, at);
        p = c.pos;
      }
      if (p + len > end) {
        this.i = i;
        // The rest of the column needs at least one byte per remaining value.
        stop(c, at, p + len + (n - i - 1));
      }
      each(u8, p, p + len, i);
      p += len;
    }
    this.i = n;
    c.pos = p;
  }
}

/**
 * A growable byte store for string data copied value by value (capacity doubles; a value never
 * straddles a move). `take()` hands out the bytes written, trimmed to a view of their length.
 */
export class ByteStore {
  buf: Uint8Array;
  length = 0;

  constructor(capacity: number) {
    this.buf = new Uint8Array(Math.max(capacity, 16));
  }

  push(src: Uint8Array, start: number, end: number): void {
    const len = end - start;
    if (this.length + len > this.buf.length) {
      if (this.length + len > 0xffffffff) throw fault('a String column of one block holds more than 4 GiB', start);
      const grown = new Uint8Array(Math.max(this.buf.length * 2, this.length + len));
      grown.set(this.buf.subarray(0, this.length));
      this.buf = grown;
    }
    const b = this.buf;
    const at = this.length;
    if (len < 32) for (let k = 0; k < len; k++) b[at + k] = src[start + k]!;
    else b.set(src.subarray(start, end), at);
    this.length = at + len;
  }

  take(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}
