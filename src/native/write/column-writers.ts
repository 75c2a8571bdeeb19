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
import { keyFromText } from './key-from-text.js';
import { nullableWriter, arrayWriter, tupleWriter, mapWriter, lowCardinalityWriter, variantWriter } from './composite-writers.js';
import { enumCoercer, fixedStringPut, jsonText, scalarCoercer } from '../../convert/value-checks.js';

import {
  EncodeFail, fail, intRange, makeSmallInt, makeBigInt, makeFloat, toBool, toBFloat16, makeDecimal,
  makeDateTime, makeDateTime64, textZones, type TextZone, toTime, makeTime64, writeUuid, toIpv4, writeIpv6,
} from '../../convert/encode-values.js';

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
    case 'Map': return mapWriter(sub(t.key), sub(t.value), keyFromText(t.key));
    case 'Variant': {
      // Discriminators number the members sorted by type name, whatever order the type text lists them in.
      const members = t.members.map((m) => ({ name: printType(m), m })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return variantWriter(members.map((x) => sub(x.m)), members.map((x) => x.m), members.map((x) => x.name));
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
