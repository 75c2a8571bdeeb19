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
import type { TypeNode } from '../types/ast.js';
import { decimalByteWidth } from '../types/ast.js';
import { ChwireTypeError } from '../errors.js';
import { ByteSink } from './sink.js';
import {
  EncodeFail, fail, intRange, makeSmallInt, makeBigInt, toFloat, toBool, toBFloat16, makeDecimal, makeDays,
  toDateTime, makeDateTime64, toTime, makeTime64, writeUuid, toIpv4, writeIpv6,
} from './encode-values.js';

export interface ColumnWriter {
  /** A valid input value, used as the (ignored) value under NULL and as a LowCardinality placeholder. */
  readonly zero: unknown;
  /** Whether `null`/`undefined` are valid values (Nullable, LowCardinality(Nullable)). */
  readonly nullable: boolean;
  prefix(sink: ByteSink): void;
  data(values: readonly unknown[], sink: ByteSink): void;
  /** Whether `v` has the right JS shape for this column (used to pick a Variant member). */
  accepts(v: unknown): boolean;
}

/** Attach the failing position to an EncodeFail (other errors pass through unchanged). */
export function failedAt(e: unknown, index: number): unknown {
  if (e instanceof EncodeFail && e.index < 0) e.index = index;
  return e;
}

/** Translate a nested failure's index through `toParent`. */
function remap(e: unknown, toParent: (i: number) => number): unknown {
  if (e instanceof EncodeFail && e.index >= 0) e.index = toParent(e.index);
  return e;
}

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

function fixedStringWriter(size: number): ColumnWriter {
  const expected = `a string or Uint8Array of at most ${size} bytes`;
  const put = (v: unknown, out: Uint8Array, o: number): void => {
    if (typeof v === 'string') {
      const r = utf8.encodeInto(v, out.subarray(o, o + size));
      if (r.read !== v.length) fail(expected, v);
    } else if (v instanceof Uint8Array && v.length <= size) out.set(v, o);
    else fail(expected, v);
  };
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
function nullableWriter(inner: ColumnWriter): ColumnWriter {
  return {
    zero: null,
    nullable: true,
    prefix(sink) {
      inner.prefix(sink);
    },
    data(values, sink) {
      const n = values.length;
      if (n === 0) return;
      const map = new Uint8Array(n);
      const vals = new Array<unknown>(n);
      const zero = inner.zero;
      for (let i = 0; i < n; i++) {
        const v = values[i];
        if (v === null || v === undefined) {
          map[i] = 1;
          vals[i] = zero;
        } else vals[i] = v;
      }
      sink.view(map);
      inner.data(vals, sink);
    },
    accepts: (v) => v === null || v === undefined || inner.accepts(v),
  };
}

function isList(v: unknown): v is ArrayLike<unknown> {
  return Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView));
}

/** Row index of flat element `i` given cumulative end offsets. */
function rowOfElement(ends: Uint32Array, i: number): number {
  let lo = 0;
  let hi = ends.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ends[mid]! > i) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** UInt64 offsets from 32-bit ends (a block never holds 2^32 elements: checked). */
function writeOffsets(ends: Uint32Array, sink: ByteSink): void {
  const out = new Uint32Array(ends.length * 2);
  for (let i = 0; i < ends.length; i++) out[2 * i] = ends[i]!;
  sink.view(out);
}

function arrayWriter(element: ColumnWriter): ColumnWriter {
  return {
    zero: [],
    nullable: false,
    prefix(sink) {
      element.prefix(sink);
    },
    data(values, sink) {
      const n = values.length;
      if (n === 0) return;
      const ends = new Uint32Array(n);
      const flat: unknown[] = [];
      let i = 0;
      try {
        for (; i < n; i++) {
          const v = values[i];
          if (!isList(v)) fail('an array', v);
          for (let k = 0; k < v.length; k++) flat.push(v[k]);
          if (flat.length > 0xffffffff) fail('fewer than 2^32 elements in one block', v);
          ends[i] = flat.length;
        }
      } catch (e) {
        throw failedAt(e, i);
      }
      writeOffsets(ends, sink);
      if (flat.length === 0) return;
      try {
        element.data(flat, sink);
      } catch (e) {
        throw remap(e, (k) => rowOfElement(ends, k));
      }
    },
    accepts: isList,
  };
}

function tupleWriter(elements: readonly ColumnWriter[], names: readonly string[] | undefined): ColumnWriter {
  const m = elements.length;
  const expected = names === undefined ? `an array of ${m} values` : `an array of ${m} values or an object with keys ${names.map((x) => JSON.stringify(x)).join(', ')}`;
  const nameSet = names === undefined ? undefined : new Set(names);
  const split = (v: unknown, cols: unknown[][], i: number): void => {
    if (Array.isArray(v)) {
      if (v.length !== m) fail(expected, v);
      for (let k = 0; k < m; k++) cols[k]![i] = v[k];
    } else if (names !== undefined && typeof v === 'object' && v !== null && !isList(v)) {
      const o = v as Record<string, unknown>;
      for (const key of Object.keys(o)) if (!nameSet!.has(key)) fail(`${expected} (unknown key ${JSON.stringify(key)})`, v);
      for (let k = 0; k < m; k++) cols[k]![i] = Object.prototype.hasOwnProperty.call(o, names[k]!) ? o[names[k]!] : undefined;
    } else fail(expected, v);
  };
  return {
    zero: elements.map((e) => e.zero),
    nullable: false,
    prefix(sink) {
      for (const e of elements) e.prefix(sink);
    },
    data(values, sink) {
      const n = values.length;
      if (n === 0) return;
      const cols: unknown[][] = elements.map(() => new Array<unknown>(n));
      let i = 0;
      try {
        for (; i < n; i++) split(values[i], cols, i);
      } catch (e) {
        throw failedAt(e, i);
      }
      for (let k = 0; k < m; k++) elements[k]!.data(cols[k]!, sink);
    },
    accepts: (v) => (Array.isArray(v) && v.length === m) || (names !== undefined && typeof v === 'object' && v !== null && !isList(v)),
  };
}

function mapWriter(key: ColumnWriter, value: ColumnWriter): ColumnWriter {
  const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !isList(v) && !(v instanceof Map) && !(v instanceof Date);
  return {
    zero: {},
    nullable: false,
    prefix(sink) {
      key.prefix(sink);
      value.prefix(sink);
    },
    data(values, sink) {
      const n = values.length;
      if (n === 0) return;
      const ends = new Uint32Array(n);
      const keys: unknown[] = [];
      const vals: unknown[] = [];
      let i = 0;
      try {
        for (; i < n; i++) {
          const v = values[i];
          if (v instanceof Map) {
            for (const [k, x] of v) { keys.push(k); vals.push(x); }
          } else if (isPlain(v)) {
            for (const k of Object.keys(v)) { keys.push(k); vals.push(v[k]); }
          } else fail('a Map or a plain object', v);
          ends[i] = keys.length;
        }
      } catch (e) {
        throw failedAt(e, i);
      }
      writeOffsets(ends, sink);
      if (keys.length === 0) return;
      try {
        key.data(keys, sink);
        value.data(vals, sink);
      } catch (e) {
        throw remap(e, (k) => rowOfElement(ends, k));
      }
    },
    accepts: (v) => v instanceof Map || isPlain(v),
  };
}

/** LowCardinality(T) / LowCardinality(Nullable(T)): a per-block dictionary and one index per row (§4.7). */
function lowCardinalityWriter(dict: ColumnWriter, nullable: boolean): ColumnWriter {
  return {
    zero: nullable ? null : dict.zero,
    nullable,
    prefix(sink) {
      sink.u64(1); // keys version: shared dictionaries with additional keys
      dict.prefix(sink);
    },
    data(values, sink) {
      const n = values.length;
      if (n === 0) return;
      // Index 0 of a nullable dictionary is the NULL slot (its value is a placeholder).
      const entries: unknown[] = nullable ? [dict.zero] : [];
      const firstRow: number[] = nullable ? [-1] : [];
      const seen = new Map<unknown, number>();
      const keys = new Uint32Array(n);
      for (let i = 0; i < n; i++) {
        const v = values[i];
        if (nullable && (v === null || v === undefined)) continue; // key 0
        // Primitives dedupe by value; byte arrays or objects get their own entry (still correct).
        let k = seen.get(v);
        if (k === undefined) {
          k = entries.length;
          entries.push(v);
          firstRow.push(i);
          if (typeof v !== 'object') seen.set(v, k);
        }
        keys[i] = k;
      }
      const size = entries.length;
      const width = size <= 0x100 ? 0 : size <= 0x10000 ? 1 : 2;
      sink.u64(0x0600 | width); // has additional keys | need update dictionary | index width
      sink.u64(size);
      try {
        dict.data(entries, sink);
      } catch (e) {
        throw remap(e, (k) => firstRow[k]!);
      }
      sink.u64(n);
      sink.view(width === 0 ? Uint8Array.from(keys) : width === 1 ? Uint16Array.from(keys) : keys);
    },
    accepts: (v) => (nullable && (v === null || v === undefined)) || dict.accepts(v),
  };
}

/** Variant: each value goes to the first member (in the type's order) that accepts its JS form. */
function variantWriter(members: readonly ColumnWriter[]): ColumnWriter {
  const m = members.length;
  return {
    zero: null,
    nullable: true,
    prefix(sink) {
      sink.u64(0); // basic discriminator mode (compact mode is for MergeTree parts only)
      for (const w of members) w.prefix(sink);
    },
    data(values, sink) {
      const n = values.length;
      if (n === 0) return;
      const disc = new Uint8Array(n);
      const parts: unknown[][] = members.map(() => []);
      const rows: number[][] = members.map(() => []);
      let i = 0;
      try {
        for (; i < n; i++) {
          const v = values[i];
          if (v === null || v === undefined) { disc[i] = 0xff; continue; }
          let k = 0;
          while (k < m && !members[k]!.accepts(v)) k++;
          if (k === m) fail('a value of one of the Variant member types', v);
          disc[i] = k;
          parts[k]!.push(v);
          rows[k]!.push(i);
        }
      } catch (e) {
        throw failedAt(e, i);
      }
      sink.view(disc);
      for (let k = 0; k < m; k++) {
        try {
          members[k]!.data(parts[k]!, sink);
        } catch (e) {
          throw remap(e, (j) => rows[k]![j]!);
        }
      }
    },
    accepts: () => true,
  };
}

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

function jsonText(v: unknown): string {
  const expected = 'a plain object or the JSON text of an object';
  if (typeof v === 'string') {
    let parsed: unknown;
    try { parsed = JSON.parse(v); } catch { return fail(expected, v); }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) fail(expected, v);
    return v;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(expected, v);
  // bigint → bare JSON number (exact), Date → ISO text.
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? BIG_MARK + x.toString() + BIG_MARK : x))
    .replace(BIG_RE, '$1');
}
const BIG_MARK = '\u0000big\u0000';
const BIG_RE = /"\\u0000big\\u0000(-?\d+)\\u0000big\\u0000"/g;

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

/** Build the writer for a type; `text` is the whole column type (for error messages). */
export function columnWriter(t: TypeNode, text: string): ColumnWriter {
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
    case 'Float32': return typedWriter(Float32Array, toFloat, 0);
    case 'Float64': return typedWriter(Float64Array, toFloat, 0);
    case 'BFloat16': return typedWriter(Uint16Array, toBFloat16, 0);
    case 'Bool': return typedWriter(Uint8Array, toBool, false);
    case 'Decimal': {
      const c = makeDecimal(t.precision, t.scale);
      const w = decimalByteWidth(t.precision);
      if (w === 4) return typedWriter(Int32Array, (v) => Number(c(v)), 0);
      if (w === 8) return typedWriter(BigInt64Array, c, 0);
      return wideWriter(w * 8, c, 0);
    }
    case 'Date': return typedWriter(Uint16Array, makeDays(0, 65535, 'Date'), 0);
    case 'Date32': return typedWriter(Int32Array, makeDays(-25567, 120529, 'Date32'), 0);
    case 'DateTime': return typedWriter(Uint32Array, toDateTime, 0);
    case 'DateTime64': return typedWriter(BigInt64Array, makeDateTime64(t.precision), 0n);
    case 'Time': return typedWriter(Int32Array, toTime, 0);
    case 'Time64': return typedWriter(BigInt64Array, makeTime64(t.precision), 0n);
    case 'Enum8': { const c = enumCoercer(t); return typedWriter(Int8Array, c, t.entries[0]?.value ?? 0); }
    case 'Enum16': { const c = enumCoercer(t); return typedWriter(Int16Array, c, t.entries[0]?.value ?? 0); }
    case 'UUID': return bytes16Writer(writeUuid, '00000000-0000-0000-0000-000000000000');
    case 'IPv4': return typedWriter(Uint32Array, toIpv4, 0);
    case 'IPv6': return bytes16Writer(writeIpv6, '::');
    case 'String': return stringWriter;
    case 'FixedString': return fixedStringWriter(t.length);
    case 'Nullable': return nullableWriter(columnWriter(t.inner, text));
    case 'LowCardinality': {
      const inner = t.inner.kind === 'Nullable' ? t.inner.inner : t.inner;
      return lowCardinalityWriter(columnWriter(inner, text), t.inner.kind === 'Nullable');
    }
    case 'Array': return arrayWriter(columnWriter(t.element, text));
    case 'Tuple': return tupleWriter(t.elements.map((e) => columnWriter(e, text)), t.names);
    case 'Nested': return arrayWriter(tupleWriter(t.elements.map((e) => columnWriter(e, text)), t.names));
    case 'Map': return mapWriter(columnWriter(t.key, text), columnWriter(t.value, text));
    case 'Variant': return variantWriter(t.members.map((m) => columnWriter(m, text)));
    case 'JSON': return jsonWriter;
    case 'Nothing': return nothingWriter;
    case 'SimpleAggregateFunction': return columnWriter(t.inner, text);
    case 'Point': return columnWriter(POINT, text);
    case 'Ring': case 'LineString': return columnWriter(RING, text);
    case 'MultiLineString': case 'Polygon': return columnWriter(POLYGON, text);
    case 'MultiPolygon': return columnWriter({ kind: 'Array', element: POLYGON }, text);
    case 'Dynamic': case 'Geometry': case 'AggregateFunction': case 'QBit':
      throw new ChwireTypeError(`the Native encoder cannot write ${t.kind} columns (insert them through a String column or JSONEachRow)`, text, -1);
  }
}
