// One result column read block by block into columnar parts: the collectors behind
// decodeNativeColumns, the streaming columnar decoder and client.fetchColumns / streamColumns.
//
// Invariants:
// - `read(c, rows)` reads one block's data of the column (throwing NEED_MORE with `c.need` an exact
//   lower bound when its bytes have not all arrived; it may then be called again from the same
//   offset) and keeps it as one part. Impossible data (a null-map byte of 2, an Enum code outside
//   the type) is a DecodeFault at the offset of the bad byte, raised while reading, never later.
// - Fixed-width data is never converted value by value: a part is a byte range of the input when
//   the input outlives the result (`views`), else one copy of it; `takeBlock()` hands out the
//   last part alone (streams), `join(total)` joins all parts, copying each byte exactly once
//   (one part in a view-able input: no copy at all when aligned).
// - A join is done in steps: it pauses (yields) after at most JOIN_STEP_ROWS values, or one part
//   of fixed-width bytes, copied or remapped, so a caller can give the event loop a turn between
//   steps (a 1M-row result of 16 blocks took ~100 ms to join in one piece); the loops that touch
//   values are plain functions, the generators only sequence them.
// - `takeBlock()` forgets the part it hands out, so a stream holds one block of columns at a time.
import type { Cursor } from '../../io/cursor.js';
import { fault } from '../../io/fault.js';
import { lowCardinalityPrefix, readLowCardinalityPart, need, type ColumnReader, type NativeCursor, type Values } from './column-readers.js';
import { ByteStore, ResumableFixed, ResumableStrings } from './resumable.js';
import type {
  NumericArray, NativeColumn, RawStringsColumn, EnumColumn, LowCardinalityColumn,
} from './column-shapes.js';

export interface Collector {
  read(c: NativeCursor, rows: number): void;
  /** The same part read as the bytes arrive, for a stream's top-level column (resumable.ts). */
  resume?(c: NativeCursor, rows: number, fresh: boolean): void;
  /** The part read last, as a column of its own; the collector then holds nothing. */
  takeBlock(): NativeColumn;
  /** All parts read, in order, joined into one column of `total` rows, in steps (see joinNow). */
  join(total: number): JoinSteps<NativeColumn>;
}

/** A join in steps: each `next()` does a bounded piece of the work; the last returns the result. */
export type JoinSteps<T> = Generator<void, T, void>;

/** Values copied or remapped per step of a join (a fraction of a millisecond each). */
export const JOIN_STEP_ROWS = 65536;

/** Runs a join's steps to the end in one go. */
export function joinNow<T>(steps: JoinSteps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done === true) return r.value;
  }
}

export type TypedCtor = {
  new (n: number): NumericArray;
  new (b: ArrayBufferLike, o: number, n: number): NumericArray;
  readonly BYTES_PER_ELEMENT: number;
};

/** A byte range of one block's column data (a view of the input, or a copy at offset 0). */
interface Range { u8: Uint8Array; start: number; rows: number }

function takeRange(c: Cursor, width: number, rows: number, views: boolean): Range {
  const n = width * rows;
  need(c, n);
  let r: Range;
  if (views) {
    r = { u8: c.u8, start: c.pos, rows };
  } else {
    // An aligned copy: it is the block's column as is (takeBlock) without a second copy.
    const u8 = new Uint8Array(n);
    u8.set(c.u8.subarray(c.pos, c.pos + n));
    r = { u8, start: 0, rows };
  }
  c.pos += n;
  return r;
}

/** One range as a typed array: a view when aligned, else one copy. */
function rangeArray(C: TypedCtor, r: Range): NumericArray {
  const abs = r.u8.byteOffset + r.start;
  if (abs % C.BYTES_PER_ELEMENT === 0) return new C(r.u8.buffer, abs, r.rows);
  const out = new C(r.rows);
  new Uint8Array(out.buffer).set(r.u8.subarray(r.start, r.start + C.BYTES_PER_ELEMENT * r.rows));
  return out;
}

/** Join ranges into one typed array: a single range as above, else exactly one copy of each (a step per range). */
function* joinRanges(C: TypedCtor, ranges: readonly Range[], total: number): JoinSteps<NumericArray> {
  if (ranges.length === 1) return rangeArray(C, ranges[0]!);
  const w = C.BYTES_PER_ELEMENT;
  const out = new C(total);
  const dst = new Uint8Array(out.buffer);
  let at = 0;
  for (const r of ranges) {
    yield;
    dst.set(r.u8.subarray(r.start, r.start + w * r.rows), at);
    at += w * r.rows;
  }
  return out;
}

/** A part store shared by the collectors: parts in order, the last one taken alone by streams. */
class Parts<P> {
  list: P[] = [];
  push(p: P): void { this.list.push(p); }
  take(): P {
    const p = this.list.pop()!;
    this.list = [];
    return p;
  }
}

/** Fixed-width values as a typed array of their wire integers (numbers, dates, decimals, IPv4…). */
export function typedCollector(C: TypedCtor, views: boolean): Collector {
  const parts = new Parts<Range>();
  const resumable = new ResumableFixed(C.BYTES_PER_ELEMENT, (u8, rows): Range => ({ u8, start: 0, rows }));
  return {
    read(c, rows) { parts.push(takeRange(c, C.BYTES_PER_ELEMENT, rows, views)); },
    ...(views ? {} : { resume(c: NativeCursor, rows: number, fresh: boolean) { parts.push(resumable.read(c, rows, fresh)); } }),
    takeBlock() { return rangeArray(C, parts.take()); },
    *join(total) { return parts.list.length === 0 ? new C(0) : yield* joinRanges(C, parts.list, total); },
  };
}

/** Enum8/16: the codes as Int8Array/Int16Array, each checked against the type, and the label table. */
export function enumCollector(C: typeof Int8Array | typeof Int16Array, entries: readonly { label: string; value: number }[], kind: string, views: boolean): Collector {
  const labels = new Map<number, string>();
  // valid[code + bias] = 1 for the codes the type lists: one table read per value.
  const bias = C === Int8Array ? 128 : 32768;
  const valid = new Uint8Array(2 * bias);
  for (const e of entries) {
    labels.set(e.value, e.label);
    valid[e.value + bias] = 1;
  }
  const inner = typedCollector(C as unknown as TypedCtor, views);
  const shape = (codes: NumericArray): EnumColumn => ({ kind: 'enum', codes: codes as Int8Array | Int16Array, labels });
  return {
    read(c, rows) {
      const w = C.BYTES_PER_ELEMENT;
      need(c, w * rows);
      const start = c.pos;
      for (let i = 0, p = start; i < rows; i++, p += w) {
        const v = w === 1 ? c.dv.getInt8(p) : c.dv.getInt16(p, true);
        if (valid[v + bias] !== 1) throw fault(`${kind} value ${v} is not in the type`, p);
      }
      inner.read(c, rows);
    },
    takeBlock() { return shape(inner.takeBlock() as NumericArray); },
    *join(total) { return shape((yield* inner.join(total)) as NumericArray); },
  };
}

/** Nullable(T) over a collector of T with no state prefix: the values and a mask, 1 = NULL. */
export function nullableCollector(inner: Collector, views: boolean): Collector {
  const masks = new Parts<Range>();
  const U8 = Uint8Array as unknown as TypedCtor;
  /** The null map of `rows` at c.pos is present and every byte is 0 or 1. */
  const checkMask = (c: NativeCursor, rows: number): void => {
    need(c, rows);
    const u8 = c.u8;
    for (let i = 0, p = c.pos; i < rows; i++, p++) {
      const b = u8[p]!;
      if (b > 1) throw fault(`null map byte ${b} is not 0 or 1`, p);
    }
  };
  const innerResume = inner.resume;
  return {
    // Streams: the map (present whole: the block reader waited for a byte per row), then the
    // values as they arrive.
    ...(views || innerResume === undefined ? {} : {
      resume(c: NativeCursor, rows: number, fresh: boolean) {
        if (fresh) {
          checkMask(c, rows);
          masks.push(takeRange(c, 1, rows, views));
        }
        innerResume(c, rows, fresh);
      },
    }),
    read(c, rows) {
      checkMask(c, rows);
      // The mask and the values are one part: take the mask only once the values have arrived too.
      const at = c.pos;
      c.pos += rows;
      try {
        inner.read(c, rows);
      } catch (e) {
        c.pos = at;
        throw e;
      }
      const end = c.pos;
      c.pos = at;
      masks.push(takeRange(c, 1, rows, views));
      c.pos = end;
    },
    takeBlock() {
      const values = inner.takeBlock();
      return { kind: 'nullable', values, nulls: rangeArray(U8, masks.take()) as Uint8Array } as NativeColumn;
    },
    *join(total) {
      const values = yield* inner.join(total);
      const nulls = masks.list.length === 0 ? new Uint8Array(0) : (yield* joinRanges(U8, masks.list, total)) as Uint8Array;
      return { kind: 'nullable', values, nulls } as NativeColumn;
    },
  };
}

/**
 * String (fixed = 0) or FixedString(fixed) as raw bytes and offsets: no JS string is made. The
 * bytes are copied out of the input once (the input may be a reused stream buffer); a String
 * column of a stream is copied value by value as it arrives (resumable.ts).
 */
export function rawStringsCollector(fixed: number): Collector {
  const parts = new Parts<RawStringsColumn>();
  let store = new ByteStore(0);
  let offsets = new Uint32Array(1);
  const scan = new ResumableStrings((u8, from, to, i) => {
    store.push(u8, from, to);
    offsets[i + 1] = store.length;
  });
  /** Values [scan.i, n) of a String column at c.pos; a part once all n are in. */
  const strings = (c: NativeCursor, n: number, fresh: boolean): void => {
    if (fresh) {
      store = new ByteStore(Math.min(16 * n, 1 << 26));
      offsets = new Uint32Array(n + 1);
      scan.i = 0;
    }
    scan.scan(c, n);
    parts.push({ kind: 'strings', offsets, data: store.take() });
    store = new ByteStore(0);
    offsets = new Uint32Array(1);
  };
  return {
    ...(fixed > 0 ? {} : { resume: strings }),
    read(c, n) {
      if (fixed === 0) {
        strings(c, n, true);
        return;
      }
      need(c, fixed * n);
      const data = new Uint8Array(fixed * n);
      data.set(c.u8.subarray(c.pos, c.pos + fixed * n));
      const offsets = new Uint32Array(n + 1);
      for (let i = 1; i <= n; i++) offsets[i] = i * fixed;
      c.pos += fixed * n;
      parts.push({ kind: 'strings', offsets, data });
    },
    takeBlock() { return parts.take(); },
    *join(total) {
      const list = parts.list;
      if (list.length === 1) return list[0]!;
      let bytes = 0;
      for (const p of list) bytes += p.data.length;
      const offsets = new Uint32Array(total + 1);
      const data = new Uint8Array(bytes);
      let row = 0;
      let at = 0;
      for (const p of list) {
        const n = p.offsets.length - 1;
        for (let i = 1; i <= n; i += JOIN_STEP_ROWS) {
          yield;
          shiftOffsets(p.offsets, i, Math.min(n, i + JOIN_STEP_ROWS - 1), offsets, row, at);
        }
        data.set(p.data, at);
        row += n;
        at += p.data.length;
      }
      return { kind: 'strings', offsets, data };
    },
  };
}

/** out[row + i] = at + offsets[i] for i in [from, to]. */
function shiftOffsets(offsets: Uint32Array, from: number, to: number, out: Uint32Array, row: number, at: number): void {
  for (let i = from; i <= to; i++) out[row + i] = at + offsets[i]!;
}

/** LowCardinality(T): each block's dictionary and keys; joined, dictionaries are appended and keys offset. */
export function lowCardinalityCollector(dict: ColumnReader, nullable: boolean): Collector {
  const parts = new Parts<{ dictionary: Values; keys: ArrayLike<number | bigint> }>();
  return {
    read(c, rows) {
      lowCardinalityPrefix(c, dict);
      const p = readLowCardinalityPart(c, dict, nullable, rows);
      parts.push({ dictionary: p.dictionary, keys: p.keys });
    },
    takeBlock() {
      const p = parts.take();
      return joinNow(compactLowCardinality([p], p.keys.length, nullable));
    },
    join(total) { return compactLowCardinality(parts.list, total, nullable); },
  };
}

/** The NULL entry's identity in the merged dictionary (no value can be this). */
const NULL_ENTRY = Symbol('null');
/** -0's identity (a Map would take it for 0). */
const NEG_ZERO = Symbol('-0');

/** The merged dictionary of a LowCardinality join: each distinct value once, in order of first use. */
class MergedDictionary {
  readonly values: unknown[] = [];
  private readonly byValue = new Map<unknown, number>();
  private readonly byTime = new Map<number, number>();
  private readonly byBytes = new Map<string, number>();

  /** The merged index of `v` (NULL_ENTRY for NULL), adding it on first use. */
  slot(v: unknown): number {
    let map: Map<unknown, number>;
    let id: unknown;
    if (v instanceof Date) { map = this.byTime as Map<unknown, number>; id = v.getTime(); }
    else if (v instanceof Uint8Array) { map = this.byBytes as Map<unknown, number>; id = latin1(v); }
    else { map = this.byValue; id = Object.is(v, -0) ? NEG_ZERO : v; }
    let m = map.get(id);
    if (m === undefined) {
      m = this.values.length;
      this.values.push(v === NULL_ENTRY ? null : v);
      map.set(id, m);
    }
    return m;
  }
}

/** The output of a LowCardinality join, written block by block. */
interface RemapTarget {
  readonly keys: Uint8Array | Uint16Array | Uint32Array;
  readonly nulls: Uint8Array | undefined;
  readonly nullable: boolean;
  readonly merged: MergedDictionary;
}

/**
 * Rows [from, to) of one block: keys[row + i] = the merged index of the block's entry k[i].
 * `map`: block entry → merged index, -1 until a row uses it.
 */
function remapKeys(t: RemapTarget, d: Values, k: ArrayLike<number | bigint>, map: Int32Array, row: number, from: number, to: number): void {
  const { keys, nulls, nullable, merged } = t;
  if (k instanceof BigUint64Array) {
    for (let i = from; i < to; i++) {
      const key = Number(k[i]!);
      let m = map[key]!;
      if (m < 0) m = map[key] = merged.slot(nullable && key === 0 ? NULL_ENTRY : d[key]);
      keys[row + i] = m;
      if (nulls !== undefined && key === 0) nulls[row + i] = 1;
    }
  } else {
    const kk = k as ArrayLike<number>;
    for (let i = from; i < to; i++) {
      const key = kk[i]!;
      let m = map[key]!;
      if (m < 0) m = map[key] = merged.slot(nullable && key === 0 ? NULL_ENTRY : d[key]);
      keys[row + i] = m;
      if (nulls !== undefined && key === 0) nulls[row + i] = 1;
    }
  }
}

/**
 * The blocks' LowCardinality parts as one column whose dictionary holds each distinct value once,
 * only values some row uses, in the order rows first use them, and `null` for NULL (the wire's
 * per-block dictionaries repeat entries across blocks and carry unused default and NULL slots).
 * Keys are remapped into it: a lookup per distinct block entry (a Map keyed by the value; Dates by
 * their time, byte strings by their bytes) and one typed-array step per row; a step of the join
 * per JOIN_STEP_ROWS rows.
 */
function* compactLowCardinality(list: readonly { dictionary: Values; keys: ArrayLike<number | bigint> }[], total: number, nullable: boolean): JoinSteps<LowCardinalityColumn> {
  let bound = nullable ? 1 : 0;
  for (const p of list) bound += p.dictionary.length;
  const keys = bound <= 0x100 ? new Uint8Array(total) : bound <= 0x10000 ? new Uint16Array(total) : new Uint32Array(total);
  const t: RemapTarget = { keys, nulls: nullable ? new Uint8Array(total) : undefined, nullable, merged: new MergedDictionary() };
  let row = 0;
  for (const p of list) {
    const n = p.keys.length;
    const map = new Int32Array(p.dictionary.length).fill(-1);
    for (let i = 0; i < n; i += JOIN_STEP_ROWS) {
      if (i > 0) yield;
      remapKeys(t, p.dictionary, p.keys, map, row, i, Math.min(n, i + JOIN_STEP_ROWS));
    }
    row += n;
    yield;
  }
  return { kind: 'lowCardinality', dictionary: t.merged.values, keys, nulls: t.nulls };
}

/** Bytes as a string of the same length (one char per byte), a Map key for byte strings. */
function latin1(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i += 4096) s += String.fromCharCode.apply(null, b.subarray(i, i + 4096) as unknown as number[]);
  return s;
}

/** Any other type: an array of the row decoders' JS values. */
export function valuesCollector(reader: ColumnReader): Collector {
  const parts = new Parts<Values>();
  const resume = reader.resume;
  return {
    ...(resume === undefined ? {} : {
      resume(c: NativeCursor, rows: number, fresh: boolean) {
        // The column's state prefixes come before its data (a NEED_MORE there restarts the column).
        if (fresh) reader.prefix(c);
        parts.push(resume(c, rows, fresh));
      },
    }),
    read(c, rows) {
      reader.prefix(c);
      parts.push(reader.read(c, rows));
    },
    takeBlock() {
      const p = parts.take();
      return Array.isArray(p) ? p : Array.from(p);
    },
    *join(total) {
      const list = parts.list;
      if (list.length === 1 && Array.isArray(list[0])) return list[0];
      const out = new Array<unknown>(total);
      let row = 0;
      for (const p of list) {
        for (let i = 0; i < p.length; i += JOIN_STEP_ROWS) {
          yield;
          const to = Math.min(p.length, i + JOIN_STEP_ROWS);
          copyValues(p, i, to, out, row + i);
        }
        row += p.length;
      }
      return out;
    },
  };
}

/** out[at..] = p[from, to). */
function copyValues(p: Values, from: number, to: number, out: unknown[], at: number): void {
  for (let i = from; i < to; i++) out[at + i - from] = p[i];
}
