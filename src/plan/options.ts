// Decode options: what JavaScript values each ClickHouse type becomes.
//
// Invariant: options are resolved once per result set into a plan (see resolve.ts) and compiled
// into the decoder; nothing here is consulted per value. Every default is lossless, except
// DateTime64 with precision > 3 as `Date` (a JS Date holds milliseconds) — documented in the README.

/** Options that choose the JavaScript form of values; settable for the whole result or per column. */
import { ChwireConfigError } from '../errors.js';

export interface ValueOptions {
  /** Int64/UInt64 (and Interval*). `'number'` loses precision beyond ±2^53. Default `'bigint'`. */
  int64?: 'bigint' | 'number' | 'string';
  /** Int128/UInt128/Int256/UInt256. `'number'` loses precision beyond ±2^53. Default `'bigint'`. */
  int128?: 'bigint' | 'number' | 'string';
  /** Decimal(P, S). `'string'` is exact (`"-1.5"`, trailing zeros trimmed as ClickHouse prints them); `'number'` rounds to a double. Default `'string'`. */
  decimal?: 'string' | 'number';
  /**
   * DateTime and DateTime64. `'Date'`: a new JS Date per value (DateTime64 with precision > 3 loses
   * the sub-millisecond digits: floored toward the past, also before 1970, so the printed digits
   * are kept). `'string'`: ISO-8601 in UTC with exactly P fractional digits
   * (`"2024-01-02T03:04:05Z"`, `"1969-12-31T23:59:59.123456789Z"`). `'number'`: milliseconds since
   * the epoch (may be fractional for P > 3). `'text'`: as the server prints it, on the wall clock
   * of the type's zone (`"2023-11-14 17:13:20"`, DateTime64 with exactly P fractional digits
   * `"2023-11-14 17:13:20.123"`); a type without a zone is printed in the query's session_timezone
   * when the client sends one (the decoders' sessionTimezone), else in UTC (the server would use
   * its own zone: name one in the type or with toTimeZone() to match). Default `'Date'`.
   */
  datetime?: 'Date' | 'string' | 'number' | 'text';
  /** Date and Date32. `'Date'`: midnight UTC of that day; `'string'`: `"YYYY-MM-DD"` (as the server prints it). Default `'Date'`. */
  date?: 'Date' | 'string';
  /** Time and Time64(P). `'string'`: as ClickHouse prints it (`"-01:00:00"`, `"12:34:56.789"`); `'number'`: seconds. Default `'string'`. */
  time?: 'string' | 'number';
  /** String and FixedString. `'string'`: UTF-8 (invalid bytes become U+FFFD); `'bytes'`: the exact bytes as a Uint8Array. Default `'string'`. */
  strings?: 'string' | 'bytes';
  /** UUID. `'string'`: canonical lower-case text; `'bytes'`: 16 bytes in RFC 4122 order. Default `'string'`. */
  uuid?: 'string' | 'bytes';
  /**
   * Map(K, V). `'object'`: a plain object whose property names are each key as ClickHouse writes it
   * in text (`toString(key)`) whatever the value options (String keys as text, UUID text, Date
   * `"2024-01-02"`, DateTime `"2024-01-02 03:04:05"` in the type's zone or UTC, 64-bit integers and
   * decimals as decimal text, `"['a,b']"` for an Array key), always own properties (also
   * `"__proto__"`); a repeated key keeps the last value. `'Map'`: a JS Map in wire order whose keys
   * are decoded under the column's options. Default `'object'`.
   */
  maps?: 'object' | 'Map';
  /**
   * Float32. `'exact'`: the Float32's exact binary value as a number (`toFloat32(0.1)` →
   * 0.10000000149011612). `'shortest'`: the shortest decimal that reads back as the same Float32,
   * as the server prints it and JSON clients see it (`0.1`). Default `'exact'`.
   */
  float32?: 'exact' | 'shortest';
}

/**
 * Composite values apply the options of their column to every value inside them: Array elements,
 * Tuple elements (named tuples become plain objects, unnamed ones arrays), Nested (an array of
 * objects), Variant and Dynamic members (the member's value, `null` for NULL) and JSON paths (a
 * nested plain object). `'number'` forms of DateTime64, Time64 and Decimal give the double nearest
 * to the exact value. The README's type mapping table lists every case.
 */
export interface DecodeOptions extends ValueOptions {
  /** Rows as objects keyed by column name (one fixed shape) or as arrays in column order. Default `'object'`. */
  rows?: 'object' | 'array';
  /** Per-column overrides, by column name (own properties only). */
  columns?: Readonly<Record<string, ValueOptions>>;
}

export type ResolvedValueOptions = Required<ValueOptions>;

export const DEFAULT_VALUE_OPTIONS: Readonly<ResolvedValueOptions> = Object.freeze({
  int64: 'bigint',
  int128: 'bigint',
  decimal: 'string',
  datetime: 'Date',
  date: 'Date',
  time: 'string',
  strings: 'string',
  uuid: 'string',
  maps: 'object',
  float32: 'exact',
});

const ALLOWED: { readonly [K in keyof ResolvedValueOptions]: readonly ResolvedValueOptions[K][] } = {
  int64: ['bigint', 'number', 'string'],
  int128: ['bigint', 'number', 'string'],
  decimal: ['string', 'number'],
  datetime: ['Date', 'string', 'number', 'text'],
  date: ['Date', 'string'],
  time: ['string', 'number'],
  strings: ['string', 'bytes'],
  uuid: ['string', 'bytes'],
  maps: ['object', 'Map'],
  float32: ['exact', 'shortest'],
};

/** The keys of ValueOptions, in a fixed order (used for cache keys). */
export const VALUE_OPTION_KEYS = Object.keys(ALLOWED) as (keyof ResolvedValueOptions)[];

/** The keys of DecodeOptions: the client options checked by this layer (resolve.ts checkDecodeOptions). */
export const DECODE_OPTION_KEYS: readonly (keyof DecodeOptions)[] = [...VALUE_OPTION_KEYS, 'rows', 'columns'];

/**
 * Merge `over` onto `base`, validating every value. Unknown keys and bad values are errors: an
 * option that cannot be honoured must never be silently ignored.
 */
export function mergeValueOptions(base: ResolvedValueOptions, over: ValueOptions | undefined, where: string): ResolvedValueOptions {
  if (over === undefined) return base;
  const out: Record<string, string> = { ...base };
  for (const key of Object.keys(over)) {
    const allowed = (ALLOWED as Record<string, readonly string[]>)[key];
    const value = (over as Record<string, unknown>)[key];
    if (value === undefined) continue;
    if (allowed === undefined) throw new ChwireConfigError(`unknown decode option ${JSON.stringify(key)} in ${where}`);
    if (typeof value !== 'string' || !allowed.includes(value)) {
      throw new ChwireConfigError(`decode option ${key} in ${where} must be one of ${allowed.map((a) => `'${a}'`).join(', ')}, got ${JSON.stringify(value)}`);
    }
    out[key] = value;
  }
  return out as unknown as ResolvedValueOptions;
}
