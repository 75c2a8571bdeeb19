// One value of a scalar type checked as the insert path checks it, and the JSON text an insert
// sends for a JSON value: shared by the Native column writers (native/write/column-writers.ts),
// query parameters and SQL literals (client/sql/value-check.ts), so the three refuse the same values
// the same way. A read-only app that sends parameters bundles these checks, not the writers.
//
// Invariant: a coercer returns the value its column stores, or throws EncodeFail naming what the
// type takes (never the value); it never clamps, wraps or rounds (encode-values.ts).
import type { TypeNode } from '../types/ast.js';
import {
  fail, intRange, makeSmallInt, makeBigInt, makeFloat, toBool, makeDecimal, makeDays, makeDateTime, makeDateTime64,
  UTC_TEXT_ZONE, toIpv4,
} from './encode-values.js';

const utf8 = new TextEncoder();

/** Writes one FixedString(size) value at out[o..o+size), or fails when it is no string or bytes or longer than `size` bytes. */
export function fixedStringPut(size: number): (v: unknown, out: Uint8Array, o: number) => void {
  const expected = `a string or Uint8Array of at most ${size} bytes`;
  return (v, out, o) => {
    if (typeof v === 'string') {
      const r = utf8.encodeInto(v, out.subarray(o, o + size));
      if (r.read !== v.length) fail(expected, v);
    } else if (v instanceof Uint8Array && v.length <= size) out.set(v, o);
    else fail(expected, v);
  };
}

/** Enum8/Enum16: a label or one of the values. */
export function enumCoercer(t: Extract<TypeNode, { kind: 'Enum8' | 'Enum16' }>): (v: unknown) => number {
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
 * The insert path's check of one scalar value of type `t` (the coercer its column writer runs on
 * every value: integer range, Decimal precision and scale, Date/DateTime range, Enum membership,
 * FixedString length, …), for callers that send a value another way (query parameters, SQL
 * literals) and must refuse what an insert refuses. Throws EncodeFail; undefined for types with
 * no scalar check (String, composites, …). Zone-less date-time text is read as UTC (the
 * column writers build their own DateTime coercers, with the column's zone).
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
    // The zone reads only zone-less text, which these checks are not given (value-check.ts): UTC.
    case 'DateTime': return makeDateTime(UTC_TEXT_ZONE);
    case 'DateTime64': return makeDateTime64(t.precision, UTC_TEXT_ZONE);
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
