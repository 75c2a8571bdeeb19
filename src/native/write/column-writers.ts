// Prebuilt (non-generated) Native column writers: one per type node, writing a whole column of
// values at once (native.md §3–§4). The compiled encoder inlines the common numeric columns and
// hands every other column to these.
//
// Invariants:
// - `prefix()` writes the column's state prefixes (depth-first) and `data()` its data streams, so
//   a parent writes all prefixes of its subtree before any of its own data (native.md §3: e.g. the
//   LowCardinality version word precedes the Array offsets).
// - `data()` of 0 values writes nothing (an empty nested column has no data, §3).
// - Every value is validated; a bad one throws EncodeFail whose `index` is the position in the
//   array passed to `data()`. Composite writers translate the index of a nested failure back to
//   their own positions, so the top level reports the caller's row.
import type { TypeNode } from '../../types/ast.js';
import { decimalByteWidth } from '../../types/ast.js';
import { ChwireTypeError } from '../../errors.js';
import { printType } from '../../types/print.js';
import { parseType } from '../../types/parse.js';
import type { ByteSink } from './sink.js';
import { failedAt, remap, isList, type ColumnWriter } from './writer-core.js';
import { nullableWriter, arrayWriter, tupleWriter, mapWriter, lowCardinalityWriter, variantWriter } from './composite-writers.js';

import {
  EncodeFail, fail, intRange, makeSmallInt, makeBigInt, makeFloat, toBool, toBFloat16, makeDecimal, makeDays,
  makeDateTime, makeDateTime64, textZones, type TextZone, toTime, makeTime64, writeUuid, toIpv4, writeIpv6,
} from './encode-values.js';

export { failedAt, type ColumnWriter } from './writer-core.js';

type TypedCtor = { new (n: number): ArrayBufferView & { [i: number]: number | bigint } };

function accepting(coerce: (v: unknown) => unknown): (v: unknown) => boolean {
  return (v) => {
    if (v === null || v === undefined) return false;
    try {
      coerce(v);
      return true;
    } catch {
      return false;
    }
  };
}

/** A fixed-width column filled into a typed array and handed to the sink without another copy. */
function typedWriter(Ctor: TypedCtor, coerce: (v: unknown) => number | bigint, zero: unknown): ColumnWriter {
  return {
    zero,
    nullable: false,
    prefix() {},
    data(values, sink) {
      const n = values.length;
      if (n === 0) return;
      const a = new Ctor(n);
      let i = 0;
      try {
        for (; i < n; i++) a[i] = coerce(values[i]);
      } catch (e) {
        throw failedAt(e, i);
      }
      sink.view(a);
    },
    accepts: accepting(coerce),
  };
}

/** Integers wider than 64 bits (and Decimal128/256): little-endian 64-bit limbs. */
function wideWriter(bits: number, coerce: (v: unknown) => bigint, zero: unknown): ColumnWriter {
  const limbs = bits / 64;
  const width = BigInt(bits);
  return {
    zero,
    nullable: false,
    prefix() {},
    data(values, sink) {
      const n = values.length;
      if (n === 0) return;
      const a = new BigUint64Array(n * limbs);
      let i = 0;
      try {
        for (; i < n; i++) {
          let x = BigInt.asUintN(Number(width), coerce(values[i]));
          for (let k = 0; k < limbs; k++) {
            a[i * limbs + k] = BigInt.asUintN(64, x);
            x >>= 64n;
          }
        }
      } catch (e) {
        throw failedAt(e, i);
      }
      sink.view(a);
    },
    accepts: accepting(coerce),
  };
}

/** Fixed-size byte values (UUID, IPv6) written by `put` at out[16 i]. */
function bytes16Writer(put: (v: unknown, out: Uint8Array, o: number) => void, zero: unknown): ColumnWriter {
  const scratch = new Uint8Array(16);
  return {
    zero,
    nullable: false,
    prefix() {},
    data(values, sink) {
      const n = values.length;
      if (n === 0) return;
      const a = new Uint8Array(16 * n);
      let i = 0;
      try {
        for (; i < n; i++) put(values[i], a, 16 * i);
      } catch (e) {
        throw failedAt(e, i);
      }
      sink.view(a);
    },
    accepts: accepting((v) => put(v, scratch, 0)),
  };
}

/** A String value given as bytes; anything else fails at its index. */
function writeOtherString(sink: ByteSink, v: unknown, i: number): void {
  if (!(v instanceof Uint8Array)) throw failedAt(new EncodeFail('a string or a Uint8Array', v), i);
  sink.varUInt(v.length);
  sink.bytes(v);
}

const stringWriter: ColumnWriter = {
  zero: '',
  nullable: false,
  prefix() {},
  data(values, sink) {
    sink.stringColumn(values, writeOtherString);
  },
  accepts: (v) => typeof v === 'string' || v instanceof Uint8Array,
};

const utf8 = new TextEncoder();

/** Writes one FixedString(size) value at out[o..o+size), or fails when it is no string or bytes or longer than `size` bytes. */
function fixedStringPut(size: number): (v: unknown, out: Uint8Array, o: number) => void {
  const expected = `a string or Uint8Array of at most ${size} bytes`;
  return (v, out, o) => {
    if (typeof v === 'string') {
      const r = utf8.encodeInto(v, out.subarray(o, o + size));
      if (r.read !== v.length) fail(expected, v);
    } else if (v instanceof Uint8Array && v.length <= size) out.set(v, o);
    else fail(expected, v);
  };
}

function fixedStringWriter(size: number): ColumnWriter {
  const put = fixedStringPut(size);
  const scratch = new Uint8Array(size);
  return {
    zero: '',
    nullable: false,
    prefix() {},
    data(values, sink) {
      const n = values.length;
      if (n === 0 || size === 0) return;
      const a = new Uint8Array(size * n);
      let i = 0;
      try {
        for (; i < n; i++) put(values[i], a, size * i);
      } catch (e) {
        throw failedAt(e, i);
      }
      sink.view(a);
    },
    accepts: (v) => {
      if (typeof v !== 'string' && !(v instanceof Uint8Array)) return false;
      try { put(v, scratch, 0); return true; } catch { return false; }
    },
  };
}

function enumCoercer(t: Extract<TypeNode, { kind: 'Enum8' | 'Enum16' }>): (v: unknown) => number {
  const byLabel = new Map<string, number>();
  const values = new Set<number>();
  for (const e of t.entries) {
    byLabel.set(e.label, e.value);
    values.add(e.value);
  }
  const expected = `one of the ${t.kind} labels ${t.entries.slice(0, 8).map((e) => JSON.stringify(e.label)).join(', ')}${t.entries.length > 8 ? ', …' : ''} or their values`;
  return (v) => {
    if (typeof v === 'string') {
      const n = byLabel.get(v);
      if (n !== undefined) return n;
    } else if (typeof v === 'number' && values.has(v)) return v;
    return fail(expected, v);
  };
}

/** Non-null values with NULL replaced by the inner zero, and the null map. */
/** JSON, sent in its string serialization (prefix version 1, §4.10): the engine parses each text. */
const jsonWriter: ColumnWriter = {
  zero: '{}',
  nullable: false,
  prefix(sink) {
    sink.u64(1);
  },
  data(values, sink) {
    const n = values.length;
    let i = 0;
    try {
      for (; i < n; i++) sink.string(jsonText(values[i]));
    } catch (e) {
      throw failedAt(e, i);
    }
  },
  accepts: (v) => typeof v === 'object' && v !== null && !isList(v),
};

/** The JSON text inserted for a JSON value (a plain object, or JSON text of an object); EncodeFail otherwise. */
export function jsonText(v: unknown): string {
  const expected = 'a plain object or the JSON text of an object';
  if (typeof v === 'string') {
    let parsed: unknown;
    try { parsed = JSON.parse(v); } catch { return fail(expected, v); }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) fail(expected, v);
    return v;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(expected, v);
  // bigint → bare JSON number (exact), -0 → -0.0 (JSON.stringify writes 0, which the engine
  // reads as the integer 0), Date → ISO text.
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? BIG_MARK + x.toString() + BIG_MARK : Object.is(x, -0) ? BIG_MARK + '-0.0' + BIG_MARK : x))
    .replace(BIG_RE, '$1');
}
const BIG_MARK = '\u0000big\u0000';
const BIG_RE = /"\\u0000big\\u0000(-?\d+(?:\.0)?)\\u0000big\\u0000"/g;

/**
 * Dynamic, in the flattened serialization (version 3, accepted on INSERT, native.md §4.9) with a
 * fixed type list, so that its prefix does not depend on the data (a nested Dynamic's prefix is
 * written before its parent's data). Each value's type is inferred from its JS form; an array
 * takes the Array type of its elements' one kind (see dynamicArrayTypeOf).
 */
const SCALAR_TYPES = ['Bool', 'Int64', 'UInt64', 'Float64', 'String', "DateTime64(3, 'UTC')"] as const;
const [BOOL, INT64, UINT64, FLOAT64, STRING, DATETIME64] = [0, 1, 2, 3, 4, 5] as const;
/** Array(T) of SCALAR_TYPES[k] is DYNAMIC_TYPES[ARRAY_OF + k] (Array(UInt64) is never inferred, but kept for the numbering). */
const ARRAY_OF = SCALAR_TYPES.length;
const DYNAMIC_TYPES: readonly string[] = [...SCALAR_TYPES, ...SCALAR_TYPES.map((t) => `Array(${t})`)];
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** Index in SCALAR_TYPES of a scalar JS value's type, -1 for NULL. */
function dynamicScalarTypeOf(v: unknown): number {
  if (v === null || v === undefined) return -1;
  switch (typeof v) {
    case 'boolean': return BOOL;
    // -0 is no integer: Int64 would store 0 (reads give back -0 from Float64).
    case 'number': return Number.isSafeInteger(v) && !Object.is(v, -0) ? INT64 : FLOAT64;
    case 'bigint': return v >= -INT64_MAX - 1n && v <= INT64_MAX ? INT64 : v >= 0n && v <= UINT64_MAX ? UINT64 : fail('a Dynamic value: bigints must fit Int64 or UInt64', v);
    case 'string': return STRING;
    default:
      if (v instanceof Uint8Array) return STRING;
      if (v instanceof Date) return DATETIME64;
      return fail('a Dynamic value: boolean, number, bigint, string, Uint8Array, Date, an array of one of those, or null', v);
  }
}

/**
 * Index in DYNAMIC_TYPES of an array's type: the one kind of all its elements (integers and other
 * numbers together are Float64; an empty array is Array(String)). NULL elements, mixed kinds,
 * bigints beyond Int64 and nested arrays are errors: cast those in SQL or use a typed column.
 */
function dynamicArrayTypeOf(v: readonly unknown[]): number {
  if (v.length === 0) return ARRAY_OF + STRING;
  let kind = -1;
  let numbersOnly = true; // so far: plain numbers may mix integers and fractions (then Float64)
  for (const x of v) {
    const k = Array.isArray(x) ? -1 : dynamicScalarTypeOf(x);
    if (typeof x !== 'number') numbersOnly = false;
    if (k < 0 || k === UINT64) return fail(DYNAMIC_ARRAY, v);
    if (kind === -1 || k === kind) kind = k;
    else if (numbersOnly && (k === FLOAT64 || kind === FLOAT64)) kind = FLOAT64;
    else return fail(DYNAMIC_ARRAY, v);
  }
  return ARRAY_OF + kind;
}
const DYNAMIC_ARRAY = 'a Dynamic array: elements all of one kind (booleans, numbers, Int64 bigints, strings or Dates), no NULL or nested array';

/** Index in DYNAMIC_TYPES of a JS value's type, -1 for NULL. */
function dynamicTypeOf(v: unknown): number {
  return Array.isArray(v) ? dynamicArrayTypeOf(v) : dynamicScalarTypeOf(v);
}

function dynamicWriter(): ColumnWriter {
  const members = DYNAMIC_TYPES.map((t) => columnWriter(parseType(t), t));
  const names = DYNAMIC_TYPES;
  return {
    zero: null,
    nullable: true,
    prefix(sink) {
      sink.u64(3);
      sink.varUInt(names.length);
      for (const n of names) sink.string(n);
      for (const m of members) m.prefix(sink);
    },
    data(values, sink) {
      const n = values.length;
      if (n === 0) return;
      const idx = new Uint8Array(n);
      const parts: unknown[][] = members.map(() => []);
      const rows: number[][] = members.map(() => []);
      let i = 0;
      try {
        for (; i < n; i++) {
          const k = dynamicTypeOf(values[i]);
          if (k < 0) { idx[i] = members.length; continue; }
          idx[i] = k;
          parts[k]!.push(values[i]);
          rows[k]!.push(i);
        }
      } catch (e) {
        throw failedAt(e, i);
      }
      sink.view(idx);
      for (let k = 0; k < members.length; k++) {
        try {
          members[k]!.data(parts[k]!, sink);
        } catch (e) {
          throw remap(e, (j) => rows[k]![j]!);
        }
      }
    },
    accepts: (v) => { try { dynamicTypeOf(v); return true; } catch { return false; } },
  };
}

/** Nothing (only inside Nullable(Nothing)): one '0' byte per row (§4.11). */
const nothingWriter: ColumnWriter = {
  zero: null,
  nullable: false,
  prefix() {},
  data(values, sink) {
    if (values.length > 0) sink.view(new Uint8Array(values.length).fill(0x30));
  },
  accepts: (v) => v === null || v === undefined,
};

const POINT: TypeNode = { kind: 'Tuple', elements: [{ kind: 'Float64' }, { kind: 'Float64' }] };
const RING: TypeNode = { kind: 'Array', element: POINT };
const POLYGON: TypeNode = { kind: 'Array', element: RING };

const UTC_ZONES = textZones(undefined);

/**
 * The insert path's check of one scalar value of type `t` (the coercer its column writer runs on
 * every value: integer range, Decimal precision and scale, Date/DateTime range, Enum membership,
 * FixedString length, …), for callers that send a value another way (query parameters, SQL
 * literals) and must refuse what an insert refuses. Throws EncodeFail; undefined for types with
 * no scalar check (String, composites, …). Zone-less date-time text is read as UTC.
 */
export function scalarCoercer(t: TypeNode): ((v: unknown) => unknown) | undefined {
  switch (t.kind) {
    case 'UInt8': return makeSmallInt(intRange(8, false));
    case 'UInt16': return makeSmallInt(intRange(16, false));
    case 'UInt32': return makeSmallInt(intRange(32, false));
    case 'Int8': return makeSmallInt(intRange(8, true));
    case 'Int16': return makeSmallInt(intRange(16, true));
    case 'Int32': return makeSmallInt(intRange(32, true));
    case 'UInt64': return makeBigInt(intRange(64, false));
    case 'Int64': case 'Interval': return makeBigInt(intRange(64, true));
    case 'UInt128': return makeBigInt(intRange(128, false));
    case 'Int128': return makeBigInt(intRange(128, true));
    case 'UInt256': return makeBigInt(intRange(256, false));
    case 'Int256': return makeBigInt(intRange(256, true));
    case 'Float32': return makeFloat(true);
    case 'Float64': return makeFloat(false);
    case 'Bool': return toBool;
    case 'Decimal': return makeDecimal(t.precision, t.scale);
    case 'Date': return makeDays(0, 65535, 'Date');
    case 'Date32': return makeDays(-25567, 120529, 'Date32', -2147483648, 2147483647);
    case 'DateTime': return makeDateTime(UTC_ZONES(t.timezone));
    case 'DateTime64': return makeDateTime64(t.precision, UTC_ZONES(t.timezone));
    case 'Enum8': case 'Enum16': return enumCoercer(t);
    case 'IPv4': return toIpv4;
    case 'FixedString': {
      const put = fixedStringPut(t.length);
      const scratch = new Uint8Array(t.length);
      return (v) => put(v, scratch, 0);
    }
    default: return undefined;
  }
}

/**
 * Build the writer for a type; `text` is the whole column type (for error messages); `zones` gives
 * the zone zone-less date-time text is read in for a DateTime type's own zone (textZones: the
 * column's, else the server's; UTC by default).
 */
export function columnWriter(t: TypeNode, text: string, zones: (columnZone: string | undefined) => TextZone = UTC_ZONES): ColumnWriter {
  const sub = (u: TypeNode): ColumnWriter => columnWriter(u, text, zones);
  switch (t.kind) {
    case 'UInt8': return typedWriter(Uint8Array, makeSmallInt(intRange(8, false)), 0);
    case 'UInt16': return typedWriter(Uint16Array, makeSmallInt(intRange(16, false)), 0);
    case 'UInt32': return typedWriter(Uint32Array, makeSmallInt(intRange(32, false)), 0);
    case 'Int8': return typedWriter(Int8Array, makeSmallInt(intRange(8, true)), 0);
    case 'Int16': return typedWriter(Int16Array, makeSmallInt(intRange(16, true)), 0);
    case 'Int32': return typedWriter(Int32Array, makeSmallInt(intRange(32, true)), 0);
    case 'UInt64': return typedWriter(BigUint64Array, makeBigInt(intRange(64, false)), 0);
    case 'Int64': case 'Interval': return typedWriter(BigInt64Array, makeBigInt(intRange(64, true)), 0);
    case 'UInt128': return wideWriter(128, makeBigInt(intRange(128, false)), 0);
    case 'Int128': return wideWriter(128, makeBigInt(intRange(128, true)), 0);
    case 'UInt256': return wideWriter(256, makeBigInt(intRange(256, false)), 0);
    case 'Int256': return wideWriter(256, makeBigInt(intRange(256, true)), 0);
    case 'Float32': return typedWriter(Float32Array, makeFloat(true), 0);
    case 'Float64': return typedWriter(Float64Array, makeFloat(false), 0);
    case 'BFloat16': return typedWriter(Uint16Array, toBFloat16, 0);
    case 'Bool': return typedWriter(Uint8Array, toBool, false);
    case 'Decimal': {
      const c = makeDecimal(t.precision, t.scale);
      const w = decimalByteWidth(t.precision);
      if (w === 4) return typedWriter(Int32Array, (v) => Number(c(v)), 0);
      if (w === 8) return typedWriter(BigInt64Array, c, 0);
      return wideWriter(w * 8, c, 0);
    }
    case 'Date': return typedWriter(Uint16Array, scalarCoercer(t) as (v: unknown) => number, 0);
    case 'Date32': return typedWriter(Int32Array, scalarCoercer(t) as (v: unknown) => number, 0);
    case 'DateTime': return typedWriter(Uint32Array, makeDateTime(zones(t.timezone)), 0);
    case 'DateTime64': return typedWriter(BigInt64Array, makeDateTime64(t.precision, zones(t.timezone)), 0n);
    case 'Time': return typedWriter(Int32Array, toTime, 0);
    case 'Time64': return typedWriter(BigInt64Array, makeTime64(t.precision), 0n);
    case 'Enum8': { const c = enumCoercer(t); return typedWriter(Int8Array, c, t.entries[0]?.value ?? 0); }
    case 'Enum16': { const c = enumCoercer(t); return typedWriter(Int16Array, c, t.entries[0]?.value ?? 0); }
    case 'UUID': return bytes16Writer(writeUuid, '00000000-0000-0000-0000-000000000000');
    case 'IPv4': return typedWriter(Uint32Array, toIpv4, 0);
    case 'IPv6': return bytes16Writer(writeIpv6, '::');
    case 'String': return stringWriter;
    case 'FixedString': return fixedStringWriter(t.length);
    case 'Nullable': return nullableWriter(sub(t.inner));
    case 'LowCardinality': {
      const inner = t.inner.kind === 'Nullable' ? t.inner.inner : t.inner;
      return lowCardinalityWriter(sub(inner), t.inner.kind === 'Nullable');
    }
    case 'Array': return arrayWriter(sub(t.element));
    case 'Tuple': return tupleWriter(t.elements.map((e) => sub(e)), t.names);
    case 'Nested': return arrayWriter(tupleWriter(t.elements.map((e) => sub(e)), t.names));
    case 'Map': return mapWriter(sub(t.key), sub(t.value));
    case 'Variant': {
      // Discriminators number the members sorted by type name, whatever order the type text lists them in.
      const members = t.members.map((m) => ({ name: printType(m), m })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return variantWriter(members.map((x) => sub(x.m)), members.map((x) => x.m.kind));
    }
    case 'JSON': return jsonWriter;
    case 'Nothing': return nothingWriter;
    case 'SimpleAggregateFunction': return sub(t.inner);
    case 'Point': return sub(POINT);
    case 'Ring': case 'LineString': return sub(RING);
    case 'MultiLineString': case 'Polygon': return sub(POLYGON);
    case 'MultiPolygon': return sub({ kind: 'Array', element: POLYGON });
    case 'Dynamic': return dynamicWriter();
    case 'Geometry': case 'AggregateFunction': case 'QBit':
      throw new ChwireTypeError(`the Native encoder cannot write ${t.kind} columns (insert them through a String column or JSONEachRow)`, text, -1);
  }
}
