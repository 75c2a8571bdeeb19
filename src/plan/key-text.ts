// Property names of a Map decoded as a plain object (maps: 'object'): the key as ClickHouse writes
// it in text (its `toString`, and the key of the engine's own JSON output of the Map).
//
// Invariant: `keyText(t)` is chosen once per Map column from the key's type; it receives the key
// as decoded under objectKeyOptions (texts for strings, dates, UUIDs, 64-bit integers and
// decimals; JS Maps for nested maps) and returns the engine's text of that key. Two keys the engine
// prints differently never collide: composite keys are written with quoted strings inside
// (`['a,b']` vs `['a','b']`). `undefined` means String(value) already is that text (the common
// String, integer, Date, UUID, IP, Enum, Bool and Decimal keys keep their fast path).
// One deliberate difference: DateTime/DateTime64 without a time zone in their type are written in
// UTC (the engine writes the server's zone, which the decoder does not know) unless the decoder was
// given the session's zone (plan/session-zone.ts gives such types that zone); with a zone, in it.
import type { TypeNode } from '../types/ast.js';
import { structural } from './structural.js';
import { zoneClock } from '../convert/zone-text.js';

export type KeyText = (v: unknown) => string;

/** The formatter of keys of type `t`, or undefined when String(v) is exact. */
export function keyText(t: TypeNode): KeyText | undefined {
  const s = structural(t);
  switch (s.kind) {
    case 'Float32': case 'BFloat16': return float32Text as KeyText;
    case 'Float64': return float64Text as KeyText;
    case 'DateTime': case 'DateTime64': return dateTimeText(s.timezone);
    case 'Array': case 'Tuple': case 'Map': case 'Variant': case 'Dynamic': case 'JSON': case 'Nullable':
      return textOf(s, false);
    default: return undefined;
  }
}

/** Text of a value of `t`; inside a composite (`quoted`) texts are single-quoted like the engine's. */
function textOf(t: TypeNode, quoted: boolean): KeyText {
  const s = structural(t);
  switch (s.kind) {
    case 'Nullable': {
      const inner = textOf(s.inner, quoted);
      return (v) => (v === null ? 'NULL' : inner(v));
    }
    case 'String': case 'FixedString': case 'Enum8': case 'Enum16': case 'UUID': case 'IPv4': case 'IPv6':
    case 'Date': case 'Date32': case 'Time': case 'Time64':
      return quoted ? (v) => quote(String(v)) : String;
    case 'DateTime': case 'DateTime64': {
      const dt = dateTimeText(s.timezone);
      return quoted ? (v) => quote(dt(v)) : dt;
    }
    case 'Float32': case 'BFloat16': return float32Text as KeyText;
    case 'Float64': return float64Text as KeyText;
    case 'Array': {
      const el = textOf(s.element, true);
      return (v) => `[${(v as unknown[]).map(el).join(',')}]`;
    }
    case 'Tuple': {
      const els = s.elements.map((e) => textOf(e, true));
      const names = s.names;
      if (names === undefined) return (v) => `(${els.map((f, i) => f((v as unknown[])[i])).join(',')})`;
      return (v) => `(${els.map((f, i) => f((v as Record<string, unknown>)[names[i]!])).join(',')})`;
    }
    case 'Map': {
      const k = textOf(s.key, true);
      const x = textOf(s.value, true);
      return (v) => `{${[...(v as Map<unknown, unknown>)].map(([a, b]) => `${k(a)}:${x(b)}`).join(',')}}`;
    }
    case 'Variant': {
      // A decoded value does not carry its member: the first member (most specific text first)
      // whose decoded form it has writes it.
      const members = [...s.members].sort((a, b) => rank(a) - rank(b)).map((m) => ({ fits: fits(m), text: textOf(m, quoted) }));
      return (v) => {
        if (v === null) return 'NULL';
        for (const m of members) if (m.fits(v)) return m.text(v);
        return untypedText(v, quoted);
      };
    }
    case 'Dynamic': case 'JSON':
      // The member's type is not kept with a decoded value: written from the JS value.
      return (v) => untypedText(v, quoted);
    default: return String;
  }
}

const ISO_DATETIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
const ISO_DATE = /^\d{4}-\d\d-\d\d$/;
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;

/** Order in which Variant members are tried: those whose decoded text has a strict form first. */
function rank(t: TypeNode): number {
  const s = structural(t);
  switch (s.kind) {
    case 'DateTime': case 'DateTime64': case 'Date': case 'Date32': case 'UUID': return 0;
    case 'Int64': case 'UInt64': case 'Int128': case 'UInt128': case 'Int256': case 'UInt256': case 'Decimal': case 'Interval': return 2;
    case 'String': case 'FixedString': case 'Enum8': case 'Enum16': case 'IPv4': case 'IPv6': case 'Time': case 'Time64': return 6;
    // Composites by their strictest part; a Tuple (fixed length) before an Array of the same rank.
    case 'Tuple': return Math.min(6, ...s.elements.map(rank));
    case 'Array': return rank(s.element) + 1;
    case 'Nullable': return rank(s.inner);
    default: return 4;
  }
}

/** Whether `v` has the decoded form (under objectKeyOptions) of a value of `t`. */
function fits(t: TypeNode): (v: unknown) => boolean {
  const s = structural(t);
  switch (s.kind) {
    case 'Nullable': { const f = fits(s.inner); return (v) => v === null || f(v); }
    case 'DateTime': case 'DateTime64': return (v) => typeof v === 'string' && ISO_DATETIME.test(v);
    case 'Date': case 'Date32': return (v) => typeof v === 'string' && ISO_DATE.test(v);
    case 'UUID': return (v) => typeof v === 'string' && UUID_TEXT.test(v);
    case 'Int64': case 'UInt64': case 'Int128': case 'UInt128': case 'Int256': case 'UInt256': case 'Decimal': case 'Interval':
      return (v) => typeof v === 'string' && DECIMAL_TEXT.test(v);
    case 'String': case 'FixedString': case 'Enum8': case 'Enum16': case 'IPv4': case 'IPv6': case 'Time': case 'Time64':
      return (v) => typeof v === 'string';
    case 'Bool': return (v) => typeof v === 'boolean';
    case 'Array': { const f = fits(s.element); return (v) => Array.isArray(v) && v.every(f); }
    case 'Tuple': {
      const fs = s.elements.map(fits);
      const names = s.names;
      if (names === undefined) return (v) => Array.isArray(v) && v.length === fs.length && fs.every((f, i) => f(v[i]));
      return (v) => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Map) && fs.every((f, i) => f((v as Record<string, unknown>)[names[i]!]));
    }
    case 'Map': return (v) => v instanceof Map;
    case 'Variant': { const fs = s.members.map(fits); return (v) => v === null || fs.some((f) => f(v)); }
    case 'Dynamic': case 'JSON': return () => true;
    default: return (v) => typeof v === 'number';
  }
}

/** A decoded Variant/Dynamic value without its member type: written after its JS form. */
function untypedText(v: unknown, quoted: boolean): string {
  if (v === null) return 'NULL';
  if (typeof v === 'string') return quoted ? quote(v) : v;
  if (typeof v === 'number') return float64Text(v);
  if (Array.isArray(v)) return `[${v.map((e) => untypedText(e, true)).join(',')}]`;
  if (v instanceof Map) return `{${[...v].map(([a, b]) => `${untypedText(a, true)}:${untypedText(b, true)}`).join(',')}}`;
  if (typeof v === 'object') return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
  return String(v);
}

/** The engine's quoted text of a string: single quotes, backslash escapes for \b \f \n \r \t \0 \\ and '. */
export function quote(s: string): string {
  let out = "'";
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const esc = ESCAPES[s.charCodeAt(i)];
    if (esc === undefined) continue;
    out += s.slice(from, i) + esc;
    from = i + 1;
  }
  return out + s.slice(from) + "'";
}

const ESCAPES: (string | undefined)[] = [];
ESCAPES[0] = '\\0';
ESCAPES[8] = '\\b';
ESCAPES[9] = '\\t';
ESCAPES[10] = '\\n';
ESCAPES[12] = '\\f';
ESCAPES[13] = '\\r';
ESCAPES[39] = "\\'";
ESCAPES[92] = '\\\\';

/** A Float64 as the engine prints it: shortest round-trip digits, `nan`, `inf`, `-0`, `1e21`. */
export function float64Text(x: number): string {
  if (x !== x) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  // JS switches to exponents at the same magnitudes (>= 1e21, < 1e-6) and writes "e+21".
  const t = String(x);
  return t.includes('e+') ? t.replace('e+', 'e') : t;
}

/** A Float32 (or BFloat16) held in a double, as the engine prints it: the shortest Float32 digits. */
export function float32Text(x: number): string {
  if (x !== x || x === Infinity || x === -Infinity || x === 0) return float64Text(x);
  for (let p = 1; p < 9; p++) {
    const d = Number(x.toPrecision(p));
    if (Math.fround(d) !== x) continue;
    // toPrecision rounds a tie away from zero; the engine's shortest digits round it to even
    // (170294.625 prints as 170294.62): the neighbour rounded from just below |x| decides.
    const alt = Number((x * (1 - 2 ** -52)).toPrecision(p));
    if (alt !== d && Math.fround(alt) === x && Math.abs(alt - x) === Math.abs(d - x) && lastDigitEven(alt, p)) return float64Text(alt);
    return float64Text(d);
  }
  return float64Text(Number(x.toPrecision(9)));
}

/** Whether the p-th significant digit of `x` is even. */
function lastDigitEven(x: number, p: number): boolean {
  const digits = x.toPrecision(p).replace(/e.*$/, '').replace(/[^0-9]/g, '');
  return Number(digits[digits.length - 1]) % 2 === 0;
}

/**
 * DateTime/DateTime64 keys decoded as ISO-8601 UTC text ("2024-01-02T03:04:05.123Z") → the
 * engine's "2024-01-02 03:04:05.123", in the type's zone when it names one that this runtime's
 * Intl knows (else UTC, as for a type without a zone).
 */
function dateTimeText(zone: string | undefined): KeyText {
  const utc = (v: unknown): string => { const t = String(v); return `${t.slice(0, 10)} ${t.slice(11, -1)}`; };
  const clock = zone === undefined || zone === 'UTC' || zone === 'Etc/UTC' ? undefined : zoneClock(zone);
  if (clock === undefined) return utc;
  return (v) => {
    const t = String(v);
    const ms = Date.parse(`${t.slice(0, 19)}Z`);
    // Fractional digits (DateTime64) are the same in every zone: keep them as decoded.
    return Number.isNaN(ms) ? utc(v) : clock(ms) + t.slice(19, -1);
  };
}
