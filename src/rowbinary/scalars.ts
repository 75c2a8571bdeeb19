// Fixed-width scalar types: how many bytes, and how those bytes become the JS value that the
// column's options ask for — once as a function (prebuilt readers) and once as a JS expression
// (generated decoders), side by side so the two cannot drift apart unnoticed (the differential
// tests compare them too).
//
// Invariant: both forms assume the bytes [p, p + width) are present; they do no bounds checks.
// Validation that can fail (Bool byte, Enum value) throws a DecodeFault at the value's offset.
// Expressions reference only `u8`, `dv`, `H` (helpers.ts), the position expression they are
// given, integers through the emitter's checked hole and tables through its constants.
import type { TypeNode, EnumType } from '../types/ast.js';
import { decimalByteWidth } from '../types/ast.js';
import type { ResolvedValueOptions } from '../plan/options.js';
import type { Emitter } from '../codegen/emitter.js';
import { H } from './helpers.js';

export type ScalarFn = (dv: DataView, u8: Uint8Array, p: number) => unknown;

const SCALAR_KINDS = new Set([
  'UInt8', 'UInt16', 'UInt32', 'UInt64', 'UInt128', 'UInt256', 'Int8', 'Int16', 'Int32', 'Int64', 'Int128', 'Int256',
  'Float32', 'Float64', 'BFloat16', 'Bool', 'Decimal', 'FixedString', 'Date', 'Date32', 'DateTime', 'DateTime64',
  'Time', 'Time64', 'UUID', 'IPv4', 'IPv6', 'Enum8', 'Enum16', 'Interval',
]);

/** True for the (structural) types handled here. */
export function isScalar(t: TypeNode): boolean {
  return SCALAR_KINDS.has(t.kind);
}

const INT_WIDTH: Record<string, number> = {
  UInt8: 1, Int8: 1, UInt16: 2, Int16: 2, UInt32: 4, Int32: 4, UInt64: 8, Int64: 8, Interval: 8,
  UInt128: 16, Int128: 16, UInt256: 32, Int256: 32,
};

export function scalarWidth(t: TypeNode): number {
  switch (t.kind) {
    case 'Float32': case 'Date32': case 'DateTime': case 'Time': case 'IPv4': return 4;
    case 'Float64': case 'DateTime64': case 'Time64': return 8;
    case 'BFloat16': case 'Date': case 'Enum16': return 2;
    case 'Bool': case 'Enum8': return 1;
    case 'UUID': case 'IPv6': return 16;
    case 'Decimal': return decimalByteWidth(t.precision);
    case 'FixedString': return t.length;
    default: {
      const w = INT_WIDTH[t.kind];
      if (w === undefined) throw new Error(`not a scalar: ${t.kind}`);
      return w;
    }
  }
}

/** Enum8 lookup table: index (byte ^ 0x80) → label, undefined for values not in the type. */
export function enum8Table(t: EnumType): (string | undefined)[] {
  const table: (string | undefined)[] = new Array<string | undefined>(256).fill(undefined);
  for (const e of t.entries) table[(e.value & 0xff) ^ 0x80] = e.label;
  return table;
}

export function enum16Table(t: EnumType): Map<number, string> {
  return new Map(t.entries.map((e) => [e.value, e.label]));
}

/** The value of scalar `t` at p, as a function. */
export function scalarFn(t: TypeNode, o: ResolvedValueOptions): ScalarFn {
  switch (t.kind) {
    case 'UInt8': return (_dv, u8, p) => u8[p];
    case 'Int8': return (dv, _u8, p) => dv.getInt8(p);
    case 'UInt16': return (dv, _u8, p) => dv.getUint16(p, true);
    case 'Int16': return (dv, _u8, p) => dv.getInt16(p, true);
    case 'UInt32': return (dv, _u8, p) => dv.getUint32(p, true);
    case 'Int32': return (dv, _u8, p) => dv.getInt32(p, true);
    case 'UInt64':
      return o.int64 === 'bigint' ? (dv, _u8, p) => H.readUInt64Big(dv, p)
        : o.int64 === 'number' ? (dv, _u8, p) => H.readUInt64Number(dv, p) : (dv, _u8, p) => H.readUInt64String(dv, p);
    case 'Int64': case 'Interval':
      return o.int64 === 'bigint' ? (dv, _u8, p) => H.readInt64Big(dv, p)
        : o.int64 === 'number' ? (dv, _u8, p) => H.readInt64Number(dv, p) : (dv, _u8, p) => H.readInt64String(dv, p);
    case 'UInt128': case 'UInt256': case 'Int128': case 'Int256': {
      const w = scalarWidth(t);
      const read = t.kind.startsWith('U') ? H.readUIntBig : H.readIntBig;
      return o.int128 === 'bigint' ? (dv, _u8, p) => read(dv, p, w)
        : o.int128 === 'number' ? (dv, _u8, p) => Number(read(dv, p, w)) : (dv, _u8, p) => read(dv, p, w).toString();
    }
    case 'Float32': return o.float32 === 'shortest' ? (dv, _u8, p) => H.float32Shortest(dv.getFloat32(p, true)) : (dv, _u8, p) => dv.getFloat32(p, true);
    case 'Float64': return (dv, _u8, p) => dv.getFloat64(p, true);
    case 'BFloat16': return (dv, _u8, p) => H.bf16(dv.getUint16(p, true));
    case 'Bool': return (_dv, u8, p) => (u8[p] === 1 ? true : u8[p] === 0 ? false : H.badBool(u8, p));
    case 'Decimal': {
      const w = decimalByteWidth(t.precision);
      const s = t.scale;
      return o.decimal === 'string' ? (dv, _u8, p) => H.decimalText(dv, p, w, s) : (dv, _u8, p) => H.decimalNumber(dv, p, w, s);
    }
    case 'FixedString': {
      const n = t.length;
      return o.strings === 'string' ? (_dv, u8, p) => H.utf8Decode(u8, p, p + n) : (_dv, u8, p) => H.copyBytes(u8, p, p + n);
    }
    case 'Date':
      return o.date === 'Date' ? (dv, _u8, p) => new Date(dv.getUint16(p, true) * 86400000) : (dv, _u8, p) => H.daysToString(dv.getUint16(p, true));
    case 'Date32':
      return o.date === 'Date' ? (dv, _u8, p) => new Date(dv.getInt32(p, true) * 86400000) : (dv, _u8, p) => H.daysToString(dv.getInt32(p, true));
    case 'DateTime':
      if (o.datetime === 'text') {
        const z = new H.ZoneText(t.timezone);
        return (dv, _u8, p) => z.seconds(dv.getUint32(p, true));
      }
      return o.datetime === 'Date' ? (dv, _u8, p) => new Date(dv.getUint32(p, true) * 1000)
        : o.datetime === 'string' ? (dv, _u8, p) => H.secondsToIso(dv.getUint32(p, true)) : (dv, _u8, p) => dv.getUint32(p, true) * 1000;
    case 'DateTime64': {
      const pr = t.precision;
      if (o.datetime === 'text') {
        const z = new H.ZoneText(t.timezone);
        return (dv, _u8, p) => z.ticks(H.int64Exactish(dv, p), pr);
      }
      if (pr > 3 && o.datetime !== 'number') {
        return o.datetime === 'Date' ? (dv, _u8, p) => new Date(H.int64TicksToFlooredMillis(dv, p, pr)) : (dv, _u8, p) => H.int64TicksToIso(dv, p, pr);
      }
      return o.datetime === 'Date' ? (dv, _u8, p) => H.ticksToDate(H.int64Exactish(dv, p), pr)
        : o.datetime === 'string' ? (dv, _u8, p) => H.ticksToIso(H.int64Exactish(dv, p), pr) : (dv, _u8, p) => H.ticksToMillis(H.int64Exactish(dv, p), pr);
    }
    case 'Time':
      return o.time === 'string' ? (dv, _u8, p) => H.timeToString(dv.getInt32(p, true)) : (dv, _u8, p) => dv.getInt32(p, true);
    case 'Time64': {
      const pr = t.precision;
      return o.time === 'string' ? (dv, _u8, p) => H.time64ToString(H.int64Exactish(dv, p), pr) : (dv, _u8, p) => H.time64ToSeconds(H.int64Exactish(dv, p), pr);
    }
    case 'UUID': return o.uuid === 'string' ? (_dv, u8, p) => H.uuidToString(u8, p) : (_dv, u8, p) => H.uuidToBytes(u8, p);
    case 'IPv4': return (dv, _u8, p) => H.ipv4ToString(dv.getUint32(p, true));
    case 'IPv6': return (_dv, u8, p) => H.ipv6ToString(u8, p);
    case 'Enum8': {
      const table = enum8Table(t);
      return (dv, u8, p) => table[u8[p]! ^ 0x80] ?? H.badEnum(dv.getInt8(p), p);
    }
    case 'Enum16': {
      const table = enum16Table(t);
      return (dv, _u8, p) => table.get(dv.getInt16(p, true)) ?? H.badEnum(dv.getInt16(p, true), p);
    }
    default: throw new Error(`not a scalar: ${t.kind}`);
  }
}

/** The value of scalar `t` at position expression `P`, as JS source. */
export function scalarExpr(e: Emitter, t: TypeNode, o: ResolvedValueOptions, P: string): string {
  switch (t.kind) {
    case 'UInt8': return `u8[${P}]`;
    case 'Int8': return `dv.getInt8(${P})`;
    case 'UInt16': return `dv.getUint16(${P}, true)`;
    case 'Int16': return `dv.getInt16(${P}, true)`;
    case 'UInt32': return `dv.getUint32(${P}, true)`;
    case 'Int32': return `dv.getInt32(${P}, true)`;
    case 'UInt64':
      return o.int64 === 'bigint' ? `H.readUInt64Big(dv, ${P})` : o.int64 === 'number' ? `(dv.getUint32(${P} + 4, true) * 4294967296 + dv.getUint32(${P}, true))` : `H.readUInt64String(dv, ${P})`;
    case 'Int64': case 'Interval':
      return o.int64 === 'bigint' ? `H.readInt64Big(dv, ${P})` : o.int64 === 'number' ? `(dv.getInt32(${P} + 4, true) * 4294967296 + dv.getUint32(${P}, true))` : `H.readInt64String(dv, ${P})`;
    case 'UInt128': case 'UInt256': case 'Int128': case 'Int256': {
      const call = `H.${t.kind.startsWith('U') ? 'readUIntBig' : 'readIntBig'}(dv, ${P}, ${e.int(scalarWidth(t))})`;
      return o.int128 === 'bigint' ? call : o.int128 === 'number' ? `Number(${call})` : `${call}.toString()`;
    }
    case 'Float32': return o.float32 === 'shortest' ? `H.float32Shortest(dv.getFloat32(${P}, true))` : `dv.getFloat32(${P}, true)`;
    case 'Float64': return `dv.getFloat64(${P}, true)`;
    case 'BFloat16': return `H.bf16(dv.getUint16(${P}, true))`;
    case 'Bool': return `(u8[${P}] === 1 ? true : u8[${P}] === 0 ? false : H.badBool(u8, ${P}))`;
    case 'Decimal':
      return `H.${o.decimal === 'string' ? 'decimalText' : 'decimalNumber'}(dv, ${P}, ${e.int(decimalByteWidth(t.precision))}, ${e.int(t.scale)})`;
    case 'FixedString':
      return o.strings === 'string' ? `H.utf8Decode(u8, ${P}, ${P} + ${e.int(t.length)})` : `H.copyBytes(u8, ${P}, ${P} + ${e.int(t.length)})`;
    case 'Date': case 'Date32': {
      const days = t.kind === 'Date' ? `dv.getUint16(${P}, true)` : `dv.getInt32(${P}, true)`;
      return o.date === 'Date' ? `new Date(${days} * 86400000)` : `${e.state('new H.FillCache(4096)')}.get(${days}, H.daysToString)`;
    }
    case 'DateTime': {
      const s = `dv.getUint32(${P}, true)`;
      // The zone enters as a constant, never as code; the formatter is per decoder instance.
      if (o.datetime === 'text') return `${e.state(`new H.ZoneText(${e.konst(t.timezone)})`)}.seconds(${s})`;
      return o.datetime === 'Date' ? `new Date(${s} * 1000)` : o.datetime === 'string' ? `${e.state('new H.FillCache(4096)')}.get(${s}, H.secondsToIso)` : `${s} * 1000`;
    }
    case 'DateTime64': {
      if (o.datetime === 'text') return `${e.state(`new H.ZoneText(${e.konst(t.timezone)})`)}.ticks(H.int64Exactish(dv, ${P}), ${e.int(t.precision)})`;
      // P > 3: exact split of the Int64 into milliseconds without a BigInt (convert/datetime.ts).
      if (t.precision > 3 && o.datetime === 'Date') return `new Date(H.int64TicksToFlooredMillis(dv, ${P}, ${e.int(t.precision)}))`;
      if (t.precision > 3 && o.datetime === 'string') return `H.int64TicksToIso(dv, ${P}, ${e.int(t.precision)})`;
      const fn = o.datetime === 'Date' ? 'ticksToDate' : o.datetime === 'string' ? 'ticksToIso' : 'ticksToMillis';
      return `H.${fn}(H.int64Exactish(dv, ${P}), ${e.int(t.precision)})`;
    }
    case 'Time': return o.time === 'string' ? `H.timeToString(dv.getInt32(${P}, true))` : `dv.getInt32(${P}, true)`;
    case 'Time64':
      return `H.${o.time === 'string' ? 'time64ToString' : 'time64ToSeconds'}(H.int64Exactish(dv, ${P}), ${e.int(t.precision)})`;
    case 'UUID': return `H.${o.uuid === 'string' ? 'uuidToString' : 'uuidToBytes'}(u8, ${P})`;
    case 'IPv4': return `H.ipv4ToString(dv.getUint32(${P}, true))`;
    case 'IPv6': return `H.ipv6ToString(u8, ${P})`;
    case 'Enum8': return `(${e.konst(enum8Table(t))}[u8[${P}] ^ 128] ?? H.badEnum(dv.getInt8(${P}), ${P}))`;
    case 'Enum16': return `(${e.konst(enum16Table(t))}.get(dv.getInt16(${P}, true)) ?? H.badEnum(dv.getInt16(${P}, true), ${P}))`;
    default: throw new Error(`not a scalar: ${t.kind}`);
  }
}
