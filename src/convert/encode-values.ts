// Input JS value → the number/bigint/bytes a Native column stores, for every scalar type, with
// the client-side validation the engine does not do (it wraps integers and skips Decimal
// precision; native.md §6).
//
// Invariant: a coercer either returns a value that is in range for its column type or throws an
// EncodeFail; it never clamps, wraps or rounds silently (except the documented truncation of
// sub-unit time: a Date's milliseconds → DateTime seconds floor, Float64 → Float32 and → BFloat16 rounding of
// numbers, and numeric text read as the nearest double). A bigint into Float32/Float64 is taken
// only when exact.
//
// Accepted inputs (also in docs/native.md):
//   integers   number (safe integer), bigint, decimal integer string
//   floats     number, bigint (Float32/Float64: only when exactly representable), numeric string,
//              'nan' / 'inf' / '-inf'
//   Decimal    string (exact; no more than S fractional digits unless they are zeros), number
//              (through its shortest text), bigint (an integer value)
//   Date/Date32/DateTime/DateTime64   Date; a number as the server reads the same number in
//              JSONEachRow (26.7): Date/Date32 integer days, DateTime integer Unix seconds,
//              DateTime64(P) integer ticks of 10^-P s (a fraction, or a value the server would
//              clamp or wrap, is refused); ISO-8601 string ('YYYY-MM-DD', 'YYYY-MM-DD[T ]hh:mm:ss[.f…]'
//              with optional 'Z' or ±hh:mm; no zone = the column's zone, else the server's, read as
//              the server reads it: see convert/zone-text.ts wallClockReader); DateTime64 also
//              bigint = raw ticks
//   Time/Time64 number = seconds, '[-]h:mm:ss[.f…]' string; Time64 also bigint ticks
//   Bool       true/false, 0/1          Enum   label string or its number
//   UUID       canonical string or 16 bytes (RFC 4122 order)
//   IPv4       dotted string or UInt32 number   IPv6   text (IPv4 text is mapped) or 16 bytes

import { isUtcZone, wallClockReader } from './zone-text.js';
import type { ServerZoneRules } from './server-zone-rules.js';

/** A value that does not fit. `index` is the position in the array being encoded (-1 until known). */
export class EncodeFail {
  constructor(
    readonly expected: string,
    readonly value: unknown,
    public index = -1,
  ) {}
}

export function fail(expected: string, value: unknown): never {
  throw new EncodeFail(expected, value);
}

// Text numbers are read as the engine's to<Type>OrNull reads them (the reference): an optional
// sign, no surrounding whitespace (' 12 ', ' 1', ' 1.5' are refused there, so here too).
const INT_RE = /^[+-]?\d+$/;

export interface IntRange { readonly min: bigint; readonly max: bigint; readonly bits: number; readonly signed: boolean }

export function intRange(bits: number, signed: boolean): IntRange {
  const b = BigInt(bits);
  return signed
    ? { min: -(1n << (b - 1n)), max: (1n << (b - 1n)) - 1n, bits, signed }
    : { min: 0n, max: (1n << b) - 1n, bits, signed };
}

function intExpected(r: IntRange): string {
  return `an integer in [${r.min}, ${r.max}]`;
}

/** An integer of at most 32 bits as a number. */
export function makeSmallInt(r: IntRange): (v: unknown) => number {
  const min = Number(r.min);
  const max = Number(r.max);
  const expected = intExpected(r);
  return (v) => {
    let n: number;
    if (typeof v === 'number') n = v;
    else if (typeof v === 'bigint') n = v >= r.min && v <= r.max ? Number(v) : NaN;
    else if (typeof v === 'string' && INT_RE.test(v)) n = Number(v);
    else return fail(expected, v);
    if (Number.isInteger(n) && n >= min && n <= max) return n;
    return fail(expected, v);
  };
}

/** An integer of 64 bits or more as a bigint (numbers must be safe integers: larger ones are already rounded). */
export function makeBigInt(r: IntRange): (v: unknown) => bigint {
  const expected = intExpected(r);
  return (v) => {
    let b: bigint;
    if (typeof v === 'bigint') b = v;
    else if (typeof v === 'number' && Number.isSafeInteger(v)) b = BigInt(v);
    else if (typeof v === 'string' && INT_RE.test(v)) b = BigInt(v);
    else return fail(expected + (typeof v === 'number' && Number.isInteger(v) ? ' (numbers beyond 2^53 are inexact: pass a bigint or a string)' : ''), v);
    if (b >= r.min && b <= r.max) return b;
    return fail(expected, v);
  };
}

const FLOAT_RE = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A Float64 (`f32` false) or Float32 (`f32` true) value. A bigint is taken only when the column's
 * float type holds it exactly: Float64 has a 53-bit significand, Float32 a 24-bit one, so a bigint
 * beyond 2^53 (2^24) whose low bits are not all zero, or beyond the finite range, would be rounded
 * or become infinite: it fails instead.
 */
export function makeFloat(f32: boolean): (v: unknown) => number {
  const bigExpected = `a number, or a bigint that ${f32 ? 'Float32' : 'Float64'} holds exactly (|v| up to 2^${f32 ? 24 : 53}, or with the low bits beyond the ${f32 ? 24 : 53}-bit significand zero)`;
  return (v) => {
    if (typeof v === 'bigint') {
      const n = f32 ? Math.fround(Number(v)) : Number(v);
      if (Number.isFinite(n) && BigInt(n) === v) return n;
      return fail(bigExpected, v);
    }
    return toFloat(v);
  };
}

/** A number from a number, a numeric string or 'nan'/'inf'/'-inf'; a bigint rounded to the nearest double (BFloat16 only: Float32/Float64 take makeFloat). */
export function toFloat(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string') {
    if (FLOAT_RE.test(v)) return Number(v);
    const t = v.toLowerCase();
    if (t === 'nan' || t === '+nan' || t === '-nan') return NaN;
    if (t === 'inf' || t === '+inf' || t === 'infinity') return Infinity;
    if (t === '-inf' || t === '-infinity') return -Infinity;
  }
  return fail('a number', v);
}

export function toBool(v: unknown): number {
  if (v === true || v === 1) return 1;
  if (v === false || v === 0) return 0;
  return fail('a boolean (true/false or 0/1)', v);
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** BFloat16 bits: the upper half of the Float32 pattern, rounded to nearest even (NaN kept a NaN). */
export function toBFloat16(v: unknown): number {
  const n = toFloat(v);
  f32[0] = n;
  const bits = u32[0]!;
  if (Number.isNaN(n)) return (bits >>> 16) | 0x40;
  return ((bits + 0x7fff + ((bits >>> 16) & 1)) >>> 16) & 0xffff;
}

// ---- Decimal ----

const DEC_RE = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** Unscaled bigint of a Decimal(P, S) value, exact, with |unscaled| < 10^P. */
export function makeDecimal(precision: number, scale: number): (v: unknown) => bigint {
  const limit = 10n ** BigInt(precision);
  const mul = 10n ** BigInt(scale);
  const expected = `a Decimal(${precision}, ${scale}) value (at most ${precision - scale} integer and ${scale} fractional digits)`;
  return (v) => {
    let u: bigint | undefined;
    if (typeof v === 'bigint') u = v * mul;
    else if (typeof v === 'string') u = parseDecimal(v, scale);
    else if (typeof v === 'number' && Number.isFinite(v)) u = parseDecimal(String(v), scale);
    if (u === undefined || u <= -limit || u >= limit) return fail(expected, v);
    return u;
  };
}

function parseDecimal(text: string, scale: number): bigint | undefined {
  const m = DEC_RE.exec(text);
  if (m === null) return undefined;
  let int = m[2] ?? '';
  let frac = m[3] ?? '';
  if (int === '' && frac === '') return undefined;
  let exp = m[4] === undefined ? 0 : Number(m[4]);
  if (!Number.isSafeInteger(exp) || Math.abs(exp) > 1000) return undefined;
  // Move the point by the exponent on the digit strings (exact, no double).
  if (exp > 0) {
    const take = frac.slice(0, exp);
    int += take.padEnd(exp, '0');
    frac = frac.slice(take.length);
    exp = 0;
  } else if (exp < 0) {
    const k = -exp;
    const pad = int.padStart(k, '0');
    frac = pad.slice(pad.length - k) + frac;
    int = pad.slice(0, pad.length - k);
  }
  // Extra fractional digits are allowed only when they are zeros (no silent rounding).
  if (frac.length > scale) {
    if (!/^0*$/.test(frac.slice(scale))) return undefined;
    frac = frac.slice(0, scale);
  }
  const digits = (int + frac.padEnd(scale, '0')).replace(/^0+(?=\d)/, '') || '0';
  const u = BigInt(digits);
  return m[1] === '-' ? -u : u;
}

// ---- dates and times ----

const ISO_RE = /^\s*([+-]?\d{4,6})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?\s*$/i;
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's days_from_civil). */
function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  // Every operand below is a small non-negative integer except `era`: `| 0` truncation is floor
  // there (measured: Math.floor on doubles was 12% of encoding a DateTime-text column).
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = (((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) | 0) + d - 1;
  const doe = yoe * 365 + ((yoe / 4) | 0) - ((yoe / 100) | 0) + doy;
  return era * 146097 + doe - 719468;
}

export interface ParsedInstant {
  /** Seconds since the epoch when `zoned`, else the wall clock's seconds counted as if UTC. */
  seconds: number;
  /** 9 fractional digits */
  nanos: number;
  /** The text named its zone ('Z' or ±hh:mm). */
  zoned: boolean;
}

/**
 * Wall-clock seconds → seconds since the epoch in the zone zone-less text is read in (NaN when it
 * cannot be read there); `undefined` when that zone is unknown to this runtime (zone-less text is
 * then refused, naming the zone).
 */
export interface TextZone {
  readonly name: string;
  readonly read: ((wall: number) => number) | undefined;
  /** The zone is UTC: wall seconds are the instant. */
  readonly utc: boolean;
  /** Why zone-less text in this zone is refused (the server's offsets could not be learnt); read is then undefined. */
  readonly refused?: string;
}

export const UTC_TEXT_ZONE: TextZone = { name: 'UTC', read: (w) => w, utc: true };

/** The zone zone-less text is read in, by name (Intl's rules, read as ClickHouse reads them). */
export function textZone(name: string, server?: ServerZoneRules): TextZone {
  if (isUtcZone(name)) return { name, read: (w) => w, utc: true };
  return { name, read: wallClockReader(name, server), utc: false };
}

/**
 * Per zone, what the server reading the insert uses for it: its own offsets (learnt by the client),
 * or why they could not be learnt (zone-less text in that zone is then refused, saying so).
 */
export type ServerTextZones = ReadonlyMap<string, ServerZoneRules | string>;

/**
 * Per DateTime type's zone (undefined: a zone-less column), the zone its zone-less text is read
 * in: the column's own, else `fallback` (the server's), else UTC. One TextZone per name per call.
 */
export function textZones(fallback: string | undefined, server?: ServerTextZones): (columnZone: string | undefined) => TextZone {
  const made = new Map<string, TextZone>();
  return (columnZone) => {
    const name = columnZone ?? fallback ?? 'UTC';
    let z = made.get(name);
    if (z === undefined) {
      const s = server?.get(name);
      made.set(name, z = typeof s === 'string' ? { name, read: undefined, utc: false, refused: s } : textZone(name, s));
    }
    return z;
  };
}

/** Seconds since the epoch of parsed text: zoned as it is, zone-less through the zone. */
function instantOf(p: ParsedInstant, zone: TextZone): number {
  if (p.zoned) return p.seconds;
  return zone.read === undefined ? NaN : zone.read(p.seconds);
}

function zoneNote(zone: TextZone): string {
  if (zone.refused !== undefined) return `; zone-less text in ${zone.name} is refused: ${zone.refused}; pass a Date or text with an offset`;
  return zone.read === undefined
    ? `; zone-less text is read in ${zone.name}, which this runtime's Intl does not know: pass a Date or text with an offset`
    : zone.utc ? '' : `; zone-less text is read in ${zone.name} (as the server reads it), years 1900-2299`;
}

/** Parse an ISO-8601 date or date-time; undefined when malformed or out of the calendar. */
export function parseIso(text: string): ParsedInstant | undefined {
  const m = ISO_RE.exec(text);
  if (m === null) return undefined;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  if (mo < 1 || mo > 12 || d < 1 || d > (mo === 2 && leap ? 29 : MONTH_DAYS[mo - 1]!)) return undefined;
  const h = m[4] === undefined ? 0 : Number(m[4]);
  const mi = m[5] === undefined ? 0 : Number(m[5]);
  const s = m[6] === undefined ? 0 : Number(m[6]);
  if (h > 23 || mi > 59 || s > 59) return undefined;
  let offset = 0;
  const z = m[8];
  if (z !== undefined && z.toUpperCase() !== 'Z') {
    const digits = z.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = digits.length > 2 ? Number(digits.slice(2)) : 0;
    if (oh > 23 || om > 59) return undefined;
    offset = (z[0] === '-' ? -1 : 1) * (oh * 3600 + om * 60);
  }
  const nanos = m[7] === undefined ? 0 : Number(m[7].padEnd(9, '0'));
  return { seconds: daysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s - offset, nanos, zoned: z !== undefined };
}

/** The n-digit decimal number at s[at, at + n), or -1 when a character is not a digit. */
function digits(s: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/** Days of 'YYYY-MM-DD' at s[0, 10), or NaN when the text is not exactly that shape or no such day. */
function simpleDays(s: string): number {
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return NaN;
  const y = digits(s, 0, 4);
  const m = digits(s, 5, 2);
  const d = digits(s, 8, 2);
  if (y < 0 || m < 1 || m > 12 || d < 1) return NaN;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  if (d > (m === 2 && leap ? 29 : MONTH_DAYS[m - 1]!)) return NaN;
  return daysFromCivil(y, m, d);
}

/** fixedDateTime's last valid day (YYYYMMDD as a number; -1: none yet) and its first second. */
let lastDay = -1;
let lastDaySeconds = 0;

/**
 * Seconds since the epoch of exactly 'YYYY-MM-DD hh:mm:ss' (also with 'T' for the space, and
 * with a final 'Z'), the shape JSON pipelines and the official client send; negative for any
 * other text and for instants before 1970 (then parseIso decides, and reports). Fully validated: digits, separators, a real calendar day, hh ≤ 23,
 * mm and ss ≤ 59. One pass of charCodeAt with no regex, call or allocation: through parseIso a
 * DateTime text column was half the cost of encoding the bench's five-column rows.
 */
export function fixedDateTime(s: string): number {
  const len = s.length;
  if (len !== 19 && (len !== 20 || s.charCodeAt(19) !== 90)) return -1;
  const sep = s.charCodeAt(10);
  if ((sep !== 32 && sep !== 84) ||
    ((s.charCodeAt(4) ^ 45) | (s.charCodeAt(7) ^ 45) | (s.charCodeAt(13) ^ 58) | (s.charCodeAt(16) ^ 58)) !== 0) return -1;
  const y1 = s.charCodeAt(0) - 48, y2 = s.charCodeAt(1) - 48, y3 = s.charCodeAt(2) - 48, y4 = s.charCodeAt(3) - 48;
  const m1 = s.charCodeAt(5) - 48, m2 = s.charCodeAt(6) - 48, d1 = s.charCodeAt(8) - 48, d2 = s.charCodeAt(9) - 48;
  const h1 = s.charCodeAt(11) - 48, h2 = s.charCodeAt(12) - 48, i1 = s.charCodeAt(14) - 48, i2 = s.charCodeAt(15) - 48;
  const s1 = s.charCodeAt(17) - 48, s2 = s.charCodeAt(18) - 48;
  // A code c - 48 is a digit iff it and 9 minus it are both ≥ 0: one sign test covers all fourteen.
  if ((y1 | (9 - y1) | y2 | (9 - y2) | y3 | (9 - y3) | y4 | (9 - y4) | m1 | (9 - m1) | m2 | (9 - m2) |
    d1 | (9 - d1) | d2 | (9 - d2) | h1 | (9 - h1) | h2 | (9 - h2) | i1 | (9 - i1) | i2 | (9 - i2) |
    s1 | (9 - s1) | s2 | (9 - s2)) < 0) return -1;
  const h = h1 * 10 + h2;
  const mi = i1 * 10 + i2;
  const se = s1 * 10 + s2;
  if (h > 23 || mi > 59 || se > 59) return -1;
  // Consecutive values mostly fall on the same day: its seconds are kept from the last one.
  const y = y1 * 1000 + y2 * 100 + y3 * 10 + y4;
  const m = m1 * 10 + m2;
  const d = d1 * 10 + d2;
  const ymd = y * 10000 + m * 100 + d;
  if (ymd === lastDay) return lastDaySeconds + h * 3600 + mi * 60 + se;
  if (m < 1 || m > 12 || d < 1) return -1;
  if (d > 28 && d > (m === 2 ? ((y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28) : MONTH_DAYS[m - 1]!)) return -1;
  lastDay = ymd;
  lastDaySeconds = daysFromCivil(y, m, d) * 86400;
  return lastDaySeconds + h * 3600 + mi * 60 + se;
}

/** Milliseconds since the epoch of a Date (NaN when invalid or not a Date). */
function millisOf(v: unknown): number {
  return v instanceof Date ? v.getTime() : NaN;
}

/**
 * Date (UInt16 days, 1970..2149) or Date32 (Int32 days, 1900..2299). A number is days since
 * 1970-01-01, as the server reads a JSONEachRow number for these types: a fraction is refused
 * there; a Date number beyond UInt16 wraps there (refused here); a Date32 number is stored as it
 * is in all of Int32 (`numberMin`/`numberMax`), outside 1900..2299 too.
 */
export function makeDays(min: number, max: number, what: string, numberMin = min, numberMax = max): (v: unknown) => number {
  const expected = `${what}: a Date or 'YYYY-MM-DD' from ${isoDay(min)} to ${isoDay(max)}, or integer days since 1970-01-01${numberMin === min && numberMax === max ? '' : ` from ${numberMin} to ${numberMax}`}`;
  return (v) => {
    let days: number;
    if (typeof v === 'number') return Number.isInteger(v) && v >= numberMin && v <= numberMax ? v + 0 : fail(expected, v);
    else if (typeof v === 'string') {
      days = v.length === 10 ? simpleDays(v) : NaN;
      if (Number.isNaN(days)) {
        const p = parseIso(v);
        days = p === undefined ? NaN : Math.floor(p.seconds / 86400);
      }
    } else {
      days = Math.floor(millisOf(v) / 86400000);
    }
    if (days >= min && days <= max) return days + 0;
    return fail(expected, v);
  };
}

function isoDay(days: number): string {
  return new Date(days * 86400000).toISOString().slice(0, 10);
}

/**
 * DateTime (UInt32 seconds). A number is integer Unix seconds, as the server reads a JSONEachRow
 * number (it clamps one outside the range and refuses a fraction: both refused here). Zone-less
 * text is read in `zone` (the column's, else the server's).
 */
export function makeDateTime(zone: TextZone): (v: unknown) => number {
  const expected = `a DateTime: a Date, integer Unix seconds or ISO text, from 1970-01-01T00:00:00Z to 2106-02-07T06:28:15Z${zoneNote(zone)}`;
  return (v) => {
    let s: number;
    if (typeof v === 'number') s = Number.isInteger(v) ? v : NaN;
    else if (typeof v === 'string') {
      s = fixedDateTime(v);
      if (s >= 0 && !zone.utc) s = v.length === 20 ? s : zone.read === undefined ? NaN : zone.read(s);
      else if (s < 0) {
        const p = parseIso(v);
        s = p === undefined ? NaN : instantOf(p, zone);
      }
    } else {
      s = Math.floor(millisOf(v) / 1000);
    }
    if (s >= 0 && s <= 4294967295) return s + 0;
    return fail(expected, v);
  };
}

/** DateTime with zone-less text read as UTC (the codec's default when no zone is given). */
export const toDateTime = makeDateTime(UTC_TEXT_ZONE);

const POW10N: bigint[] = [];
for (let i = 0n; i <= 18n; i++) POW10N.push(10n ** i);
const INT64 = intRange(64, true);

/**
 * DateTime64(P) ticks (Int64). A number is integer ticks of 10^-P s, as the server reads a
 * JSONEachRow number for DateTime64(P) (not seconds: 1700000000 into DateTime64(3) is
 * 1970-01-20); a fraction is refused (the server refuses it), and so is a number beyond 2^53
 * (already rounded: pass a bigint). Sub-tick text digits are truncated toward the past, as the
 * engine's parser does. Zone-less text is read in `zone`.
 */
export function makeDateTime64(precision: number, zone: TextZone = UTC_TEXT_ZONE): (v: unknown) => bigint {
  const expected = `a DateTime64(${precision}): a Date, integer ticks (10^-${precision} s) as a number up to 2^53 or a bigint, or ISO text${zoneNote(zone)}`;
  const perSecond = POW10N[precision]!;
  return (v) => {
    let t: bigint;
    if (typeof v === 'bigint') t = v;
    else if (typeof v === 'number') {
      if (!Number.isSafeInteger(v)) return fail(expected, v);
      t = BigInt(v);
    } else if (typeof v === 'string') {
      const p = parseIso(v);
      const s = p === undefined ? NaN : instantOf(p, zone);
      if (!Number.isFinite(s)) return fail(expected, v);
      t = BigInt(s) * perSecond + BigInt(p!.nanos) / POW10N[9 - precision]!;
    } else {
      const ms = millisOf(v);
      if (!Number.isFinite(ms)) return fail(expected, v);
      t = precision <= 3 ? BigInt(Math.floor(ms / 10 ** (3 - precision))) : BigInt(ms) * POW10N[precision - 3]!;
    }
    if (t >= INT64.min && t <= INT64.max) return t;
    return fail(expected, v);
  };
}

const TIME_RE = /^\s*(-)?(\d+):(\d{2}):(\d{2})(?:\.(\d{1,9}))?\s*$/;

/** Time (Int32 seconds) from seconds or '[-]h:mm:ss'. */
export function toTime(v: unknown): number {
  let s = NaN;
  if (typeof v === 'number') s = v;
  else if (typeof v === 'string') {
    const m = TIME_RE.exec(v);
    if (m !== null && m[5] === undefined) s = (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4]));
  }
  if (Number.isInteger(s) && s >= -2147483648 && s <= 2147483647) return s;
  return fail('a Time: whole seconds or \'[-]h:mm:ss\'', v);
}

export function makeTime64(precision: number): (v: unknown) => bigint {
  const expected = `a Time64(${precision}): seconds, '[-]h:mm:ss[.f]' or bigint ticks`;
  const perSecond = POW10N[precision]!;
  return (v) => {
    let t: bigint | undefined;
    if (typeof v === 'bigint') t = v;
    else if (typeof v === 'number' && Number.isFinite(v)) {
      const whole = Math.floor(v);
      t = BigInt(whole) * perSecond + BigInt(Math.round((v - whole) * 10 ** precision));
    } else if (typeof v === 'string') {
      const m = TIME_RE.exec(v);
      if (m !== null) {
        const frac = (m[5] ?? '').padEnd(9, '0');
        const abs = BigInt(Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4])) * perSecond + BigInt(frac) / POW10N[9 - precision]!;
        t = m[1] === '-' ? -abs : abs;
      }
    }
    if (t !== undefined && t >= INT64.min && t <= INT64.max) return t;
    return fail(expected, v);
  };
}

// ---- UUID, IP ----

const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** Write a UUID in the wire layout (two little-endian 64-bit halves) at out[o..o+16). */
export function writeUuid(v: unknown, out: Uint8Array, o: number): void {
  if (typeof v === 'string' && UUID_RE.test(v)) {
    const hex = v.replace(/-/g, '');
    for (let i = 0; i < 8; i++) {
      out[o + 7 - i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
      out[o + 15 - i] = parseInt(hex.slice(16 + 2 * i, 18 + 2 * i), 16);
    }
    return;
  }
  if (v instanceof Uint8Array && v.length === 16) {
    for (let i = 0; i < 8; i++) {
      out[o + 7 - i] = v[i]!;
      out[o + 15 - i] = v[8 + i]!;
    }
    return;
  }
  fail('a UUID: canonical text or 16 bytes', v);
}

const IPV4_RE = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function parseIpv4(s: string): number {
  const m = IPV4_RE.exec(s);
  if (m === null) return -1;
  let u = 0;
  for (let i = 1; i <= 4; i++) {
    const part = Number(m[i]);
    if (part > 255) return -1;
    u = u * 256 + part;
  }
  return u;
}

export function toIpv4(v: unknown): number {
  if (typeof v === 'string') {
    const u = parseIpv4(v);
    if (u >= 0) return u;
  } else if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffffffff) return v;
  return fail('an IPv4: dotted text or a UInt32', v);
}

/** Write an IPv6 in network order at out[o..o+16). */
export function writeIpv6(v: unknown, out: Uint8Array, o: number): void {
  if (v instanceof Uint8Array && v.length === 16) {
    out.set(v, o);
    return;
  }
  if (typeof v === 'string' && parseIpv6(v, out, o)) return;
  fail('an IPv6: text or 16 bytes', v);
}

function parseIpv6(s: string, out: Uint8Array, o: number): boolean {
  const v4 = parseIpv4(s);
  if (v4 >= 0) {
    out.fill(0, o, o + 10);
    out[o + 10] = 0xff; out[o + 11] = 0xff;
    out[o + 12] = v4 >>> 24; out[o + 13] = (v4 >>> 16) & 255; out[o + 14] = (v4 >>> 8) & 255; out[o + 15] = v4 & 255;
    return true;
  }
  const halves = s.split('::');
  if (halves.length > 2) return false;
  const words: number[][] = [];
  for (const h of halves) {
    const ws: number[] = [];
    const parts = h === '' ? [] : h.split(':');
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (i === parts.length - 1 && p.includes('.')) {
        const t = parseIpv4(p);
        if (t < 0) return false;
        ws.push(t >>> 16, t & 0xffff);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(p)) ws.push(parseInt(p, 16));
      else return false;
    }
    words.push(ws);
  }
  let all: number[];
  if (words.length === 1) {
    all = words[0]!;
    if (all.length !== 8) return false;
  } else {
    const gap = 8 - words[0]!.length - words[1]!.length;
    if (gap < 1) return false;
    all = [...words[0]!, ...new Array<number>(gap).fill(0), ...words[1]!];
  }
  for (let i = 0; i < 8; i++) {
    out[o + 2 * i] = all[i]! >>> 8;
    out[o + 2 * i + 1] = all[i]! & 255;
  }
  return true;
}

