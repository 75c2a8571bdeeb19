// UUID wire bytes ↔ canonical text / RFC 4122 bytes.
//
// Invariant: the wire layout is two little-endian 64-bit halves (rowbinary.md §4): byte i of the
// canonical (RFC 4122) order is wire byte 7 - i for i < 8 and 23 - i for i ≥ 8.

const HEX: string[] = [];
for (let i = 0; i < 256; i++) HEX.push((i < 16 ? '0' : '') + i.toString(16));

/** Canonical lower-case text of the UUID whose wire bytes start at `offset`. */
export function uuidToString(bytes: Uint8Array, offset: number): string {
  const b = bytes;
  const o = offset;
  return HEX[b[o + 7]!]! + HEX[b[o + 6]!]! + HEX[b[o + 5]!]! + HEX[b[o + 4]!]! + '-'
    + HEX[b[o + 3]!]! + HEX[b[o + 2]!]! + '-' + HEX[b[o + 1]!]! + HEX[b[o]!]! + '-'
    + HEX[b[o + 15]!]! + HEX[b[o + 14]!]! + '-' + HEX[b[o + 13]!]! + HEX[b[o + 12]!]!
    + HEX[b[o + 11]!]! + HEX[b[o + 10]!]! + HEX[b[o + 9]!]! + HEX[b[o + 8]!]!;
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
