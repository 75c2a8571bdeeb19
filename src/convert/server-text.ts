// Date-times as the server prints them: "2023-11-14 17:13:20" on the wall clock of the column's
// time zone, DateTime64 with exactly P fractional digits ("1969-12-31 23:59:59.500"), for the
// decode option `datetime: 'text'`.
//
// Invariant: one ZoneText per column and decoder instance (built once, from the type's zone);
// the zone's UTC offset comes from the runtime's Intl time-zone data and is memoised per
// 15-minute span of instants in a bounded map: a span whose two ends have the same offset holds
// no transition (zones change offset at most a few times a year, never twice within 15 minutes),
// a span with a transition inside is asked per value. A type without a zone is written in UTC
// (the decoder does not know the server's zone). A zone Intl does not know is a ChwireConfigError
// when the decoder is built, never a silent UTC.
import { ChwireConfigError } from '../errors.js';
import { secondsToWall } from './datetime.js';

const SPAN = 900;
const MEMO_LIMIT = 8192;
const MIXED = 1e9;

/** "YYYY-MM-DD hh:mm:ss" of whole seconds on a UTC wall clock. */
const wall = secondsToWall;

export class ZoneText {
  private readonly offsetOf: ((seconds: number) => number) | undefined;
  private memo = new Map<number, number>();

  constructor(zone: string | undefined) {
    if (zone === undefined || zone === 'UTC' || zone === 'Etc/UTC' || zone === 'UCT' || zone === 'Etc/UCT' || zone === 'Universal' || zone === 'Zulu') {
      this.offsetOf = undefined;
      return;
    }
    let fmt: Intl.DateTimeFormat;
    try {
      fmt = new Intl.DateTimeFormat('en-US', {
        timeZone: zone, hourCycle: 'h23', era: 'short', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
      });
    } catch {
      throw new ChwireConfigError(`time zone ${JSON.stringify(zone)} is unknown to this runtime's Intl data: datetime: 'text' cannot print in it (decode with 'Date', 'string' or 'number')`);
    }
    this.offsetOf = (s) => {
      const p: Record<string, string> = {};
      for (const part of fmt.formatToParts(s * 1000)) p[part.type] = part.value;
      const y = p['era'] === 'BC' || p['era'] === 'B' ? 1 - Number(p['year']) : Number(p['year']);
      const local = Date.UTC(y, Number(p['month']) - 1, Number(p['day']), Number(p['hour']), Number(p['minute']), Number(p['second']));
      // Date.UTC maps years 0-99 to 1900-1999; no DateTime reaches them, but stay exact.
      const fixed = y >= 0 && y < 100 ? new Date(local).setUTCFullYear(y) : local;
      return fixed / 1000 - s;
    };
  }

  private offset(s: number): number {
    const offsetOf = this.offsetOf!;
    const span = Math.floor(s / SPAN);
    let o = this.memo.get(span);
    if (o === undefined) {
      const start = span * SPAN;
      const a = offsetOf(start);
      o = a === offsetOf(start + SPAN - 1) ? a : MIXED;
      if (this.memo.size >= MEMO_LIMIT) this.memo = new Map();
      this.memo.set(span, o);
    }
    return o === MIXED ? offsetOf(s) : o;
  }

  /** Whole Unix seconds → "YYYY-MM-DD hh:mm:ss" in the zone. */
  seconds(s: number): string {
    return wall(this.offsetOf === undefined ? s : s + this.offset(s));
  }

  /** DateTime64 ticks of 10^-P s → "YYYY-MM-DD hh:mm:ss[.f×P]" in the zone (the fraction floors toward the past). */
  ticks(ticks: bigint | number, precision: number): string {
    if (precision === 0) return this.seconds(Number(ticks));
    let s: number;
    let frac: number;
    if (typeof ticks === 'number' && Math.abs(ticks) <= Number.MAX_SAFE_INTEGER) {
      const d = POW10[precision]!;
      s = Math.floor(ticks / d);
      frac = ticks - s * d;
      // ticks / d may round across an integer: correct by one (both sides exact integers).
      if (frac < 0) { s--; frac += d; } else if (frac >= d) { s++; frac -= d; }
    } else {
      const t = BigInt(ticks);
      const d = POW10N[precision]!;
      let q = t / d;
      if (t % d !== 0n && t < 0n) q -= 1n;
      s = Number(q);
      frac = Number(t - q * d);
    }
    return this.seconds(s) + '.' + String(frac).padStart(precision, '0');
  }
}

const POW10: number[] = [];
const POW10N: bigint[] = [];
for (let i = 0; i <= 18; i++) { POW10.push(10 ** i); POW10N.push(10n ** BigInt(i)); }
