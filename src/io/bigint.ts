// Little-endian 64/128/256-bit integers → bigint, and the fast exact paths for 64-bit values.
//
// Invariant: every function is exact. The 64-bit helpers avoid DataView#getBigUint64 when the
// value is small: bench/micro/int64.ts (Node 20, loaded machine) measured BigInt(u32) ~47 ns,
// BigInt(exact double) ~68 ns, getBigUint64 ~82 ns, BigUint64Array[i] ~55 ns, a plain number
// ~3 ns. The BigInt allocation itself is the floor; there is no cheaper exact way. 128/256-bit
// values are combined from 64-bit limbs with shifts (no string round trip).

const TWO32 = 4294967296;

/**
 * 0n..1023n, built once: bigints are immutable primitives, so handing the same one to many rows
 * is invisible to users, and small values (flags, counts, codes) then cost an array load instead
 * of a ~40-80 ns BigInt allocation.
 */
const SMALL: readonly bigint[] = Array.from({ length: 1024 }, (_, i) => BigInt(i));

/** UInt64 at p as bigint. */
export function readUInt64Big(dv: DataView, p: number): bigint {
  const hi = dv.getUint32(p + 4, true);
  if (hi === 0) {
    const lo = dv.getUint32(p, true);
    return lo < 1024 ? SMALL[lo]! : BigInt(lo);
  }
  if (hi < 0x200000) return BigInt(hi * TWO32 + dv.getUint32(p, true));
  return dv.getBigUint64(p, true);
}

/** Int64 at p as bigint. */
export function readInt64Big(dv: DataView, p: number): bigint {
  const hi = dv.getInt32(p + 4, true);
  if (hi === 0) {
    const lo = dv.getUint32(p, true);
    return lo < 1024 ? SMALL[lo]! : BigInt(lo);
  }
  if (hi === -1) {
    const lo = dv.getInt32(p, true);
    if (lo < 0) return BigInt(lo);
  }
  if (hi < 0x200000 && hi >= -0x200000) return BigInt(hi * TWO32 + dv.getUint32(p, true));
  return dv.getBigInt64(p, true);
}

/** UInt64 at p as the nearest double (exact below 2^53). */
export function readUInt64Number(dv: DataView, p: number): number {
  return dv.getUint32(p + 4, true) * TWO32 + dv.getUint32(p, true);
}

/** Int64 at p as the nearest double (exact within ±2^53): the exact sum is rounded once. */
export function readInt64Number(dv: DataView, p: number): number {
  return dv.getInt32(p + 4, true) * TWO32 + dv.getUint32(p, true);
}

/**
 * Int64 at p exactly: a number when it is a safe integer (the common case, no allocation), else a
 * bigint. For converters that take either (DateTime64 ticks, Decimal64, Time64).
 */
export function readInt64Exact(dv: DataView, p: number): number | bigint {
  const hi = dv.getInt32(p + 4, true);
  if (hi < 0x200000 && hi >= -0x200000) return hi * TWO32 + dv.getUint32(p, true);
  return dv.getBigInt64(p, true);
}

/** UInt64 as exact decimal text. */
export function readUInt64String(dv: DataView, p: number): string {
  const hi = dv.getUint32(p + 4, true);
  if (hi < 0x200000) return String(hi * TWO32 + dv.getUint32(p, true));
  return dv.getBigUint64(p, true).toString();
}

/** Int64 as exact decimal text. */
export function readInt64String(dv: DataView, p: number): string {
  const hi = dv.getInt32(p + 4, true);
  if (hi < 0x200000 && hi >= -0x200000) return String(hi * TWO32 + dv.getUint32(p, true));
  return dv.getBigInt64(p, true).toString();
}

/** Unsigned little-endian integer of `bytes` bytes (a multiple of 8) at p. */
export function readUIntBig(dv: DataView, p: number, bytes: number): bigint {
  let v = dv.getBigUint64(p + bytes - 8, true);
  for (let i = bytes - 16; i >= 0; i -= 8) v = (v << 64n) | dv.getBigUint64(p + i, true);
  return v;
}

/** Signed (two's complement) little-endian integer of `bytes` bytes (a multiple of 8) at p. */
export function readIntBig(dv: DataView, p: number, bytes: number): bigint {
  let v = dv.getBigInt64(p + bytes - 8, true);
  for (let i = bytes - 16; i >= 0; i -= 8) v = (v << 64n) | dv.getBigUint64(p + i, true);
  return v;
}

export const readUInt128 = (dv: DataView, p: number): bigint => readUIntBig(dv, p, 16);
export const readInt128 = (dv: DataView, p: number): bigint => readIntBig(dv, p, 16);
export const readUInt256 = (dv: DataView, p: number): bigint => readUIntBig(dv, p, 32);
export const readInt256 = (dv: DataView, p: number): bigint => readIntBig(dv, p, 32);
