// Helpers over fetchColumns / streamColumns columns (the typed-array defaults): epoch
// milliseconds, Decimals as doubles or exact text, Nullable with NaN/null, Enum labels,
// LowCardinality values, and each result column's parsed type. Runtime-neutral (no `node:`),
// exported from `chwire`, `chwire/web` and `chwire/codec`.
//
// Invariants:
// - Each result equals, value for value, what the row decoders give for the same column (the same
//   shared converters of src/convert run: ticksToMillis, decimalToNumber, decimalToString), so a
//   helper is exactly as exact as fetch() with the matching option.
// - A column's form is checked once per call against its type (ChwireConfigError naming the type
//   when the column is not the form the helper reads); the per-value loops take no decision.
// - Types are parsed with src/types/parse.ts, never with a regular expression.
import { ChwireConfigError } from '../errors.js';
import type { TypeNode } from '../types/ast.js';
import { parseType } from '../types/parse.js';
import { ticksToMillis } from '../convert/datetime.js';
import { decimalToNumber, decimalToString } from '../convert/decimal.js';
import type { NativeColumn, NativeColumns, EnumColumn, LowCardinalityColumn, NumericArray } from '../native/read/column-shapes.js';

/** A result column's parsed type: what `types[k]` says, without parsing text by hand. */
export interface ColumnType {
  readonly name: string;
  /** The type text as the result reports it. */
  readonly type: string;
  /** The parsed type (src/types/ast.ts). */
  readonly node: TypeNode;
  /** The type under Nullable / LowCardinality / SimpleAggregateFunction. */
  readonly base: TypeNode;
  readonly nullable: boolean;
  readonly lowCardinality: boolean;
  /** DateTime / DateTime64 zone, when the type names one. */
  readonly timezone: string | undefined;
  /** DateTime64 / Time64 / Decimal precision. */
  readonly precision: number | undefined;
  /** Decimal scale. */
  readonly scale: number | undefined;
}

/** The parsed type of one type text (see ColumnType). */
export function columnType(name: string, type: string): ColumnType {
  const node = parseType(type);
  let base = node;
  let nullable = false;
  let lowCardinality = false;
  for (;;) {
    if (base.kind === 'Nullable') { nullable = true; base = base.inner; } else if (base.kind === 'LowCardinality') { lowCardinality = true; base = base.inner; } else if (base.kind === 'SimpleAggregateFunction') base = base.inner;
    else break;
  }
  const timezone = base.kind === 'DateTime' || base.kind === 'DateTime64' ? base.timezone : undefined;
  const precision = base.kind === 'DateTime64' || base.kind === 'Time64' || base.kind === 'Decimal' ? base.precision : undefined;
  const scale = base.kind === 'Decimal' ? base.scale : undefined;
  return { name, type, node, base, nullable, lowCardinality, timezone, precision, scale };
}

/** The parsed type of every column of a result or batch, in order. */
export function columnTypes(result: Pick<NativeColumns, 'names' | 'types'>): ColumnType[] {
  return result.types.map((t, k) => columnType(result.names[k]!, t));
}

type Nullable<T> = { readonly kind: 'nullable'; readonly values: T; readonly nulls: Uint8Array };
const isNullable = (c: unknown): c is Nullable<unknown> => typeof c === 'object' && c !== null && (c as { kind?: unknown }).kind === 'nullable';

function wrong(type: string, what: string, col: unknown): ChwireConfigError {
  const got = Array.isArray(col) ? 'an array of values' : ArrayBuffer.isView(col) ? `a ${col.constructor.name}` : typeof col === 'object' && col !== null ? `a ${(col as { kind?: string }).kind ?? 'object'} column` : typeof col;
  return new ChwireConfigError(`${what}: a ${type} column read as ${got} (expected fetchColumns' default typed form)`);
}

/** Ticks (or unscaled integers) of a BigInt64Array as exact doubles when |x| ≤ 2^53, else the bigint. */
function int64At(words: Int32Array, col: BigInt64Array, i: number): number | bigint {
  const hi = words[2 * i + 1]!;
  if (hi >= -0x200000 && hi < 0x200000) return hi * 4294967296 + (words[2 * i]! >>> 0);
  return col[i]!;
}

function int64Words(a: BigInt64Array): Int32Array {
  return new Int32Array(a.buffer, a.byteOffset, 2 * a.length);
}

/** Set out[i] = NaN where the mask says NULL. */
function maskNaN(out: Float64Array, nulls: Uint8Array | undefined): Float64Array {
  if (nulls !== undefined) for (let i = 0; i < out.length; i++) if (nulls[i] === 1) out[i] = NaN;
  return out;
}

/**
 * Milliseconds since the epoch of a Date, Date32, DateTime or DateTime64 column (or Nullable of
 * one: NaN for NULL), as charting libraries take them. DateTime64(P > 3) gives the double nearest
 * to the exact fractional milliseconds (fetch's `datetime: 'number'`).
 */
export function epochMillis(col: NativeColumn, type: string): Float64Array {
  const t = columnType('', type);
  const nulls = isNullable(col) ? col.nulls : undefined;
  const v: unknown = isNullable(col) ? col.values : col;
  const b = t.base;
  let out: Float64Array;
  if (b.kind === 'DateTime' && v instanceof Uint32Array) {
    out = new Float64Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = v[i]! * 1000;
  } else if ((b.kind === 'Date' && v instanceof Uint16Array) || (b.kind === 'Date32' && v instanceof Int32Array)) {
    out = new Float64Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = v[i]! * 86_400_000;
  } else if (b.kind === 'DateTime64' && v instanceof BigInt64Array) {
    const P = b.precision;
    const words = int64Words(v);
    out = new Float64Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = ticksToMillis(int64At(words, v, i), P);
  } else throw wrong(type, 'epochMillis', col);
  return maskNaN(out, nulls);
}

/** Decimal columns: each value as the nearest double (fetch's `decimal: 'number'`); NaN for NULL. */
export function decimalNumbers(col: NativeColumn, type: string): Float64Array {
  const t = columnType('', type);
  if (t.base.kind !== 'Decimal') throw wrong(type, 'decimalNumbers', col);
  const S = t.base.scale;
  const nulls = isNullable(col) ? col.nulls : undefined;
  const v: unknown = isNullable(col) ? col.values : col;
  let out: Float64Array;
  if (v instanceof Int32Array) {
    out = new Float64Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = decimalToNumber(v[i]!, S);
  } else if (v instanceof BigInt64Array) {
    const words = int64Words(v);
    out = new Float64Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = decimalToNumber(int64At(words, v, i), S);
  } else if (Array.isArray(v)) {
    // Decimal128/256: exact text from the decoder; NULL is null.
    out = new Float64Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = v[i] === null ? NaN : Number(v[i] as string);
  } else throw wrong(type, 'decimalNumbers', col);
  return maskNaN(out, nulls);
}

/** Decimal columns as exact text (fetch's default `decimal: 'string'`); null for NULL. */
export function decimalStrings(col: NativeColumn, type: string): (string | null)[] {
  const t = columnType('', type);
  if (t.base.kind !== 'Decimal') throw wrong(type, 'decimalStrings', col);
  const S = t.base.scale;
  const nulls = isNullable(col) ? col.nulls : undefined;
  const v: unknown = isNullable(col) ? col.values : col;
  if (Array.isArray(v)) return v as (string | null)[];
  if (!(v instanceof Int32Array || v instanceof BigInt64Array)) throw wrong(type, 'decimalStrings', col);
  const out = new Array<string | null>(v.length);
  const words = v instanceof BigInt64Array ? int64Words(v) : undefined;
  for (let i = 0; i < v.length; i++) {
    out[i] = nulls !== undefined && nulls[i] === 1 ? null : decimalToString(words === undefined ? v[i] as number : int64At(words, v as BigInt64Array, i), S);
  }
  return out;
}

/** A Nullable typed-array column as numbers with NaN for NULL (64-bit integers rounded to doubles). */
export function nullableNumbers(col: NativeColumn): Float64Array {
  if (!isNullable(col) || !ArrayBuffer.isView(col.values)) throw wrong('Nullable', 'nullableNumbers', col);
  const v = col.values as NumericArray;
  const out = new Float64Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = col.nulls[i] === 1 ? NaN : Number(v[i]!);
  return out;
}

/** A Nullable typed-array column as values with null for NULL (bigints stay bigints). */
export function nullableValues(col: NativeColumn): (number | bigint | null)[] {
  if (!isNullable(col) || !ArrayBuffer.isView(col.values)) throw wrong('Nullable', 'nullableValues', col);
  const v = col.values as NumericArray;
  const out = new Array<number | bigint | null>(v.length);
  for (let i = 0; i < v.length; i++) out[i] = col.nulls[i] === 1 ? null : v[i]!;
  return out;
}

/** An Enum column's labels (codes looked up in its label table). */
export function enumLabels(col: NativeColumn): string[] {
  const c = col as EnumColumn;
  if (typeof c !== 'object' || c === null || c.kind !== 'enum') throw wrong('Enum', 'enumLabels', col);
  // One table per call: code → label, no Map lookup per value.
  const table = new Array<string>(65536);
  for (const [code, label] of c.labels) table[code + 32768] = label;
  const out = new Array<string>(c.codes.length);
  for (let i = 0; i < c.codes.length; i++) out[i] = table[c.codes[i]! + 32768]!;
  return out;
}

/** A LowCardinality column's value per row (null for NULL), from its documented fields. */
export function lowCardinalityValues(col: NativeColumn): unknown[] {
  const c = col as LowCardinalityColumn;
  if (typeof c !== 'object' || c === null || c.kind !== 'lowCardinality') throw wrong('LowCardinality', 'lowCardinalityValues', col);
  const { dictionary, keys, nulls } = c;
  const out = new Array<unknown>(keys.length);
  for (let i = 0; i < keys.length; i++) out[i] = nulls !== undefined && nulls[i] === 1 ? null : dictionary[keys[i]!] ?? null;
  return out;
}
