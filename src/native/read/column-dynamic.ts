// Native readers for the self-describing columns: Dynamic (native.md §4.9), JSON (§4.10) and
// QBit (§4.11). Their member types are announced in each block's prefix, so the readers are
// (re)built in prefix() — cached by the announced type list, which rarely changes.
//
// Invariants:
// - Discriminators of a Dynamic refer to sort(announced types ∪ {SharedVariant}) by name (the
//   trap of §4.9); the order in which the prefix lists the names does not matter.
// - Values in SharedVariant and in JSON shared data are `<binary type><RowBinary value>`: they
//   are read with the RowBinary Dynamic reader, so they give the same JS values as RowBinary.
// - JSON rows: dotted paths become nested objects, a dynamic path holding NULL is omitted and a
//   typed path is kept even when NULL — as the RowBinary decoder does.
import type { TypeNode, JsonType } from '../../types/ast.js';
import { parseType } from '../../types/parse.js';
import type { Cursor } from '../../io/cursor.js';
import { createCursor } from '../../io/cursor.js';
import { fault, DecodeFault, MAX_LENGTH } from '../../io/fault.js';
import { readVarUInt } from '../../io/varint.js';
import { utf8Decode } from '../../io/utf8.js';
import { NEED_MORE } from '../../io/need-more.js';
import { jsonObject } from '../../convert/objects.js';
import { readBinaryTypeText } from './block-reader.js';
import { makeReader } from '../../rowbinary/readers.js';
import {
  columnReader, variantReader, readCount, readOffsets, typedAt, need, type ColumnReader, type ReaderContext, type Values,
} from './column-readers.js';

function readName(c: Cursor): string {
  const at = c.pos;
  const len = readVarUInt(c);
  if (len > MAX_LENGTH) throw fault(`name length ${len} is beyond the engine's limit`, at);
  need(c, len);
  const s = utf8Decode(c.u8, c.pos, c.pos + len);
  c.pos += len;
  return s;
}

function readNames(c: Cursor, binaryTypes = false): string[] {
  const at = c.pos;
  const n = readVarUInt(c);
  if (n > 1e6) throw fault(`${n} type or path names announced`, at);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(binaryTypes ? readBinaryTypeText(c) : readName(c));
  return out;
}

/** Byte-wise order of UTF-8 names (the engine sorts std::string). Code-unit order agrees for ASCII. */
function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** SharedVariant: a String column whose values are `<binary type><RowBinary value>`. */
function sharedValuesReader(ctx: ReaderContext): ColumnReader {
  const dyn = makeReader({ kind: 'Dynamic' }, ctx.o);
  return {
    prefix() {},
    read(c, n) {
      const out = new Array<unknown>(n);
      for (let i = 0; i < n; i++) {
        const at = c.pos;
        const len = readVarUInt(c);
        if (len > MAX_LENGTH) throw fault(`value length ${len} is beyond the engine's limit`, at);
        need(c, len + (n - i - 1));
        out[i] = decodeSelfDescribed(dyn, c, len);
      }
      return out;
    },
  };
}

/** Read one `<binary type><value>` of exactly `len` bytes at c.pos, advancing past it. */
function decodeSelfDescribed(dyn: (c: Cursor) => unknown, c: Cursor, len: number): unknown {
  const start = c.pos;
  const sub = createCursor(c.u8, start, start + len);
  let v: unknown;
  try {
    v = dyn(sub);
  } catch (e) {
    if (e === NEED_MORE) throw fault('a self-described value is longer than its String', start);
    throw e;
  }
  if (sub.pos !== start + len) throw fault('a self-described value is shorter than its String', sub.pos);
  c.pos = start + len;
  return v;
}

/** Cache of per-type-list readers (the list normally repeats in every block). */
function memo<R>(make: (key: string[]) => R): (key: string[]) => R {
  const map = new Map<string, R>();
  return (key) => {
    const k = key.join('\u0000');
    let r = map.get(k);
    if (r === undefined) {
      r = make(key);
      if (map.size >= 64) map.clear();
      map.set(k, r);
    }
    return r;
  };
}

function typeReaderOf(name: string, ctx: ReaderContext, at: number): ColumnReader {
  let t: TypeNode;
  try {
    t = parseType(name);
  } catch {
    throw fault(`Dynamic announces an unreadable type ${JSON.stringify(name)}`, at);
  }
  return columnReader(t, ctx, name);
}

/** Dynamic, all three prefix versions: V1 (1), V2 (2) and flattened (3). */
export function dynamicReader(ctx: ReaderContext): ColumnReader {
  const basic = memo((names) => {
    const members = [...names, 'SharedVariant'].sort(byName);
    return variantReader(members.map((m) => (m === 'SharedVariant' ? sharedValuesReader(ctx) : typeReaderOf(m, ctx, 0))));
  });
  const flat = memo((names) => names.map((m) => typeReaderOf(m, ctx, 0)));
  let current: { kind: 'basic'; reader: ColumnReader } | { kind: 'flat'; readers: ColumnReader[] } | undefined;
  return {
    prefix(c) {
      const at = c.pos;
      const version = readCount(c, 'Dynamic serialization version');
      if (version === 1 || version === 2) {
        if (version === 1) readVarUInt(c); // max_dynamic_types: informational
        const reader = basic(readNames(c, ctx.binaryTypes));
        reader.prefix(c);
        current = { kind: 'basic', reader };
      } else if (version === 3) {
        const readers = flat(readNames(c, ctx.binaryTypes));
        for (const r of readers) r.prefix(c);
        current = { kind: 'flat', readers };
      } else {
        throw fault(`Dynamic serialization version ${version} is not supported`, at);
      }
    },
    read(c, n) {
      if (n === 0) return [];
      if (current === undefined) throw new DecodeFault('Dynamic data without its prefix', c.pos);
      if (current.kind === 'basic') return current.reader.read(c, n);
      return readFlattened(c, n, current.readers);
    },
  };
}

/** Flattened Dynamic data: one index per row (ntypes = NULL), then each type's rows in list order. */
function readFlattened(c: Cursor, n: number, readers: readonly ColumnReader[]): Values {
  const m = readers.length;
  const idx: ArrayLike<number | bigint> = m + 1 <= 0x100 ? typedAt(c, Uint8Array, n) : m + 1 <= 0x10000 ? typedAt(c, Uint16Array, n) : typedAt(c, Uint32Array, n);
  const counts = new Array<number>(m).fill(0);
  for (let i = 0; i < n; i++) {
    const k = Number(idx[i]!);
    if (k > m) throw fault(`flattened Dynamic index ${k} is out of range (${m} types)`, c.pos);
    if (k < m) counts[k]!++;
  }
  const cols = readers.map((r, k) => r.read(c, counts[k]!));
  const next = new Array<number>(m).fill(0);
  const out = new Array<unknown>(n);
  for (let i = 0; i < n; i++) {
    const k = Number(idx[i]!);
    out[i] = k === m ? null : cols[k]![next[k]!++];
  }
  return out;
}

/** JSON: typed paths, dynamic paths (each a Dynamic column) and shared data (§4.10). */
export function jsonReader(t: JsonType, ctx: ReaderContext): ColumnReader {
  const typed = [...t.typedPaths].sort((a, b) => byName(a.path, b.path)).map((p) => ({ path: p.path, reader: columnReader(p.type, ctx, p.path) }));
  const dyn = makeReader({ kind: 'Dynamic' }, ctx.o);
  let mode: 'paths' | 'string' | 'flat' = 'paths';
  let dynamicPaths: { path: string; reader: ColumnReader }[] = [];
  const pathReaders = new Map<string, ColumnReader>();
  const readerFor = (path: string): ColumnReader => {
    let r = pathReaders.get(path);
    if (r === undefined) {
      r = dynamicReader(ctx);
      if (pathReaders.size >= 4096) pathReaders.clear();
      pathReaders.set(path, r);
    }
    return r;
  };
  return {
    prefix(c) {
      const at = c.pos;
      const version = readCount(c, 'JSON serialization version');
      if (version === 1) { mode = 'string'; return; }
      if (version === 0) readVarUInt(c); // V1 repeats the path count (compatibility field)
      else if (version !== 2 && version !== 3) throw fault(`JSON serialization version ${version} is not supported`, at);
      mode = version === 3 ? 'flat' : 'paths';
      dynamicPaths = readNames(c).map((path) => ({ path, reader: readerFor(path) }));
      for (const p of typed) p.reader.prefix(c);
      for (const p of dynamicPaths) p.reader.prefix(c);
    },
    read(c, n) {
      if (n === 0) return [];
      if (mode === 'string') return readJsonText(c, n);
      // Each row's (path, value) pairs, then one object per row with the paths in the engine's
      // order (sorted, typed and dynamic paths and shared data merged): jsonObject.
      const rowPaths: string[][] = [];
      const rowValues: unknown[][] = [];
      for (let i = 0; i < n; i++) { rowPaths.push([]); rowValues.push([]); }
      const add = (i: number, path: string, v: unknown): void => { rowPaths[i]!.push(path); rowValues[i]!.push(v); };
      for (const p of typed) {
        const vals = p.reader.read(c, n);
        for (let i = 0; i < n; i++) add(i, p.path, vals[i]);
      }
      for (const p of dynamicPaths) {
        const vals = p.reader.read(c, n);
        for (let i = 0; i < n; i++) if (vals[i] !== null) add(i, p.path, vals[i]);
      }
      if (mode !== 'flat') {
        // Shared data: Array(Tuple(path String, value String)) — offsets, all paths, all values.
        const ends = readOffsets(c, n);
        const total = ends[n - 1]!;
        const paths: string[] = [];
        for (let k = 0; k < total; k++) {
          const at = c.pos;
          const len = readVarUInt(c);
          if (len > MAX_LENGTH) throw fault(`path length ${len} is beyond the engine's limit`, at);
          need(c, len);
          paths.push(utf8Decode(c.u8, c.pos, c.pos + len));
          c.pos += len;
        }
        let row = 0;
        for (let k = 0; k < total; k++) {
          while (ends[row]! <= k) row++;
          const at = c.pos;
          const len = readVarUInt(c);
          if (len > MAX_LENGTH) throw fault(`value length ${len} is beyond the engine's limit`, at);
          need(c, len);
          const v = decodeSelfDescribed(dyn, c, len);
          if (v !== null) add(row, paths[k]!, v);
        }
      }
      const out = new Array<unknown>(n);
      for (let i = 0; i < n; i++) out[i] = jsonObject(rowPaths[i]!, rowValues[i]!);
      return out;
    },
  };
}

/** JSON written as text (output_format_native_write_json_as_string): parsed with JSON.parse. */
function readJsonText(c: Cursor, n: number): Values {
  const out = new Array<unknown>(n);
  for (let i = 0; i < n; i++) {
    const at = c.pos;
    const len = readVarUInt(c);
    if (len > MAX_LENGTH) throw fault(`JSON text length ${len} is beyond the engine's limit`, at);
    need(c, len);
    const text = utf8Decode(c.u8, c.pos, c.pos + len);
    try {
      out[i] = JSON.parse(text);
    } catch {
      throw fault('JSON column text is not valid JSON', at);
    }
    c.pos += len;
  }
  return out;
}

/**
 * QBit(T, N): bit planes (§4.11) → an array of N numbers per row. Planes are column-major over
 * the block: plane p of row i is at ((p * n) + i) * ceil(N/8) (observed in the qbit fixture:
 * the spec's one-row example cannot show it).
 */
function qbitReader(t: Extract<TypeNode, { kind: 'QBit' }>): ColumnReader {
  const bits = t.element.kind === 'Float64' ? 64 : t.element.kind === 'Float32' ? 32 : t.element.kind === 'BFloat16' ? 16 : 0;
  const dim = t.dimension;
  const planeBytes = Math.ceil(dim / 8);
  const rowBytes = bits * planeBytes;
  return {
    prefix() {},
    read(c, n) {
      if (bits === 0) throw fault(`QBit of ${t.element.kind} is not supported`, c.pos);
      need(c, rowBytes * n);
      const u8 = c.u8;
      const out = new Array<unknown>(n);
      const scratch = new DataView(new ArrayBuffer(8));
      for (let i = 0; i < n; i++) {
        const base = c.pos + i * planeBytes;
        const row = new Array<number>(dim);
        for (let d = 0; d < dim; d++) {
          let hi = 0;
          let lo = 0;
          for (let p = 0; p < bits; p++) {
            const bit = (u8[base + p * n * planeBytes + (d >> 3)]! >> (d & 7)) & 1;
            const pos = bits - 1 - p; // plane p holds bit (bits-1-p)
            if (pos >= 32) hi |= bit << (pos - 32);
            else lo |= bit << pos;
          }
          if (bits === 64) { scratch.setUint32(0, hi >>> 0); scratch.setUint32(4, lo >>> 0); row[d] = scratch.getFloat64(0); }
          else if (bits === 32) { scratch.setUint32(0, lo >>> 0); row[d] = scratch.getFloat32(0); }
          else { scratch.setUint32(0, (lo << 16) >>> 0); row[d] = scratch.getFloat32(0); }
        }
        out[i] = row;
      }
      c.pos += rowBytes * n;
      return out;
    },
  };
}

/** The ReaderContext hook: readers for Dynamic, JSON and QBit. */
export function specialReader(t: TypeNode, ctx: ReaderContext, _text: string): ColumnReader | undefined {
  switch (t.kind) {
    case 'Dynamic': return dynamicReader(ctx);
    case 'JSON': return jsonReader(t, ctx);
    case 'QBit': return qbitReader(t);
    default: return undefined;
  }
}
