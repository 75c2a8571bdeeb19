// The oracle's mapping: an engine JSONCompactEachRow value (64-bit ints and decimals quoted,
// nan/inf quoted) → the exact JavaScript value chwire must produce for that ClickHouse type under
// the given ValueOptions. The contract is the doc comments of src/plan/options.ts; this file is a
// second, independent reading of it (it shares no code with the decoder).
//
// Invariant: strict. A JSON value whose shape does not fit the type throws (a harness mistake must
// never turn into a vacuous pass), and so does a combination the contract leaves ambiguous
// (AmbiguousContract): such cells are reported as not compared rather than silently given a meaning.
//
// JSON text cannot say everything, so callers may pass `aux`: facts the engine reports through
// extra columns (test/support/oracle-aux.ts builds them). Its shape follows the type:
//   String / FixedString        hex(x) — the exact bytes (the JSON text of invalid UTF-8 is lossy)
//   DateTime / DateTime64       toUnixTimestamp(x) / reinterpretAsInt64(x) — the exact ticks (the
//                               zone's text is ambiguous in a DST fold)
//   Variant / Dynamic           variantType(x) / dynamicType(x) ("None" for NULL), or
//                               [type, hex] (hex of toString(x)), or { type, inner } when the
//                               member itself needs aux
//   JSON                        { path: type name | { type, inner } } (JSONAllPathsWithTypes)
//   Array, Nested, QBit, geo    an array, one entry per element
//   Tuple                       an array, one entry per element (named or not)
//   Map                         ['~entries', [[key, value, key aux, value aux, key text], ...]] in wire
//                               order (the JSON object loses keys that print alike)
//   Nullable, LowCardinality    the inner type's aux (null for NULL)
import { isDeepStrictEqual } from 'node:util';
import type { Time64Type, TypeNode } from '../../src/types/ast.js';
import type { ResolvedValueOptions } from '../../src/plan/options.js';
import { parseType } from '../../src/types/index.js';
import {
  engineDateTimeTextToTicks, engineTimeTextToSeconds, ticksToExactMillis, ticksToFlooredMillis, ticksToIso, ticksToZoneText,
} from './oracle-time.js';

/** The combination is not pinned down by options.ts; tests must not rely on it (see the report). */
export class AmbiguousContract extends Error {}

/** Zone of DateTime columns whose type names none: the embedded engine's server zone. */
export const ENGINE_SERVER_ZONE = 'Etc/UTC';

const INT64_RE = /^-?\d+$/;
const DECIMAL_RE = /^-?\d+(\.\d+)?$/;
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

function fail(t: TypeNode, json: unknown, why: string): never {
  throw new Error(`oracle: JSON ${JSON.stringify(json)} does not fit ${t.kind}: ${why}`);
}

function hexToBytes(hex: string): Uint8Array {
  if (!/^(?:[0-9A-Fa-f]{2})*$/.test(hex)) throw new Error(`oracle: bad hex aux ${JSON.stringify(hex)}`);
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** A plain object with `key` as an OWN property even for `__proto__` (plain assignment would set the prototype). */
function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

function bigByOption(t: TypeNode, json: unknown, mode: 'bigint' | 'number' | 'string'): unknown {
  if (typeof json !== 'string' || !INT64_RE.test(json)) fail(t, json, 'expected a quoted integer');
  return mode === 'bigint' ? BigInt(json) : mode === 'number' ? Number(json) : BigInt(json).toString();
}

function float(t: TypeNode, json: unknown, round32: boolean): number {
  let n: number;
  if (typeof json === 'number') n = json;
  else if (json === 'nan') n = NaN;
  else if (json === 'inf') n = Infinity;
  else if (json === '-inf') n = -Infinity;
  else fail(t, json, 'expected a number or nan/inf');
  // Float32/BFloat16 JSON is the shortest text of the 32-bit value; fround recovers that value.
  return round32 ? Math.fround(n) : n;
}

function stringValue(t: TypeNode, json: unknown, aux: unknown, o: ResolvedValueOptions): unknown {
  if (typeof json !== 'string') fail(t, json, 'expected a string');
  if (typeof aux === 'string') {
    const bytes = hexToBytes(aux);
    return o.strings === 'bytes' ? bytes : utf8.decode(bytes);
  }
  if (o.strings === 'bytes') {
    // Without the hex the JSON text is exact only for valid UTF-8 (the engine prints U+FFFD otherwise).
    if (json.includes('\uFFFD')) throw new Error('oracle: strings:bytes of possibly invalid UTF-8 needs hex aux');
    return new TextEncoder().encode(json);
  }
  return json;
}

function dateTimeValue(t: TypeNode, json: unknown, precision: number, zone: string | undefined, o: ResolvedValueOptions, aux: unknown): unknown {
  if (typeof json !== 'string') fail(t, json, 'expected DateTime text');
  // Ticks from the engine when given (exact even in a DST fold); else the zone's text converted.
  const fromText = engineDateTimeTextToTicks(json, precision, zone ?? ENGINE_SERVER_ZONE);
  const ticks = typeof aux === 'number' || (typeof aux === 'string' && INT64_RE.test(aux)) ? BigInt(aux) : fromText;
  const shown = ticksToZoneText(ticks, precision, zone ?? ENGINE_SERVER_ZONE);
  if (shown !== json) fail(t, json, `the oracle renders these ticks as ${JSON.stringify(shown)} (time zone data disagree?)`);
  switch (o.datetime) {
    case 'Date': return new Date(ticksToFlooredMillis(ticks, precision));
    case 'string': return ticksToIso(ticks, precision);
    case 'number': return ticksToExactMillis(ticks, precision);
  }
}

function dateValue(t: TypeNode, json: unknown, o: ResolvedValueOptions): unknown {
  if (typeof json !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(json)) fail(t, json, 'expected YYYY-MM-DD');
  return o.date === 'string' ? json : new Date(`${json}T00:00:00.000Z`);
}

function uuidValue(t: TypeNode, json: unknown, o: ResolvedValueOptions): unknown {
  if (typeof json !== 'string' || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(json)) fail(t, json, 'expected a UUID');
  return o.uuid === 'bytes' ? hexToBytes(json.replace(/-/g, '')) : json;
}

function arrayOf(t: TypeNode, element: TypeNode, json: unknown, aux: unknown, o: ResolvedValueOptions): unknown[] {
  if (!Array.isArray(json)) fail(t, json, 'expected an array');
  const auxs = Array.isArray(aux) ? aux : [];
  return json.map((v, i) => expectedValue(element, v, o, auxs[i]));
}

function tupleValue(t: TypeNode, elements: readonly TypeNode[], names: readonly string[] | undefined, json: unknown, aux: unknown, o: ResolvedValueOptions): unknown {
  const auxs: unknown[] = Array.isArray(aux) ? aux : [];
  if (names === undefined) {
    if (!Array.isArray(json) || json.length !== elements.length) fail(t, json, `expected an array of ${elements.length}`);
    return elements.map((e, i) => expectedValue(e, json[i], o, auxs[i]));
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) fail(t, json, 'expected an object (named tuple)');
  const src = json as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  elements.forEach((e, i) => {
    const name = names[i]!;
    if (!Object.prototype.hasOwnProperty.call(src, name)) fail(t, json, `missing element ${JSON.stringify(name)}`);
    setOwn(out, name, expectedValue(e, src[name], o, auxs[i]));
  });
  return out;
}

/** A map key's JSON object key (always text) → the JSON value the engine would print for that key type. */
function keyTextToJson(key: TypeNode, text: string): unknown {
  const k = key.kind === 'LowCardinality' || key.kind === 'Nullable' ? key.inner.kind : key.kind;
  if (['UInt8', 'UInt16', 'UInt32', 'Int8', 'Int16', 'Int32', 'Float32', 'Float64'].includes(k)) return /^-?\d/.test(text) ? Number(text) : text;
  if (k === 'Bool') return text === 'true';
  return text;
}

/**
 * Key options under maps:'object' (decided with H2, notes/oracle-findings.md F1): keys are decoded
 * as text whatever the column's value options, so that String(key) is a stable property name
 * ("2024-01-02", the UUID text, exact 64-bit digits) rather than String(Date) or "97,98".
 */
const OBJECT_KEY_OPTIONS = {
  strings: 'string', uuid: 'string', date: 'string', datetime: 'string', time: 'string',
  int64: 'string', int128: 'string', decimal: 'string',
} as const;

function mapValue(t: TypeNode & { kind: 'Map' }, json: unknown, aux: unknown, o: ResolvedValueOptions): unknown {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) fail(t, json, 'expected an object (map)');
  // maps:'Map' keeps keys as JS values under the column's options (Uint8Array keys under
  // strings:'bytes', as H2 documents); maps:'object' uses the text key options above.
  const keyOptions: ResolvedValueOptions = o.maps === 'Map' ? o : { ...o, ...OBJECT_KEY_OPTIONS };
  // Entries from the aux (['~entries', [[key, value, key aux, value aux], ...]], wire order) when
  // given; else from the JSON object, which cannot hold keys that print alike.
  const fromAux = Array.isArray(aux) && aux[0] === '~entries' && Array.isArray(aux[1]) ? aux[1] as unknown[][] : undefined;
  if (fromAux !== undefined && new Set(fromAux.map((e) => JSON.stringify(e[0]))).size !== Object.keys(json).length) {
    fail(t, json, `the aux lists ${fromAux.length} entries the JSON object does not match`);
  }
  const entries = fromAux !== undefined
    ? fromAux.map(([k, v, ka, va]) => [expectedValue(t.key, k, keyOptions, ka ?? undefined), expectedValue(t.value, v, o, va ?? undefined)] as const)
    : Object.entries(json as Record<string, unknown>).map(([kt, v]) => [expectedValue(t.key, keyTextToJson(t.key, kt), keyOptions), expectedValue(t.value, v, o)] as const);
  if (o.maps === 'Map') return new Map(entries);
  // maps:'object': property names are the engine's own text of each key, which is what its JSON
  // output uses as the object's keys (issue 10, item 9), in wire order.
  const texts = fromAux !== undefined
    ? fromAux.map((e) => Object.keys(JSON.parse(String(e[4])) as object)[0]!)
    : Object.keys(json as Record<string, unknown>);
  const out: Record<string, unknown> = {};
  entries.forEach(([, v], i) => setOwn(out, texts[i]!, v));
  return out;
}

function memberOfVariant(t: TypeNode, members: readonly TypeNode[], json: unknown, aux: unknown, o: ResolvedValueOptions): unknown {
  if (json === null) return null;
  const { type: name, inner } = splitTypeAux(aux);
  if (name !== undefined) {
    if (name === 'None') fail(t, json, 'aux says NULL');
    return expectedValue(parseType(name), json, o, inner);
  }
  // No aux: accept when every member that can read this JSON gives the same value (geo variants).
  const results: unknown[] = [];
  for (const m of members) {
    try { results.push(expectedValue(m, json, o)); } catch (e) { if (e instanceof AmbiguousContract) throw e; }
  }
  if (results.length === 0) fail(t, json, 'no member fits');
  if (!results.every((r) => isDeepStrictEqual(r, results[0]))) fail(t, json, 'several members fit differently: pass variantType() as aux');
  return results[0];
}

function splitTypeAux(aux: unknown): { type: string | undefined; inner: unknown } {
  if (typeof aux === 'string') return { type: aux, inner: undefined };
  if (Array.isArray(aux) && typeof aux[0] === 'string') {
    // [type, hex of toString(value)]: the hex is the exact bytes only for a string-like member.
    const member = aux[0].replace(/^(?:LowCardinality\(|Nullable\()+/, '');
    return { type: aux[0], inner: /^(?:String|FixedString\()/.test(member) ? aux[1] ?? undefined : undefined };
  }
  if (typeof aux === 'object' && aux !== null && typeof (aux as { type?: unknown }).type === 'string') {
    const a = aux as { type: string; inner?: unknown };
    return { type: a.type, inner: a.inner };
  }
  return { type: undefined, inner: undefined };
}

function jsonValue(t: TypeNode & { kind: 'JSON' }, json: unknown, aux: unknown, o: ResolvedValueOptions): unknown {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) fail(t, json, 'expected an object (JSON)');
  const pathAux = (typeof aux === 'object' && aux !== null ? aux : {}) as Record<string, unknown>;
  const typed = new Map(t.typedPaths.map((p) => [p.path, p.type] as const));
  const paths = new Set<string>([...typed.keys(), ...Object.keys(pathAux)]);
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    const segs = path.split('.');
    let src: unknown = json;
    for (const s of segs) {
      if (typeof src !== 'object' || src === null || !Object.prototype.hasOwnProperty.call(src, s)) fail(t, json, `path ${path} absent from the engine's JSON`);
      src = (src as Record<string, unknown>)[s];
    }
    const declared = typed.get(path);
    const value = declared !== undefined
      ? expectedValue(declared, src, o, splitTypeAux(pathAux[path]).inner)
      : (() => { const a = splitTypeAux(pathAux[path]); return expectedValue(parseType(a.type!), src, o, a.inner); })();
    let dst = out;
    for (const s of segs.slice(0, -1)) {
      if (!Object.prototype.hasOwnProperty.call(dst, s)) setOwn(dst, s, {});
      dst = dst[s] as Record<string, unknown>;
    }
    setOwn(dst, segs[segs.length - 1]!, value);
  }
  // Every leaf the engine printed must be one of the known paths (else the aux is incomplete).
  const unknown: string[] = [];
  const walk = (v: unknown, prefix: string): void => {
    if (prefix !== '' && paths.has(prefix)) return;
    if (typeof v === 'object' && v !== null && !Array.isArray(v) && (prefix === '' || Object.keys(v).length > 0)) {
      for (const [k, x] of Object.entries(v)) walk(x, prefix === '' ? k : `${prefix}.${k}`);
    } else unknown.push(prefix);
  };
  walk(json, '');
  if (unknown.length > 0) fail(t, json, `paths ${unknown.join(', ')} have no known type: pass JSONAllPathsWithTypes as aux`);
  return out;
}

const GEOMETRY_MEMBERS: readonly TypeNode[] = ['LineString', 'MultiLineString', 'MultiPolygon', 'Point', 'Polygon', 'Ring']
  .map((kind) => ({ kind }) as TypeNode);
const POINT: TypeNode = { kind: 'Tuple', elements: [{ kind: 'Float64' }, { kind: 'Float64' }] };
const arrayType = (element: TypeNode): TypeNode => ({ kind: 'Array', element });

/** The JS value chwire must produce for a value of type `t` that the engine printed as `json`. */
export function expectedValue(t: TypeNode, json: unknown, o: ResolvedValueOptions, aux?: unknown): unknown {
  switch (t.kind) {
    case 'UInt8': case 'UInt16': case 'UInt32': case 'Int8': case 'Int16': case 'Int32':
      if (typeof json !== 'number' || !Number.isInteger(json)) fail(t, json, 'expected an integer number');
      return json;
    case 'UInt64': case 'Int64': case 'Interval':
      return bigByOption(t, json, o.int64);
    case 'UInt128': case 'Int128': case 'UInt256': case 'Int256':
      return bigByOption(t, json, o.int128);
    case 'Float64': return float(t, json, false);
    case 'Float32': case 'BFloat16': return float(t, json, true);
    case 'Bool':
      if (typeof json !== 'boolean') fail(t, json, 'expected true/false');
      return json;
    case 'Decimal':
      if (typeof json !== 'string' || !DECIMAL_RE.test(json)) fail(t, json, 'expected a quoted decimal');
      return o.decimal === 'number' ? Number(json) : json;
    case 'String':
      return stringValue(t, json, aux, o);
    case 'FixedString': {
      // A hex shorter than N came from toString(), which drops the trailing NUL padding.
      const padded = typeof aux === 'string' && aux.length < 2 * t.length ? aux.padEnd(2 * t.length, '0') : aux;
      const v = stringValue(t, json, padded, o);
      if (v instanceof Uint8Array && v.length !== t.length) fail(t, json, `expected ${t.length} bytes`);
      return v;
    }
    case 'Date': case 'Date32': return dateValue(t, json, o);
    case 'DateTime': return dateTimeValue(t, json, 0, t.timezone, o, aux);
    case 'DateTime64': return dateTimeValue(t, json, t.precision, t.timezone, o, aux);
    case 'Time': case 'Time64': {
      if (typeof json !== 'string') fail(t, json, 'expected Time text');
      const seconds = engineTimeTextToSeconds(json, t.kind === 'Time64' ? (t as Time64Type).precision : 0);
      return o.time === 'number' ? seconds : json;
    }
    case 'UUID': return uuidValue(t, json, o);
    case 'IPv4': case 'IPv6':
      if (typeof json !== 'string') fail(t, json, 'expected address text');
      return json;
    case 'Enum8': case 'Enum16':
      if (typeof json !== 'string' || !t.entries.some((e) => e.label === json)) fail(t, json, 'expected one of the labels');
      return json;
    case 'Nullable':
      return json === null ? null : expectedValue(t.inner, json, o, aux);
    case 'LowCardinality': case 'SimpleAggregateFunction':
      return expectedValue(t.inner, json, o, aux);
    case 'Array': return arrayOf(t, t.element, json, aux, o);
    case 'QBit': return arrayOf(t, t.element, json, aux, o);
    case 'Tuple': return tupleValue(t, t.elements, t.names, json, aux, o);
    case 'Nested': {
      const row: TypeNode = { kind: 'Tuple', elements: t.elements, names: t.names };
      return arrayOf(t, row, json, aux, o);
    }
    case 'Map': return mapValue(t, json, aux, o);
    case 'Variant': return memberOfVariant(t, t.members, json, aux, o);
    case 'Dynamic': {
      if (json === null) return null;
      const { type, inner } = splitTypeAux(aux);
      if (type === undefined || type === 'None') fail(t, json, 'Dynamic needs dynamicType() as aux');
      return expectedValue(parseType(type), json, o, inner);
    }
    case 'JSON': return jsonValue(t, json, aux, o);
    case 'Point': return expectedValue(POINT, json, o);
    case 'Ring': case 'LineString': return expectedValue(arrayType(POINT), json, o);
    case 'Polygon': case 'MultiLineString': return expectedValue(arrayType(arrayType(POINT)), json, o);
    case 'MultiPolygon': return expectedValue(arrayType(arrayType(arrayType(POINT))), json, o);
    case 'Geometry': return memberOfVariant(t, GEOMETRY_MEMBERS, json, aux, o);
    case 'Nothing':
      if (json !== null) fail(t, json, 'Nothing has no values');
      return null;
    case 'AggregateFunction':
      throw new Error('oracle: AggregateFunction states are not decodable (the decoder must refuse them)');
  }
}
