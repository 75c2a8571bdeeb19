// Native body → columns (client.fetchColumns): numeric columns as typed arrays, Nullable numeric
// columns with a null mask, LowCardinality as dictionary + keys, everything else as an array of
// the same JS values the row decoders give.
//
// Invariants:
// - Fixed-width numeric data is never converted value by value: each block contributes a byte
//   range, and the ranges are joined once at the end (one copy), or, for a single block whose
//   bytes are aligned, handed out as a zero-copy view of the input (which then must not change).
// - Multi-block results are concatenated once, at the end, never block by block.
// - Every block must have the first block's columns (names and types), else ChwireDecodeError.
// - A top-level DateTime('tz') arrives as plain DateTime (native.md §2): `options.types` lets
//   the caller supply the real type text, checked to differ from the header only by that zone.
import { ChwireConfigError, ChwireDecodeError } from '../errors.js';
import type { TypeNode } from '../types/ast.js';
import { parseType } from '../types/parse.js';
import { typeEquals } from '../types/equals.js';
import { createCursor, type Cursor } from '../io/cursor.js';
import { plainBytes } from '../io/bytes.js';
import { NEED_MORE } from '../io/need-more.js';
import { fault } from '../io/fault.js';
import { columnReader, lowCardinalityPrefix, readLowCardinalityPart, need, type ColumnReader, type ReaderContext, type Values } from './column-readers.js';
import { readBlock, newProgress, SlotCache } from './block-reader.js';
import { resolveNativeOptions, type ResolvedNativeOptions, type NativeDecodeOptions } from './options.js';
import { specialReader } from './column-dynamic.js';

export type NumericArray =
  | Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array
  | Float32Array | Float64Array | BigInt64Array | BigUint64Array;

/** Nullable((U)IntN | FloatN): the values (anything under a NULL is meaningless) and a mask, 1 = NULL. */
export interface NullableNumericColumn { readonly kind: 'nullable'; readonly values: NumericArray; readonly nulls: Uint8Array }

/**
 * LowCardinality(T): row i is `dictionary[keys[i]]`. For LowCardinality(Nullable(T)) `nulls[i]`
 * is 1 for NULL rows (their key points at a placeholder entry). Multi-block results concatenate
 * the blocks' dictionaries (an entry may repeat) and offset the keys.
 */
export interface LowCardinalityColumn {
  readonly kind: 'lowCardinality';
  readonly dictionary: unknown[];
  readonly keys: Uint8Array | Uint16Array | Uint32Array;
  readonly nulls: Uint8Array | undefined;
}

/** A typed array for numeric types, the two shapes above, or an array of row values for all other types. */
export type NativeColumn = NumericArray | NullableNumericColumn | LowCardinalityColumn | unknown[];

export interface NativeColumns { names: string[]; types: string[]; columns: NativeColumn[]; rowCount: number }

export interface NativeColumnsOptions extends NativeDecodeOptions {
  /** Real column types by name (e.g. from DESCRIBE), to restore what the Native header loses (DateTime zones). */
  types?: Readonly<Record<string, string>>;
}

type Ctor = { new (n: number): NumericArray; new (b: ArrayBufferLike, o: number, n: number): NumericArray; BYTES_PER_ELEMENT: number };
const NUMERIC: Partial<Record<TypeNode['kind'], Ctor>> = {
  Int8: Int8Array, UInt8: Uint8Array, Int16: Int16Array, UInt16: Uint16Array, Int32: Int32Array, UInt32: Uint32Array,
  Float32: Float32Array, Float64: Float64Array, Int64: BigInt64Array, UInt64: BigUint64Array,
} as Partial<Record<TypeNode['kind'], Ctor>>;

/** A byte range of one block's column data. */
interface Range { u8: Uint8Array; start: number; rows: number }

/** Collects one column over all blocks. */
interface Collector {
  read(c: Cursor, rows: number): void;
  finish(total: number): NativeColumn;
}

function takeRange(c: Cursor, width: number, rows: number): Range {
  need(c, width * rows);
  const r = { u8: c.u8, start: c.pos, rows };
  c.pos += width * rows;
  return r;
}

/** Join ranges into one typed array: a view of a single aligned range, else exactly one copy. */
function joinRanges(C: Ctor, ranges: readonly Range[], total: number): NumericArray {
  const w = C.BYTES_PER_ELEMENT;
  if (ranges.length === 1) {
    const r = ranges[0]!;
    const abs = r.u8.byteOffset + r.start;
    if (abs % w === 0) return new C(r.u8.buffer, abs, r.rows);
  }
  const out = new C(total);
  const dst = new Uint8Array(out.buffer);
  let at = 0;
  for (const r of ranges) {
    dst.set(r.u8.subarray(r.start, r.start + w * r.rows), at);
    at += w * r.rows;
  }
  return out;
}

function numericCollector(C: Ctor): Collector {
  const ranges: Range[] = [];
  return {
    read(c, rows) { ranges.push(takeRange(c, C.BYTES_PER_ELEMENT, rows)); },
    finish(total) { return joinRanges(C, ranges, total); },
  };
}

function nullableNumericCollector(C: Ctor): Collector {
  const masks: Range[] = [];
  const ranges: Range[] = [];
  return {
    read(c, rows) {
      const mask = takeRange(c, 1, rows);
      for (let i = 0; i < rows; i++) {
        const b = mask.u8[mask.start + i]!;
        if (b > 1) throw fault(`null map byte ${b} is not 0 or 1`, mask.start + i);
      }
      masks.push(mask);
      ranges.push(takeRange(c, C.BYTES_PER_ELEMENT, rows));
    },
    finish(total) {
      return { kind: 'nullable', values: joinRanges(C, ranges, total), nulls: joinRanges(Uint8Array as unknown as Ctor, masks, total) as Uint8Array };
    },
  };
}

function lowCardinalityCollector(dict: ColumnReader, nullable: boolean): Collector {
  const parts: { dictionary: Values; keys: ArrayLike<number | bigint> }[] = [];
  return {
    read(c, rows) {
      lowCardinalityPrefix(c, dict);
      const p = readLowCardinalityPart(c, dict, nullable, rows);
      parts.push({ dictionary: p.dictionary, keys: p.keys });
    },
    finish(total) {
      const dictionary: unknown[] = [];
      let keys: Uint8Array | Uint16Array | Uint32Array;
      const one = parts.length === 1 && !(parts[0]!.keys instanceof BigUint64Array);
      if (one) keys = parts[0]!.keys as Uint8Array | Uint16Array | Uint32Array;
      else keys = new Uint32Array(total);
      let row = 0;
      for (const p of parts) {
        const base = dictionary.length;
        for (let i = 0; i < p.dictionary.length; i++) dictionary.push(p.dictionary[i]);
        if (!one) for (let i = 0; i < p.keys.length; i++) keys[row + i] = base + Number(p.keys[i]!);
        row += p.keys.length;
      }
      let nulls: Uint8Array | undefined;
      if (nullable) {
        nulls = new Uint8Array(total);
        row = 0;
        for (const p of parts) {
          for (let i = 0; i < p.keys.length; i++) nulls[row + i] = Number(p.keys[i]!) === 0 ? 1 : 0;
          row += p.keys.length;
        }
      }
      return { kind: 'lowCardinality', dictionary, keys, nulls };
    },
  };
}

function valuesCollector(reader: ColumnReader): Collector {
  const parts: Values[] = [];
  return {
    read(c, rows) {
      reader.prefix(c);
      parts.push(reader.read(c, rows));
    },
    finish(total) {
      const out = new Array<unknown>(total);
      let row = 0;
      for (const p of parts) for (let i = 0; i < p.length; i++) out[row++] = p[i];
      return out;
    },
  };
}

function collectorFor(node: TypeNode, name: string, type: string, opts: ResolvedNativeOptions): Collector {
  const ctx: ReaderContext = { o: opts.forColumn(name), views: true, special: specialReader, binaryTypes: opts.binaryTypes };
  const t = node.kind === 'SimpleAggregateFunction' ? node.inner : node;
  const C = NUMERIC[t.kind];
  if (C !== undefined) return numericCollector(C);
  if (t.kind === 'Nullable') {
    const CN = NUMERIC[t.inner.kind];
    if (CN !== undefined) return nullableNumericCollector(CN);
  }
  if (t.kind === 'LowCardinality') {
    const nullable = t.inner.kind === 'Nullable';
    const inner = t.inner.kind === 'Nullable' ? t.inner.inner : t.inner;
    return lowCardinalityCollector(columnReader(inner, ctx, type), nullable);
  }
  return valuesCollector(columnReader(node, ctx, type));
}

function joinChunks(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return plainBytes(chunks[0]!);
  let n = 0;
  for (const c of chunks) n += c.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function withoutZone(t: TypeNode): TypeNode {
  return t.kind === 'DateTime' ? { kind: 'DateTime' } : t;
}

/** Decode a complete Native body (one buffer or its chunks, in order) into columns. */
export function decodeNativeColumns(input: Uint8Array | readonly Uint8Array[], options?: NativeColumnsOptions): NativeColumns {
  const bytes = input instanceof Uint8Array ? plainBytes(input) : joinChunks(input);
  const opts = resolveNativeOptions(options);
  const collectors: Collector[] = [];
  const cache = new SlotCache<true>(() => true, opts.binaryTypes);
  const progress = newProgress<true>();
  const c = createCursor(bytes);
  let names: string[] | undefined;
  let types: string[] = [];
  let nodes: TypeNode[] = [];
  let rowCount = 0;
  let pos = 0;
  while (pos < bytes.length) {
    try {
      readBlock(c, pos, progress, cache, 0, rowCount, (slot, k, rows) => {
        if (names === undefined) {
          if (collectors.length === k) collectors.push(collectorFor(slot.node, slot.name, slot.type, opts));
        } else if (names[k] !== slot.name || types[k] !== slot.type) {
          throw new ChwireDecodeError(`block column ${k} is ${JSON.stringify(slot.name)} ${slot.type}, the first block had ${JSON.stringify(names[k])} ${types[k]}`, { offset: c.pos });
        }
        collectors[k]!.read(c, rows);
      });
    } catch (e) {
      if (e === NEED_MORE) throw new ChwireDecodeError('the body ends inside a Native block', { column: progress.column, row: progress.column === undefined ? undefined : rowCount, offset: bytes.length });
      throw e;
    }
    if (names === undefined) {
      names = progress.slots.map((s) => s.name);
      types = progress.slots.map((s) => s.type);
      nodes = progress.slots.map((s) => s.node);
      // A first block with 0 rows read no data: build the collectors now.
      for (let k = collectors.length; k < names.length; k++) collectors.push(collectorFor(nodes[k]!, names[k]!, types[k]!, opts));
    } else if (progress.slots.length !== names.length) {
      throw new ChwireDecodeError(`a block has ${progress.slots.length} columns, the first had ${names.length}`, { offset: pos });
    }
    rowCount += progress.rows;
    pos = c.pos;
  }
  if (names === undefined) return { names: [], types: [], columns: [], rowCount: 0 };
  const reported = types.map((type, k) => overrideType(names![k]!, type, nodes[k]!, options?.types));
  return { names, types: reported, columns: collectors.map((col) => col.finish(rowCount)), rowCount };
}

function overrideType(name: string, type: string, node: TypeNode, types: NativeColumnsOptions['types']): string {
  if (types === undefined || !Object.prototype.hasOwnProperty.call(types, name)) return type;
  const real = types[name]!;
  if (!typeEquals(withoutZone(parseType(real)), withoutZone(node))) {
    throw new ChwireConfigError(`options.types[${JSON.stringify(name)}] is ${real}, but the result's column is ${type}`);
  }
  return real;
}
