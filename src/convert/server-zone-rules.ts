// A server's own offsets for one time zone (1900–2299 where it has DateTime64, else 1970–2105), learnt with two queries: the server
// lists the days whose offset changed (one sample a day), then the exact 15-minute step of each
// change within those days. An insert reads zone-less date-time text with these offsets, so the
// text is stored as that server reads it even when this runtime's tz database (Intl) is newer or
// older than the server's (Africa/Casablanca from 2026 under tzdata 2026a+; 1974 on 18.16).
//
// Invariant: no I/O. The SQL names the zone only as a quoted string literal; the rules are what the
// server answered, checked for order; an instant outside their range has no offset here.

import { quoteString } from '../types/quote.js';
import { intlOffsets } from './intl-offset.js';

/** The instants learnt: what the server's DateTime64 covers (1900–2299), or its DateTime (1970–2105) before DateTime64. */
export interface RulesRange { readonly from: number; readonly to: number; readonly dateTime64: boolean }

/** Servers with DateTime64 (21.1+ here): 1900-01-02 to 2299-12-30. */
export const RANGE_1900_2299: RulesRange = { from: -2208902400, to: 10413619200, dateTime64: true };
/** Older servers: 1970-01-02 to 2105-12-30 (18.16 reads no text from 2106 on back). */
export const RANGE_1970_2105: RulesRange = { from: 86400, to: 4291660800, dateTime64: false };

/** No zone is further than this from UTC (Pacific/Kiritimati +14:00; local mean times stay within it). */
const MAX_OFFSET = 16 * 3600;
const COARSE = 86400;
const FINE = 900;

/** The server's offset (seconds east of UTC) at the instant `x` (seconds), through its own text of that instant. */
function offsetSql(x: string, zone: string, range: RulesRange): string {
  const z = quoteString(zone);
  return range.dateTime64
    ? `(intDiv(toUnixTimestamp64Milli(toDateTime64(toString(toDateTime64(${x}, 0, ${z})), 0, 'UTC')), 1000) - ${x})`
    : `(toInt64(toUInt32(toDateTime(toString(toDateTime(toUInt32(${x}), ${z})), 'UTC'))) - ${x})`;
}

/**
 * Step 1 (TabSeparated rows `t, offset, offset a day earlier`): the first instant, then every day
 * whose offset differs from the day before. Runs on every server version chwire supports (18.16 on).
 */
export function coarseChangesSql(zone: string, range: RulesRange): string {
  const t = `toInt64(${range.from} + number * ${COARSE})`;
  const p = `toInt64(${range.from} + number * ${COARSE} - ${COARSE})`;
  return `SELECT ${t} AS t, ${offsetSql(t, zone, range)} AS o, ${offsetSql(p, zone, range)} AS p FROM numbers(${Math.floor((range.to - range.from) / COARSE) + 1}) WHERE number = 0 OR o != p ORDER BY t`;
}

/** Step 2: every 15-minute step inside the days ending at `coarse` (step 1's changes) whose offset changed. */
export function fineChangesSql(zone: string, coarse: readonly number[], range: RulesRange): string {
  const starts = coarse.map((t) => String(Math.trunc(t) - COARSE)).join(',');
  const t = `toInt64(s + ${FINE} * i)`;
  const p = `toInt64(s + ${FINE} * i - ${FINE})`;
  return `SELECT ${t} AS t, ${offsetSql(t, zone, range)} AS o, ${offsetSql(p, zone, range)} AS p FROM (SELECT toInt64(s) AS s, arrayJoin(arrayMap(x -> x + 1, range(${COARSE / FINE}))) AS i FROM (SELECT arrayJoin([${starts}]) AS s)) WHERE o != p ORDER BY t`;
}

/** `t\to\tp` lines → rows of numbers; undefined when a line is not three integers. */
export function parseChanges(tsv: string): { t: number; o: number; p: number }[] | undefined {
  const out: { t: number; o: number; p: number }[] = [];
  for (const line of tsv.split('\n')) {
    if (line === '') continue;
    const f = line.split('\t').map(Number);
    if (f.length !== 3 || !f.every(Number.isSafeInteger)) return undefined;
    out.push({ t: f[0]!, o: f[1]!, p: f[2]! });
  }
  return out;
}

/** One zone's offsets on one server, over `range`. */
export interface ServerZoneRules {
  readonly zone: string;
  readonly range: RulesRange;
  /** Instants (seconds) from which each offset holds, ascending; at[0] = range.from. */
  readonly at: Float64Array;
  /** Offset (seconds east of UTC) from at[i] on. */
  readonly offset: Int32Array;
}

/**
 * The rules from step 1's first row's offset and step 2's changes; undefined when they are not
 * ascending or do not chain (an offset before a change that is not the one in force). A change
 * is known to 15 minutes; where this runtime's Intl has the same two offsets around it, Intl's
 * exact second is taken (changes before 1970 happen at odd seconds in UTC).
 */
export function serverZoneRules(zone: string, first: number, changes: readonly { t: number; o: number; p: number }[], range: RulesRange): ServerZoneRules | undefined {
  const at = new Float64Array(changes.length + 1);
  const offset = new Int32Array(changes.length + 1);
  if (!(Math.abs(first) <= MAX_OFFSET)) return undefined;
  at[0] = range.from;
  offset[0] = first;
  const intl = intlOffsets(zone);
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i]!;
    if (!(c.t > at[i]!) || c.p !== offset[i] || !(Math.abs(c.o) <= MAX_OFFSET)) return undefined;
    let t = c.t;
    if (intl !== undefined && intl(t) === c.o && intl(t - FINE) === c.p) {
      let a = t - FINE;
      while (t - a > 1) {
        const m = Math.floor((a + t) / 2);
        if (intl(m) === c.p) a = m;
        else t = m;
      }
    }
    at[i + 1] = Math.max(t, at[i]! + 1);
    offset[i + 1] = c.o;
  }
  return { zone, range, at, offset };
}

/** The offset the server uses at instant `t` (seconds), or undefined outside the rules' range. */
export function serverOffsetAt(rules: ServerZoneRules, t: number): number | undefined {
  if (!(t >= rules.range.from && t <= rules.range.to)) return undefined;
  const at = rules.at;
  let lo = 0;
  let hi = at.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (at[mid]! <= t) lo = mid;
    else hi = mid - 1;
  }
  return rules.offset[lo]!;
}
