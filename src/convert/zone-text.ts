// Wall-clock text of an instant in a named IANA time zone, as ClickHouse writes a DateTime
// ("2024-01-02 03:04:05"), through the runtime's Intl time-zone data.
//
// Invariant: a formatter is built once per zone (zoneClock) and then only formats; a zone this
// runtime's Intl does not know gives undefined, and the caller decides (never a silent UTC).

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
