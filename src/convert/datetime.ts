// Date, Date32, DateTime, DateTime64, Time, Time64 values → JS values and text.
//
// Invariant: exact integer arithmetic; no Date object is built to make text (civil-from-days
// below is Howard Hinnant's published algorithm, days since 1970-01-01 → proleptic Gregorian
// y/m/d). Instants before 1970 floor (a tick at -0.5 ms belongs to the millisecond -1). Every
// function returns a fresh value: Dates are mutable and are never shared between rows.

const DAY_MS = 86400000;

const PAD2: string[] = [];
for (let i = 0; i < 100; i++) PAD2.push(i < 10 ? '0' + i : String(i));

function pad4(y: number): string {
  if (y >= 1000 && y <= 9999) return String(y);
  if (y >= 0 && y < 1000) return String(y).padStart(4, '0');
  return y < 0 ? '-' + String(-y).padStart(6, '0') : '+' + String(y).padStart(6, '0');
}

/** y * 10000 + m * 100 + d of a day count since 1970-01-01 (proleptic Gregorian). */
function civil(days: number): number {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return (yoe + era * 400 + (m <= 2 ? 1 : 0)) * 10000 + m * 100 + d;
}

/** Days within years 0000-9999 (the fast paths build text from char codes in one step). */
const MIN_FAST_DAY = -719528;
const MAX_FAST_DAY = 2932896;

/** "YYYY-MM-DD" of a day count since 1970-01-01 (negative before). */
export function daysToString(days: number): string {
  if (days >= MIN_FAST_DAY && days <= MAX_FAST_DAY) {
    const c = civil(days);
    const y = Math.floor(c / 10000);
    const md = c - y * 10000;
    const m = Math.floor(md / 100);
    const d = md - m * 100;
    // One flat string from char codes: measured ~10x faster than concatenating padded pieces.
    return String.fromCharCode(48 + Math.floor(y / 1000), 48 + (Math.floor(y / 100) % 10), 48 + (Math.floor(y / 10) % 10), 48 + (y % 10),
      45, 48 + Math.floor(m / 10), 48 + (m % 10), 45, 48 + Math.floor(d / 10), 48 + (d % 10));
  }
  return daysToStringSlow(days);
}

function daysToStringSlow(days: number): string {
  // civil() packs y * 10000 + mmdd with 0101 <= mmdd <= 1231, so flooring recovers y also for
  // negative and 5+-digit years.
  const c = civil(days);
  const y = Math.floor(c / 10000);
  const md = c - y * 10000;
  const m = Math.floor(md / 100);
  return pad4(y) + '-' + PAD2[m] + '-' + PAD2[md - m * 100];
}

/** Midnight UTC of a day count, as a new Date. */
export function daysToDate(days: number): Date {
  return new Date(days * DAY_MS);
}

/** "YYYY-MM-DDThh:mm:ssZ" of whole Unix seconds. */
export function secondsToIso(seconds: number): string {
  return secondsText(seconds, true);
}

/** "YYYY-MM-DD hh:mm:ss" of whole Unix seconds (a UTC wall clock, as the server prints a DateTime). */
export function secondsToWall(seconds: number): string {
  return secondsText(seconds, false);
}

/** `iso`: "YYYY-MM-DDThh:mm:ssZ", else "YYYY-MM-DD hh:mm:ss"; one string built from char codes in the common range. */
function secondsText(seconds: number, iso: boolean): string {
  const days = Math.floor(seconds / 86400);
  let s = seconds - days * 86400;
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const mi = Math.floor(s / 60);
  s -= mi * 60;
  if (days >= MIN_FAST_DAY && days <= MAX_FAST_DAY) {
    const c = civil(days);
    const y = Math.floor(c / 10000);
    const md = c - y * 10000;
    const m = Math.floor(md / 100);
    const d = md - m * 100;
    if (iso) {
      return String.fromCharCode(48 + Math.floor(y / 1000), 48 + (Math.floor(y / 100) % 10), 48 + (Math.floor(y / 10) % 10), 48 + (y % 10),
        45, 48 + Math.floor(m / 10), 48 + (m % 10), 45, 48 + Math.floor(d / 10), 48 + (d % 10), 84,
        48 + Math.floor(h / 10), 48 + (h % 10), 58, 48 + Math.floor(mi / 10), 48 + (mi % 10), 58, 48 + Math.floor(s / 10), 48 + (s % 10), 90);
    }
    return String.fromCharCode(48 + Math.floor(y / 1000), 48 + (Math.floor(y / 100) % 10), 48 + (Math.floor(y / 10) % 10), 48 + (y % 10),
      45, 48 + Math.floor(m / 10), 48 + (m % 10), 45, 48 + Math.floor(d / 10), 48 + (d % 10), 32,
      48 + Math.floor(h / 10), 48 + (h % 10), 58, 48 + Math.floor(mi / 10), 48 + (mi % 10), 58, 48 + Math.floor(s / 10), 48 + (s % 10));
  }
  const text = daysToStringSlow(days) + (iso ? 'T' : ' ') + PAD2[h] + ':' + PAD2[mi] + ':' + PAD2[s];
  return iso ? text + 'Z' : text;
}

const POW10N: bigint[] = [];
const POW10: number[] = [];
for (let i = 0; i <= 18; i++) { POW10N.push(10n ** BigInt(i)); POW10.push(10 ** i); }

/** Floor division of exact integers held in doubles (|a| ≤ 2^53), without float rounding traps. */
function floorDivN(a: number, d: number): number {
  let q = Math.trunc(a / d);
  const r = a - q * d;
  if (r < 0) q--;
  else if (r >= d) q++;
  return q;
}

function floorDivBig(a: bigint, d: bigint): bigint {
  const q = a / d;
  return a % d !== 0n && a < 0n ? q - 1n : q;
}

/** ticks of 10^-P s → whole milliseconds, floored (what a Date can hold). */
export function ticksToFlooredMillis(ticks: bigint | number, precision: number): number {
  if (typeof ticks === 'number' && Math.abs(ticks) <= Number.MAX_SAFE_INTEGER) {
    return precision <= 3 ? ticks * POW10[3 - precision]! : floorDivN(ticks, POW10[precision - 3]!);
  }
  const t = BigInt(ticks);
  return precision <= 3 ? Number(t * POW10N[3 - precision]!) : Number(floorDivBig(t, POW10N[precision - 3]!));
}

/**
 * floor(ticks / 10^(P-3)) for the little-endian Int64 `ticks` at dv[p], P in 4..9, without a
 * BigInt: with d = 10^(P-3) and 2^32 = A·d + B, ticks = hi·2^32 + lo = d·(hi·A) + (hi·B + lo),
 * where |hi·B + lo| < 2^31·10^6 + 2^32 < 2^53 is exact in a double, and so is the sum whenever
 * the result fits in ±2^53 ms (every instant a Date can hold). Returns the milliseconds.
 */
export function int64TicksToFlooredMillis(dv: DataView, p: number, precision: number): number {
  const d = POW10[precision - 3]!;
  const a = SPLIT_A[precision - 3]!;
  const hi = dv.getInt32(p + 4, true);
  const r = hi * (4294967296 - a * d) + dv.getUint32(p, true);
  return hi * a + floorDivN(r, d);
}

const SPLIT_A: number[] = POW10.map((d) => Math.floor(4294967296 / d));

/** ISO text of the Int64 ticks (P in 4..9) at dv[p], exact, without a BigInt. */
export function int64TicksToIso(dv: DataView, p: number, precision: number): string {
  const d = POW10[precision - 3]!;
  const a = SPLIT_A[precision - 3]!;
  const hi = dv.getInt32(p + 4, true);
  const r = hi * (4294967296 - a * d) + dv.getUint32(p, true);
  const q = floorDivN(r, d);
  const rem = r - q * d;
  const ms = hi * a + q;
  const seconds = floorDivN(ms, 1000);
  const frac = (ms - seconds * 1000) * POW10[precision - 3]! + rem;
  return secondsToIso(seconds).slice(0, -1) + '.' + String(frac).padStart(precision, '0') + 'Z';
}

/** A new Date at the (floored) millisecond of `ticks` of 10^-P s. */
export function ticksToDate(ticks: bigint | number, precision: number): Date {
  return new Date(ticksToFlooredMillis(ticks, precision));
}

/** The double nearest to the exact number of milliseconds (fractional when P > 3). */
export function ticksToMillis(ticks: bigint | number, precision: number): number {
  if (typeof ticks === 'number' && Math.abs(ticks) <= Number.MAX_SAFE_INTEGER) {
    // Both operands exact: one IEEE operation is correctly rounded.
    return precision <= 3 ? ticks * POW10[3 - precision]! : ticks / POW10[precision - 3]!;
  }
  const t = BigInt(ticks);
  if (precision <= 3) return Number(t * POW10N[3 - precision]!);
  return Number(fixedText(t, precision - 3));
}

/** Exact decimal text of t / 10^shift. */
function fixedText(t: bigint, shift: number): string {
  const neg = t < 0n;
  const abs = (neg ? -t : t).toString().padStart(shift + 1, '0');
  return (neg ? '-' : '') + abs.slice(0, -shift) + '.' + abs.slice(-shift);
}

/** "YYYY-MM-DDThh:mm:ss[.f×P]Z" in UTC with exactly P fractional digits. */
export function ticksToIso(ticks: bigint | number, precision: number): string {
  if (precision === 0) return secondsToIso(Number(ticks));
  let seconds: number;
  let frac: number;
  if (typeof ticks === 'number' && Math.abs(ticks) <= Number.MAX_SAFE_INTEGER) {
    seconds = floorDivN(ticks, POW10[precision]!);
    frac = ticks - seconds * POW10[precision]!;
  } else {
    const t = BigInt(ticks);
    const s = floorDivBig(t, POW10N[precision]!);
    seconds = Number(s);
    frac = Number(t - s * POW10N[precision]!);
  }
  const iso = secondsToIso(seconds);
  return iso.slice(0, -1) + '.' + String(frac).padStart(precision, '0') + 'Z';
}

/** Time (signed seconds) as the engine prints it: "-01:00:00", "999:59:59". */
export function timeToString(seconds: number): string {
  const neg = seconds < 0;
  let s = neg ? -seconds : seconds;
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  return (neg ? '-' : '') + (h < 100 ? PAD2[h] : String(h)) + ':' + PAD2[m] + ':' + PAD2[s];
}

/** Time64(P) ticks as the engine prints them: "12:34:56.789", "-00:00:01.500". */
export function time64ToString(ticks: bigint | number, precision: number): string {
  const t = BigInt(ticks);
  const neg = t < 0n;
  const abs = neg ? -t : t;
  if (precision === 0) return timeToString(Number(t));
  const scale = POW10N[precision]!;
  const whole = Number(abs / scale);
  const frac = String(abs % scale).padStart(precision, '0');
  const text = timeToString(whole) + '.' + frac;
  return neg ? '-' + text : text;
}

/** Time64(P) ticks → seconds as the nearest double. */
export function time64ToSeconds(ticks: bigint | number, precision: number): number {
  if (typeof ticks === 'number' && Math.abs(ticks) <= Number.MAX_SAFE_INTEGER) return precision === 0 ? ticks : ticks / POW10[precision]!;
  const t = BigInt(ticks);
  if (precision === 0) return Number(t);
  const n = Number(fixedText(t, precision));
  return n === 0 ? 0 : n;
}
