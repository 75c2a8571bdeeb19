// Test helper: the row values of a decoded column, whatever its columnar shape, as the row
// decoders give them under the default options. Wire-integer columns (dates, times, Decimal32/64,
// IPv4, Enum codes) are converted with the library's shared converters, so comparing these cells
// with the engine's rows checks the integers themselves.
import type { NativeColumn } from '../../src/native/index.js';
import { parseType } from '../../src/types/parse.js';
import type { TypeNode } from '../../src/types/ast.js';
import { daysToDate, ticksToDate, timeToString, time64ToString } from '../../src/convert/datetime.js';
import { decimalToString } from '../../src/convert/decimal.js';
import { ipv4ToString } from '../../src/convert/ip.js';
import { utf8Decode } from '../../src/io/utf8.js';
import { printType } from '../../src/types/print.js';

function wireValue(t: TypeNode, v: unknown): unknown {
  switch (t.kind) {
    case 'Date': case 'Date32': return daysToDate(v as number);
    case 'DateTime': return new Date((v as number) * 1000);
    case 'DateTime64': return ticksToDate(v as bigint, t.precision);
    case 'Time': return timeToString(v as number);
    case 'Time64': return time64ToString(v as bigint, t.precision);
    case 'Decimal': return decimalToString(v as number | bigint, t.scale);
    case 'IPv4': return ipv4ToString(v as number);
    default: return v;
  }
}

/** Row values of `col` (of type `type`), as fetch gives them with default options. */
export function cells(col: NativeColumn, type?: string): unknown[] {
  let t: TypeNode | undefined = type === undefined ? undefined : parseType(type);
  if (t?.kind === 'SimpleAggregateFunction') t = t.inner;
  if (Array.isArray(col)) return col;
  if (ArrayBuffer.isView(col)) return Array.from(col as ArrayLike<unknown>, (v) => (t === undefined ? v : wireValue(t, v)));
  switch (col.kind) {
    case 'nullable': {
      const values = cells(col.values as NativeColumn, t?.kind === 'Nullable' ? printType(t.inner) : undefined);
      return values.map((v, i) => (col.nulls[i] === 1 ? null : v));
    }
    case 'strings': {
      const out: string[] = [];
      for (let i = 0; i + 1 < col.offsets.length; i++) out.push(utf8Decode(col.data, col.offsets[i]!, col.offsets[i + 1]!));
      return out;
    }
    case 'enum': return Array.from(col.codes, (c) => col.labels.get(c));
    case 'lowCardinality': return Array.from(col.keys, (k, i) => (col.nulls?.[i] === 1 ? null : col.dictionary[k]));
  }
}

