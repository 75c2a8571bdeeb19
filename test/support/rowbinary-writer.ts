// A small RowBinaryWithNamesAndTypes writer for tests, plus fast-check arbitraries of schemas and
// wire values, so that property tests can produce bodies the engine never would (random UTF-8,
// every discriminator, deep nesting) and compare the decoders on them.
//
// Invariant: independent of src/rowbinary (it only uses the type printer and the binary type
// encoder from src/types). "Wire values" are what the bytes hold, not what the decoder returns:
// integers as bigint, dates as day/second/tick counts, strings as bytes.
import fc from 'fast-check';
import type { TypeNode } from '../../src/types/ast.js';
import { decimalByteWidth } from '../../src/types/ast.js';
import { printType, encodeBinaryType } from '../../src/types/index.js';
import { compareCodePoints } from '../../src/types/parse.js';

export class Writer {
  private buf = new Uint8Array(256);
  private len = 0;

  private room(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const b = new Uint8Array(Math.max(this.buf.length * 2, this.len + n));
    b.set(this.buf.subarray(0, this.len));
    this.buf = b;
  }

  bytes(b: Uint8Array): void { this.room(b.length); this.buf.set(b, this.len); this.len += b.length; }
  byte(v: number): void { this.room(1); this.buf[this.len++] = v & 0xff; }
  varUInt(v: number): void {
    while (v >= 0x80) { this.byte((v % 0x80) | 0x80); v = Math.floor(v / 0x80); }
    this.byte(v);
  }
  string(s: string | Uint8Array): void {
    const b = typeof s === 'string' ? new TextEncoder().encode(s) : s;
    this.varUInt(b.length);
    this.bytes(b);
  }
  /** Little-endian two's complement of `v` in `width` bytes. */
  int(v: bigint, width: number): void {
    let x = BigInt.asUintN(width * 8, v);
    for (let i = 0; i < width; i++) { this.byte(Number(x & 0xffn)); x >>= 8n; }
  }
  f32(v: number): void { const d = new DataView(new ArrayBuffer(4)); d.setFloat32(0, v, true); this.bytes(new Uint8Array(d.buffer)); }
  f64(v: number): void { const d = new DataView(new ArrayBuffer(8)); d.setFloat64(0, v, true); this.bytes(new Uint8Array(d.buffer)); }
  result(): Uint8Array { return this.buf.slice(0, this.len); }
}

const INT_W: Record<string, [number, boolean]> = {
  UInt8: [1, false], UInt16: [2, false], UInt32: [4, false], UInt64: [8, false], UInt128: [16, false], UInt256: [32, false],
  Int8: [1, true], Int16: [2, true], Int32: [4, true], Int64: [8, true], Int128: [16, true], Int256: [32, true],
};

/** A Dynamic wire value: the type it holds and the value. */
export interface DynamicValue { type: TypeNode; value: unknown }

/** Write one wire value of `t`. */
export function writeValue(w: Writer, t: TypeNode, v: unknown): void {
  const ints = INT_W[t.kind];
  if (ints !== undefined) { w.int(v as bigint, ints[0]); return; }
  switch (t.kind) {
    case 'Float32': w.f32(v as number); return;
    case 'Float64': w.f64(v as number); return;
    case 'BFloat16': w.int(BigInt(v as number), 2); return;
    case 'Bool': w.byte(v as number); return;
    case 'Decimal': w.int(v as bigint, decimalByteWidth(t.precision)); return;
    case 'String': w.string(v as Uint8Array); return;
    case 'FixedString': w.bytes(v as Uint8Array); return;
    case 'Date': w.int(BigInt(v as number), 2); return;
    case 'Date32': case 'DateTime': case 'Time': case 'IPv4': w.int(BigInt(v as number), 4); return;
    case 'DateTime64': case 'Time64': case 'Interval': w.int(v as bigint, 8); return;
    case 'UUID': case 'IPv6': w.bytes(v as Uint8Array); return;
    case 'Enum8': w.int(BigInt(v as number), 1); return;
    case 'Enum16': w.int(BigInt(v as number), 2); return;
    case 'Nullable':
      if (v === null) w.byte(1); else { w.byte(0); writeValue(w, t.inner, v); }
      return;
    case 'LowCardinality': case 'SimpleAggregateFunction': writeValue(w, t.inner, v); return;
    case 'Array': case 'QBit': {
      const a = v as unknown[];
      w.varUInt(a.length);
      for (const x of a) writeValue(w, t.kind === 'Array' ? t.element : t.element, x);
      return;
    }
    case 'Tuple': (v as unknown[]).forEach((x, i) => writeValue(w, t.elements[i]!, x)); return;
    case 'Nested': {
      const a = v as unknown[][];
      w.varUInt(a.length);
      for (const row of a) row.forEach((x, i) => writeValue(w, t.elements[i]!, x));
      return;
    }
    case 'Map': {
      const a = v as [unknown, unknown][];
      w.varUInt(a.length);
      for (const [k, x] of a) { writeValue(w, t.key, k); writeValue(w, t.value, x); }
      return;
    }
    case 'Variant': {
      if (v === null) { w.byte(255); return; }
      const { d, value } = v as { d: number; value: unknown };
      w.byte(d);
      writeValue(w, t.members[d]!, value);
      return;
    }
    case 'Geometry': {
      const members: TypeNode[] = [{ kind: 'LineString' }, { kind: 'MultiLineString' }, { kind: 'MultiPolygon' }, { kind: 'Point' }, { kind: 'Polygon' }, { kind: 'Ring' }];
      writeValue(w, { kind: 'Variant', members }, v);
      return;
    }
    case 'Dynamic': {
      if (v === null) { w.byte(0); return; }
      const dv = v as DynamicValue;
      w.bytes(encodeBinaryType(dv.type));
      writeValue(w, dv.type, dv.value);
      return;
    }
    case 'JSON': {
      const paths = v as [string, DynamicValue | null, boolean][];
      w.varUInt(paths.length);
      for (const [path, dv, typed] of paths) {
        w.string(path);
        if (typed) writeValue(w, t.typedPaths.find((p) => p.path === path)!.type, dv);
        else writeValue(w, { kind: 'Dynamic' }, dv);
      }
      return;
    }
    case 'Point': w.f64((v as number[])[0]!); w.f64((v as number[])[1]!); return;
    case 'Ring': case 'LineString': writeValue(w, { kind: 'Array', element: { kind: 'Point' } }, v); return;
    case 'Polygon': case 'MultiLineString': writeValue(w, { kind: 'Array', element: { kind: 'Ring' } }, v); return;
    case 'MultiPolygon': writeValue(w, { kind: 'Array', element: { kind: 'Polygon' } }, v); return;
    default: throw new Error(`writer: ${t.kind} not supported`);
  }
}

export interface WriterColumn { name: string; type: TypeNode }

/** A whole body: header (text types, or binary with `binaryTypes`) and rows of wire values. */
export function writeBody(columns: readonly WriterColumn[], rows: readonly unknown[][], binaryTypes = false): Uint8Array {
  const w = new Writer();
  w.varUInt(columns.length);
  for (const c of columns) w.string(c.name);
  for (const c of columns) {
    if (binaryTypes) w.bytes(encodeBinaryType(c.type));
    else w.string(printType(c.type));
  }
  for (const r of rows) r.forEach((v, i) => writeValue(w, columns[i]!.type, v));
  return w.result();
}

// ---------------------------------------------------------------------------------------------
// Arbitraries.

const SCALARS: TypeNode[] = [
  ...Object.keys(INT_W).map((kind) => ({ kind }) as TypeNode),
  { kind: 'Float32' }, { kind: 'Float64' }, { kind: 'BFloat16' }, { kind: 'Bool' }, { kind: 'String' },
  { kind: 'FixedString', length: 3 }, { kind: 'Date' }, { kind: 'Date32' }, { kind: 'DateTime' },
  { kind: 'DateTime', timezone: 'Asia/Kolkata' }, { kind: 'DateTime64', precision: 3 }, { kind: 'DateTime64', precision: 9, timezone: 'UTC' },
  { kind: 'DateTime64', precision: 0 }, { kind: 'Time' }, { kind: 'Time64', precision: 6 }, { kind: 'UUID' }, { kind: 'IPv4' }, { kind: 'IPv6' },
  { kind: 'Decimal', precision: 9, scale: 2 }, { kind: 'Decimal', precision: 18, scale: 18 }, { kind: 'Decimal', precision: 38, scale: 5 },
  { kind: 'Decimal', precision: 76, scale: 30 }, { kind: 'Enum8', entries: [{ label: 'a', value: -128 }, { label: "it's", value: 1 }, { label: '', value: 127 }] },
  { kind: 'Enum16', entries: [{ label: 'x', value: -1000 }, { label: 'y', value: 20000 }] }, { kind: 'Interval', unit: 'Day' },
  { kind: 'Point' },
];

/** Names that stress object keys: reserved-ish, empty, quotes, unicode, numeric. */
export const NAME_POOL = ['a', 'b', 'c', '__proto__', 'constructor', 'prototype', '', 'x y', 'q"uote', 'back\\slash', '1', 'hé', 'toString'];

export function arbType(depth = 3): fc.Arbitrary<TypeNode> {
  const scalar = fc.constantFrom(...SCALARS);
  if (depth <= 0) return scalar;
  const inner = arbType(depth - 1);
  return fc.oneof(
    { weight: 6, arbitrary: scalar },
    { weight: 2, arbitrary: fc.constantFrom<TypeNode>({ kind: 'String' }, { kind: 'UInt8' }, { kind: 'Int64' }, { kind: 'Float64' }, { kind: 'Date' }).map((x) => ({ kind: 'Nullable', inner: x }) as TypeNode) },
    { weight: 1, arbitrary: fc.constant<TypeNode>({ kind: 'LowCardinality', inner: { kind: 'Nullable', inner: { kind: 'String' } } }) },
    { weight: 2, arbitrary: inner.map((e) => ({ kind: 'Array', element: e }) as TypeNode) },
    { weight: 1, arbitrary: fc.array(inner, { minLength: 1, maxLength: 3 }).map((els) => ({ kind: 'Tuple', elements: els }) as TypeNode) },
    {
      weight: 1,
      arbitrary: fc.uniqueArray(fc.constantFrom(...NAME_POOL), { minLength: 1, maxLength: 3 }).chain((names) =>
        fc.array(inner, { minLength: names.length, maxLength: names.length }).map((els) => ({ kind: 'Tuple', elements: els, names }) as TypeNode)),
    },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom<TypeNode>({ kind: 'String' }, { kind: 'UInt64' }, { kind: 'Int8' }), inner).map(([k, v]) => ({ kind: 'Map', key: k, value: v }) as TypeNode) },
    // Members in the server's order (sorted by type name): the discriminator indexes that list.
    { weight: 1, arbitrary: fc.uniqueArray(scalar, { minLength: 1, maxLength: 3, selector: (t) => printType(t) }).map((m) => ({ kind: 'Variant', members: [...m].sort((x, y) => compareCodePoints(printType(x), printType(y))) }) as TypeNode) },
    { weight: 1, arbitrary: fc.constant<TypeNode>({ kind: 'Dynamic' }) },
    { weight: 1, arbitrary: fc.constant<TypeNode>({ kind: 'JSON', typedPaths: [{ path: 'id', type: { kind: 'UInt32' } }, { path: 't.n', type: { kind: 'Nullable', inner: { kind: 'String' } } }], skipPaths: [], skipRegexps: [] }) },
    { weight: 1, arbitrary: fc.constantFrom<TypeNode>({ kind: 'Ring' }, { kind: 'Polygon' }, { kind: 'MultiPolygon' }, { kind: 'Geometry' }) },
  );
}

const bytesArb = (max: number): fc.Arbitrary<Uint8Array> => fc.oneof(
  fc.uint8Array({ maxLength: max }),
  fc.string({ unit: 'grapheme', maxLength: max }).map((s) => new TextEncoder().encode(s)),
  fc.string({ unit: 'binary-ascii', maxLength: max }).map((s) => new TextEncoder().encode(s)),
);

function intArb(width: number, signed: boolean): fc.Arbitrary<bigint> {
  const bits = BigInt(width * 8);
  const min = signed ? -(1n << (bits - 1n)) : 0n;
  const max = signed ? (1n << (bits - 1n)) - 1n : (1n << bits) - 1n;
  return fc.oneof(fc.bigInt({ min, max }), fc.constantFrom(min, max, 0n), fc.bigInt({ min: signed ? -1000n : 0n, max: 1000n }));
}

const DYN_TYPES: TypeNode[] = [{ kind: 'Int64' }, { kind: 'String' }, { kind: 'Float64' }, { kind: 'Bool' }, { kind: 'Array', element: { kind: 'Nullable', inner: { kind: 'Int64' } } }, { kind: 'Date' }, { kind: 'DateTime64', precision: 3, timezone: 'UTC' }, { kind: 'Decimal', precision: 18, scale: 2 }, { kind: 'UUID' }];

/** Wire values of `t` (depth-bounded by the type itself). */
export function arbValue(t: TypeNode): fc.Arbitrary<unknown> {
  const ints = INT_W[t.kind];
  if (ints !== undefined) return intArb(ints[0], ints[1]);
  switch (t.kind) {
    case 'Float32': return fc.float({ noDefaultInfinity: false }).map((x) => x);
    case 'Float64': return fc.double();
    case 'BFloat16': return fc.integer({ min: 0, max: 0xffff });
    case 'Bool': return fc.integer({ min: 0, max: 1 });
    case 'Decimal': {
      const w = decimalByteWidth(t.precision);
      const lim = 10n ** BigInt(t.precision) - 1n;
      return fc.oneof(fc.bigInt({ min: -lim, max: lim }), fc.bigInt({ min: -1000n, max: 1000n })).map((x) => BigInt.asIntN(w * 8, x));
    }
    case 'String': return bytesArb(40);
    case 'FixedString': return fc.uint8Array({ minLength: t.length, maxLength: t.length });
    case 'Date': return fc.integer({ min: 0, max: 65535 });
    case 'Date32': return fc.integer({ min: -25567, max: 120529 });
    case 'DateTime': return fc.integer({ min: 0, max: 0xffffffff });
    case 'DateTime64': {
      const scale = 10n ** BigInt(t.precision);
      return fc.bigInt({ min: -2208988800n * scale, max: 10413791999n * scale });
    }
    case 'Time': return fc.integer({ min: -3599999, max: 3599999 });
    case 'Time64': { const scale = 10n ** BigInt(t.precision); return fc.bigInt({ min: -3599999n * scale, max: 3599999n * scale }); }
    case 'Interval': return intArb(8, true);
    case 'UUID': case 'IPv6': return fc.oneof(fc.uint8Array({ minLength: 16, maxLength: 16 }), fc.constantFrom(
      Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 1, 2, 3, 4]), new Uint8Array(16), Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]),
      Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4]), Uint8Array.from([0x20, 1, 0xd, 0xb8, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1])));
    case 'IPv4': return fc.integer({ min: 0, max: 0xffffffff });
    case 'Enum8': case 'Enum16': return fc.constantFrom(...t.entries.map((e) => e.value));
    case 'Nullable': return fc.option(arbValue(t.inner), { nil: null, freq: 3 });
    case 'LowCardinality': case 'SimpleAggregateFunction': return arbValue(t.inner);
    case 'Array': return fc.array(arbValue(t.element), { maxLength: 4 });
    case 'Tuple': return fc.tuple(...t.elements.map(arbValue));
    case 'Map': return fc.array(fc.tuple(arbValue(t.key), arbValue(t.value)), { maxLength: 3 });
    case 'Variant': return fc.option(fc.integer({ min: 0, max: t.members.length - 1 }).chain((d) => arbValue(t.members[d]!).map((value) => ({ d, value }))), { nil: null, freq: 4 });
    case 'Dynamic': return fc.option(fc.constantFrom(...DYN_TYPES).chain((type) => arbValue(type).map((value) => ({ type, value }))), { nil: null, freq: 4 });
    case 'JSON': {
      const dyn = fc.constantFrom(...DYN_TYPES).chain((type) => arbValue(type).map((value) => ({ type, value })));
      return fc.tuple(fc.integer({ min: 0, max: 0xffffffff }).map(BigInt), fc.option(bytesArb(5), { nil: null }), fc.option(dyn, { nil: null }), fc.option(dyn, { nil: null }))
        .map(([id, tn, x, y]) => {
          const paths: [string, unknown, boolean][] = [['id', id, true], ['t.n', tn, true]];
          if (x !== null) paths.push(['a.b', x, false]);
          if (y !== null) paths.push(['z', y, false]);
          return paths;
        });
    }
    case 'Point': return fc.tuple(fc.double(), fc.double());
    case 'Ring': case 'LineString': return fc.array(arbValue({ kind: 'Point' }), { maxLength: 3 });
    case 'Polygon': case 'MultiLineString': return fc.array(arbValue({ kind: 'Ring' }), { maxLength: 2 });
    case 'MultiPolygon': return fc.array(arbValue({ kind: 'Polygon' }), { maxLength: 2 });
    case 'Geometry': {
      const members: TypeNode[] = [{ kind: 'LineString' }, { kind: 'MultiLineString' }, { kind: 'MultiPolygon' }, { kind: 'Point' }, { kind: 'Polygon' }, { kind: 'Ring' }];
      return fc.option(fc.integer({ min: 0, max: 5 }).chain((d) => arbValue(members[d]!).map((value) => ({ d, value }))), { nil: null });
    }
    default: throw new Error(`arbValue: ${t.kind}`);
  }
}

/** A schema (1-6 columns, names from NAME_POOL, possibly duplicated) and 0-5 rows of it. */
export function arbBody(): fc.Arbitrary<{ columns: WriterColumn[]; rows: unknown[][] }> {
  return fc.array(fc.tuple(fc.constantFrom(...NAME_POOL), arbType(2)), { minLength: 1, maxLength: 6 })
    .chain((cols) => {
      const columns = cols.map(([name, type]) => ({ name, type }));
      return fc.array(fc.tuple(...columns.map((c) => arbValue(c.type))), { maxLength: 5 }).map((rows) => ({ columns, rows: rows as unknown[][] }));
    });
}
