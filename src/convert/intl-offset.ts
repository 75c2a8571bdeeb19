// A zone's UTC offset at an instant by this runtime's Intl time-zone data.
//
// Invariant: one formatter per call of intlOffsets (built once, then only formats); a zone Intl
// does not know gives undefined, never a guess.

/** `(t) =>` the offset (seconds east of UTC) in force at instant `t` (seconds) in `zone`, or undefined for an unknown zone. */
export function intlOffsets(zone: string): ((t: number) => number) | undefined {
  let fmt: Intl.DateTimeFormat;
  try {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', era: 'short', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
  } catch {
    return undefined;
  }
  return (t) => {
    const p: Record<string, string> = {};
    for (const part of fmt.formatToParts(t * 1000)) p[part.type] = part.value;
    let y = Number(p.year);
    if (p.era === 'BC' || p.era === 'B') y = 1 - y;
    const d = new Date(0);
    d.setUTCFullYear(y, Number(p.month) - 1, Number(p.day));
    d.setUTCHours(Number(p.hour), Number(p.minute), Number(p.second), 0);
    return d.getTime() / 1000 - t;
  };
}
