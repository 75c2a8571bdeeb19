// IPv4 / IPv6 → the text the engine prints.
//
// Invariant: matches ClickHouse's formatting: IPv4 dotted quad (the UInt32's most significant
// byte first); IPv6 lower-case hex groups without leading zeros, the longest run (≥ 2, first on
// ties) of zero groups as `::`, and IPv4-mapped/compatible addresses with a dotted tail
// (`::ffff:1.2.3.4`, `::1.2.3.4`; but `::1`, `::2`, `::ffff` stay hex), as the engine prints them.

/** Dotted-quad text of an IPv4 held as a UInt32. */
export function ipv4ToString(u32: number): string {
  return (u32 >>> 24) + '.' + ((u32 >>> 16) & 255) + '.' + ((u32 >>> 8) & 255) + '.' + (u32 & 255);
}

/** Text of the IPv6 whose 16 network-order bytes start at `offset`. */
export function ipv6ToString(bytes: Uint8Array, offset: number): string {
  const g: number[] = [];
  for (let i = 0; i < 8; i++) g.push((bytes[offset + 2 * i]! << 8) | bytes[offset + 2 * i + 1]!);
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8;) {
    if (g[i] !== 0) { i++; continue; }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen) { bestStart = i; bestLen = j - i; }
    i = j;
  }
  // An embedded IPv4 (inet_ntop's rule, checked against the engine): the longest zero run starts
  // the address and is either words 0-5 ("::1.2.3.4", but not "::2") or words 0-4 before ffff.
  if (bestStart === 0 && (bestLen === 6 || (bestLen === 5 && g[5] === 0xffff))) {
    const o = offset + 12;
    return (bestLen === 5 ? '::ffff:' : '::') + bytes[o] + '.' + bytes[o + 1] + '.' + bytes[o + 2] + '.' + bytes[o + 3];
  }
  if (bestLen < 2) return g.map((x) => x.toString(16)).join(':');
  const head = g.slice(0, bestStart).map((x) => x.toString(16)).join(':');
  const tail = g.slice(bestStart + bestLen).map((x) => x.toString(16)).join(':');
  return head + '::' + tail;
}
