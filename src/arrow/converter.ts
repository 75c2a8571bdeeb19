// The contract every Arrow column converter of chwire/arrow keeps (plan.ts builds one tree of them
// per result schema), the validity bitmaps they share, and their errors.
//
// Invariants:
// - A converter is built once per result column from its parsed type (decide once) and holds
//   only what must persist across the batches of one stream (a growing dictionary); it is never
//   asked what to do per value.
// - `column()` reads the columnar shapes of fetchColumns/streamColumns (typed arrays, nullable,
//   enum, lowCardinality, raw strings); `values()` reads the row decoders' JS values (what
//   fetchColumns gives for every other type, and what Array elements are). Either gives exactly
//   the value the result holds, or throws: a form that lost digits (Decimal as numbers,
//   DateTime64(P > 3) as Date) is an error naming the column and the option to use, never a
//   wrong vector.
import type { Data, DataType } from 'apache-arrow';
import { ChwireConfigError, ChwireTypeError } from '../errors.js';

/** A validity bitmap (bit i set = row i valid, Arrow's LSB order) and its null count; none when no nulls. */
export interface Validity { readonly nullBitmap: Uint8Array | undefined; readonly nullCount: number }

export const ALL_VALID: Validity = Object.freeze({ nullBitmap: undefined, nullCount: 0 });

/** Where a converter sits: the result column (name, whole type text) for errors. */
export interface Where { readonly column: string; readonly type: string }

export interface Converter {
  /** The Arrow type of this column (or element). */
  readonly type: DataType;
  /** Whether the Arrow field is nullable (Nullable(T), LowCardinality(Nullable(T))). */
  readonly nullable: boolean;
  /** Field metadata (the canonical extension name of UUID), if any. */
  readonly metadata?: ReadonlyMap<string, string>;
  /** Data of row-decoder values; entries that `v` marks null may hold anything (null). */
  values(vals: ArrayLike<unknown>, v: Validity): Data;
  /** Data of a top-level columnar shape (typed array, nullable, enum, …); absent: values only. */
  column?(col: unknown, rows: number, v: Validity): Data;
}

/** The validity of a 1 = NULL byte mask (fetchColumns' `nulls`): one pass, no bitmap when no NULL. */
export function maskValidity(nulls: Uint8Array, rows: number): Validity {
  let count = 0;
  for (let i = 0; i < rows; i++) count += nulls[i]!;
  if (count === 0) return ALL_VALID;
  const bits = new Uint8Array((rows + 7) >> 3);
  for (let i = 0; i < rows; i++) if (nulls[i] === 0) bits[i >> 3]! |= 1 << (i & 7);
  return { nullBitmap: bits, nullCount: count };
}

/** The validity of values where `null` (or undefined) is NULL. */
export function valuesValidity(vals: ArrayLike<unknown>): Validity {
  const n = vals.length;
  let i = 0;
  while (i < n && vals[i] != null) i++;
  if (i === n) return ALL_VALID;
  const bits = new Uint8Array((n + 7) >> 3);
  let count = 0;
  for (let k = 0; k < n; k++) {
    if (vals[k] == null) count++;
    else bits[k >> 3]! |= 1 << (k & 7);
  }
  return { nullBitmap: bits, nullCount: count };
}

/** Whether row i is NULL under `v`. */
export function isNull(v: Validity, i: number): boolean {
  return v.nullBitmap !== undefined && (v.nullBitmap[i >> 3]! & (1 << (i & 7))) === 0;
}

/** A type chwire/arrow has no Arrow mapping for. */
export function unsupported(w: Where, what: string): ChwireTypeError {
  return new ChwireTypeError(`toArrow: column ${JSON.stringify(w.column)}: ${what} has no Arrow mapping in chwire/arrow`, w.type, -1);
}

/** A column or value in a form this converter cannot turn into its Arrow type exactly. */
export function badForm(w: Where, got: string, fix: string): ChwireConfigError {
  return new ChwireConfigError(`toArrow: column ${JSON.stringify(w.column)} (${w.type}) holds ${got}; ${fix}`);
}

/** A short description of a value's kind for errors (never the value: results may be secret). */
export function kindOf(x: unknown): string {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'an array';
  if (ArrayBuffer.isView(x)) return `a ${x.constructor.name}`;
  if (x instanceof Date) return 'a Date';
  if (typeof x === 'object') return `an object (${(x as object).constructor?.name ?? 'Object'})`;
  return `a ${typeof x}`;
}
