// Which Variant member ClickHouse reads a value into, so that a Native insert puts each JS value
// in the member the server would choose reading the same value from JSONEachRow (issue 26).
//
// The server (SerializationVariant, 24.x–26.x) tries the members in a fixed order, decided per
// type: sorted by (deepest nesting of Array/Tuple/Map, a priority, Nullable/LowCardinality depth),
// highest first. The priority of a scalar comes from one list: Array, Tuple, Map,
// AggregateFunction, Enum8, Enum16, UUID, IPv4, IPv6, the integers small to big (Int8, UInt8, …,
// UInt256), Decimal32…256, Float32, Float64, Date, Date32, DateTime, DateTime64, FixedString,
// String (first = highest); Bool ranks just above Int8; every other type ranks 0. Composite types
// add their elements' priorities. The value goes to the first member that parses its text.
//
// Invariant: `serverOrder` is that order (computed once per type, at plan time), and `takes(t, v)`
// says whether the server parses the JSON text chwire writes for `v` (insert-json.ts) as type
// `t`: the kinds of text each type's JSON reader accepts, as measured on 26.7 (numbers into
// integers in range, `true` into numbers and Date, quoted integers into integers, date-time text,
// integer and decimal text and 'hh:mm:ss' into DateTime, labels only into Enum…). The writer
// puts a value in the first member (in that order) that takes it, or refuses it when that member
// cannot hold it exactly: never a member the server would not have chosen.
import type { TypeNode } from '../../types/ast.js';
import { parseIso } from '../../convert/encode-values.js';
import { isList } from './writer-core.js';

const utf8 = new TextEncoder();

const PRIORITY_LIST = [
  'Array', 'Tuple', 'Map', 'AggregateFunction', 'Enum8', 'Enum16', 'UUID', 'IPv4', 'IPv6',
  'Int8', 'UInt8', 'Int16', 'UInt16', 'Int32', 'UInt32', 'Int64', 'UInt64', 'Int128', 'UInt128', 'Int256', 'UInt256',
  'Decimal32', 'Decimal64', 'Decimal128', 'Decimal256', 'Float32', 'Float64',
  'Date', 'Date32', 'DateTime', 'DateTime64', 'FixedString', 'String',
] as const;
const PRIORITY = new Map<string, number>(PRIORITY_LIST.map((k, i) => [k, PRIORITY_LIST.length - i]));
const prio = (k: string): number => PRIORITY.get(k) ?? 0;

const POINT: TypeNode = { kind: 'Tuple', elements: [{ kind: 'Float64' }, { kind: 'Float64' }] };

/** Geo types as the server builds them (Tuple/Array of Float64). */
function structural(t: TypeNode): TypeNode {
  switch (t.kind) {
    case 'Point': return POINT;
    case 'Ring': case 'LineString': return { kind: 'Array', element: POINT };
    case 'MultiLineString': case 'Polygon': return { kind: 'Array', element: { kind: 'Array', element: POINT } };
    case 'MultiPolygon': return { kind: 'Array', element: { kind: 'Array', element: { kind: 'Array', element: POINT } } };
    case 'SimpleAggregateFunction': return t.inner;
    default: return t;
  }
}

type Rank = [depth: number, priority: number, simpleDepth: number];

function rank(t0: TypeNode, depth: number, simple: number): Rank {
  const t = structural(t0);
  switch (t.kind) {
    case 'Nullable': case 'LowCardinality': return rank(t.inner, depth, simple + 1);
    case 'Array': { const [d, p, s] = rank(t.element, depth + 1, simple); return [d, p + prio('Array'), s]; }
    case 'Tuple': case 'Nested': {
      let d = 0, p = 0, s = 0;
      for (const e of t.elements) { const r = rank(e, depth + 1, simple); d = Math.max(d, r[0]); p += r[1]; s = Math.max(s, r[2]); }
      // Nested is Array(Tuple(…)) on the server.
      return t.kind === 'Nested' ? [d + 1, p + prio('Tuple') + prio('Array'), s] : [d, p + prio('Tuple'), s];
    }
    case 'Map': {
      const k = rank(t.key, depth + 1, simple);
      const v = rank(t.value, depth + 1, simple);
      return [Math.max(k[0], v[0]), k[1] + v[1] + prio('Map'), Math.max(k[2], v[2])];
    }
    case 'Variant': {
      let d = 0, p = 0, s = 0;
      for (const m of t.members) { const r = rank(m, depth, simple); d = Math.max(d, r[0]); p = Math.max(p, r[1]); s = Math.max(s, r[2]); }
      return [d, p, s];
    }
    case 'Bool': return [depth, prio('Int8') + 1, simple];
    case 'Decimal': return [depth, prio(t.precision <= 9 ? 'Decimal32' : t.precision <= 18 ? 'Decimal64' : t.precision <= 38 ? 'Decimal128' : 'Decimal256'), simple];
    default: return [depth, prio(t.kind), simple];
  }
}

/** Member indexes in the order the server tries them (highest rank first; ties keep type order). */
export function serverOrder(members: readonly TypeNode[]): number[] {
  const ranks = members.map((m) => rank(m, 0, 0));
  return members.map((_, i) => i).sort((a, b) => {
    const x = ranks[a]!, y = ranks[b]!;
    return y[0] - x[0] || y[1] - x[1] || y[2] - x[2] || a - b;
  });
}

const BITS: Record<string, [number, boolean]> = {
  Int8: [8, true], UInt8: [8, false], Int16: [16, true], UInt16: [16, false], Int32: [32, true], UInt32: [32, false],
  Int64: [64, true], UInt64: [64, false], Int128: [128, true], UInt128: [128, false], Int256: [256, true], UInt256: [256, false],
};

const INT_TEXT = /^[+-]?\d*$/;
const NUM_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const SPECIAL_FLOAT = /^[+-]?(nan|inf|infinity)$/i;
const UUID_TEXT = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const IPV4_TEXT = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const DATE_TEXT = /^\d{4}-\d{1,2}-\d{1,2}$/;
const EXP_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)[eE][+-]?\d+$/;

function inBits(b: bigint, bits: number, signed: boolean): boolean {
  const n = BigInt(bits);
  return signed ? b >= -(1n << (n - 1n)) && b < (1n << (n - 1n)) : b >= 0n && b < (1n << n);
}

/** The value's JSON text when it is a JSON string (strings, Dates, NaN/±Infinity), else undefined. */
function jsonString(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && !Number.isFinite(v)) return Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf';
  if (v instanceof Date) {
    const ms = v.getTime();
    if (!(ms >= 0)) return undefined;
    const frac = ms % 1000;
    return `${String(Math.floor(ms / 1000)).padStart(10, '0')}${frac === 0 ? '' : `.${String(frac).padStart(3, '0')}`}`;
  }
  return undefined;
}

/** An integer JS value (finite integer number, bigint) as a bigint, else undefined. */
function integerOf(v: unknown): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  return undefined;
}

const isPlain = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !isList(v) && !(v instanceof Map) && !(v instanceof Date) && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

/** Whether the server reads the JSON text of `v` as a value of type `t` (see the header). */
export function takes(t0: TypeNode, v: unknown): boolean {
  const t = structural(t0);
  if (v === null || v === undefined) return t.kind === 'Nullable' || (t.kind === 'LowCardinality' && t.inner.kind === 'Nullable');
  const s = jsonString(v);
  const int = integerOf(v);
  switch (t.kind) {
    case 'Nullable': case 'LowCardinality': return takes(t.inner, v);
    case 'Int8': case 'UInt8': case 'Int16': case 'UInt16': case 'Int32': case 'UInt32':
    case 'Int64': case 'UInt64': case 'Int128': case 'UInt128': case 'Int256': case 'UInt256': {
      const [bits, signed] = BITS[t.kind]!;
      if (int !== undefined) return inBits(int, bits, signed);
      if (typeof v === 'boolean') return true;
      if (s !== undefined) return s === 'true' || s === 'false' || (INT_TEXT.test(s) && inBits(BigInt(s === '' || s === '+' || s === '-' ? '0' : s.replace(/^\+/, '')), bits, signed));
      return false;
    }
    case 'Decimal': {
      // A number out of its range is no Decimal there (the next member is tried); within it, any number is (its scale rounds).
      const limit = 10 ** (t.precision - t.scale);
      if (typeof v === 'number') return Number.isFinite(v) && Math.abs(v) < limit;
      if (typeof v === 'bigint') return (v < 0n ? -v : v) < 10n ** BigInt(t.precision - t.scale);
      return s !== undefined && EXP_TEXT.test(s) && Math.abs(Number(s)) < limit;
    }
    case 'Float32': case 'Float64': case 'BFloat16':
      if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return true;
      return s !== undefined && (NUM_TEXT.test(s) || SPECIAL_FLOAT.test(s) || s === 'true' || s === 'false');
    case 'Bool': return typeof v === 'boolean';
    case 'Date': return typeof v === 'boolean' || (int !== undefined ? int >= 0n && int <= 65535n : s !== undefined && DATE_TEXT.test(s));
    case 'Date32': return typeof v === 'boolean' || (int !== undefined ? inBits(int, 32, true) : s !== undefined && DATE_TEXT.test(s));
    case 'DateTime': case 'DateTime64':
      if (int !== undefined) return inBits(int, 64, true);
      // A Date's text with milliseconds ('1704164645.123') is no DateTime there.
      if (t.kind === 'DateTime' && v instanceof Date) return v.getTime() % 1000 === 0;
      // (It also reads '5' as a day of the current month and 'hh:mm' as a time today.)
      return s !== undefined && (parseIso(s) !== undefined || /^\s*\d/.test(s));
    case 'Time': case 'Time64':
      if (int !== undefined) return inBits(int, 64, true);
      return s !== undefined && (/^[+-]?\d+$/.test(s) || /^-?\d+:\d{2}(:\d{2}(\.\d+)?)?$/.test(s));
    case 'String': return true;
    case 'FixedString': return s !== undefined && utf8.encode(s).length <= t.length;
    case 'UUID': return s !== undefined && UUID_TEXT.test(s);
    case 'IPv4': return s !== undefined && IPV4_TEXT.test(s);
    case 'IPv6': return s !== undefined && (IPV4_TEXT.test(s) || (s.includes(':') && /^[0-9a-fA-F:.]+$/.test(s)));
    case 'Enum8': case 'Enum16': return s !== undefined && t.entries.some((e) => e.label === s || String(e.value) === s);
    case 'Array': return Array.isArray(v) && v.every((x) => takes(t.element, x === undefined ? null : x));
    case 'Nested': return Array.isArray(v) && v.every((x) => takes({ kind: 'Tuple', elements: t.elements, names: t.names }, x));
    case 'Tuple': {
      const names = t.names;
      if (names === undefined) return Array.isArray(v) && v.length === t.elements.length && v.every((x, i) => takes(t.elements[i]!, x === undefined ? null : x));
      if (!isPlain(v)) return false;
      return Object.keys(v).every((k) => { const i = names.indexOf(k); return i >= 0 && (v[k] === undefined || takes(t.elements[i]!, v[k])); });
    }
    case 'Map': {
      const entries: [unknown, unknown][] = v instanceof Map ? [...v] : isPlain(v) ? Object.entries(v) : [];
      if (!(v instanceof Map) && !isPlain(v)) return false;
      return entries.every(([k, x]) => takes(t.key, typeof k === 'string' ? k : String(k)) && takes(t.value, x));
    }
    case 'JSON': return isPlain(v);
    case 'Dynamic': return true;
    case 'Variant': return t.members.some((m) => takes(m, v));
    default: return false;
  }
}
