// Fixed-width Arrow columns: integers, floats, Bool, DateDay, Timestamp, Decimal.
//
// Invariants:
// - A typed-array column whose Arrow layout is its own (integers, floats, Date32, DateTime64 with
//   P of 0, 3, 6 or 9) becomes a vector over the same memory: no copy (the caller must not change
//   the column while the vector is used). Other columnar forms are converted in one pass without
//   a BigInt per value (DateTime seconds widened through 32-bit words, Decimal32/64 sign-extended
//   into 128-bit words); only DateTime64 of another precision multiplies BigInts.
// - Values (Array elements, Decimal128/256, options that gave JS values) are converted exactly or
//   refused (converter.ts): Decimal text is parsed digit-exact, DateTime64 text to the tick.
// Words are written little-endian through typed arrays: every JS engine chwire runs on is.
import {
  makeData, Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64, Float32, Float64, Bool, DateDay,
  Decimal, TimestampSecond, TimestampMillisecond, TimestampMicrosecond, TimestampNanosecond, type Data, type DataType,
} from 'apache-arrow';
import { badForm, kindOf, type Converter, type Validity, type Where } from './converter.js';

type TypedCtor = { new (n: number): ArrayLike<number | bigint> & { [i: number]: number | bigint }; readonly name: string };

function data(type: DataType, values: unknown, length: number, v: Validity): Data {
  return makeData({ type, data: values, length, nullBitmap: v.nullBitmap, nullCount: v.nullCount } as never) as Data;
}

/** A column that is not the typed array the plan expects (a result read with other options). */
function notTyped(w: Where, col: unknown, expected: string): never {
  throw badForm(w, kindOf(col), `toArrow expects ${expected} here (fetchColumns' default form)`);
}

/** (U)Int8–64 and Float32/64: the typed array is the Arrow buffer. */
export function numeric(w: Where, type: DataType, C: TypedCtor, bigint: boolean): Converter {
  return {
    type,
    nullable: false,
    column(col, rows, v) {
      if (!(col instanceof (C as unknown as typeof Int8Array))) return notTyped(w, col, `a ${C.name}`);
      return data(type, col, rows, v);
    },
    values(vals, v) {
      const n = vals.length;
      const out = new C(n);
      for (let i = 0; i < n; i++) {
        const x = vals[i];
        if (x == null) continue;
        if (bigint) out[i] = typeof x === 'bigint' ? x : toBigInt(w, x);
        else if (typeof x === 'number') out[i] = x;
        else throw badForm(w, kindOf(x), 'expected numbers');
      }
      return data(type, out, n, v);
    },
  };
}

function toBigInt(w: Where, x: unknown): bigint {
  if ((typeof x === 'number' && Number.isInteger(x)) || (typeof x === 'string' && /^-?\d+$/.test(x))) return BigInt(x);
  throw badForm(w, kindOf(x), 'expected 64-bit integers');
}

export const INTEGERS = {
  Int8: [Int8, Int8Array], Int16: [Int16, Int16Array], Int32: [Int32, Int32Array], Int64: [Int64, BigInt64Array],
  UInt8: [Uint8, Uint8Array], UInt16: [Uint16, Uint16Array], UInt32: [Uint32, Uint32Array], UInt64: [Uint64, BigUint64Array],
  Float32: [Float32, Float32Array], Float64: [Float64, Float64Array], BFloat16: [Float32, Float32Array],
} as const;

/** Bool: bit-packed values. */
export function bool(w: Where): Converter {
  const type = new Bool();
  return {
    type,
    nullable: false,
    values(vals, v) {
      const n = vals.length;
      const bits = new Uint8Array((n + 7) >> 3);
      for (let i = 0; i < n; i++) {
        const x = vals[i];
        if (x === true || x === 1) bits[i >> 3]! |= 1 << (i & 7);
        else if (x != null && x !== false && x !== 0) throw badForm(w, kindOf(x), 'expected booleans');
      }
      return data(type, bits, n, v);
    },
  };
}

const DAY_MS = 86_400_000;

/** Date (Uint16Array days: widened) and Date32 (Int32Array days: shared) → DateDay. */
export function dateDay(w: Where, date32: boolean): Converter {
  const type = new DateDay();
  return {
    type,
    nullable: false,
    column(col, rows, v) {
      if (date32 && col instanceof Int32Array) return data(type, col, rows, v);
      if (!date32 && col instanceof Uint16Array) return data(type, Int32Array.from(col), rows, v);
      return notTyped(w, col, date32 ? 'an Int32Array of days' : 'a Uint16Array of days');
    },
    values(vals, v) {
      const n = vals.length;
      const out = new Int32Array(n);
      for (let i = 0; i < n; i++) {
        const x = vals[i];
        if (x == null) continue;
        const ms = x instanceof Date ? x.getTime() : typeof x === 'string' ? Date.parse(x) : NaN;
        if (!Number.isFinite(ms) || ms % DAY_MS !== 0) throw badForm(w, kindOf(x), 'expected Dates at midnight UTC or YYYY-MM-DD text');
        out[i] = ms / DAY_MS;
      }
      return data(type, out, n, v);
    },
  };
}

/** Arrow's Timestamp unit for DateTime64(P): the finest of s/ms/µs/ns not coarser than 10^-P s. */
export function timestampUnitDigits(precision: number): 0 | 3 | 6 | 9 {
  return precision === 0 ? 0 : precision <= 3 ? 3 : precision <= 6 ? 6 : 9;
}

function timestampType(digits: 0 | 3 | 6 | 9, zone: string): DataType {
  switch (digits) {
    case 0: return new TimestampSecond(zone);
    case 3: return new TimestampMillisecond(zone);
    case 6: return new TimestampMicrosecond(zone);
    default: return new TimestampNanosecond(zone);
  }
}

/**
 * Ticks of 10^-digits s of an ISO-8601 UTC text as the decoders print it
 * (`YYYY-MM-DDThh:mm:ss[.f…]Z`), exactly; undefined if it is not that or has finer digits.
 */
function isoTicks(s: string, digits: number): bigint | undefined {
  if (s.length < 20 || s.charCodeAt(s.length - 1) !== 90 /* Z */) return undefined;
  const ms = Date.parse(s.slice(0, 19) + 'Z');
  if (!Number.isFinite(ms)) return undefined;
  let frac = '';
  if (s.length > 20) {
    if (s.charCodeAt(19) !== 46 /* . */) return undefined;
    frac = s.slice(20, s.length - 1);
    if (frac.length > digits || !/^\d*$/.test(frac)) return undefined;
  }
  return BigInt(ms / 1000) * 10n ** BigInt(digits) + (digits === 0 ? 0n : BigInt(frac.padEnd(digits, '0')));
}

/**
 * DateTime('zone') → Timestamp(SECOND, zone): the Uint32Array of seconds widened to 64 bits
 * through 32-bit words. A DateTime without a zone gets 'UTC' (its values are UTC instants; the
 * server's zone is not known from a result).
 */
export function dateTime(w: Where, zone: string | undefined): Converter {
  const type = timestampType(0, zone ?? 'UTC');
  return {
    type,
    nullable: false,
    column(col, rows, v) {
      if (!(col instanceof Uint32Array)) return notTyped(w, col, 'a Uint32Array of seconds');
      const out = new BigInt64Array(rows);
      const words = new Uint32Array(out.buffer);
      for (let i = 0; i < rows; i++) words[2 * i] = col[i]!;
      return data(type, out, rows, v);
    },
    values(vals, v) {
      const n = vals.length;
      const out = new BigInt64Array(n);
      for (let i = 0; i < n; i++) {
        const x = vals[i];
        if (x == null) continue;
        const ms = x instanceof Date ? x.getTime() : typeof x === 'number' ? x : typeof x === 'string' ? Date.parse(x) : NaN;
        if (!Number.isInteger(ms / 1000)) throw badForm(w, kindOf(x), 'expected whole seconds (Date, ms or ISO text)');
        out[i] = BigInt(ms / 1000);
      }
      return data(type, out, n, v);
    },
  };
}

/**
 * DateTime64(P, zone) → Timestamp of the unit of P (timestampUnitDigits): ticks shared when P is
 * 0, 3, 6 or 9, else multiplied by 10^(unit − P) (exact; an instant beyond Int64 nanoseconds,
 * past 2262, is an error). Values: ISO text exactly, Dates and milliseconds only for P ≤ 3.
 */
export function dateTime64(w: Where, precision: number, zone: string | undefined): Converter {
  const digits = timestampUnitDigits(precision);
  const type = timestampType(digits, zone ?? 'UTC');
  const factor = 10n ** BigInt(digits - precision);
  const msFactor = digits === 0 ? 0 : 10 ** (digits - 3);
  const MAX = (1n << 63n) - 1n;
  return {
    type,
    nullable: false,
    column(col, rows, v) {
      if (!(col instanceof BigInt64Array)) return notTyped(w, col, 'a BigInt64Array of ticks');
      if (factor === 1n) return data(type, col, rows, v);
      const out = new BigInt64Array(rows);
      for (let i = 0; i < rows; i++) {
        const t = col[i]! * factor;
        if (t > MAX || t < -MAX) throw badForm(w, 'an instant beyond Int64 nanoseconds', 'Arrow cannot hold it in this unit');
        out[i] = t;
      }
      return data(type, out, rows, v);
    },
    values(vals, v) {
      const n = vals.length;
      const out = new BigInt64Array(n);
      for (let i = 0; i < n; i++) {
        const x = vals[i];
        if (x == null) continue;
        let t: bigint | undefined;
        if (typeof x === 'string') t = isoTicks(x, digits);
        else if (precision <= 3) {
          const ms = x instanceof Date ? x.getTime() : typeof x === 'number' ? x : NaN;
          if (Number.isInteger(ms)) t = digits === 0 ? (ms % 1000 === 0 ? BigInt(ms / 1000) : undefined) : BigInt(ms) * BigInt(msFactor);
        }
        if (t === undefined) {
          throw badForm(w, kindOf(x), precision > 3 ? `read it with datetime: 'string' (a Date or milliseconds drop digits of DateTime64(${precision}))` : 'expected Dates, milliseconds or ISO text');
        }
        out[i] = t;
      }
      return data(type, out, n, v);
    },
  };
}

/** Arrow Decimal bit width for ClickHouse precision P: 128 up to 38 digits, else 256. */
export function decimalBits(precision: number): 128 | 256 {
  return precision <= 38 ? 128 : 256;
}

/**
 * Decimal(P, S) → Decimal(P, S) of 128 or 256 bits. Decimal32/64 columns (Int32Array /
 * BigInt64Array of unscaled values) are sign-extended word by word; values must be exact text
 * (the decoders' default), parsed digit by digit into the unscaled integer.
 */
export function decimal(w: Where, precision: number, scale: number): Converter {
  const bits = decimalBits(precision);
  const nw = bits / 32;
  const type = new Decimal(scale, precision, bits);
  const unscaled = (s: string): bigint => {
    const dot = s.indexOf('.');
    const int = dot < 0 ? s : s.slice(0, dot);
    const frac = dot < 0 ? '' : s.slice(dot + 1);
    if (frac.length > scale || !/^-?\d+$/.test(int) || !/^\d*$/.test(frac)) throw badForm(w, 'text that is not a Decimal of its scale', 'expected exact decimal text');
    return BigInt(int + frac.padEnd(scale, '0'));
  };
  return {
    type,
    nullable: false,
    column(col, rows, v) {
      const out = new Uint32Array(nw * rows);
      if (col instanceof Int32Array) {
        for (let i = 0, o = 0; i < rows; i++, o += nw) {
          const x = col[i]!;
          out[o] = x;
          const sign = x >> 31;
          for (let k = 1; k < nw; k++) out[o + k] = sign;
        }
      } else if (col instanceof BigInt64Array) {
        const src = new Int32Array(col.buffer, col.byteOffset, 2 * rows);
        for (let i = 0, o = 0; i < rows; i++, o += nw) {
          const hi = src[2 * i + 1]!;
          out[o] = src[2 * i]!;
          out[o + 1] = hi;
          const sign = hi >> 31;
          for (let k = 2; k < nw; k++) out[o + k] = sign;
        }
      } else return notTyped(w, col, 'an Int32Array or BigInt64Array of unscaled values');
      return data(type, out, rows, v);
    },
    values(vals, v) {
      const n = vals.length;
      const out = new BigUint64Array(n * nw / 2);
      const half = nw / 2;
      for (let i = 0; i < n; i++) {
        const x = vals[i];
        if (x == null) continue;
        if (typeof x !== 'string') throw badForm(w, kindOf(x), "read it with decimal: 'string' (the default; numbers are rounded)");
        let u = BigInt.asUintN(bits, unscaled(x));
        for (let k = 0; k < half; k++, u >>= 64n) out[i * half + k] = BigInt.asUintN(64, u);
      }
      return data(type, new Uint32Array(out.buffer), n, v);
    },
  };
}
