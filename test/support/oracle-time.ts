// Engine date/time TEXT → exact instants, for the oracle (test/support/expect.ts).
//
// The engine's JSON prints DateTime/DateTime64 in the column's zone ("2024-01-02 08:34:05" for
// Asia/Kolkata) with exactly P fractional digits. We turn that text back into an exact count of
// 10^-P-second ticks since the epoch (a bigint, so nothing is rounded), using the platform's IANA
// data (Intl) for the zone offset. Invariant: every conversion here is exact integer arithmetic;
// the only doubles produced are the final values, via correctly rounded decimal parsing.
//
// Limit (documented, avoided by the tests): a local time inside a DST fold is ambiguous as text;
// we resolve it the way the two-pass offset search lands, which may differ from the engine.

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', era: 'short',
      year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** Offset of `zone` from UTC at the instant `utcSeconds`, in whole seconds (LMT offsets have seconds). */
export function zoneOffsetSeconds(zone: string, utcSeconds: number): number {
  const parts = formatterFor(zone).formatToParts(new Date(utcSeconds * 1000));
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value);
  const era = parts.find((p) => p.type === 'era')?.value;
  const year = era === 'BC' ? 1 - get('year') : get('year');
  const d = new Date(0);
  d.setUTCFullYear(year, get('month') - 1, get('day'));
  d.setUTCHours(get('hour'), get('minute'), get('second'), 0);
  return Math.round(d.getTime() / 1000) - utcSeconds;
}

const TEXT_RE = /^(-?\d{4,})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?$/;

/**
 * "YYYY-MM-DD hh:mm:ss[.fff…]" in `zone` → ticks of 10^-precision s since the epoch (UTC).
 * Throws when the text does not have exactly `precision` fractional digits (a harness mistake).
 */
export function engineDateTimeTextToTicks(text: string, precision: number, zone: string): bigint {
  const m = TEXT_RE.exec(text);
  if (m === null) throw new Error(`oracle: not an engine DateTime text: ${JSON.stringify(text)}`);
  const frac = m[7] ?? '';
  if (frac.length !== precision) throw new Error(`oracle: expected ${precision} fractional digits in ${JSON.stringify(text)}`);
  const d = new Date(0);
  d.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  d.setUTCHours(Number(m[4]), Number(m[5]), Number(m[6]), 0);
  const local = d.getTime() / 1000;
  // Two passes: the offset at the first guess may differ from the offset at the true instant.
  const guess = local - zoneOffsetSeconds(zone, local);
  const utc = local - zoneOffsetSeconds(zone, guess);
  const scale = 10n ** BigInt(precision);
  return BigInt(utc) * scale + (frac === '' ? 0n : BigInt(frac));
}

/** Floor division for bigints (BigInt `/` truncates toward zero; instants before 1970 need floor). */
export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}

/** Exact decimal text of `ticks / 10^shift` (shift ≥ 0), e.g. (-1n, 6) → "-0.000001". */
export function ticksToDecimalText(ticks: bigint, shift: number): string {
  if (shift === 0) return ticks.toString();
  const neg = ticks < 0n;
  const abs = (neg ? -ticks : ticks).toString().padStart(shift + 1, '0');
  return `${neg ? '-' : ''}${abs.slice(0, -shift)}.${abs.slice(-shift)}`;
}

/** ticks (10^-P s) → milliseconds, floored to a whole millisecond: the instant a JS Date can hold. */
export function ticksToFlooredMillis(ticks: bigint, precision: number): number {
  if (precision <= 3) return Number(ticks * 10n ** BigInt(3 - precision));
  return Number(floorDiv(ticks, 10n ** BigInt(precision - 3)));
}

/** ticks → the double nearest to the exact number of milliseconds (fractional when P > 3). */
export function ticksToExactMillis(ticks: bigint, precision: number): number {
  if (precision <= 3) return Number(ticks * 10n ** BigInt(3 - precision));
  return Number(ticksToDecimalText(ticks, precision - 3));
}

/** ticks → "YYYY-MM-DDThh:mm:ss[.f×P]Z" in UTC, with exactly P fractional digits. */
export function ticksToIso(ticks: bigint, precision: number): string {
  const scale = 10n ** BigInt(precision);
  const seconds = floorDiv(ticks, scale);
  const frac = ticks - seconds * scale;
  const base = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  return precision === 0 ? `${base}Z` : `${base}.${frac.toString().padStart(precision, '0')}Z`;
}

const TIME_RE = /^(-?)(\d+):(\d{2}):(\d{2})(?:\.(\d+))?$/;

/** Engine Time/Time64 text ("-01:02:03.456789", "999:59:59") → seconds as the nearest double. */
export function engineTimeTextToSeconds(text: string, precision: number): number {
  const m = TIME_RE.exec(text);
  if (m === null) throw new Error(`oracle: not an engine Time text: ${JSON.stringify(text)}`);
  const frac = m[5] ?? '';
  if (frac.length !== precision) throw new Error(`oracle: expected ${precision} fractional digits in ${JSON.stringify(text)}`);
  const whole = Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4]);
  const n = Number(`${m[1]}${whole}${frac === '' ? '' : `.${frac}`}`);
  return n === 0 ? 0 : n; // "-00:00:00" is zero seconds, never -0
}

/** ticks → the engine's text of that instant in `zone` (the unambiguous direction, for cross-checks). */
export function ticksToZoneText(ticks: bigint, precision: number, zone: string): string {
  const scale = 10n ** BigInt(precision);
  const seconds = floorDiv(ticks, scale);
  const frac = ticks - seconds * scale;
  const local = Number(seconds) + zoneOffsetSeconds(zone, Number(seconds));
  const d = new Date(local * 1000);
  const base = `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 19)}`;
  return precision === 0 ? base : `${base}.${frac.toString().padStart(precision, '0')}`;
}
