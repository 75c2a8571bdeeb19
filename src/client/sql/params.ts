// Query parameters: a JS value → the text the server parses for a `{name:Type}` placeholder
// (sent as the URL parameter `param_name`; the HTTP layer percent-encodes it afterwards).
//
// The server reads that text with the declared type's *escaped* (TSV) text deserialiser, not as
// a SQL literal (http.md §4.3): at the top level a string is raw text with backslash escapes;
// inside arrays, tuples and maps every element is a SQL-quoted literal (`['it\'s']`).
// Invariant: for every value accepted, the server parses the text back to exactly that value
// (property-tested on the engine through `SET param_p = …`, the same binder as HTTP's param_*);
// everything the text form cannot carry is a ChwireConfigError, never a silently changed value.
// Such an error names the parameter and the place in it (`p[2]`, `p{value 0}`: map and object
// entries by position, never by key) and the kind of the value, never its text or digits.
// Values are never spliced into SQL: this text only ever travels as a parameter.
import { ChwireConfigError } from '../../errors.js';
import { isIntKind, type TypeNode } from '../../types/ast.js';
import { daysToString } from '../../convert/datetime.js';
import { zoneClock } from '../../convert/zone-text.js';
import { jsonText } from '../../convert/value-checks.js';
import { ValueChecker } from './value-check.js';
import { QueryTuple } from './query-tuple.js';
export { QueryTuple, tuple } from './query-tuple.js';

/** Values a `{name:Type}` placeholder can take (formatted below); functions, symbols, undefined and other class instances are not. */
export type QueryParamValue =
  | string | number | bigint | boolean | null | Date | Uint8Array | QueryTuple
  | Int8Array | Uint16Array | Int16Array | Uint32Array | Int32Array | Float32Array | Float64Array | BigInt64Array | BigUint64Array
  | readonly QueryParamValue[]
  | ReadonlyMap<QueryParamValue, QueryParamValue>
  | { readonly [key: string]: QueryParamValue };

/** The `params` of a call: placeholder name → value. */
/** `undefined` type-checks (a value computed as `T | undefined`) but is refused when sent, like any value params.ts cannot carry. */
export type QueryParams = { readonly [name: string]: QueryParamValue | undefined };

/** Nesting deeper than this (or a cycle) is refused rather than overflowing the stack. */
const MAX_DEPTH = 64;

// The escaped form's escapes (the server also reads \a \v \xHH, …; these are the ones needed).
const ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\', '\0': '\\0', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t',
};
const NEEDS_ESCAPE = /[\\\0\b\f\n\r\t]/g;
const NEEDS_ESCAPE_QUOTED = /[\\\0\b\f\n\r\t']/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function fail(path: string, why: string): never {
  throw new ChwireConfigError(`query parameter ${path}: ${why}`);
}

function checkString(s: string, path: string): void {
  // A lone surrogate has no UTF-8 form: it would reach the server as U+FFFD (or fail to encode).
  if (LONE_SURROGATE.test(s)) fail(path, 'string contains a lone UTF-16 surrogate, which has no UTF-8 form');
}

function escapeTop(s: string): string {
  return s.replace(NEEDS_ESCAPE, (c) => ESCAPES[c]!);
}

function quote(s: string): string {
  return `'${s.replace(NEEDS_ESCAPE_QUOTED, (c) => (c === "'" ? "\\'" : ESCAPES[c]!))}'`;
}

/** Bytes as escaped text: printable ASCII as is, everything else as `\xHH`. */
function escapeBytes(b: Uint8Array, quoteChar: boolean): string {
  let out = '';
  for (const x of b) {
    if (x === 0x5c) out += '\\\\';
    else if (quoteChar && x === 0x27) out += "\\'";
    else if (x >= 0x20 && x < 0x7f) out += String.fromCharCode(x);
    else out += `\\x${x.toString(16).padStart(2, '0')}`;
  }
  return out;
}

function formatNumber(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (n === Infinity) return 'inf';
  if (n === -Infinity) return '-inf';
  // String(-0) is "0": keep the sign, Float64 parameters can hold it.
  return Object.is(n, -0) ? '-0' : String(n);
}

/**
 * A Date as Unix seconds with milliseconds (`1704164645.123`), which DateTime64 parses in any
 * zone; whole seconds carry no fraction, so DateTime (which refuses a fraction) takes them too.
 * For a placeholder declared Date or Date32 (`t`), its UTC day as 'YYYY-MM-DD'.
 * The seconds are zero-padded to 10 digits: the server reads shorter digit runs as something
 * else (`0` and `1000` are refused as DateTime).
 */
function formatDate(d: Date, path: string, t: TypeNode | undefined): string {
  const ms = d.getTime();
  if (Number.isNaN(ms)) fail(path, 'Invalid Date');
  // Date and Date32 parse only 'YYYY-MM-DD': the Date's UTC day (the time of day dropped, as inserts do).
  if (t !== undefined && (t.kind === 'Date' || t.kind === 'Date32')) return daysToString(Math.floor(ms / 86400000));
  // DateTime refuses a fraction: the instant floored to its second, as inserts store it.
  if (t !== undefined && t.kind === 'DateTime' && ms >= 0) return String(Math.floor(ms / 1000)).padStart(10, '0');
  // The server (26.7) drops the sign of `-0.xxx`, reading 1969-12-31 23:59:59.999 as 00:00:00.999;
  // no zone-independent spelling of that last second before the epoch exists: in a DateTime64
  // whose placeholder names its zone, the wall-clock text in that zone is exact.
  if (ms < 0 && ms > -1000) {
    const zone = t !== undefined && t.kind === 'DateTime64' ? t.timezone : undefined;
    const clock = zone === undefined ? undefined : zoneClock(zone);
    if (clock !== undefined) return `${clock(ms)}.${String(ms + 1000).padStart(3, '0')}`;
    fail(path, `the Date is in the last second before 1970, which the server reads back exactly only as text in the parameter's time zone: name the zone in the placeholder ({${path}:DateTime64(3, 'UTC')}) or send the text, e.g. '1969-12-31 23:59:59.999' (read in the server's zone)`);
  }
  const abs = Math.abs(ms);
  const seconds = String(Math.floor(abs / 1000)).padStart(10, '0');
  const frac = abs % 1000;
  return `${ms < 0 ? '-' : ''}${seconds}${frac === 0 ? '' : `.${String(frac).padStart(3, '0')}`}`;
}

/**
 * A Date in SQL: its UTC day for Date/Date32, whole seconds for DateTime (what it stores), else the
 * exact millisecond as `fromUnixTimestamp64Milli(…)` (a number: a string is parsed as text, which
 * has no spelling of a negative Unix time).
 */
function sqlDate(d: Date, path: string, t: TypeNode | undefined): string {
  const ms = d.getTime();
  if (Number.isNaN(ms)) fail(path, 'Invalid Date');
  if (t !== undefined && (t.kind === 'Date' || t.kind === 'Date32')) return `'${daysToString(Math.floor(ms / 86400000))}'`;
  if (t !== undefined && t.kind === 'DateTime') return String(Math.floor(ms / 1000));
  return `fromUnixTimestamp64Milli(toInt64(${ms}), 'UTC')`;
}

/** The type that decides a value's text form: Nullable, LowCardinality and SimpleAggregateFunction are transparent. */
function bare(t: TypeNode | undefined): TypeNode | undefined {
  while (t !== undefined && (t.kind === 'Nullable' || t.kind === 'LowCardinality' || t.kind === 'SimpleAggregateFunction')) t = t.inner;
  return t;
}

/** The declared type of part `i` of a composite of type `t` ('key'/'value' for maps), if known. */
function partType(t: TypeNode | undefined, i: number | 'key' | 'value'): TypeNode | undefined {
  if (t === undefined) return undefined;
  if (t.kind === 'Array') return bare(t.element);
  if (t.kind === 'Tuple') return typeof i === 'number' ? bare(t.elements[i]) : undefined;
  if (t.kind === 'Map') return bare(i === 'key' ? t.key : t.value);
  return undefined;
}

/** A plain object for a JSON placeholder: its JSON text (as an insert sends it), never a map literal. */
function jsonObjectText(v: object, path: string): string {
  try {
    return jsonText(v);
  } catch {
    return fail(path, 'the object cannot be written as JSON (a cycle, or a value JSON has no form for)');
  }
}

function isPlainObject(v: object): boolean {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

function describe(v: unknown): string {
  if (typeof v === 'object' && v !== null) return v.constructor?.name ?? 'object';
  return typeof v;
}

const U64_MAX = (1n << 64n) - 1n;
const I64_MIN = -(1n << 63n);

/**
 * A bigint beyond 64 bits in SQL: the parser reads such digits as a Float64 (rounded), so a wide
 * integer or Decimal type gets them as text through its own conversion (`toUInt128('…')`,
 * `toDecimal256('…', S)`), which is exact and takes part in an array's common type.
 */
function wideSqlInteger(v: bigint, t: TypeNode | undefined): string {
  if (t !== undefined && isIntKind(t.kind)) return `to${t.kind}('${v}')`;
  if (t !== undefined && t.kind === 'Decimal') return `toDecimal256('${v}', ${t.scale})`;
  return v.toString();
}

/** Shared by both levels: everything but the scalars whose spelling depends on the level. */
class Formatter {
  private readonly stack: object[] = [];

  /** `sql`: maps as the SQL function `map(k, v, …)` (a SQL literal), not the parameter text `{k: v}`. */
  constructor(private readonly sql = false) {}

  composite(v: object, path: string, inner: (x: unknown, p: string, t: TypeNode | undefined) => string, t: TypeNode | undefined): string | undefined {
    if (this.stack.includes(v)) fail(path, 'the value contains itself');
    if (this.stack.length >= MAX_DEPTH) fail(path, `nested deeper than ${MAX_DEPTH} levels`);
    this.stack.push(v);
    try {
      if (Array.isArray(v)) return `[${v.map((x, i) => inner(x, `${path}[${i}]`, partType(t, i))).join(', ')}]`;
      if (v instanceof QueryTuple) return `(${(v.values as readonly unknown[]).map((x, i) => inner(x, `${path}[${i}]`, partType(t, i))).join(', ')})`;
      if (v instanceof Map) {
        const parts: string[] = [];
        let i = 0;
        for (const [k, x] of v) {
          parts.push(`${inner(k, `${path}{key ${i}}`, partType(t, 'key'))}${this.sql ? ',' : ':'} ${inner(x, `${path}{value ${i}}`, partType(t, 'value'))}`);
          i++;
        }
        return this.sql ? `map(${parts.join(', ')})` : `{${parts.join(', ')}}`;
      }
      if (ArrayBuffer.isView(v) && !(v instanceof DataView) && !(v instanceof Uint8Array)) {
        // Other typed arrays are arrays of numbers (Uint8Array is bytes: a String).
        const items = Array.from(v as unknown as ArrayLike<number | bigint>);
        return `[${items.map((x, i) => inner(x, `${path}[${i}]`, partType(t, i))).join(', ')}]`;
      }
      if (isPlainObject(v)) {
        const parts = Object.keys(v).map((k, i) => {
          checkString(k, `${path}{key ${i}}`);
          return `${quote(k)}${this.sql ? ',' : ':'} ${inner((v as Record<string, unknown>)[k], `${path}{value ${i}}`, partType(t, 'value'))}`;
        });
        return this.sql ? `map(${parts.join(', ')})` : `{${parts.join(', ')}}`;
      }
      return undefined;
    } finally {
      this.stack.pop();
    }
  }

  private checker: ValueChecker | undefined;

  /** Refuses what an insert of `v` as a `t` refuses (value-check.ts), naming the place and the type. */
  private check(v: unknown, path: string, t: TypeNode | undefined): void {
    if (t === undefined) return;
    const why = (this.checker ??= new ValueChecker(this.sql)).refusal(v, t);
    if (why !== undefined) fail(path, why);
  }

  /** An element inside a composite: a SQL literal. */
  readonly element = (v: unknown, path: string, t: TypeNode | undefined): string => {
    this.check(v, path, t);
    switch (typeof v) {
      case 'string': checkString(v, path); return quote(v);
      // In SQL `-0` is minus the integer 0, which is 0: `-0.` is minus the float zero.
      case 'number': return this.sql && Object.is(v, -0) ? '-0.' : formatNumber(v);
      case 'bigint': return this.sql && (v > U64_MAX || v < I64_MIN) ? wideSqlInteger(v, t) : v.toString();
      case 'boolean': return v ? 'true' : 'false';
      case 'object':
        if (v === null) return 'NULL';
        if (v instanceof Date && this.sql) return sqlDate(v, path, t);
        if (v instanceof Date) return `'${formatDate(v, path, t)}'`; // unquoted, DateTime64 misreads it as ticks
        if (v instanceof Uint8Array) return `'${escapeBytes(v, true)}'`;
        if (t !== undefined && t.kind === 'JSON' && isPlainObject(v)) return quote(jsonObjectText(v, path));
        return this.composite(v, path, this.element, t) ?? fail(path, `cannot send a ${describe(v)}`);
      default:
        return fail(path, `cannot send ${v === undefined ? 'undefined' : `a ${typeof v}`}`);
    }
  };

  /** The whole parameter: the escaped text form of one value. */
  top(v: unknown, path: string, t: TypeNode | undefined): string {
    switch (typeof v) {
      case 'string': checkString(v, path); this.check(v, path, t); return escapeTop(v);
      case 'object':
        if (v === null) return '\\N';
        if (v instanceof Date) { this.check(v, path, t); return formatDate(v, path, t); }
        if (v instanceof Uint8Array) { this.check(v, path, t); return escapeBytes(v, false); }
        if (t !== undefined && t.kind === 'JSON' && isPlainObject(v)) return escapeTop(jsonObjectText(v, path));
        return this.element(v, path, t);
      default:
        return this.element(v, path, t);
    }
  }
}

/**
 * The server text of one parameter value. Strings are sent as they are (escaped), numbers and
 * bigints in decimal (`nan`, `inf`, `-inf`, `-0` for Float parameters), booleans as
 * `true`/`false` (for Bool), Dates as Unix seconds (for DateTime/DateTime64) or, when `type` (the
 * placeholder's declared type) is Date/Date32, as their UTC day `'YYYY-MM-DD'`, Uint8Array as the exact bytes of a String, null as `\N` (NULL
 * for Nullable, `''` for String), arrays and typed arrays as `[…]`, `tuple(…)` as `(…)`, Map and
 * plain objects as `{k: v}`. Throws ChwireConfigError for undefined, functions, symbols, other
 * class instances, Invalid Date, lone surrogates, cycles.
 */
export function formatQueryParam(value: unknown, name = 'value', type?: TypeNode): string {
  return new Formatter().top(value, name, bare(type));
}

/**
 * The value as a SQL literal (the form an element takes inside an array parameter: strings
 * single-quoted with backslash escapes, NULL, numbers, `[…]`, `(…)`, `{k: v}`), for literal.ts.
 */
export function formatLiteral(value: unknown, name: string, type: TypeNode | undefined): string {
  return new Formatter(true).element(value, name, bare(type));
}

const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Every parameter of a query, keyed by name (`{name:Type}`), as server text. */
export function formatQueryParams(params: Readonly<Record<string, unknown>>, types?: ReadonlyMap<string, TypeNode>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) {
    if (!PARAM_NAME.test(k)) throw new ChwireConfigError(`query parameter name ${JSON.stringify(k)} is not an identifier`);
    out[k] = formatQueryParam(v, k, types?.get(k));
  }
  return out;
}
