// Dictionary-encoded Arrow columns: Enum8/16 → Dictionary(Utf8) over the type's labels (fixed,
// built once per column), and the growing dictionary behind LowCardinality (low-cardinality.ts).
//
// Invariants:
// - Arrow indices are positions in the dictionary, never ClickHouse codes: an Enum code (which may
//   be negative) goes through a table built once from the type; the dictionary is the type's
//   labels in the order the type lists them, the same vector for every batch of a stream (so
//   apache-arrow's writer sends it once).
// - A GrowingDictionary only appends: an entry keeps its index for the life of the converter, so
//   the batches of one stream share one dictionary that grows by chunks, which
//   RecordBatchStreamWriter sends as delta dictionary batches. Entries are unique (by value).
import { makeData, Dictionary, Utf8, Int8, Int16, Int32, Vector, type Data } from 'apache-arrow';
import { ALL_VALID, badForm, kindOf, isNull, type Converter, type Validity, type Where } from './converter.js';
import { utf8Data } from './binary.js';
import type { EnumColumn } from '../native/read/column-shapes.js';
import type { EnumEntry } from '../types/ast.js';

const isEnum = (c: unknown): c is EnumColumn => typeof c === 'object' && c !== null && (c as { kind?: unknown }).kind === 'enum';

/** Enum8/Enum16 → Dictionary(Utf8, Int8 | Int16 | Int32: the narrowest that indexes every label). */
export function enumeration(w: Where, entries: readonly EnumEntry[]): Converter {
  const n = entries.length;
  const [Index, Ctor] = n <= 128 ? [Int8, Int8Array] as const : n <= 32768 ? [Int16, Int16Array] as const : [Int32, Int32Array] as const;
  const type = new Dictionary(new Utf8(), new Index());
  const dictionary = new Vector([utf8Data(w, type.dictionary, entries.map((e) => e.label), ALL_VALID)]);
  const BIAS = 32768;
  const byCode = new Int32Array(65536).fill(-1);
  const byLabel = new Map<string, number>();
  entries.forEach((e, i) => { byCode[e.value + BIAS] = i; byLabel.set(e.label, i); });
  const make = (indices: Int8Array | Int16Array | Int32Array, v: Validity): Data =>
    makeData({ type, length: indices.length, data: indices, dictionary, nullBitmap: v.nullBitmap, nullCount: v.nullCount } as never) as Data;
  return {
    type,
    nullable: false,
    column(col, rows, v) {
      if (!isEnum(col)) return this.values(col as ArrayLike<unknown>, v);
      const codes = col.codes;
      const out = new Ctor(rows);
      for (let i = 0; i < rows; i++) {
        const k = byCode[codes[i]! + BIAS]!;
        if (k < 0) throw badForm(w, `code ${codes[i]}, which is not in the type`, 'the column does not belong to this type');
        out[i] = k;
      }
      return make(out, v);
    },
    values(vals, v) {
      const out = new Ctor(vals.length);
      for (let i = 0; i < vals.length; i++) {
        const x = vals[i];
        if (x == null || isNull(v, i)) continue;
        const k = typeof x === 'string' ? byLabel.get(x) : undefined;
        if (k === undefined) throw badForm(w, typeof x === 'string' ? 'a label not in the type' : kindOf(x), 'expected the labels of the Enum');
        out[i] = k;
      }
      return make(out, v);
    },
  };
}

/** A Map key for a dictionary entry: the value itself when primitive, bytes as Latin-1 text, Dates by instant. */
function keyOf(w: Where, x: unknown): unknown {
  const t = typeof x;
  if (t === 'string' || t === 'number' || t === 'bigint' || t === 'boolean') return x;
  if (x instanceof Uint8Array) {
    let s = '';
    for (let i = 0; i < x.length; i += 4096) s += String.fromCharCode(...x.subarray(i, i + 4096));
    return s;
  }
  if (x instanceof Date) return x.getTime();
  throw badForm(w, kindOf(x), 'a LowCardinality entry chwire/arrow cannot key (strings, numbers, bytes, Dates)');
}

/**
 * The dictionary of one column for the life of a converter: entries are added once, in the order
 * first seen, as one more chunk per call that found new ones.
 */
export class GrowingDictionary {
  private readonly index = new Map<unknown, number>();
  private readonly chunks: Data[] = [];
  private size = 0;
  vector: Vector | undefined;

  constructor(private readonly w: Where, private readonly entry: Converter) {}

  /** The dictionary index of each of `entries` (−1 for null), adding the new ones. */
  indexOf(entries: ArrayLike<unknown>): Int32Array {
    const out = new Int32Array(entries.length);
    const fresh: unknown[] = [];
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i];
      if (e == null) {
        out[i] = -1;
        continue;
      }
      const key = keyOf(this.w, e);
      let k = this.index.get(key);
      if (k === undefined) {
        k = this.size + fresh.length;
        this.index.set(key, k);
        fresh.push(e);
      }
      out[i] = k;
    }
    if (fresh.length > 0 || this.vector === undefined) {
      this.chunks.push(this.entry.values(fresh, ALL_VALID));
      this.size += fresh.length;
      this.vector = new Vector(this.chunks.slice());
    }
    return out;
  }
}

/** Dictionary data of Int32 indices (−1 = NULL) over `dict`'s current vector. */
export function indexData(type: Dictionary, indices: Int32Array, dict: GrowingDictionary, extraNulls: Uint8Array | undefined): Data {
  const n = indices.length;
  let nulls = 0;
  for (let i = 0; i < n; i++) if (indices[i]! < 0 || (extraNulls !== undefined && extraNulls[i] === 1)) nulls++;
  let bits: Uint8Array | undefined;
  if (nulls > 0) {
    bits = new Uint8Array((n + 7) >> 3);
    for (let i = 0; i < n; i++) {
      if (indices[i]! < 0 || (extraNulls !== undefined && extraNulls[i] === 1)) indices[i] = 0;
      else bits[i >> 3]! |= 1 << (i & 7);
    }
  }
  return makeData({ type, length: n, data: indices, dictionary: dict.vector!, nullBitmap: bits, nullCount: nulls }) as Data;
}

