// Wall-clock text of an instant in a named IANA time zone, as ClickHouse writes a DateTime
// ("2024-01-02 03:04:05"), through the runtime's Intl time-zone data.
//
// Zone-less text on insert is read with the server's own offsets where the client has learnt them
// (wallClockReader's `server`), so a tz database that differs between runtime and server changes
// nothing there.
//
// Invariant: a formatter is built once per zone (zoneClock) and then only formats; a zone this
// runtime's Intl does not know gives undefined, and the caller decides (never a silent UTC).
import { serverOffsetAt, type ServerZoneRules } from './server-zone-rules.js';
import { intlOffsets } from './intl-offset.js';

/** `(ms) => "YYYY-MM-DD hh:mm:ss"` in `zone` (whole seconds, floored), or undefined for an unknown zone. */
export function zoneClock(zone: string): ((ms: number) => string) | undefined {
  let fmt: Intl.DateTimeFormat;
  try {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
  } catch {
    return undefined;
  }
  return (ms) => {
    const p: Record<string, string> = {};
    for (const part of fmt.formatToParts(Math.floor(ms / 1000) * 1000)) p[part.type] = part.value;
    return `${p.year!.padStart(4, '0')}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
  };
}

/** Zone names that are UTC under every rule set: their wall clock is the instant. */
const UTC_NAMES = new Set([
  'UTC', 'Etc/UTC', 'UCT', 'Etc/UCT', 'Universal', 'Etc/Universal', 'Zulu', 'Etc/Zulu',
  'GMT', 'Etc/GMT', 'GMT0', 'Etc/GMT0', 'GMT+0', 'Etc/GMT+0', 'GMT-0', 'Etc/GMT-0', 'Greenwich', 'Etc/Greenwich',
]);

export function isUtcZone(zone: string): boolean {
  return UTC_NAMES.has(zone);
}

/** The first and last years a zone's wall clock is read in (ClickHouse's DateLUT covers 1900–2299). */
export const WALL_MIN_SECONDS = -2208988800; // 1900-01-01 00:00:00 (as wall seconds)
export const WALL_MAX_SECONDS = 10413791999; // 2299-12-31 23:59:59

interface DayRule {
  /** Offset (seconds east of UTC) before the change near this day. */
  readonly before: number;
  /** Offset after it (= before when none). */
  readonly after: number;
  /** Wall seconds, on the clock before the change, at which it happens (Infinity when none). */
  readonly at: number;
  /** The wall day the change belongs to: the earlier of the days of its two wall times. */
  readonly day: number;
}

/**
 * Wall-clock seconds (the clock's fields counted as if UTC) → the instant, in seconds, as
 * ClickHouse reads zone-less text in `zone` (DateLUTImpl::makeDateTime): a time from the day's
 * offset change on is read with the offset after the change, an earlier one with the offset before;
 * the change belongs to the earlier of the days of its two wall times (the server's table of days
 * is built day by day), so a time on a later day is read with the offset after it (America/St_Johns,
 * 2008-11-02 00:00:30, repeated when 00:01 became 23:01 the day before, is the later instant); the
 * change's time of day is floored to 15 minutes, as the server stores it. Near a change by an
 * amount that is no multiple of 15 minutes (the end of a local mean time) the reader gives NaN.
 * So a time in a gap (clocks forward: 02:30 on a spring-forward day in America/New_York) is read
 * with the new offset (06:30Z, printed back as 01:30 EST), and a time in an overlap (clocks back:
 * 01:30 on the fall-back day) as the earlier of its two instants. Undefined for a zone this
 * runtime's Intl does not know (and no `server` rules given). Wall times outside 1900–2299 give NaN
 * (the server's reading there is not the zone's rules). Offsets come from `server` (that server's
 * own offsets, 1900–2299 or 1970–2105: server-zone-rules.ts) where given and in range, else from Intl, once per
 * wall day (bounded memo).
 */
export function wallClockReader(zone: string, server?: ServerZoneRules): ((wall: number) => number) | undefined {
  if (isUtcZone(zone)) return (wall) => wall;
  const intl = intlOffsets(zone);
  if (intl === undefined && server === undefined) return undefined;
  /** Offset (seconds east of UTC) in force at the instant `t` (seconds): the server's where learnt, else Intl's. */
  const offsetAt = (t: number): number => {
    if (server !== undefined) {
      const o = serverOffsetAt(server, t);
      if (o !== undefined) return o;
    }
    return intl === undefined ? NaN : intl(t);
  };
  // A wall day's instants lie within [day - 16 h, day + 1 day + 16 h] for any offset in use.
  const SPAN = 16 * 3600;
  const ruleOf = (wallDay: number): DayRule => {
    const lo = wallDay * 86400 - 86400 - SPAN;
    const hi = wallDay * 86400 + 2 * 86400 + SPAN;
    const before = offsetAt(lo);
    const after = offsetAt(hi);
    if (before === after) return { before, after, at: Infinity, day: Infinity };
    // The first instant with the later offset (one change in the window: zones change at most
    // twice a year).
    let a = lo;
    let b = hi;
    while (b - a > 1) {
      const mid = Math.floor((a + b) / 2);
      if (offsetAt(mid) === before) a = mid;
      else b = mid;
    }
    // The server keeps a change's time of day and amount in 15-minute units: a change at 00:01
    // takes effect from 00:00 (America/St_Johns, 2008), and one by an amount that is no multiple
    // of 15 minutes (a local mean time ending) cannot be read there as the zone's rules say.
    if ((after - before) % 900 !== 0) return { before: NaN, after: NaN, at: Infinity, day: Infinity };
    const day = Math.floor((b + Math.min(before, after)) / 86400);
    return { before, after, at: day * 86400 + Math.floor((b + before - day * 86400) / 900) * 900, day };
  };
  const rules = new Map<number, DayRule>();
  return (wall) => {
    if (!(wall >= WALL_MIN_SECONDS && wall <= WALL_MAX_SECONDS)) return NaN;
    const day = Math.floor(wall / 86400);
    let r = rules.get(day);
    if (r === undefined) {
      if (rules.size >= 4096) rules.clear();
      r = ruleOf(day);
      rules.set(day, r);
    }
    return wall < r.at && day <= r.day ? wall - r.before : wall - r.after;
  };
}
