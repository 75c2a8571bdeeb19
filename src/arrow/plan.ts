// ClickHouse type → Arrow converter tree, built once per result column (the mapping table of
// chwire/arrow; docs/arrow.md lists it). Types with no mapping here are a ChwireTypeError naming
// the column and the type, raised when the converter is built: before any vector is made.
import { makeData, Field, List, type Data } from 'apache-arrow';
import type { TypeNode } from '../types/ast.js';
import { printType } from '../types/print.js';
import { unsupported, valuesValidity, maskValidity, ALL_VALID, type Converter, type Validity, type Where } from './converter.js';
import { INTEGERS, numeric, bool, dateDay, dateTime, dateTime64, decimal } from './fixed.js';
import { utf8, fixedString, uuid, ipv4, ipv6 } from './binary.js';
import { enumeration } from './dictionaries.js';
import { lowCardinality } from './low-cardinality.js';

const isNullableShape = (c: unknown): c is { kind: 'nullable'; values: unknown; nulls: Uint8Array } =>
  typeof c === 'object' && c !== null && (c as { kind?: unknown }).kind === 'nullable';

/** An Arrow field of a converter's type. */
export function fieldOf(name: string, c: Converter): Field {
  return new Field(name, c.type, c.nullable, c.metadata === undefined ? null : new Map(c.metadata));
}

/** Nullable(T): T's converter; validity from fetchColumns' null mask or from null values. */
function nullable(inner: Converter): Converter {
  return {
    type: inner.type,
    nullable: true,
    ...(inner.metadata === undefined ? {} : { metadata: inner.metadata }),
    column(col, rows) {
      if (isNullableShape(col)) {
        const mask = col.nulls;
        return toData(inner, col.values, rows, maskValidity(mask, rows));
      }
      return inner.values(col as ArrayLike<unknown>, valuesValidity(col as ArrayLike<unknown>));
    },
    values: (vals) => inner.values(vals, valuesValidity(vals)),
  };
}

/** Array(T) → List(T): offsets from the lengths, the elements converted as one child. */
function list(element: Converter): Converter {
  const type = new List(fieldOf('item', element));
  return {
    type,
    nullable: false,
    values(vals, v) {
      const n = vals.length;
      const offsets = new Int32Array(n + 1);
      let total = 0;
      for (let i = 0; i < n; i++) {
        const a = vals[i] as ArrayLike<unknown> | null | undefined;
        if (a != null) total += a.length;
        offsets[i + 1] = total;
      }
      const flat = new Array<unknown>(total);
      for (let i = 0, at = 0; i < n; i++) {
        const a = vals[i] as ArrayLike<unknown> | null | undefined;
        if (a == null) continue;
        for (let k = 0; k < a.length; k++) flat[at++] = a[k];
      }
      const child = element.values(flat, ALL_VALID);
      return makeData({ type, length: n, valueOffsets: offsets, child, nullBitmap: v.nullBitmap, nullCount: v.nullCount }) as Data;
    },
  };
}

/** A column's Data: its columnar form when the converter has one and the column is not plain values. */
export function toData(c: Converter, col: unknown, rows: number, v: Validity = ALL_VALID): Data {
  if (c.column !== undefined && !Array.isArray(col)) return c.column(col, rows, v);
  return c.values(col as ArrayLike<unknown>, v);
}

/** The converter of `t` for column `w` (throws ChwireTypeError for types with no mapping). */
export function converterFor(t: TypeNode, w: Where): Converter {
  switch (t.kind) {
    case 'Int8': case 'Int16': case 'Int32': case 'Int64': case 'UInt8': case 'UInt16': case 'UInt32': case 'UInt64':
    case 'Float32': case 'Float64': case 'BFloat16': {
      const [T, C] = INTEGERS[t.kind];
      return numeric(w, new T(), C as never, t.kind === 'Int64' || t.kind === 'UInt64');
    }
    case 'Bool': return bool(w);
    case 'Date': return dateDay(w, false);
    case 'Date32': return dateDay(w, true);
    case 'DateTime': return dateTime(w, t.timezone);
    case 'DateTime64': return dateTime64(w, t.precision, t.timezone);
    case 'Decimal': return decimal(w, t.precision, t.scale);
    case 'String': return utf8(w);
    case 'FixedString': return fixedString(w, t.length);
    case 'UUID': return uuid(w);
    case 'IPv4': return ipv4(w);
    case 'IPv6': return ipv6(w);
    case 'Enum8': case 'Enum16': return enumeration(w, t.entries);
    case 'Nullable': return nullable(converterFor(t.inner, w));
    case 'LowCardinality': {
      const inner = t.inner.kind === 'Nullable' ? t.inner.inner : t.inner;
      return lowCardinality(w, converterFor(inner, w), t.inner.kind === 'Nullable');
    }
    case 'Array': return list(converterFor(t.element, w));
    case 'SimpleAggregateFunction': return converterFor(t.inner, w);
    default: throw unsupported(w, printType(t));
  }
}
