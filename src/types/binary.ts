// The binary type encoding (rowbinary.md §6): the self-delimiting type prefix of every Dynamic
// value and JSON dynamic path, and the header form under
// output_format_binary_encode_types_in_binary_format=1.
//
// Invariant: readBinaryType(encodeBinaryType(t)) deep-equals t for every normalised AST, and
// readBinaryType yields exactly the AST parseType gives for the server's text of the same type.
// Reading never goes past `end`: running out of bytes throws the NEED_MORE sentinel (a chunked
// stream retries with more bytes); bytes that cannot be a type are a ChwireDecodeError whose
// offset is the index in `bytes` of the offending byte.
import { ChwireDecodeError } from '../errors.js';
import { NEED_MORE } from '../io/need-more.js';
import {
  GEO_KINDS, INTERVAL_UNITS, decimalByteWidth,
  type EnumEntry, type GeoKind, type JsonTypedPath, type TypeNode,
} from './ast.js';
import {
  formatAggregateFunction, formatAggregateSpec, parseAggregateFunction, parseAggregateSpec,
  type AggregateParam,
} from './aggregate.js';
import {
  DEFAULT_DYNAMIC_MAX_TYPES, DEFAULT_JSON_MAX_DYNAMIC_PATHS, DEFAULT_JSON_MAX_DYNAMIC_TYPES,
  MAX_TYPE_DEPTH, jsonNode, typeTooDeep,
} from './parse.js';

/** Codes of the types that carry no parameters. */
const SIMPLE_CODES: Readonly<Record<number, TypeNode['kind']>> = {
  0x00: 'Nothing',
  0x01: 'UInt8', 0x02: 'UInt16', 0x03: 'UInt32', 0x04: 'UInt64', 0x05: 'UInt128', 0x06: 'UInt256',
  0x07: 'Int8', 0x08: 'Int16', 0x09: 'Int32', 0x0a: 'Int64', 0x0b: 'Int128', 0x0c: 'Int256',
  0x0d: 'Float32', 0x0e: 'Float64', 0x0f: 'Date', 0x10: 'Date32', 0x11: 'DateTime', 0x15: 'String',
  0x1d: 'UUID', 0x28: 'IPv4', 0x29: 'IPv6', 0x2d: 'Bool', 0x31: 'BFloat16', 0x32: 'Time',
};
const SIMPLE_KIND_CODE = new Map<string, number>(Object.entries(SIMPLE_CODES).map(([c, k]) => [k, Number(c)]));

const C = {
  dateTimeTz: 0x12, dateTime64: 0x13, dateTime64Tz: 0x14, fixedString: 0x16, enum8: 0x17, enum16: 0x18,
  decimal32: 0x19, decimal64: 0x1a, decimal128: 0x1b, decimal256: 0x1c, array: 0x1e, tuple: 0x1f,
  namedTuple: 0x20, interval: 0x22, nullable: 0x23, aggregateFunction: 0x25, lowCardinality: 0x26,
  map: 0x27, variant: 0x2a, dynamic: 0x2b, custom: 0x2c, simpleAggregateFunction: 0x2e, nested: 0x2f,
  json: 0x30, time64: 0x34, qbit: 0x36,
} as const;

/** Decimal codes by the byte width of the unscaled integer. */
const DECIMAL_CODE: Readonly<Record<number, number>> = { 4: C.decimal32, 8: C.decimal64, 16: C.decimal128, 32: C.decimal256 };

/** Aggregate-function parameter tags (ClickHouse's Field binary encoding). */
const F = { null: 0x00, uint64: 0x01, int64: 0x02, float64: 0x07, string: 0x0c, array: 0x0d, tuple: 0x0e } as const;

const GEO = new Set<string>(GEO_KINDS);
const utf8Decoder = new TextDecoder('utf-8');
const utf8Encoder = new TextEncoder();

/**
 * Shared frozen nodes for the parameterless types: readBinaryType runs once per Dynamic value,
 * so the common case allocates nothing but the result wrapper.
 */
const SIMPLE_NODES: Readonly<Record<number, TypeNode>> = Object.fromEntries(
  Object.entries(SIMPLE_CODES).map(([c, kind]) => [c, Object.freeze({ kind }) as TypeNode]));

class Reader {
  constructor(readonly bytes: Uint8Array, public pos: number, readonly end: number) {}

  fail(message: string, at: number): never {
    throw new ChwireDecodeError(`binary type encoding: ${message}`, { offset: at });
  }

  need(n: number): void {
    if (this.pos + n > this.end) throw NEED_MORE;
  }

  u8(): number {
    if (this.pos >= this.end) throw NEED_MORE;
    return this.bytes[this.pos++]!;
  }

  varUInt(): number {
    const at = this.pos;
    let result = 0;
    let mul = 1;
    for (let i = 0; i < 10; i++) {
      const b = this.u8();
      result += (b & 0x7f) * mul;
      if (b < 0x80) {
        if (!Number.isSafeInteger(result)) this.fail('VarUInt exceeds 2^53', at);
        return result;
      }
      mul *= 128;
    }
    return this.fail('VarUInt longer than 10 bytes', at);
  }

  varUIntBig(): bigint {
    const at = this.pos;
    let result = 0n;
    for (let i = 0; i < 10; i++) {
      const b = this.u8();
      result |= BigInt(b & 0x7f) << BigInt(7 * i);
      if (b < 0x80) return result;
    }
    return this.fail('VarUInt longer than 10 bytes', at);
  }

  string(): string {
    const len = this.varUInt();
    this.need(len);
    const start = this.pos;
    this.pos += len;
    // Zone names and path names are short ASCII: skip TextDecoder's fixed cost for them.
    if (len <= 32) {
      let s = '';
      for (let i = start; i < start + len; i++) {
        const c = this.bytes[i]!;
        if (c >= 0x80) return utf8Decoder.decode(this.bytes.subarray(start, start + len));
        s += String.fromCharCode(c);
      }
      return s;
    }
    return utf8Decoder.decode(this.bytes.subarray(start, start + len));
  }

  i8(): number { return (this.u8() << 24) >> 24; }

  i16(): number {
    this.need(2);
    const v = this.bytes[this.pos]! | (this.bytes[this.pos + 1]! << 8);
    this.pos += 2;
    return (v << 16) >> 16;
  }

  f64(): number {
    this.need(8);
    const v = new DataView(this.bytes.buffer, this.bytes.byteOffset + this.pos, 8).getFloat64(0, true);
    this.pos += 8;
    return v;
  }
}

function readParam(r: Reader, depth: number): AggregateParam {
  const at = r.pos;
  if (depth > MAX_TYPE_DEPTH) r.fail('aggregate function parameter nested too deeply', at);
  const tag = r.u8();
  switch (tag) {
    case F.null: return { t: 'null' };
    case F.uint64: return { t: 'uint', v: r.varUIntBig() };
    case F.int64: {
      const z = r.varUIntBig();
      return { t: 'int', v: (z & 1n) === 1n ? -(z >> 1n) - 1n : z >> 1n };
    }
    case F.float64: return { t: 'float', v: r.f64() };
    case F.string: return { t: 'string', v: r.string() };
    case F.array: case F.tuple: {
      const n = r.varUInt();
      const v: AggregateParam[] = [];
      for (let i = 0; i < n; i++) v.push(readParam(r, depth + 1));
      return { t: tag === F.array ? 'array' : 'tuple', v };
    }
    default:
      return r.fail(`unsupported aggregate function parameter tag 0x${tag.toString(16).padStart(2, '0')}`, at);
  }
}

function readParams(r: Reader): AggregateParam[] {
  const n = r.varUInt();
  const params: AggregateParam[] = [];
  for (let i = 0; i < n; i++) params.push(readParam(r, 0));
  return params;
}

function readList(r: Reader, depth: number): TypeNode[] {
  const n = r.varUInt();
  const out: TypeNode[] = [];
  for (let i = 0; i < n; i++) out.push(readType(r, depth));
  return out;
}

function readNamedList(r: Reader, depth: number): { names: string[]; elements: TypeNode[] } {
  const n = r.varUInt();
  const names: string[] = [];
  const elements: TypeNode[] = [];
  for (let i = 0; i < n; i++) {
    names.push(r.string());
    elements.push(readType(r, depth));
  }
  return { names, elements };
}

function readPrecision(r: Reader, max: number, what: string): number {
  const at = r.pos;
  const p = r.u8();
  if (p > max) r.fail(`${what} precision ${p} is out of range [0, ${max}]`, at);
  return p;
}

function readType(r: Reader, depth: number): TypeNode {
  const at = r.pos;
  if (depth > MAX_TYPE_DEPTH) throw typeTooDeep('(binary type encoding)');
  const code = r.u8();
  const simple = SIMPLE_NODES[code];
  if (simple !== undefined) return simple;
  const d = depth + 1;
  switch (code) {
    case C.dateTimeTz: return { kind: 'DateTime', timezone: r.string() };
    case C.dateTime64: return { kind: 'DateTime64', precision: readPrecision(r, 9, 'DateTime64') };
    case C.dateTime64Tz: {
      const precision = readPrecision(r, 9, 'DateTime64');
      return { kind: 'DateTime64', precision, timezone: r.string() };
    }
    case C.time64: return { kind: 'Time64', precision: readPrecision(r, 9, 'Time64') };
    case C.fixedString: {
      const length = r.varUInt();
      if (length < 1) r.fail('FixedString length 0', at);
      return { kind: 'FixedString', length };
    }
    case C.enum8: case C.enum16: {
      const n = r.varUInt();
      const entries: EnumEntry[] = [];
      for (let i = 0; i < n; i++) {
        const label = r.string();
        entries.push({ label, value: code === C.enum8 ? r.i8() : r.i16() });
      }
      return { kind: code === C.enum8 ? 'Enum8' : 'Enum16', entries };
    }
    case C.decimal32: case C.decimal64: case C.decimal128: case C.decimal256: {
      const precision = r.u8();
      const scale = r.u8();
      if (precision < 1 || precision > 76 || scale > precision) r.fail(`invalid Decimal(${precision}, ${scale})`, at);
      if (DECIMAL_CODE[decimalByteWidth(precision)] !== code) r.fail(`Decimal(${precision}, ${scale}) under the code of another width`, at);
      return { kind: 'Decimal', precision, scale };
    }
    case C.array: return { kind: 'Array', element: readType(r, d) };
    case C.tuple: return { kind: 'Tuple', elements: readList(r, d) };
    case C.namedTuple: {
      const { names, elements } = readNamedList(r, d);
      return { kind: 'Tuple', elements, names };
    }
    case C.nested: {
      const { names, elements } = readNamedList(r, d);
      return { kind: 'Nested', names, elements };
    }
    case C.interval: {
      const k = r.u8();
      const unit = INTERVAL_UNITS[k];
      if (unit === undefined) r.fail(`unknown interval kind ${k}`, at + 1);
      return { kind: 'Interval', unit };
    }
    case C.nullable: return { kind: 'Nullable', inner: readType(r, d) };
    case C.lowCardinality: return { kind: 'LowCardinality', inner: readType(r, d) };
    case C.map: {
      const key = readType(r, d);
      return { kind: 'Map', key, value: readType(r, d) };
    }
    case C.variant: return { kind: 'Variant', members: readList(r, d) };
    case C.dynamic: {
      const maxTypes = r.u8();
      return maxTypes === DEFAULT_DYNAMIC_MAX_TYPES ? { kind: 'Dynamic' } : { kind: 'Dynamic', maxTypes };
    }
    case C.custom: {
      const name = r.string();
      if (!GEO.has(name)) r.fail(`unknown custom type ${JSON.stringify(name)}`, at);
      return { kind: name as GeoKind };
    }
    case C.json: {
      const version = r.u8();
      if (version !== 0) r.fail(`unsupported JSON type encoding version ${version}`, at + 1);
      const maxDynamicPaths = r.varUInt();
      const maxDynamicTypes = r.u8();
      const n = r.varUInt();
      const typedPaths: JsonTypedPath[] = [];
      for (let i = 0; i < n; i++) {
        const path = r.string();
        typedPaths.push({ path, type: readType(r, d) });
      }
      const skipPaths: string[] = [];
      for (let i = r.varUInt(); i > 0; i--) skipPaths.push(r.string());
      const skipRegexps: string[] = [];
      for (let i = r.varUInt(); i > 0; i--) skipRegexps.push(r.string());
      return jsonNode(maxDynamicPaths, maxDynamicTypes, typedPaths, skipPaths, skipRegexps);
    }
    case C.aggregateFunction: {
      const version = r.varUInt();
      const name = r.string();
      const params = readParams(r);
      const args = readList(r, d);
      return { kind: 'AggregateFunction', args: formatAggregateSpec({ version, name, params, args }) };
    }
    case C.simpleAggregateFunction: {
      const name = r.string();
      const params = readParams(r);
      const args = readList(r, d);
      if (args.length !== 1) r.fail(`SimpleAggregateFunction with ${args.length} argument types`, at);
      return { kind: 'SimpleAggregateFunction', func: formatAggregateFunction(name, params), inner: args[0]! };
    }
    case C.qbit: {
      const element = readType(r, d);
      const dimension = r.varUInt();
      if (dimension < 1) r.fail('QBit dimension 0', at);
      return { kind: 'QBit', element, dimension };
    }
    default:
      return r.fail(`unknown type code 0x${code.toString(16).padStart(2, '0')}`, at);
  }
}

/**
 * Decode one binary type encoding starting at `offset`, reading no further than `end`.
 * Returns the type and the offset just past it. Throws NEED_MORE when `end` comes first.
 */
export function readBinaryType(bytes: Uint8Array, offset: number, end: number): { type: TypeNode; offset: number } {
  const r = new Reader(bytes, offset, Math.min(end, bytes.length));
  const type = readType(r, 0);
  return { type, offset: r.pos };
}

class Writer {
  readonly out: number[] = [];
  u8(v: number): void { this.out.push(v & 0xff); }
  varUInt(v: number | bigint): void {
    let n = BigInt(v);
    while (n >= 0x80n) {
      this.out.push(Number(n & 0x7fn) | 0x80);
      n >>= 7n;
    }
    this.out.push(Number(n));
  }
  bytes(b: Uint8Array): void { for (const x of b) this.out.push(x); }
  string(s: string): void {
    const b = utf8Encoder.encode(s);
    this.varUInt(b.length);
    this.bytes(b);
  }
  f64(v: number): void {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setFloat64(0, v, true);
    this.bytes(b);
  }
}

function writeParam(w: Writer, p: AggregateParam): void {
  switch (p.t) {
    case 'null': w.u8(F.null); break;
    case 'uint': w.u8(F.uint64); w.varUInt(p.v); break;
    case 'int': w.u8(F.int64); w.varUInt(p.v < 0n ? -2n * p.v - 1n : 2n * p.v); break;
    case 'float': w.u8(F.float64); w.f64(p.v); break;
    case 'string': w.u8(F.string); w.string(p.v); break;
    case 'array': case 'tuple':
      w.u8(p.t === 'array' ? F.array : F.tuple);
      w.varUInt(p.v.length);
      for (const x of p.v) writeParam(w, x);
      break;
  }
}

function writeParams(w: Writer, params: readonly AggregateParam[]): void {
  w.varUInt(params.length);
  for (const p of params) writeParam(w, p);
}

function writeNamed(w: Writer, names: readonly string[], elements: readonly TypeNode[]): void {
  w.varUInt(elements.length);
  elements.forEach((e, i) => { w.string(names[i]!); writeType(w, e); });
}

function writeType(w: Writer, t: TypeNode): void {
  const simple = SIMPLE_KIND_CODE.get(t.kind);
  if (simple !== undefined && !(t.kind === 'DateTime' && t.timezone !== undefined)) {
    w.u8(simple);
    return;
  }
  switch (t.kind) {
    case 'DateTime': w.u8(C.dateTimeTz); w.string(t.timezone!); return;
    case 'DateTime64':
      w.u8(t.timezone === undefined ? C.dateTime64 : C.dateTime64Tz);
      w.u8(t.precision);
      if (t.timezone !== undefined) w.string(t.timezone);
      return;
    case 'Time64': w.u8(C.time64); w.u8(t.precision); return;
    case 'FixedString': w.u8(C.fixedString); w.varUInt(t.length); return;
    case 'Enum8': case 'Enum16':
      w.u8(t.kind === 'Enum8' ? C.enum8 : C.enum16);
      w.varUInt(t.entries.length);
      for (const e of t.entries) {
        w.string(e.label);
        w.u8(e.value);
        if (t.kind === 'Enum16') w.u8(e.value >> 8);
      }
      return;
    case 'Decimal': w.u8(DECIMAL_CODE[decimalByteWidth(t.precision)]!); w.u8(t.precision); w.u8(t.scale); return;
    case 'Array': w.u8(C.array); writeType(w, t.element); return;
    case 'Tuple':
      if (t.names !== undefined) { w.u8(C.namedTuple); writeNamed(w, t.names, t.elements); return; }
      w.u8(C.tuple);
      w.varUInt(t.elements.length);
      for (const e of t.elements) writeType(w, e);
      return;
    case 'Nested': w.u8(C.nested); writeNamed(w, t.names, t.elements); return;
    case 'Interval': w.u8(C.interval); w.u8(INTERVAL_UNITS.indexOf(t.unit)); return;
    case 'Nullable': w.u8(C.nullable); writeType(w, t.inner); return;
    case 'LowCardinality': w.u8(C.lowCardinality); writeType(w, t.inner); return;
    case 'Map': w.u8(C.map); writeType(w, t.key); writeType(w, t.value); return;
    case 'Variant':
      w.u8(C.variant);
      w.varUInt(t.members.length);
      for (const m of t.members) writeType(w, m);
      return;
    case 'Dynamic': w.u8(C.dynamic); w.u8(t.maxTypes ?? DEFAULT_DYNAMIC_MAX_TYPES); return;
    case 'JSON':
      w.u8(C.json);
      w.u8(0);
      w.varUInt(t.maxDynamicPaths ?? DEFAULT_JSON_MAX_DYNAMIC_PATHS);
      w.u8(t.maxDynamicTypes ?? DEFAULT_JSON_MAX_DYNAMIC_TYPES);
      w.varUInt(t.typedPaths.length);
      for (const p of t.typedPaths) { w.string(p.path); writeType(w, p.type); }
      w.varUInt(t.skipPaths.length);
      for (const p of t.skipPaths) w.string(p);
      w.varUInt(t.skipRegexps.length);
      for (const p of t.skipRegexps) w.string(p);
      return;
    case 'AggregateFunction': {
      const s = parseAggregateSpec(t.args);
      w.u8(C.aggregateFunction);
      w.varUInt(s.version);
      w.string(s.name);
      writeParams(w, s.params);
      w.varUInt(s.args.length);
      for (const a of s.args) writeType(w, a);
      return;
    }
    case 'SimpleAggregateFunction': {
      const f = parseAggregateFunction(t.func);
      w.u8(C.simpleAggregateFunction);
      w.string(f.name);
      writeParams(w, f.params);
      w.varUInt(1);
      writeType(w, t.inner);
      return;
    }
    case 'QBit': w.u8(C.qbit); writeType(w, t.element); w.varUInt(t.dimension); return;
    default:
      if (GEO.has(t.kind)) { w.u8(C.custom); w.string(t.kind); return; }
      throw new Error(`encodeBinaryType: unhandled kind ${t.kind}`);
  }
}

/**
 * The binary type encoding of `t` (the inverse of readBinaryType). Throws ChwireTypeError when an
 * aggregate function's text cannot be parsed into name, parameters and argument types.
 */
export function encodeBinaryType(t: TypeNode): Uint8Array {
  const w = new Writer();
  writeType(w, t);
  return Uint8Array.from(w.out);
}
