// Per column type, the JSON text of a caller's value in a JSON row format, made from the value the
// Native encoder would store: each value goes through the Native path's coercer for its type
// (native/write/encode-values.ts, column-writers.ts: the same checks, the same conversions, no
// second implementation), and the stored value is written as text that ClickHouse reads back to
// exactly that value (18.16 and 26.x): integers and Decimals with all their digits, floats as their
// shortest exact text ('-0', "nan", "inf"), Date as 'YYYY-MM-DD', Date32 and DateTime64 as
// integer days / ticks, DateTime as quoted Unix seconds, Enum as its label, UUID/IP as text.
//
// Invariant: a writer either returns JSON text the server reads as the value the Native path
// stores for the same input, or throws EncodeFail (the Native path's error for that value), or,
// where JSON cannot carry a stored value (a Map key of a type the server reads only unquoted,
// a DateTime64 Map key before 1970, bytes that are no UTF-8), an EncodeFail that says so and names
// the Native format. Decided per type when the plan is built (planned once per insert).
import type { TypeNode } from '../../types/ast.js';
import { ChwireConfigError, ChwireEncodeError } from '../../errors.js';
import {
  EncodeFail, fail, intRange, makeSmallInt, makeBigInt, makeFloat, toBFloat16, toBool, makeDecimal, makeDays,
  makeDateTime, makeDateTime64, toTime, makeTime64, writeUuid, toIpv4, writeIpv6, type TextZone,
} from '../../convert/encode-values.js';
import { enumCoercer, fixedStringPut } from '../../convert/value-checks.js';
import { isList } from '../../native/write/writer-core.js';
import { jsonValue } from './insert-json.js';

/** One value → its JSON text (throws EncodeFail). */
export type JsonWrite = (v: unknown) => string;

export interface JsonPlanOptions {
  /** Zone-less date-time text is read in this zone per column zone (the Native encoder's textZones). */
  readonly zones: (columnZone: string | undefined) => TextZone;
  /** The server reads a named Tuple from a JSON object (26.x: input_format_json_named_tuples_as_objects); else from an array (18.16). */
  readonly namedTuplesAsObjects: boolean;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const utf8 = new TextDecoder('utf-8', { fatal: true });
const NATIVE = 'insert it with the default Native format';

/** A float as text the server reads back bit for bit (its shortest round-trip form). */
function floatText(n: number): string {
  if (Number.isFinite(n)) return Object.is(n, -0) ? '-0' : JSON.stringify(n);
  return Number.isNaN(n) ? '"nan"' : n > 0 ? '"inf"' : '"-inf"';
}

function stringText(v: unknown): string {
  let s: string;
  if (typeof v === 'string') s = v;
  else if (v instanceof Uint8Array) {
    try { s = utf8.decode(v); } catch { return fail(`a string, or bytes that are UTF-8 text (JSON carries Unicode text; ${NATIVE} for other bytes)`, v); }
  } else return fail('a string or a Uint8Array', v);
  if (LONE_SURROGATE.test(s)) fail('a string with no lone UTF-16 surrogate (it has no UTF-8 form)', v);
  return JSON.stringify(s);
}

/** Unscaled Decimal → its exact decimal text with `scale` fractional digits. */
function decimalText(u: bigint, scale: number): string {
  const neg = u < 0n;
  const digits = (neg ? -u : u).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
  return neg ? `-${text}` : text;
}

function isoDay(days: number): string {
  return new Date(days * 86400000).toISOString().slice(0, 10);
}

/** Non-negative DateTime64 ticks as quoted 'seconds.fraction' (how every server reads it in text; a Map key). */
function ticksText(t: bigint, precision: number): string {
  if (t < 0n) return fail(`a DateTime64 Map key from 1970 on (the server reads no earlier instant in a JSON key; ${NATIVE})`, t);
  const per = 10n ** BigInt(precision);
  const s = (t / per).toString().padStart(10, '0');
  return precision === 0 ? `"${s}"` : `"${s}.${(t % per).toString().padStart(precision, '0')}"`;
}

function timeTicksText(t: bigint, precision: number): string {
  const neg = t < 0n;
  const a = neg ? -t : t;
  const per = 10n ** BigInt(precision);
  const secs = a / per;
  const h = secs / 3600n;
  const m = (secs / 60n) % 60n;
  const s = secs % 60n;
  const frac = precision === 0 ? '' : `.${(a % per).toString().padStart(precision, '0')}`;
  return `"${neg ? '-' : ''}${h}:${m.toString().padStart(2, '0')}:${s.toString().padStart(2, '0')}${frac}"`;
}

const scratch = new Uint8Array(16);
const hex = (b: number): string => b.toString(16).padStart(2, '0');

function uuidText(v: unknown): string {
  writeUuid(v, scratch, 0);
  // Wire layout: two little-endian halves.
  let h = '';
  for (let i = 7; i >= 0; i--) h += hex(scratch[i]!);
  for (let i = 15; i >= 8; i--) h += hex(scratch[i]!);
  return `"${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}"`;
}

function ipv6Text(v: unknown): string {
  writeIpv6(v, scratch, 0);
  const words: string[] = [];
  for (let i = 0; i < 16; i += 2) words.push(((scratch[i]! << 8) | scratch[i + 1]!).toString(16));
  return `"${words.join(':')}"`;
}

function ipv4Text(v: unknown): string {
  const u = toIpv4(v);
  return `"${u >>> 24}.${(u >>> 16) & 255}.${(u >>> 8) & 255}.${u & 255}"`;
}

/** JSON as the caller's value is (Variant, Dynamic, JSON, AggregateFunction states…: the server decides). */
function natural(v: unknown): string {
  try {
    return jsonValue(v, 0, '', []);
  } catch (e) {
    if (e instanceof ChwireEncodeError) throw new EncodeFail(e.expected, v);
    throw e;
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !isList(v) && !(v instanceof Map) && !(v instanceof Date) && !(v instanceof Uint8Array);

const POINT: TypeNode = { kind: 'Tuple', elements: [{ kind: 'Float64' }, { kind: 'Float64' }] };
const RING: TypeNode = { kind: 'Array', element: POINT };
const POLYGON: TypeNode = { kind: 'Array', element: RING };

/** Map key types whose JSON object key the server cannot read (it wants them unquoted). */
const UNKEYABLE = new Set(['Bool', 'Array', 'Tuple', 'Map', 'Nested', 'Variant', 'Dynamic', 'JSON', 'Point', 'Ring', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon']);

/**
 * The writer of a column of type `t` (`text`: the column's name and type, for a refusal made here).
 */
export function jsonWriter(t: TypeNode, text: string, o: JsonPlanOptions): JsonWrite {
  const sub = (u: TypeNode): JsonWrite => jsonWriter(u, text, o);
  switch (t.kind) {
    case 'UInt8': case 'UInt16': case 'UInt32': case 'Int8': case 'Int16': case 'Int32': {
      const c = makeSmallInt(intRange(Number(t.kind.replace(/\D/g, '')), t.kind[0] === 'I'));
      return (v) => String(c(v));
    }
    case 'UInt64': case 'Int64': case 'UInt128': case 'Int128': case 'UInt256': case 'Int256': case 'Interval': {
      const c = t.kind === 'Interval' ? makeBigInt(intRange(64, true)) : makeBigInt(intRange(Number(t.kind.replace(/\D/g, '')), t.kind[0] === 'I'));
      return (v) => c(v).toString();
    }
    case 'Float64': { const c = makeFloat(false); return (v) => floatText(c(v)); }
    case 'Float32': { const c = makeFloat(true); return (v) => floatText(Math.fround(c(v))); }
    case 'BFloat16': {
      const f = new Float32Array(1);
      const u = new Uint32Array(f.buffer);
      return (v) => { u[0] = toBFloat16(v) << 16; return floatText(f[0]!); };
    }
    case 'Bool': return (v) => (toBool(v) === 1 ? 'true' : 'false');
    case 'Decimal': { const c = makeDecimal(t.precision, t.scale); const s = t.scale; return (v) => decimalText(c(v), s); }
    case 'Date': { const c = makeDays(0, 65535, 'Date'); return (v) => `"${isoDay(c(v))}"`; }
    case 'Date32': { const c = makeDays(-25567, 120529, 'Date32', -2147483648, 2147483647); return (v) => String(c(v)); }
    case 'DateTime': { const c = makeDateTime(o.zones(t.timezone)); return (v) => `"${String(c(v)).padStart(10, '0')}"`; }
    case 'DateTime64': { const c = makeDateTime64(t.precision, o.zones(t.timezone)); return (v) => c(v).toString(); }
    case 'Time': return (v) => String(toTime(v));
    case 'Time64': { const c = makeTime64(t.precision); const p = t.precision; return (v) => timeTicksText(c(v), p); }
    case 'Enum8': case 'Enum16': {
      const c = enumCoercer(t);
      const label = new Map(t.entries.map((e) => [e.value, JSON.stringify(e.label)]));
      return (v) => label.get(c(v))!;
    }
    case 'UUID': return uuidText;
    case 'IPv4': return ipv4Text;
    case 'IPv6': return ipv6Text;
    case 'String': return stringText;
    case 'FixedString': {
      const put = fixedStringPut(t.length);
      const buf = new Uint8Array(t.length);
      return (v) => { put(v, buf, 0); return stringText(v); };
    }
    case 'Nullable': { const inner = sub(t.inner); return (v) => (v === null || v === undefined ? 'null' : inner(v)); }
    case 'LowCardinality': return sub(t.inner);
    case 'Array': {
      const el = sub(t.element);
      return (v) => {
        if (!isList(v)) return fail('an array', v);
        let s = '[';
        for (let i = 0; i < v.length; i++) s += (i === 0 ? '' : ',') + el(v[i]);
        return `${s}]`;
      };
    }
    case 'Tuple': return tupleWriter(t.elements.map(sub), t.names, o.namedTuplesAsObjects);
    case 'Nested': {
      const tuple = tupleWriter(t.elements.map(sub), t.names, o.namedTuplesAsObjects);
      return (v) => {
        if (!isList(v)) return fail('an array', v);
        let s = '[';
        for (let i = 0; i < v.length; i++) s += (i === 0 ? '' : ',') + tuple(v[i]);
        return `${s}]`;
      };
    }
    case 'Map': return mapWriter(t.key, sub(t.key), sub(t.value), text);
    case 'SimpleAggregateFunction': return sub(t.inner);
    case 'Point': return sub(POINT);
    case 'Ring': case 'LineString': return sub(RING);
    case 'MultiLineString': case 'Polygon': return sub(POLYGON);
    case 'MultiPolygon': return sub({ kind: 'Array', element: POLYGON });
    case 'Nothing': return (v) => (v === null || v === undefined ? 'null' : fail('null', v));
    // The server reads these from the value's own JSON (a Variant's member is chosen as the
    // Native encoder chooses it: variant-order.ts).
    case 'Variant': case 'Dynamic': case 'JSON': case 'AggregateFunction': case 'Geometry': case 'QBit':
      return natural;
  }
}

function tupleWriter(elements: readonly JsonWrite[], names: readonly string[] | undefined, asObjects: boolean): JsonWrite {
  const m = elements.length;
  const expected = names === undefined ? `an array of ${m} values` : `an array of ${m} values or an object with keys ${names.map((x) => JSON.stringify(x)).join(', ')}`;
  const nameSet = names === undefined ? undefined : new Set(names);
  const keys = names?.map((n) => `${JSON.stringify(n)}:`);
  return (v) => {
    const parts = new Array<string>(m);
    if (Array.isArray(v)) {
      if (v.length !== m) fail(expected, v);
      for (let k = 0; k < m; k++) parts[k] = elements[k]!(v[k]);
    } else if (names !== undefined && isPlainObject(v)) {
      for (const key of Object.keys(v)) if (!nameSet!.has(key)) fail(`${expected} (unknown key ${JSON.stringify(key)})`, v);
      for (let k = 0; k < m; k++) parts[k] = elements[k]!(Object.prototype.hasOwnProperty.call(v, names[k]!) ? v[names[k]!] : undefined);
    } else return fail(expected, v);
    if (keys !== undefined && asObjects) return `{${parts.map((p, k) => keys[k] + p).join(',')}}`;
    return `[${parts.join(',')}]`;
  };
}

/** A Map key's JSON object key: the key's text as a JSON string (the server reads the key from it). */
function mapWriter(keyType: TypeNode, key: JsonWrite, value: JsonWrite, text: string): JsonWrite {
  const base = keyType.kind === 'LowCardinality' ? keyType.inner : keyType;
  if (UNKEYABLE.has(base.kind)) {
    throw new ChwireConfigError(`column ${text}: a JSON format cannot carry Map keys of type ${base.kind} (the server reads such keys only unquoted, and a JSON object's keys are strings); ${NATIVE}`);
  }
  const dt64 = base.kind === 'DateTime64' ? base.precision : -1;
  const keyText = (k: unknown): string => {
    const s = key(k);
    if (dt64 >= 0) return ticksText(BigInt(s), dt64);
    return s.charCodeAt(0) === 34 ? s : JSON.stringify(s);
  };
  return (v) => {
    let s = '{';
    let first = true;
    if (v instanceof Map) {
      for (const [k, x] of v) { s += `${first ? '' : ','}${keyText(k)}:${value(x)}`; first = false; }
    } else if (isPlainObject(v)) {
      for (const k of Object.keys(v)) { s += `${first ? '' : ','}${keyText(k)}:${value(v[k])}`; first = false; }
    } else return fail('a Map or a plain object', v);
    return `${s}}`;
  };
}
