// The reference decoder: a straightforward per-field decoder (one method call per value through a
// reader object, one `switch` on the type per value). It is the benchmark baseline, the
// differential oracle of the compiled decoder, and the error reporter: when the compiled path
// fails inside a row, that row is decoded again here to name the column and exact offset.
//
// Invariant: shares no code with the generated path except the value converters (src/convert)
// and the binary type reader; integers are read with the plain DataView BigInt getters rather
// than the fast paths of io/bigint.ts, so the two paths check each other.
import type { TypeNode, JsonType } from '../types/ast.js';
import { decimalByteWidth } from '../types/ast.js';
import type { ResolvedValueOptions } from '../plan/options.js';
import type { RowPlan } from '../plan/resolve.js';
import { structural, objectKeyOptions } from '../plan/structural.js';
import { keyText } from '../plan/key-text.js';
import { ChwireDecodeError, ChwireTypeError } from '../errors.js';
import { NEED_MORE } from '../io/need-more.js';
import { DecodeFault, MAX_LENGTH, MAX_ZERO_WIDTH_VALUES, ZERO_WIDTH_PER_BYTE, zeroWidthFault } from '../io/fault.js';
import { utf8DecodeStandard } from '../io/utf8.js';
import { readBinaryType } from '../types/binary.js';
import { decimalToString, decimalToNumber } from '../convert/decimal.js';
import { uuidToString, uuidToBytes } from '../convert/uuid.js';
import { ipv4ToString, ipv6ToString } from '../convert/ip.js';
import {
  daysToString, secondsToIso, ticksToDate, ticksToIso, ticksToMillis, timeToString, time64ToString, time64ToSeconds,
} from '../convert/datetime.js';
import { setOwn, setJsonPath } from '../convert/objects.js';
import { float32Shortest } from '../convert/float32.js';
import { ZoneText } from '../convert/server-text.js';
import type { Row } from '../stream-decoder.js';

/** A cursor with one method per primitive. `last` is where the value being read started. */
export class ByteReader {
  readonly dv: DataView;
  last: number;
  /** What is left of the body's budget of values that take no bytes (io/fault.ts). */
  zeroLeft = MAX_ZERO_WIDTH_VALUES;
  /** Where `zeroLeft` was taken: each byte read after it earns ZERO_WIDTH_PER_BYTE more. */
  zeroFrom: number;
  /** datetime: 'text' formatters by zone, built once per reader (an Intl formatter is costly). */
  private zones: Map<string | undefined, ZoneText> | undefined;
  constructor(readonly bytes: Uint8Array, public pos: number, readonly end: number) {
    this.dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.last = pos;
    this.zeroFrom = pos;
  }

  zoneText(zone: string | undefined): ZoneText {
    this.zones ??= new Map();
    let z = this.zones.get(zone);
    if (z === undefined) { z = new ZoneText(zone); this.zones.set(zone, z); }
    return z;
  }

  /** Claim n bytes; returns their start. */
  take(n: number): number {
    this.last = this.pos;
    if (n > this.end - this.pos) {
      if (n > MAX_LENGTH) throw new DecodeFault(`length ${n} exceeds the 1 GiB limit`, this.pos);
      throw NEED_MORE;
    }
    const p = this.pos;
    this.pos += n;
    return p;
  }

  byte(): number { return this.bytes[this.take(1)]!; }

  varUInt(): number {
    const start = this.pos;
    let value = 0;
    let mul = 1;
    for (let i = 0; i < 10; i++) {
      const b = this.byte();
      value += (b & 0x7f) * mul;
      if (b < 0x80) {
        this.last = start;
        if (value > Number.MAX_SAFE_INTEGER) throw new DecodeFault(`VarUInt ${value} is beyond 2^53`, start);
        return value;
      }
      mul *= 128;
    }
    throw new DecodeFault('VarUInt longer than 10 bytes', start);
  }

  count(): number {
    const n = this.varUInt();
    if (n > MAX_LENGTH) throw new DecodeFault(`count ${n} exceeds the 1 GiB limit`, this.last);
    return n;
  }

  /** `n` items of which the first took no bytes (so all do): charge them, counted at `at`. */
  chargeZeroWidth(n: number, at: number): void {
    this.zeroLeft -= n;
    if (this.zeroLeft < -ZERO_WIDTH_PER_BYTE * (this.pos - this.zeroFrom)) throw zeroWidthFault(n, at);
  }

  bytesOf(n: number): Uint8Array { const p = this.take(n); const out = new Uint8Array(n); for (let i = 0; i < n; i++) out[i] = this.bytes[p + i]!; return out; }
  text(n: number): string { const p = this.take(n); return utf8DecodeStandard(this.bytes, p, p + n); }

  int(width: number, signed: boolean): bigint {
    const p = this.take(width);
    if (width === 4) return BigInt(signed ? this.dv.getInt32(p, true) : this.dv.getUint32(p, true));
    let v = 0n;
    for (let i = width - 8; i >= 0; i -= 8) v = (v << 64n) | this.dv.getBigUint64(p + i, true);
    if (signed && v >= 1n << BigInt(width * 8 - 1)) v -= 1n << BigInt(width * 8);
    return v;
  }
}

function big(v: bigint, mode: 'bigint' | 'number' | 'string'): unknown {
  return mode === 'bigint' ? v : mode === 'number' ? Number(v) : v.toString();
}

const INT_KINDS: Record<string, [number, boolean]> = {
  UInt8: [1, false], UInt16: [2, false], UInt32: [4, false], Int8: [1, true], Int16: [2, true], Int32: [4, true],
  UInt64: [8, false], Int64: [8, true], Interval: [8, true],
  UInt128: [16, false], Int128: [16, true], UInt256: [32, false], Int256: [32, true],
};

/** One value of `t`. */
export function readValue(r: ByteReader, t: TypeNode, o: ResolvedValueOptions): unknown {
  const s = structural(t);
  switch (s.kind) {
    case 'UInt8': case 'UInt16': case 'UInt32': case 'Int8': case 'Int16': case 'Int32': {
      const [w, signed] = INT_KINDS[s.kind]!;
      const p = r.take(w);
      return w === 1 ? (signed ? r.dv.getInt8(p) : r.dv.getUint8(p)) : w === 2 ? (signed ? r.dv.getInt16(p, true) : r.dv.getUint16(p, true)) : (signed ? r.dv.getInt32(p, true) : r.dv.getUint32(p, true));
    }
    case 'UInt64': case 'Int64': case 'Interval': { const [w, sg] = INT_KINDS[s.kind]!; return big(r.int(w, sg), o.int64); }
    case 'UInt128': case 'Int128': case 'UInt256': case 'Int256': { const [w, sg] = INT_KINDS[s.kind]!; return big(r.int(w, sg), o.int128); }
    case 'Float32': { const f = r.dv.getFloat32(r.take(4), true); return o.float32 === 'shortest' ? float32Shortest(f) : f; }
    case 'Float64': return r.dv.getFloat64(r.take(8), true);
    case 'BFloat16': {
      const bits = r.dv.getUint16(r.take(2), true);
      const f = new DataView(new ArrayBuffer(4));
      f.setUint16(2, bits, true);
      return f.getFloat32(0, true);
    }
    case 'Bool': {
      const b = r.byte();
      if (b > 1) throw new DecodeFault(`Bool byte ${b} is neither 0 nor 1`, r.last);
      return b === 1;
    }
    case 'Decimal': {
      const unscaled = r.int(decimalByteWidth(s.precision), true);
      return o.decimal === 'string' ? decimalToString(unscaled, s.scale) : decimalToNumber(unscaled, s.scale);
    }
    case 'String': { const n = r.varUInt(); return o.strings === 'bytes' ? r.bytesOf(n) : r.text(n); }
    case 'FixedString': return o.strings === 'bytes' ? r.bytesOf(s.length) : r.text(s.length);
    case 'Date': case 'Date32': {
      const days = s.kind === 'Date' ? r.dv.getUint16(r.take(2), true) : r.dv.getInt32(r.take(4), true);
      return o.date === 'Date' ? new Date(Date.UTC(1970, 0, 1 + days)) : daysToString(days);
    }
    case 'DateTime': {
      const sec = r.dv.getUint32(r.take(4), true);
      if (o.datetime === 'text') return r.zoneText(s.timezone).seconds(sec);
      return o.datetime === 'Date' ? new Date(sec * 1000) : o.datetime === 'string' ? secondsToIso(sec) : sec * 1000;
    }
    case 'DateTime64': {
      const ticks = r.int(8, true);
      if (o.datetime === 'text') return r.zoneText(s.timezone).ticks(ticks, s.precision);
      return o.datetime === 'Date' ? ticksToDate(ticks, s.precision) : o.datetime === 'string' ? ticksToIso(ticks, s.precision) : ticksToMillis(ticks, s.precision);
    }
    case 'Time': { const sec = r.dv.getInt32(r.take(4), true); return o.time === 'string' ? timeToString(sec) : sec; }
    case 'Time64': { const ticks = r.int(8, true); return o.time === 'string' ? time64ToString(ticks, s.precision) : time64ToSeconds(ticks, s.precision); }
    case 'UUID': { const p = r.take(16); return o.uuid === 'string' ? uuidToString(r.bytes, p) : uuidToBytes(r.bytes, p); }
    case 'IPv4': return ipv4ToString(r.dv.getUint32(r.take(4), true));
    case 'IPv6': return ipv6ToString(r.bytes, r.take(16));
    case 'Enum8': case 'Enum16': {
      const v = s.kind === 'Enum8' ? r.dv.getInt8(r.take(1)) : r.dv.getInt16(r.take(2), true);
      const entry = s.entries.find((x) => x.value === v);
      if (entry === undefined) throw new DecodeFault(`Enum value ${v} is not in the type's list`, r.last);
      return entry.label;
    }
    case 'Nothing': throw new DecodeFault('a value of type Nothing (which has no values)', r.pos);
    case 'Nullable': {
      const f = r.byte();
      if (f > 1) throw new DecodeFault(`Nullable flag ${f} is neither 0 nor 1`, r.last);
      return f === 1 ? null : readValue(r, s.inner, o);
    }
    case 'Array': {
      const n = r.count();
      const out: unknown[] = [];
      if (n === 0) return out;
      const countAt = r.last;
      const at = r.pos;
      out.push(readValue(r, s.element, o));
      // Elements that take no bytes (empty tuples): the count alone is charged, before the rest.
      if (r.pos === at) r.chargeZeroWidth(n, countAt);
      for (let i = 1; i < n; i++) out.push(readValue(r, s.element, o));
      return out;
    }
    case 'Tuple': {
      if (s.names === undefined) return s.elements.map((e) => readValue(r, e, o));
      const obj: Record<string, unknown> = {};
      s.elements.forEach((e, i) => setOwn(obj, s.names![i]!, readValue(r, e, o)));
      return obj;
    }
    case 'Map': {
      const n = r.count();
      const countAt = r.last;
      const entries: [unknown, unknown][] = [];
      for (let i = 0; i < n; i++) {
        const at = r.pos;
        const k = readValue(r, s.key, o.maps === 'Map' ? o : objectKeyOptions(o));
        entries.push([k, readValue(r, s.value, o)]);
        if (i === 0 && r.pos === at) r.chargeZeroWidth(n, countAt);
      }
      if (o.maps === 'Map') return new Map(entries);
      const obj: Record<string, unknown> = {};
      const kt = keyText(s.key) ?? String;
      for (const [k, v] of entries) setOwn(obj, kt(k), v);
      return obj;
    }
    case 'Variant': {
      const d = r.byte();
      if (d === 255) return null;
      const m = s.members[d];
      if (m === undefined) throw new DecodeFault(`Variant discriminator ${d} is out of range (${s.members.length} members)`, r.last);
      return readValue(r, m, o);
    }
    case 'Dynamic': {
      const at = r.pos;
      const inner = readType(r);
      if (inner.kind === 'Nothing') return null;
      if (containsAggregate(inner)) throw new DecodeFault('a Dynamic value holds a type that cannot be decoded (AggregateFunction)', at);
      return readValue(r, inner, o);
    }
    case 'JSON': return readJson(r, s, o);
    default:
      throw new ChwireTypeError(`type ${s.kind} cannot be decoded`, s.kind, -1);
  }
}

function containsAggregate(t: TypeNode): boolean {
  return JSON.stringify(t).includes('"AggregateFunction"');
}

function readType(r: ByteReader): TypeNode {
  try {
    const x = readBinaryType(r.bytes, r.pos, r.end);
    r.last = r.pos;
    r.pos = x.offset;
    return x.type;
  } catch (e) {
    r.last = r.pos;
    if (e === NEED_MORE) throw e;
    if (e instanceof ChwireDecodeError) throw new DecodeFault(`bad type encoding: ${e.message}`, e.offset);
    if (e instanceof ChwireTypeError) throw new DecodeFault(`bad type encoding: ${e.message}`, r.pos);
    throw e;
  }
}

function readJson(r: ByteReader, t: JsonType, o: ResolvedValueOptions): Record<string, unknown> {
  const n = r.count();
  const entries: { path: string; bytes: Uint8Array; v: unknown }[] = [];
  for (let i = 0; i < n; i++) {
    const at = r.varUInt();
    const bytes = r.bytes.slice(r.pos, r.pos + at);
    const path = r.text(at);
    const typed = t.typedPaths.find((p) => p.path === path);
    const v = readValue(r, typed !== undefined ? typed.type : { kind: 'Dynamic' }, o);
    if (typed !== undefined || v !== null) entries.push({ path, bytes, v });
  }
  // The engine's order: paths sorted by their UTF-8 bytes.
  entries.sort((a, b) => compareBytes(a.bytes, b.bytes));
  const obj: Record<string, unknown> = {};
  for (const e of entries) setJsonPath(obj, e.path, e.v);
  return obj;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length && i < b.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * Decode rows of `plan` from bytes[start, end) into `out`. `base` is the absolute body offset of
 * `bytes[0]` and `rowBase` the number of rows before `start`, for error messages. Returns the
 * offset after the last complete row; when `final` is false a row cut by the end of the bytes is
 * left for later, when true it is a ChwireDecodeError (truncated body). `budget` carries what is left
 * of the body's zero-width budget (io/fault.ts) from call to call: the complete rows' charges are
 * taken from it and their bytes' credit added, an incomplete row's are not.
 */
export function decodeReferenceRows(
  plan: RowPlan, bytes: Uint8Array, start: number, end: number, out: Row[], final: boolean, base = 0, rowBase = 0, limit = Infinity,
  budget: { zeroLeft: number } = { zeroLeft: MAX_ZERO_WIDTH_VALUES },
): number {
  const r = new ByteReader(bytes, start, end);
  r.zeroLeft = budget.zeroLeft;
  const cols = plan.columns;
  const first = out.length;
  while (r.pos < end && out.length - first < limit) {
    const rowStart = r.pos;
    // An incomplete row gives back what it charged: it is read again when its bytes are in.
    budget.zeroLeft = r.zeroLeft + ZERO_WIDTH_PER_BYTE * (rowStart - start);
    const cells: unknown[] = [];
    for (const c of cols) {
      try {
        cells.push(readValue(r, c.type, c.opts));
      } catch (e) {
        if (e === NEED_MORE) {
          if (!final) return rowStart;
          throw new ChwireDecodeError(`truncated body: the value starting here needs bytes beyond the end (body ends at byte ${base + end})`, { column: c.name, row: rowBase + out.length - first, offset: base + r.last });
        }
        if (e instanceof DecodeFault) throw new ChwireDecodeError(e.message, { column: c.name, row: rowBase + out.length - first, offset: base + e.offset });
        throw e;
      }
    }
    if (r.pos === rowStart) {
      throw new ChwireDecodeError('bytes left over that no row of this schema can consume', { row: rowBase + out.length - first, offset: base + r.pos });
    }
    if (plan.rows === 'array') out.push(cells);
    else {
      const obj: Record<string, unknown> = {};
      cols.forEach((c, i) => setOwn(obj, c.name, cells[i]));
      out.push(obj);
    }
  }
  budget.zeroLeft = r.zeroLeft + ZERO_WIDTH_PER_BYTE * (r.pos - start);
  return r.pos;
}
