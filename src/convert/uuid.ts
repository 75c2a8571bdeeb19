// UUID wire bytes ↔ canonical text / RFC 4122 bytes.
//
// Invariant: the wire layout is two little-endian 64-bit halves (rowbinary.md §4): byte i of the
// canonical (RFC 4122) order is wire byte 7 - i for i < 8 and 23 - i for i ≥ 8.

// Char codes of the two lower-case hex digits of every byte: HC[2b], HC[2b + 1].
const HC = new Uint16Array(512);
for (let i = 0; i < 256; i++) {
  HC[2 * i] = '0123456789abcdef'.charCodeAt(i >> 4);
  HC[2 * i + 1] = '0123456789abcdef'.charCodeAt(i & 15);
}

/**
 * Canonical lower-case text of the UUID whose wire bytes start at `offset`.
 * One String.fromCharCode call makes a flat one-byte string; concatenating 20 pieces would make a
 * rope of ~20 cons-strings per value, which measured 10× slower once the GC has to move them.
 */
export function uuidToString(bytes: Uint8Array, offset: number): string {
  const b = bytes;
  const o = offset;
  const h = HC;
  let x: number;
  return String.fromCharCode(
    h[x = b[o + 7]! * 2]!, h[x + 1]!, h[x = b[o + 6]! * 2]!, h[x + 1]!, h[x = b[o + 5]! * 2]!, h[x + 1]!, h[x = b[o + 4]! * 2]!, h[x + 1]!, 45,
    h[x = b[o + 3]! * 2]!, h[x + 1]!, h[x = b[o + 2]! * 2]!, h[x + 1]!, 45,
    h[x = b[o + 1]! * 2]!, h[x + 1]!, h[x = b[o]! * 2]!, h[x + 1]!, 45,
    h[x = b[o + 15]! * 2]!, h[x + 1]!, h[x = b[o + 14]! * 2]!, h[x + 1]!, 45,
    h[x = b[o + 13]! * 2]!, h[x + 1]!, h[x = b[o + 12]! * 2]!, h[x + 1]!, h[x = b[o + 11]! * 2]!, h[x + 1]!,
    h[x = b[o + 10]! * 2]!, h[x + 1]!, h[x = b[o + 9]! * 2]!, h[x + 1]!, h[x = b[o + 8]! * 2]!, h[x + 1]!,
  );
}

/** A new 16-byte array in RFC 4122 order from the wire bytes at `offset`. */
export function uuidToBytes(bytes: Uint8Array, offset: number): Uint8Array {
  const out = new Uint8Array(16);
  for (let i = 0; i < 8; i++) {
    out[i] = bytes[offset + 7 - i]!;
    out[8 + i] = bytes[offset + 15 - i]!;
  }
  return out;
}
