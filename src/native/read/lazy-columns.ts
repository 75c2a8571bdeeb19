// Lazy Native columns for streamed rows: a block's column kept as compact raw data (a typed array,
// or bytes plus an offset table for strings) and turned into one JS value per row only when that
// row is built. Used by the row decoder's `pushSources` so that a row's values are allocated
// when the consumer takes the row and die young with it, instead of a whole 65 536-row block of
// boxed values living (and being copied by every scavenge) at once.
//
// Invariants:
// - `at(data, i)` returns exactly the value the eager reader (column-readers.ts) gives for row i
//   with the same options: the same shared converters are called on the same bytes.
// - Only types whose conversion cannot fail and that carry no state prefix have a lazy form, so
//   every decode error is still raised while the block is read, never while a row is built;
//   other types return undefined and the caller keeps their eager column.
// - `read` and `resume` copy what they keep (streams reuse their buffer) and throw NEED_MORE with
//   `c.need` an exact lower bound; in a stream a column is read as its bytes arrive (`resume`,
//   resumable.ts), so a long column is scanned once, not once per chunk.
//   (Views of a never-rewritten queue instead of copies were measured: ~10 % faster reads, but a
//   kept block then pins 3-4× its bytes in the queue's grown buffers; not worth it.)
import type { TypeNode } from '../../types/ast.js';
import type { ResolvedValueOptions } from '../../plan/options.js';
import { utf8Decode } from '../../io/utf8.js';
import { NEED_MORE } from '../../io/need-more.js';
import { copyBytes } from '../../io/bytes.js';
import { readInt64Exact, readInt64Number, readInt64String, readUInt64Number, readUInt64String } from '../../io/bigint.js';
import {
  daysToDate, daysToString, secondsToIso, ticksToDate, ticksToIso, ticksToMillis,
} from '../../convert/datetime.js';
import { ZoneText } from '../../convert/server-text.js';
import { uuidToString, uuidToBytes } from '../../convert/uuid.js';
import { ipv4ToString, ipv6ToString } from '../../convert/ip.js';
import { need, type NativeCursor } from './column-readers.js';
import { ByteStore, ResumableFixed, ResumableStrings } from './resumable.js';

/** One column of one block, as kept until its rows are built. */
export type LazyData = unknown;

export interface LazyColumn {
  /** Read n values' raw data (no state prefix: lazy types have none). */
  read(c: NativeCursor, n: number): LazyData;
  /** The same data read as the bytes arrive, for a stream's top-level column (resumable.ts). */
  resume(c: NativeCursor, n: number, fresh: boolean): LazyData;
  /** The JS value of row i. */
  readonly at: (data: LazyData, i: number) => unknown;
}

/** Raw fixed-width bytes of a column, read per row through the same (dv, u8, p) getters as eager. */
interface Raw { readonly dv: DataView; readonly u8: Uint8Array }
type RawGet = (r: Raw, p: number) => unknown;

function fixed(width: number, get: RawGet): LazyColumn {
  const resumable = new ResumableFixed(width, (u8) => ({ dv: new DataView(u8.buffer), u8 } satisfies Raw));
  return {
    resume: (c, n, fresh) => resumable.read(c, n, fresh),
    read(c, n) {
      need(c, width * n);
      const u8 = copyBytes(c.u8, c.pos, c.pos + width * n);
      c.pos += width * n;
      return { dv: new DataView(u8.buffer), u8 } satisfies Raw;
    },
    at: (d, i) => get(d as Raw, i * width),
  };
}

/** DateTime as a Uint32Array copy: the hottest lazy type, read without a DataView per value. */
function seconds(conv: (s: number) => unknown): LazyColumn {
  const resumable = new ResumableFixed(4, (u8, n) => new Uint32Array(u8.buffer, 0, n));
  return {
    resume: (c, n, fresh) => resumable.read(c, n, fresh),
    read(c, n) {
      need(c, 4 * n);
      const a = new Uint32Array(copyBytes(c.u8, c.pos, c.pos + 4 * n).buffer);
      c.pos += 4 * n;
      return a;
    },
    at: (d, i) => conv((d as Uint32Array)[i]!),
  };
}

/**
 * String column data: a copy of the column's bytes (length prefixes included) and where each
 * value starts and ends in it.
 */
interface Strings { readonly b: Uint8Array; readonly s: Uint32Array; readonly e: Uint32Array }

function strings(bytes: boolean): LazyColumn {
  // The column's bytes are copied in one piece per call (each value's length prefix too, one byte
  // for short values) rather than value by value: the scan only records where each value is.
  // Measured (Node 26, schema (b), 200k rows): the per-value copy was ~10 % of a fetch's decode.
  let store = new ByteStore(0);
  let s = new Uint32Array(0);
  let e = new Uint32Array(0);
  /** Where input position 0 of the current call lands in the store. */
  let base = 0;
  const scan = new ResumableStrings((_u8, from, to, i) => {
    s[i] = base + from;
    e[i] = base + to;
  });
  const resume = (c: NativeCursor, n: number, fresh: boolean): Strings => {
    if (fresh) {
      // Room for 16 bytes a value (pages are touched only as they are written); doubles if short.
      store = new ByteStore(Math.min(16 * n, 1 << 26));
      s = new Uint32Array(n);
      e = new Uint32Array(n);
      scan.i = 0;
    }
    const from = c.pos;
    base = store.length - from;
    try {
      scan.scan(c, n);
    } catch (err) {
      // The values read so far are complete up to the resume point: keep their bytes.
      if (err === NEED_MORE) store.push(c.u8, from, c.resume!);
      throw err;
    }
    store.push(c.u8, from, c.pos);
    const out: Strings = { b: store.take(), s, e };
    store = new ByteStore(0);
    s = e = new Uint32Array(0);
    return out;
  };
  return {
    resume,
    read: (c, n) => resume(c, n, true),
    at: bytes
      ? (d, i) => { const x = d as Strings; return copyBytes(x.b, x.s[i]!, x.e[i]!); }
      : (d, i) => { const x = d as Strings; return utf8Decode(x.b, x.s[i]!, x.e[i]!); },
  };
}

function fixedStrings(length: number, bytes: boolean): LazyColumn {
  return fixed(length, bytes ? (r, p) => copyBytes(r.u8, p, p + length) : (r, p) => utf8Decode(r.u8, p, p + length));
}

/** The lazy form of a column of type `t`, or undefined when it keeps the eager reader. */
export function lazyColumn(t: TypeNode, o: ResolvedValueOptions): LazyColumn | undefined {
  switch (t.kind) {
    case 'String': return strings(o.strings === 'bytes');
    case 'FixedString': return fixedStrings(t.length, o.strings === 'bytes');
    case 'UInt64':
      if (o.int64 === 'bigint') return undefined; // already a typed array (no per-value boxing)
      return fixed(8, o.int64 === 'number' ? (r, p) => readUInt64Number(r.dv, p) : (r, p) => readUInt64String(r.dv, p));
    case 'Int64':
      if (o.int64 === 'bigint') return undefined;
      return fixed(8, o.int64 === 'number' ? (r, p) => readInt64Number(r.dv, p) : (r, p) => readInt64String(r.dv, p));
    case 'Date': return fixed(2, o.date === 'Date' ? (r, p) => daysToDate(r.dv.getUint16(p, true)) : (r, p) => daysToString(r.dv.getUint16(p, true)));
    case 'Date32': return fixed(4, o.date === 'Date' ? (r, p) => daysToDate(r.dv.getInt32(p, true)) : (r, p) => daysToString(r.dv.getInt32(p, true)));
    case 'DateTime': {
      const z = o.datetime === 'text' ? new ZoneText(t.timezone) : undefined;
      return seconds(z !== undefined ? (s) => z.seconds(s) : o.datetime === 'Date' ? (s) => new Date(s * 1000) : o.datetime === 'string' ? secondsToIso : (s) => s * 1000);
    }
    case 'DateTime64': {
      const P = t.precision;
      const z = o.datetime === 'text' ? new ZoneText(t.timezone) : undefined;
      if (z !== undefined) return fixed(8, (r, p) => z.ticks(readInt64Exact(r.dv, p), P));
      return fixed(8, o.datetime === 'Date' ? (r, p) => ticksToDate(readInt64Exact(r.dv, p), P)
        : o.datetime === 'string' ? (r, p) => ticksToIso(readInt64Exact(r.dv, p), P) : (r, p) => ticksToMillis(readInt64Exact(r.dv, p), P));
    }
    case 'UUID': return fixed(16, o.uuid === 'string' ? (r, p) => uuidToString(r.u8, p) : (r, p) => uuidToBytes(r.u8, p));
    case 'IPv4': return fixed(4, (r, p) => ipv4ToString(r.dv.getUint32(p, true)));
    case 'IPv6': return fixed(16, (r, p) => ipv6ToString(r.u8, p));
    default: return undefined;
  }
}
