// Test helpers for chwire/arrow: one comparable JS value per Arrow cell, read from the vector's own
// buffers (timestamps as their raw Int64 in the unit, decimals as their words), and the same cell
// turned into what the client's fetch() gives for that ClickHouse type, so Arrow tables compare
// with the engine's own Arrow output and with rows read without Arrow.
import { DataType, type Vector, type Table, type Decimal, type Field } from 'apache-arrow';
import { decimalToString } from '../../src/convert/decimal.js';
import { ipv6ToString } from '../../src/convert/ip.js';

/** The raw stored value of row i of a fixed-width vector (any chunk). */
export function rawAt(vec: Vector, i: number): unknown {
  let k = i;
  for (const d of vec.data) {
    if (k < d.length) return (d.values as ArrayLike<unknown>)[k]; // a sliced Data's values start at its offset
    k -= d.length;
  }
  throw new RangeError(`row ${i} beyond ${vec.length}`);
}

/** A comparable cell: null, strings for 64-bit/timestamps, arrays of bytes/words, nested lists. */
export function cellAt(vec: Vector, i: number): unknown {
  if (!vec.isValid(i)) return null;
  const t = vec.type;
  if (DataType.isTimestamp(t)) return String(rawAt(vec, i));
  const v = vec.get(i) as unknown;
  if (DataType.isList(t)) {
    const child = v as Vector;
    return Array.from({ length: child.length }, (_, k) => cellAt(child, k));
  }
  return plain(v);
}

function plain(v: unknown): unknown {
  if (typeof v === 'bigint') return String(v);
  if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<number>);
  return v;
}

/** Every cell of column `name`. */
export function columnCells(t: Table, name: string): unknown[] {
  const vec = t.getChild(name)!;
  return Array.from({ length: vec.length }, (_, i) => cellAt(vec, i));
}

/** Ticks of `unit` (0 s … 3 ns) → ms, floored (what fetch's Date holds for DateTime64(P > 3)). */
function flooredMs(raw: bigint | number, unit: number): number {
  const t = BigInt(raw);
  if (unit <= 1) return Number(t) * (unit === 0 ? 1000 : 1);
  const d = unit === 2 ? 1000n : 1_000_000n;
  let q = t / d;
  if (t % d < 0n) q -= 1n;
  return Number(q);
}

function words(w: ArrayLike<number>): bigint {
  let x = 0n;
  for (let k = w.length - 1; k >= 0; k--) x = (x << 32n) | BigInt(w[k]! >>> 0);
  return BigInt.asIntN(32 * w.length, x);
}

const hex = (b: ArrayLike<number>): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

/** Row i of an Arrow vector as the client's fetch() (default options) gives it for ClickHouse type `ch`. */
export function fetchLikeAt(vec: Vector, i: number, ch: string, field?: Field): unknown {
  if (!vec.isValid(i)) return null;
  const t = vec.type;
  if (DataType.isTimestamp(t)) return new Date(flooredMs(rawAt(vec, i) as bigint, t.unit));
  if (DataType.isDate(t)) return new Date(vec.get(i) as number);
  if (DataType.isDecimal(t)) return decimalToString(words(vec.get(i) as Uint32Array), (t as Decimal).scale);
  if (DataType.isList(t)) {
    const child = vec.get(i) as Vector;
    const inner = /^Array\((.*)\)$/.exec(ch)![1]!;
    return Array.from({ length: child.length }, (_, k) => fetchLikeAt(child, k, inner));
  }
  const v = vec.get(i) as unknown;
  if (DataType.isFixedSizeBinary(t)) {
    const b = v as Uint8Array;
    if (/UUID/.test(ch) || field?.metadata.get('ARROW:extension:name') === 'arrow.uuid') {
      const h = hex(b);
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    }
    if (/IPv4/.test(ch)) return Array.from(b).join('.');
    if (/IPv6/.test(ch)) return ipv6ToString(b, 0);
    return new TextDecoder().decode(b);
  }
  return v;
}

/** Every row of column `name` as fetch() gives it. */
export function columnFetchLike(t: Table, name: string, ch: string): unknown[] {
  const vec = t.getChild(name)!;
  const field = t.schema.fields.find((f) => f.name === name);
  return Array.from({ length: vec.length }, (_, i) => fetchLikeAt(vec, i, ch, field));
}
