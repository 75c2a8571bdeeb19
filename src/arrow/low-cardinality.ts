// LowCardinality(T) → Dictionary(T's Arrow type, Int32): the one place that reads fetchColumns'
// LowCardinality column object, from its documented fields only (row i is dictionary[keys[i]],
// NULL when `nulls?.[i]` is 1 or the entry is null), so a change of how the decoder builds that
// object (merged, distinct dictionaries) needs no change elsewhere.
//
// Invariant: the Arrow dictionary is the column's GrowingDictionary (dictionaries.ts): one per
// converter, so every batch of a stream indexes the same, only-growing dictionary; a block
// dictionary's entries are looked up once per block, rows then map through an Int32Array.
import { Dictionary, Int32, type Data } from 'apache-arrow';
import { GrowingDictionary, indexData } from './dictionaries.js';
import type { Converter, Where } from './converter.js';
import type { LowCardinalityColumn } from '../native/read/column-shapes.js';

const isLowCardinality = (c: unknown): c is LowCardinalityColumn =>
  typeof c === 'object' && c !== null && (c as { kind?: unknown }).kind === 'lowCardinality';

export function lowCardinality(w: Where, entry: Converter, nullable: boolean): Converter {
  const type = new Dictionary(entry.type, new Int32());
  const dict = new GrowingDictionary(w, entry);
  return {
    type,
    nullable,
    column(col, rows, v) {
      if (!isLowCardinality(col)) return this.values(col as ArrayLike<unknown>, v);
      const remap = dict.indexOf(col.dictionary);
      const keys = col.keys;
      const indices = new Int32Array(rows);
      for (let i = 0; i < rows; i++) indices[i] = remap[keys[i]!]!;
      return indexData(type, indices, dict, col.nulls);
    },
    // Values (LowCardinality inside an Array, or read as values): each distinct value once.
    values(vals) {
      return indexData(type, dict.indexOf(vals), dict, undefined) as Data;
    },
  };
}
