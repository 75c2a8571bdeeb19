// Prebuilt Native column readers: for each type node, read a whole column of n values (native.md
// §3–§4) and return them as the JS values the decode options ask for — the same values the
// RowBinary decoder produces for the same type and options (the converters are shared).
//
// Invariants:
// - `prefix()` reads the state prefixes of the reader's subtree (depth-first, before any data);
//   `read(c, n)` reads the data streams. `read(c, 0)` consumes nothing: an empty nested column has
//   no data (§3). Readers keep prefix state between the two calls, so one reader instance serves
//   one column of one block at a time.
// - Running out of bytes throws NEED_MORE (with `c.need` set to an exact lower bound when known);
//   impossible data (Bool 2, unknown Enum value, decreasing offsets, bad discriminator) throws a
//   DecodeFault at the absolute offset of the bad byte. Lengths are checked against MAX_LENGTH
//   and against the bytes present before anything is allocated.
// - The result is indexable by row (a typed array or a plain array) and is read before the bytes
//   under it change: a typed array may be a view of the input.
import type { TypeNode } from '../../types/ast.js';
import { decimalByteWidth } from '../../types/ast.js';
import { ChwireTypeError } from '../../errors.js';
import type { ResolvedValueOptions } from '../../plan/options.js';
import type { Cursor, NativeCursor } from '../../io/cursor.js';

export type { NativeCursor } from '../../io/cursor.js';
import { NEED_MORE } from '../../io/need-more.js';
import { fault, MAX_LENGTH } from '../../io/fault.js';
import { readVarUInt } from '../../io/varint.js';
import { utf8Decode } from '../../io/utf8.js';
// Not `u8.slice()`: on a Node Buffer that is a view of shared memory, not a copy.
import { copyBytes } from '../../io/bytes.js';
import { readInt64Exact, readInt64Number, readInt64String, readUInt64Number, readUInt64String, readIntBig, readUIntBig } from '../../io/bigint.js';
import { decimalToString, decimalToNumber } from '../../convert/decimal.js';
import { uuidToString, uuidToBytes } from '../../convert/uuid.js';
import { ipv4ToString, ipv6ToString } from '../../convert/ip.js';
import {
  daysToDate, daysToString, secondsToIso, ticksToDate, ticksToIso, ticksToMillis, timeToString, time64ToString, time64ToSeconds,
} from '../../convert/datetime.js';
import { setOwn } from '../../convert/objects.js';
import { float32Shortest } from '../../convert/float32.js';
import { ZoneText } from '../../convert/server-text.js';
import { objectKeyOptions } from '../../plan/structural.js';
import { keyText, type KeyText } from '../../plan/key-text.js';
import { ResumableFixed, ResumableStrings, STEP_BYTES } from './resumable.js';
import { ChildStep, MaskStep, OffsetsStep } from './resume-steps.js';

export type Values = ArrayLike<unknown>;

export interface ColumnReader {
  prefix(c: Cursor): void;
  read(c: Cursor, n: number): Values;
  /**
   * For a top-level column of a stream: the same values, read as the bytes arrive (resumable.ts
   * protocol: `fresh` starts the column, a stop sets `c.resume`; composites resume part by part,
   * resume-steps.ts). The caller reads the column's state prefixes (`prefix`) before a fresh
   * call. Absent where the type is only read whole.
   */
  resume?(c: NativeCursor, n: number, fresh: boolean): Values;
}

/** Options for one column, plus the hook used for types this file does not read itself. */
export interface ReaderContext {
  readonly o: ResolvedValueOptions;
  /**
   * Whether typed arrays may be views of the input bytes. Only when the bytes outlive the values
   * (a caller's complete buffer); a stream decoder reuses its buffer, so it needs copies.
   */
  readonly views: boolean;
  /** Type names inside Dynamic prefixes are binary type encodings (same setting as the header's). */
  readonly binaryTypes?: boolean;
  /** Readers for Dynamic and JSON (column-dynamic.ts); undefined → those types are refused. */
  readonly special?: (t: TypeNode, ctx: ReaderContext, text: string) => ColumnReader | undefined;
}

/** Make sure `bytes` more bytes are present. */
export function need(c: Cursor, bytes: number): void {
  if (c.pos + bytes > c.end) {
    c.need = c.pos + bytes;
    throw NEED_MORE;
  }
}

type TypedCtor<T> = { new (buffer: ArrayBufferLike, byteOffset: number, length: number): T; BYTES_PER_ELEMENT: number };

/** n fixed-width values as a typed array: a view when allowed and aligned, one copy otherwise. */
export function typedAt<T>(c: Cursor, Ctor: TypedCtor<T>, n: number, views = false): T {
  const w = Ctor.BYTES_PER_ELEMENT;
  need(c, w * n);
  const u8 = c.u8;
  const abs = u8.byteOffset + c.pos;
  let out: T;
  if (views && abs % w === 0) out = new Ctor(u8.buffer, abs, n);
  else out = new Ctor(copyBytes(u8, c.pos, c.pos + w * n).buffer, 0, n);
  c.pos += w * n;
  return out;
}

/** A UInt64 count or offset that must be an exact number within the engine's limits. */
export function readCount(c: Cursor, what: string): number {
  need(c, 8);
  const v = readUInt64Number(c.dv, c.pos);
  if (v > MAX_LENGTH * 16) throw fault(`${what} ${v} is beyond any block the engine writes`, c.pos);
  c.pos += 8;
  return v;
}

/** Fixed-width values converted one by one. */
function perValue(width: number, get: (c: Cursor, p: number) => unknown): ColumnReader {
  // Resumable: the values converted so far and how many.
  let out: unknown[] = [];
  let done = 0;
  return {
    prefix() {},
    resume(c, n, fresh) {
      if (fresh) {
        out = new Array<unknown>(n);
        done = 0;
      }
      const stop = done + Math.min(n - done, Math.floor((c.end - c.pos) / width));
      let p = c.pos;
      for (let i = done; i < stop; i++, p += width) out[i] = get(c, p);
      done = stop;
      c.pos = p;
      if (done < n) {
        c.resume = p;
        c.need = p + Math.min((n - done) * width, Math.max(width, STEP_BYTES));
        throw NEED_MORE;
      }
      const r = out;
      out = [];
      return r;
    },
    read(c, n) {
      need(c, width * n);
      const out = new Array<unknown>(n);
      let p = c.pos;
      for (let i = 0; i < n; i++, p += width) out[i] = get(c, p);
      c.pos = p;
      return out;
    },
  };
}

function typed<T extends Values>(Ctor: TypedCtor<T>, views: boolean): ColumnReader {
  if (views) return { prefix() {}, read: (c, n) => typedAt(c, Ctor, n, views) };
  const resumable = new ResumableFixed(Ctor.BYTES_PER_ELEMENT, (u8, n) => new Ctor(u8.buffer, 0, n));
  return { prefix() {}, read: (c, n) => typedAt(c, Ctor, n, views), resume: (c, n, fresh) => resumable.read(c, n, fresh) };
}

function int64Reader(signed: boolean, mode: ResolvedValueOptions['int64'], views: boolean): ColumnReader {
  if (mode === 'bigint') return signed ? typed(BigInt64Array, views) : typed(BigUint64Array, views);
  if (mode === 'number') return perValue(8, signed ? (c, p) => readInt64Number(c.dv, p) : (c, p) => readUInt64Number(c.dv, p));
  return perValue(8, signed ? (c, p) => readInt64String(c.dv, p) : (c, p) => readUInt64String(c.dv, p));
}

function wideReader(bytes: number, signed: boolean, mode: ResolvedValueOptions['int128']): ColumnReader {
  const get = signed ? (c: Cursor, p: number) => readIntBig(c.dv, p, bytes) : (c: Cursor, p: number) => readUIntBig(c.dv, p, bytes);
  if (mode === 'bigint') return perValue(bytes, get);
  if (mode === 'number') return perValue(bytes, (c, p) => Number(get(c, p)));
  return perValue(bytes, (c, p) => get(c, p).toString());
}

const f32 = new Float32Array(1);
const f32bits = new Uint32Array(f32.buffer);
function bfloat16(bits: number): number {
  f32bits[0] = bits << 16;
  return f32[0]!;
}



/** Progress of a variable-length column read, keyed by the body offset where it started. */
interface Partial { start: number; n: number; i: number; at: number; out: unknown[]; done: boolean }

function stringReader(bytes: boolean, fixed: number): ColumnReader {
  // In a stream a long String column can span many chunks: remember how far the last attempt got
  // (body offsets survive buffer moves), so each retry continues instead of starting over. A
  // completed read is remembered too, for parents (Tuple, Map) that are retried as a whole.
  let memo: Partial | undefined;
  // Top-level String columns of streams: each value decoded as soon as its bytes are in.
  let values: unknown[] = [];
  const scan = new ResumableStrings(bytes
    ? (u8, s, e, i) => { values[i] = copyBytes(u8, s, e); }
    : (u8, s, e, i) => { values[i] = utf8Decode(u8, s, e); });
  return {
    prefix() {},
    ...(fixed > 0 ? {} : {
      resume(c: NativeCursor, n: number, fresh: boolean): Values {
        if (fresh) {
          values = new Array<unknown>(n);
          scan.i = 0;
        }
        scan.scan(c, n);
        const r = values;
        values = [];
        return r;
      },
    }),
    read(c: NativeCursor, n) {
      const u8 = c.u8;
      if (fixed > 0) {
        const out = new Array<unknown>(n);
        need(c, fixed * n);
        let p = c.pos;
        for (let i = 0; i < n; i++, p += fixed) out[i] = bytes ? copyBytes(u8, p, p + fixed) : utf8Decode(u8, p, p + fixed);
        c.pos = p;
        return out;
      }
      const origin = c.origin ?? 0;
      const start = origin + c.pos;
      let i = 0;
      let out: unknown[];
      if (memo !== undefined && memo.start === start && memo.n === n) {
        if (memo.done) {
          c.pos = memo.at - origin;
          return memo.out;
        }
        i = memo.i;
        c.pos = memo.at - origin;
        out = memo.out;
      } else {
        out = new Array<unknown>(n);
      }
      let at = c.pos;
      try {
        for (; i < n; i++) {
          at = c.pos;
          const len = readVarUInt(c);
          if (len > MAX_LENGTH) throw fault(`string length ${len} is beyond the engine's limit`, at);
          // The rest of the column needs at least one byte per remaining value: a tighter hint for streams.
          need(c, len + (n - i - 1));
          const p = c.pos;
          out[i] = bytes ? copyBytes(u8, p, p + len) : utf8Decode(u8, p, p + len);
          c.pos = p + len;
        }
      } catch (e) {
        // Resume at value i: c.pos may be past its length prefix, so re-read from the prefix.
        if (e === NEED_MORE && c.origin !== undefined) memo = { start, n, i, at: origin + at, out, done: false };
        throw e;
      }
      memo = c.origin === undefined ? undefined : { start, n, i: n, at: origin + c.pos, out, done: true };
      return out;
    },
  };
}

function decimalReader(t: Extract<TypeNode, { kind: 'Decimal' }>, mode: ResolvedValueOptions['decimal']): ColumnReader {
  const w = decimalByteWidth(t.precision);
  const s = t.scale;
  const conv = mode === 'string' ? decimalToString : decimalToNumber;
  if (w === 4) return perValue(4, (c, p) => conv(c.dv.getInt32(p, true), s));
  if (w === 8) return perValue(8, (c, p) => conv(readInt64Exact(c.dv, p), s));
  return perValue(w, (c, p) => conv(readIntBig(c.dv, p, w), s));
}

function enumReader(t: Extract<TypeNode, { kind: 'Enum8' | 'Enum16' }>): ColumnReader {
  const labels = new Map<number, string>();
  for (const e of t.entries) labels.set(e.value, e.label);
  const w = t.kind === 'Enum8' ? 1 : 2;
  return perValue(w, (c, p) => {
    const v = w === 1 ? c.dv.getInt8(p) : c.dv.getInt16(p, true);
    const label = labels.get(v);
    if (label === undefined) throw fault(`${t.kind} value ${v} is not in the type`, p);
    return label;
  });
}

/**
 * Nullable(Enum8/16): a code under a NULL is not a value, so it is not checked against the type
 * (servers write their column default there, 0, which most enums do not list: 18.16 does); a code
 * that is a value and not in the type is impossible data, as in enumReader.
 */
function nullableEnumReader(t: Extract<TypeNode, { kind: 'Enum8' | 'Enum16' }>): ColumnReader {
  const labels = new Map<number, string>();
  for (const e of t.entries) labels.set(e.value, e.label);
  const w = t.kind === 'Enum8' ? 1 : 2;
  return {
    prefix() {},
    read(c, n) {
      if (n === 0) return [];
      need(c, n + n * w);
      const u8 = c.u8;
      const start = c.pos;
      const out = new Array<unknown>(n);
      for (let i = 0, p = start + n; i < n; i++, p += w) {
        const m = u8[start + i]!;
        if (m > 1) throw fault(`null map byte ${m} is not 0 or 1`, start + i);
        if (m === 1) { out[i] = null; continue; }
        const v = w === 1 ? c.dv.getInt8(p) : c.dv.getInt16(p, true);
        const label = labels.get(v);
        if (label === undefined) throw fault(`${t.kind} value ${v} is not in the type`, p);
        out[i] = label;
      }
      c.pos = start + n + n * w;
      return out;
    },
  };
}

function nullableReader(inner: ColumnReader): ColumnReader {
  const mask = new MaskStep();
  const values = new ChildStep(inner);
  const merge = (m: Uint8Array, mp: number, vals: Values, n: number): unknown[] => {
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) out[i] = m[mp + i] === 1 ? null : vals[i];
    return out;
  };
  return {
    prefix(c) { inner.prefix(c); },
    resume(c, n, fresh) {
      if (fresh) { mask.start(); values.start(); }
      const m = mask.run(c, n);
      const vals = values.run(c, n);
      values.take();
      mask.start();
      return merge(m, 0, vals, n);
    },
    read(c, n) {
      if (n === 0) return [];
      need(c, n);
      const u8 = c.u8;
      const start = c.pos;
      for (let i = 0; i < n; i++) {
        if (u8[start + i]! > 1) throw fault(`null map byte ${u8[start + i]} is not 0 or 1`, start + i);
      }
      c.pos = start + n;
      return merge(u8, start, inner.read(c, n), n);
    },
  };
}

/** n UInt64 cumulative offsets as numbers, checked to be non-decreasing and within the limit. */
export function readOffsets(c: Cursor, n: number): Float64Array {
  need(c, 8 * n);
  const ends = new Float64Array(n);
  let prev = 0;
  let p = c.pos;
  for (let i = 0; i < n; i++, p += 8) {
    const v = readUInt64Number(c.dv, p);
    if (v < prev || v > MAX_LENGTH * 16) throw fault(`array offset ${v} after ${prev} is not a valid cumulative size`, p);
    ends[i] = v;
    prev = v;
  }
  c.pos = p;
  return ends;
}

// Every value of every type takes at least one byte in Native: an empty tuple too (the engine
// writes one placeholder byte per value, as for Nothing). So a count (rows, array and map sizes)
// is always bounded by the bytes present before anything of that size is allocated.

/** Rows of arrays: row i is flat[ends[i-1], ends[i]). */
function arraysOf(ends: Float64Array, flat: Values, n: number): unknown[] {
  const out = new Array<unknown>(n);
  let start = 0;
  for (let i = 0; i < n; i++) {
    const end = ends[i]!;
    const a = new Array<unknown>(end - start);
    for (let k = start; k < end; k++) a[k - start] = flat[k];
    out[i] = a;
    start = end;
  }
  return out;
}

function arrayReader(element: ColumnReader): ColumnReader {
  const offsets = new OffsetsStep();
  const elements = new ChildStep(element);
  return {
    prefix(c) { element.prefix(c); },
    resume(c, n, fresh) {
      if (fresh) { offsets.start(); elements.start(); }
      const ends = offsets.run(c, n);
      const flat = elements.run(c, ends[n - 1]!);
      elements.take();
      offsets.start();
      return arraysOf(ends, flat, n);
    },
    read(c, n) {
      if (n === 0) return [];
      const ends = readOffsets(c, n);
      const total = ends[n - 1]!;
      // A lower bound before anything of `total` elements is allocated (corrupt offsets, streams).
      need(c, total);
      const flat = total === 0 ? [] : element.read(c, total);
      return arraysOf(ends, flat, n);
    },
  };
}

function tupleReader(elements: readonly ColumnReader[], names: readonly string[] | undefined): ColumnReader {
  const m = elements.length;
  const steps = elements.map((e) => new ChildStep(e));
  const rowsOf = (cols: readonly Values[], n: number): unknown[] => {
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) {
      if (names === undefined) {
        const a = new Array<unknown>(m);
        for (let k = 0; k < m; k++) a[k] = cols[k]![i];
        out[i] = a;
      } else {
        const o: Record<string, unknown> = {};
        for (let k = 0; k < m; k++) setOwn(o, names[k]!, cols[k]![i]);
        out[i] = o;
      }
    }
    return out;
  };
  const empty = (c: Cursor, n: number): unknown[] => {
    // Tuple(): one placeholder byte per value (the engine writes '0' and skips it on read, as
    // for Nothing). Reading it keeps the row count bounded by the bytes.
    need(c, n);
    c.pos += n;
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) out[i] = names === undefined ? [] : {};
    return out;
  };
  return {
    prefix(c) { for (const e of elements) e.prefix(c); },
    ...(m === 0 ? {} : {
      resume(c: NativeCursor, n: number, fresh: boolean): Values {
        if (fresh) for (const s of steps) s.start();
        const cols = steps.map((s) => s.run(c, n));
        for (const s of steps) s.take();
        return rowsOf(cols, n);
      },
    }),
    read(c, n) {
      if (n === 0) return [];
      if (m === 0) return empty(c, n);
      return rowsOf(elements.map((e) => e.read(c, n)), n);
    },
  };
}

function mapReader(key: ColumnReader, value: ColumnReader, asMap: boolean, kt: KeyText = String): ColumnReader {
  const offsets = new OffsetsStep();
  const keySteps = new ChildStep(key);
  const valueSteps = new ChildStep(value);
  const mapsOf = (ends: Float64Array, keys: Values, vals: Values, n: number): unknown[] => {
    const out = new Array<unknown>(n);
    let start = 0;
    for (let i = 0; i < n; i++) {
      const end = ends[i]!;
      if (asMap) {
        const m = new Map<unknown, unknown>();
        for (let k = start; k < end; k++) m.set(keys[k], vals[k]);
        out[i] = m;
      } else {
        const o: Record<string, unknown> = {};
        for (let k = start; k < end; k++) setOwn(o, kt(keys[k]), vals[k]);
        out[i] = o;
      }
      start = end;
    }
    return out;
  };
  return {
    prefix(c) { key.prefix(c); value.prefix(c); },
    resume(c, n, fresh) {
      if (fresh) { offsets.start(); keySteps.start(); valueSteps.start(); }
      const ends = offsets.run(c, n);
      const total = ends[n - 1]!;
      const keys = keySteps.run(c, total);
      const vals = valueSteps.run(c, total);
      keySteps.take();
      valueSteps.take();
      offsets.start();
      return mapsOf(ends, keys, vals, n);
    },
    read(c, n) {
      if (n === 0) return [];
      const ends = readOffsets(c, n);
      const total = ends[n - 1]!;
      need(c, total);
      const keys = total === 0 ? [] : key.read(c, total);
      const vals = total === 0 ? [] : value.read(c, total);
      return mapsOf(ends, keys, vals, n);
    },
  };
}

/** LowCardinality keys of one block (§4.7): the dictionary (plain T values) and one index per row. */
export interface LowCardinalityPart { dictionary: Values; keys: Uint8Array | Uint16Array | Uint32Array | BigUint64Array; nullable: boolean }

export function readLowCardinalityPart(c: Cursor, dict: ColumnReader, nullable: boolean, n: number): LowCardinalityPart {
  const at = c.pos;
  need(c, 8);
  const flagsLo = c.dv.getUint32(c.pos, true);
  const flagsHi = c.dv.getUint32(c.pos + 4, true);
  c.pos += 8;
  const width = flagsLo & 0xff;
  // Bit 9: the dictionary follows ("additional keys"); bit 8 (a shared global dictionary) never occurs in Native.
  if (width > 3 || flagsHi !== 0 || (flagsLo & 0x200) === 0 || (flagsLo & 0x100) !== 0) throw fault(`LowCardinality flags 0x${flagsLo.toString(16)} are not supported`, at);
  const size = readCount(c, 'LowCardinality dictionary size');
  need(c, size); // every dictionary entry takes at least one byte
  const dictionary = dict.read(c, size);
  const keysAt = c.pos;
  const nkeys = readCount(c, 'LowCardinality key count');
  if (nkeys !== n) throw fault(`LowCardinality has ${nkeys} keys for ${n} rows`, keysAt);
  const keys = width === 0 ? typedAt(c, Uint8Array, n) : width === 1 ? typedAt(c, Uint16Array, n) : width === 2 ? typedAt(c, Uint32Array, n) : typedAt(c, BigUint64Array, n);
  for (let i = 0; i < n; i++) {
    if (Number(keys[i]!) >= size) throw fault(`LowCardinality key ${keys[i]} is outside the dictionary of ${size}`, c.pos - (n - i) * (1 << width));
  }
  return { dictionary, keys, nullable };
}

/** The LowCardinality state prefix: keys version 1 (shared dictionaries with additional keys). */
export function lowCardinalityPrefix(c: Cursor, dict: ColumnReader): void {
  const at = c.pos;
  const version = readCount(c, 'LowCardinality version');
  if (version !== 1) throw fault(`LowCardinality keys version ${version} is not supported`, at);
  dict.prefix(c);
}

export function lowCardinalityReader(dict: ColumnReader, nullable: boolean): ColumnReader {
  return {
    prefix(c) { lowCardinalityPrefix(c, dict); },
    read(c, n) {
      if (n === 0) return [];
      const { dictionary, keys } = readLowCardinalityPart(c, dict, nullable, n);
      const out = new Array<unknown>(n);
      for (let i = 0; i < n; i++) {
        const k = Number(keys[i]!);
        out[i] = nullable && k === 0 ? null : dictionary[k];
      }
      return out;
    },
  };
}

/** Variant (§4.8): discriminators, then each member's column holding only its rows. */
export function variantReader(members: readonly ColumnReader[]): ColumnReader {
  const m = members.length;
  return {
    prefix(c) {
      const at = c.pos;
      const mode = readCount(c, 'Variant discriminators mode');
      if (mode !== 0) throw fault(`Variant discriminators mode ${mode} is not the basic mode`, at);
      for (const r of members) r.prefix(c);
    },
    read(c, n) {
      if (n === 0) return [];
      need(c, n);
      const u8 = c.u8;
      const start = c.pos;
      const counts = new Array<number>(m).fill(0);
      for (let i = 0; i < n; i++) {
        const d = u8[start + i]!;
        if (d === 0xff) continue;
        if (d >= m) throw fault(`Variant discriminator ${d} is out of range (${m} members)`, start + i);
        counts[d]!++;
      }
      c.pos = start + n;
      const cols = members.map((r, k) => r.read(c, counts[k]!));
      const next = new Array<number>(m).fill(0);
      const out = new Array<unknown>(n);
      for (let i = 0; i < n; i++) {
        const d = u8[start + i]!;
        out[i] = d === 0xff ? null : cols[d]![next[d]!++];
      }
      return out;
    },
  };
}

const nothingReader: ColumnReader = {
  prefix() {},
  read(c, n) {
    need(c, n);
    c.pos += n;
    return new Array<unknown>(n).fill(null);
  },
};

const POINT: TypeNode = { kind: 'Tuple', elements: [{ kind: 'Float64' }, { kind: 'Float64' }] };
const RING: TypeNode = { kind: 'Array', element: POINT };
const POLYGON: TypeNode = { kind: 'Array', element: RING };
const GEOMETRY: TypeNode = { kind: 'Variant', members: [{ kind: 'LineString' }, { kind: 'MultiLineString' }, { kind: 'MultiPolygon' }, { kind: 'Point' }, { kind: 'Polygon' }, { kind: 'Ring' }] };

/** The reader for `t` (a fresh instance: readers hold per-block prefix state). */
export function columnReader(t: TypeNode, ctx: ReaderContext, text: string): ColumnReader {
  const o = ctx.o;
  switch (t.kind) {
    case 'UInt8': return typed(Uint8Array, ctx.views);
    case 'UInt16': return typed(Uint16Array, ctx.views);
    case 'UInt32': return typed(Uint32Array, ctx.views);
    case 'Int8': return typed(Int8Array, ctx.views);
    case 'Int16': return typed(Int16Array, ctx.views);
    case 'Int32': return typed(Int32Array, ctx.views);
    case 'Float32': return o.float32 === 'shortest' ? perValue(4, (c, p) => float32Shortest(c.dv.getFloat32(p, true))) : typed(Float32Array, ctx.views);
    case 'Float64': return typed(Float64Array, ctx.views);
    case 'UInt64': return int64Reader(false, o.int64, ctx.views);
    case 'Int64': case 'Interval': return int64Reader(true, o.int64, ctx.views);
    case 'UInt128': return wideReader(16, false, o.int128);
    case 'Int128': return wideReader(16, true, o.int128);
    case 'UInt256': return wideReader(32, false, o.int128);
    case 'Int256': return wideReader(32, true, o.int128);
    case 'BFloat16': return perValue(2, (c, p) => bfloat16(c.dv.getUint16(p, true)));
    case 'Bool': return perValue(1, (c, p) => {
      const b = c.u8[p]!;
      if (b > 1) throw fault(`Bool byte ${b} is not 0 or 1`, p);
      return b === 1;
    });
    case 'Decimal': return decimalReader(t, o.decimal);
    case 'String': return stringReader(o.strings === 'bytes', 0);
    case 'FixedString': return stringReader(o.strings === 'bytes', t.length);
    case 'Date': return perValue(2, o.date === 'Date' ? (c, p) => daysToDate(c.dv.getUint16(p, true)) : (c, p) => daysToString(c.dv.getUint16(p, true)));
    case 'Date32': return perValue(4, o.date === 'Date' ? (c, p) => daysToDate(c.dv.getInt32(p, true)) : (c, p) => daysToString(c.dv.getInt32(p, true)));
    case 'DateTime': {
      const z = o.datetime === 'text' ? new ZoneText(t.timezone) : undefined;
      return perValue(4, z !== undefined ? (c, p) => z.seconds(c.dv.getUint32(p, true)) : o.datetime === 'Date' ? (c, p) => new Date(c.dv.getUint32(p, true) * 1000)
        : o.datetime === 'string' ? (c, p) => secondsToIso(c.dv.getUint32(p, true)) : (c, p) => c.dv.getUint32(p, true) * 1000);
    }
    case 'DateTime64': {
      const P = t.precision;
      const z = o.datetime === 'text' ? new ZoneText(t.timezone) : undefined;
      if (z !== undefined) return perValue(8, (c, p) => z.ticks(readInt64Exact(c.dv, p), P));
      return perValue(8, o.datetime === 'Date' ? (c, p) => ticksToDate(readInt64Exact(c.dv, p), P)
        : o.datetime === 'string' ? (c, p) => ticksToIso(readInt64Exact(c.dv, p), P) : (c, p) => ticksToMillis(readInt64Exact(c.dv, p), P));
    }
    case 'Time': return perValue(4, o.time === 'string' ? (c, p) => timeToString(c.dv.getInt32(p, true)) : (c, p) => c.dv.getInt32(p, true));
    case 'Time64': {
      const P = t.precision;
      return perValue(8, o.time === 'string' ? (c, p) => time64ToString(readInt64Exact(c.dv, p), P) : (c, p) => time64ToSeconds(readInt64Exact(c.dv, p), P));
    }
    case 'UUID': return perValue(16, o.uuid === 'string' ? (c, p) => uuidToString(c.u8, p) : (c, p) => uuidToBytes(c.u8, p));
    case 'IPv4': return perValue(4, (c, p) => ipv4ToString(c.dv.getUint32(p, true)));
    case 'IPv6': return perValue(16, (c, p) => ipv6ToString(c.u8, p));
    case 'Enum8': case 'Enum16': return enumReader(t);
    case 'Nothing': return nothingReader;
    case 'Nullable': return t.inner.kind === 'Enum8' || t.inner.kind === 'Enum16' ? nullableEnumReader(t.inner) : nullableReader(columnReader(t.inner, ctx, text));
    case 'LowCardinality': {
      const nullable = t.inner.kind === 'Nullable';
      return lowCardinalityReader(columnReader(nullable ? (t.inner as { inner: TypeNode }).inner : t.inner, ctx, text), nullable);
    }
    case 'SimpleAggregateFunction': return columnReader(t.inner, ctx, text);
    case 'Array': return arrayReader(columnReader(t.element, ctx, text));
    case 'Tuple': return tupleReader(t.elements.map((e) => columnReader(e, ctx, text)), t.names);
    case 'Nested': return arrayReader(tupleReader(t.elements.map((e) => columnReader(e, ctx, text)), t.names));
    case 'Map': {
      // Keys of a Map decoded as a plain object become property names: decode them as canonical
      // text whatever the value options (the same rule as the RowBinary decoders).
      const keyCtx = o.maps === 'Map' ? ctx : { ...ctx, o: objectKeyOptions(o) };
      return mapReader(columnReader(t.key, keyCtx, text), columnReader(t.value, ctx, text), o.maps === 'Map', o.maps === 'Map' ? undefined : keyText(t.key));
    }
    case 'Variant': return variantReader(t.members.map((m) => columnReader(m, ctx, text)));
    case 'Point': return columnReader(POINT, ctx, text);
    case 'Ring': case 'LineString': return columnReader(RING, ctx, text);
    case 'MultiLineString': case 'Polygon': return columnReader(POLYGON, ctx, text);
    case 'MultiPolygon': return columnReader({ kind: 'Array', element: POLYGON }, ctx, text);
    case 'Geometry': return columnReader(GEOMETRY, ctx, text);
    case 'Dynamic': case 'JSON': case 'QBit': {
      const r = ctx.special?.(t, ctx, text);
      if (r !== undefined) return r;
      throw new ChwireTypeError(`the Native reader cannot decode ${t.kind} columns yet (use RowBinaryWithNamesAndTypes)`, text, -1);
    }
    case 'AggregateFunction':
      throw new ChwireTypeError('AggregateFunction states cannot be decoded (they carry no length); select finalizeAggregation(x) or a -State-free form', text, -1);
  }
}
