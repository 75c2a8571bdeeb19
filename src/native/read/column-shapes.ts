// The shapes of columnar results (decodeNativeColumns, the streaming columnar decoder,
// client.fetchColumns and client.streamColumns): plain data, no behaviour, so that every
// module that builds or reads columns shares one definition without importing the others.

export type NumericArray =
  | Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array
  | Float32Array | Float64Array | BigInt64Array | BigUint64Array;

/**
 * Nullable(T) for a T read as a typed array: the values (anything under a NULL is meaningless)
 * and a mask, 1 = NULL.
 */
export interface NullableNumericColumn { readonly kind: 'nullable'; readonly values: NumericArray; readonly nulls: Uint8Array }

/**
 * String / FixedString with `strings: 'raw'`: value i is the bytes `data[offsets[i], offsets[i + 1])`
 * (offsets has rowCount + 1 entries, offsets[0] = 0: the layout of an Arrow Utf8/Binary vector).
 */
export interface RawStringsColumn { readonly kind: 'strings'; readonly offsets: Uint32Array; readonly data: Uint8Array }

/** Nullable(String) with `strings: 'raw'`. */
export interface NullableStringsColumn { readonly kind: 'nullable'; readonly values: RawStringsColumn; readonly nulls: Uint8Array }

/** Enum8/Enum16: the wire codes and the type's label of each code (`labels.get(codes[i])`). */
export interface EnumColumn { readonly kind: 'enum'; readonly codes: Int8Array | Int16Array; readonly labels: ReadonlyMap<number, string> }

/**
 * LowCardinality(T): row i is `dictionary[keys[i]]`. The dictionary holds each distinct value once,
 * only values some row uses, in the order rows first use them: one dictionary for a whole
 * fetchColumns result (the blocks' dictionaries merged), one per batch in a stream. For
 * LowCardinality(Nullable(T)) NULL rows point at a `null` entry and `nulls[i]` is 1 for them.
 * `keys` is the narrowest of Uint8Array / Uint16Array / Uint32Array for the blocks' dictionaries.
 */
export interface LowCardinalityColumn {
  readonly kind: 'lowCardinality';
  readonly dictionary: unknown[];
  readonly keys: Uint8Array | Uint16Array | Uint32Array;
  readonly nulls: Uint8Array | undefined;
}

/** A typed array, one of the shapes above, or an array of row values for all other types. */
export type NativeColumn =
  | NumericArray | NullableNumericColumn | NullableStringsColumn | RawStringsColumn | EnumColumn | LowCardinalityColumn | unknown[];

/** A result (or one block of it, in a stream) column by column. */
export interface NativeColumns { names: string[]; types: string[]; columns: NativeColumn[]; rowCount: number }
