// Variable and fixed-size byte columns: String → Utf8, FixedString(N) → FixedSizeBinary(N),
// UUID → FixedSizeBinary(16) (RFC 4122 byte order, the storage of Arrow's canonical `arrow.uuid`
// extension, which the field declares), IPv6 → FixedSizeBinary(16) and IPv4 → FixedSizeBinary(4)
// (network byte order). UUID and IPv6 are what the engine's own Arrow output has; the engine writes
// IPv4 as UInt32, chwire/arrow as the address's four bytes so both IP types read alike.
//
// Invariants: `strings: 'raw'` columns share their memory (offsets reinterpreted as Int32, the same
// bits below 2 GiB); JS strings are encoded once into one growing buffer; text that does not
// parse as the type (never from a ClickHouse result) is an error naming the column.
import { makeData, Utf8, FixedSizeBinary, type Data, type DataType } from 'apache-arrow';
import { badForm, kindOf, isNull, type Converter, type Validity, type Where } from './converter.js';
import { writeIpv6 } from '../convert/encode-values.js';
import type { RawStringsColumn } from '../native/read/column-shapes.js';

const isRaw = (c: unknown): c is RawStringsColumn =>
  typeof c === 'object' && c !== null && (c as { kind?: unknown }).kind === 'strings';

const encoder = new TextEncoder();

/** Utf8 data of strings (UTF-8 encoded) or Uint8Arrays (bytes as they are). */
export function utf8Data(w: Where, type: DataType, vals: ArrayLike<unknown>, v: Validity): Data {
  const n = vals.length;
  const offsets = new Int32Array(n + 1);
  let cap = 16;
  for (let i = 0; i < n; i++) {
    const x = vals[i];
    if (typeof x === 'string') cap += x.length;
    else if (x instanceof Uint8Array) cap += x.length;
  }
  let buf = new Uint8Array(cap);
  let at = 0;
  for (let i = 0; i < n; i++) {
    const x = vals[i];
    if (typeof x === 'string') {
      // Room for ASCII was reserved; a string that did not fit is encoded again after a growth
      // (up to 3 bytes a UTF-16 unit).
      let r = encoder.encodeInto(x, buf.subarray(at));
      if (r.read !== x.length) {
        const grown = new Uint8Array(Math.max(2 * buf.length, at + 3 * x.length));
        grown.set(buf.subarray(0, at));
        buf = grown;
        r = encoder.encodeInto(x, buf.subarray(at));
      }
      at += r.written;
    } else if (x instanceof Uint8Array) {
      if (at + x.length > buf.length) {
        const grown = new Uint8Array(Math.max(2 * buf.length, at + x.length));
        grown.set(buf.subarray(0, at));
        buf = grown;
      }
      buf.set(x, at);
      at += x.length;
    } else if (x != null && !isNull(v, i)) throw badForm(w, kindOf(x), 'expected strings');
    if (at > 0x7fffffff) throw badForm(w, 'more than 2 GiB of text in one batch', 'Arrow Utf8 offsets are 32-bit');
    offsets[i + 1] = at;
  }
  return makeData({ type: type as Utf8, length: n, valueOffsets: offsets, data: buf.subarray(0, at), nullBitmap: v.nullBitmap, nullCount: v.nullCount });
}

/** String → Utf8. ClickHouse strings are bytes: `strings: 'raw'` carries them exactly. */
export function utf8(w: Where): Converter {
  const type = new Utf8();
  return {
    type,
    nullable: false,
    column(col, rows, v) {
      if (!isRaw(col)) return utf8Data(w, type, col as ArrayLike<unknown>, v);
      if (col.data.length > 0x7fffffff) throw badForm(w, 'more than 2 GiB of text', 'Arrow Utf8 offsets are 32-bit');
      const offsets = new Int32Array(col.offsets.buffer, col.offsets.byteOffset, rows + 1);
      return makeData({ type, length: rows, valueOffsets: offsets, data: col.data, nullBitmap: v.nullBitmap, nullCount: v.nullCount });
    },
    values: (vals, v) => utf8Data(w, type, vals, v),
  };
}

/** A FixedSizeBinary(width) converter whose values are turned into bytes by `put` (false: not that form). */
function fixedBinary(width: number, put: (x: unknown, out: Uint8Array, at: number) => boolean, w: Where, expected: string, metadata?: ReadonlyMap<string, string>): Converter {
  const type = new FixedSizeBinary(width);
  return {
    type,
    nullable: false,
    ...(metadata === undefined ? {} : { metadata }),
    values(vals, v) {
      const n = vals.length;
      const out = new Uint8Array(width * n);
      for (let i = 0; i < n; i++) {
        const x = vals[i];
        if (x == null || isNull(v, i)) continue;
        if (!put(x, out, i * width)) throw badForm(w, kindOf(x), `expected ${expected}`);
      }
      return makeData({ type, length: n, data: out, nullBitmap: v.nullBitmap, nullCount: v.nullCount });
    },
  };
}

/** FixedString(N): raw bytes shared; strings must encode to exactly N bytes (else read with strings: 'raw'). */
export function fixedString(w: Where, length: number): Converter {
  const conv = fixedBinary(length, (x, out, at) => {
    if (x instanceof Uint8Array && x.length === length) out.set(x, at);
    else if (typeof x === 'string') {
      const r = encoder.encodeInto(x, out.subarray(at, at + length));
      if (r.read !== x.length || r.written !== length) throw badForm(w, 'text that is not its N bytes', "read it with strings: 'raw' (its bytes are not UTF-8)");
    } else return false;
    return true;
  }, w, `${length}-byte values`);
  return {
    ...conv,
    column(col, rows, v) {
      if (!isRaw(col)) return conv.values(col as ArrayLike<unknown>, v);
      return makeData({ type: conv.type as FixedSizeBinary, length: rows, data: col.data, nullBitmap: v.nullBitmap, nullCount: v.nullCount });
    },
  };
}

const hex = (c: number): number => (c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1);

/** UUID text → 16 bytes in RFC 4122 order; false when it is not canonical text. */
function putUuid(x: unknown, out: Uint8Array, at: number): boolean {
  if (x instanceof Uint8Array && x.length === 16) {
    out.set(x, at);
    return true;
  }
  if (typeof x !== 'string' || x.length !== 36) return false;
  let k = 0;
  for (let i = 0; i < 36; i++) {
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (x.charCodeAt(i) !== 45) return false;
      continue;
    }
    const hi = hex(x.charCodeAt(i));
    const lo = hex(x.charCodeAt(++i));
    if (hi < 0 || lo < 0) return false;
    out[at + k++] = (hi << 4) | lo;
  }
  return true;
}

export function uuid(w: Where): Converter {
  return fixedBinary(16, putUuid, w, 'UUID text or 16 bytes', new Map([['ARROW:extension:name', 'arrow.uuid'], ['ARROW:extension:metadata', '']]));
}

export function ipv6(w: Where): Converter {
  return fixedBinary(16, (x, out, at) => {
    if (!(typeof x === 'string' || (x instanceof Uint8Array && x.length === 16))) return false;
    try {
      writeIpv6(x, out, at);
      return true;
    } catch {
      return false;
    }
  }, w, 'IPv6 text or 16 bytes');
}

/** IPv4 → the address's 4 bytes (a.b.c.d → [a, b, c, d]), from fetchColumns' Uint32Array or text. */
export function ipv4(w: Where): Converter {
  const put4 = (u: number, out: Uint8Array, at: number): void => {
    out[at] = u >>> 24; out[at + 1] = (u >>> 16) & 255; out[at + 2] = (u >>> 8) & 255; out[at + 3] = u & 255;
  };
  const conv = fixedBinary(4, (x, out, at) => {
    if (typeof x !== 'string') return false;
    const parts = x.split('.');
    if (parts.length !== 4) return false;
    for (let k = 0; k < 4; k++) {
      const p = parts[k]!;
      if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return false;
      out[at + k] = Number(p);
    }
    return true;
  }, w, 'IPv4 text');
  return {
    ...conv,
    column(col, rows, v) {
      if (!(col instanceof Uint32Array)) return conv.values(col as ArrayLike<unknown>, v);
      const out = new Uint8Array(4 * rows);
      for (let i = 0; i < rows; i++) put4(col[i]!, out, 4 * i);
      return makeData({ type: conv.type as FixedSizeBinary, length: rows, data: out, nullBitmap: v.nullBitmap, nullCount: v.nullCount });
    },
  };
}
