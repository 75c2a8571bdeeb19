// Prebuilt (non-generated) readers: one closure per type node, composed once per column plan.
// Generated decoders call them beyond their inlining depth and for self-describing values
// (Dynamic, JSON); a schema with nothing inlinable decodes entirely through them.
//
// Invariant: a reader starts at c.pos, advances c.pos past exactly one value and returns it, or
// throws NEED_MORE (c.need set) when the bytes end first, or a DecodeFault for corrupt bytes. No
// length is trusted before it is checked against the bytes present (or the 1 GiB limit), and a
// count of items that take no bytes is charged to the body's budget (c.zeroLeft) first.
import type { TypeNode, JsonType } from '../types/ast.js';
import { readBinaryType } from '../types/binary.js';
import { ChwireTypeError, ChwireDecodeError } from '../errors.js';
import type { ResolvedValueOptions } from '../plan/options.js';
import { structural, minWidth, objectKeyOptions } from '../plan/structural.js';
import { keyText } from '../plan/key-text.js';
import type { Cursor } from '../io/cursor.js';
import { NEED_MORE } from '../io/need-more.js';
import { DecodeFault, MAX_LENGTH, ZERO_WIDTH_PER_BYTE, zeroWidthFault } from '../io/fault.js';
import { readVarUInt } from '../io/varint.js';
import { utf8Decode } from '../io/utf8.js';
import { copyBytes } from '../io/bytes.js';
import { setOwn, setJsonPath, jsonObject } from '../convert/objects.js';
import { isScalar, scalarFn, scalarWidth } from './scalars.js';

export type Reader = (c: Cursor) => unknown;

/** Ensure n bytes at c.pos; else NEED_MORE, or a fault when n is beyond any legal length. */
function ensure(c: Cursor, n: number): void {
  if (n > c.end - c.pos) {
    if (n > MAX_LENGTH) throw new DecodeFault(`length ${n} exceeds the 1 GiB limit`, c.pos);
    c.need = c.pos + n;
    throw NEED_MORE;
  }
}

/**
 * A count of items that take at least `min` bytes each, checked against the bytes present; items
 * that may take no bytes (min 0) are charged to the body's zero-width budget instead.
 */
function readCount(c: Cursor, min: number): number {
  const at = c.pos;
  const n = readVarUInt(c);
  if (n > MAX_LENGTH) throw new DecodeFault(`count ${n} exceeds the 1 GiB limit`, at);
  if (min > 0) ensure(c, n * min);
  else if ((c.zeroLeft -= n) < -ZERO_WIDTH_PER_BYTE * (c.pos - c.zeroFrom)) throw zeroWidthFault(n, at);
  return n;
}

export function readString(c: Cursor, bytes: boolean): string | Uint8Array {
  const n = readVarUInt(c);
  ensure(c, n);
  const p = c.pos;
  c.pos = p + n;
  return bytes ? copyBytes(c.u8, p, p + n) : utf8Decode(c.u8, p, p + n);
}

/** Refuse what cannot be decoded, naming the column: AggregateFunction states carry no length. */
export function assertDecodable(t: TypeNode, column: string, typeText: string): void {
  const walk = (x: TypeNode): void => {
    switch (x.kind) {
      case 'AggregateFunction':
        throw new ChwireTypeError(`column ${JSON.stringify(column)}: AggregateFunction states cannot be decoded (no length prefix); select finalizeAggregation(x) or hex(x) instead`, typeText, -1);
      case 'Nullable': case 'LowCardinality': case 'SimpleAggregateFunction': walk(x.inner); break;
      case 'Array': case 'QBit': walk(x.element); break;
      case 'Tuple': case 'Nested': x.elements.forEach(walk); break;
      case 'Map': walk(x.key); walk(x.value); break;
      case 'Variant': x.members.forEach(walk); break;
      case 'JSON': x.typedPaths.forEach((p) => walk(p.type)); break;
      default: break;
    }
  };
  walk(t);
}

/** Build the reader of one value of `t` under options `o`. */
export function makeReader(t: TypeNode, o: ResolvedValueOptions): Reader {
  const s = structural(t);
  if (isScalar(s)) {
    const fn = scalarFn(s, o);
    const w = scalarWidth(s);
    return (c) => {
      if (c.pos + w > c.end) { c.need = c.pos + w; throw NEED_MORE; }
      const p = c.pos;
      c.pos = p + w;
      return fn(c.dv, c.u8, p);
    };
  }
  switch (s.kind) {
    case 'String': {
      const bytes = o.strings === 'bytes';
      return (c) => readString(c, bytes);
    }
    case 'Nothing':
      return (c) => { throw new DecodeFault('a value of type Nothing (which has no values)', c.pos); };
    case 'Nullable': {
      const inner = makeReader(s.inner, o);
      return (c) => {
        ensure(c, 1);
        const f = c.u8[c.pos]!;
        if (f === 1) { c.pos++; return null; }
        if (f !== 0) throw new DecodeFault(`Nullable flag ${f} is neither 0 nor 1`, c.pos);
        c.pos++;
        return inner(c);
      };
    }
    case 'Array': {
      const el = makeReader(s.element, o);
      const min = minWidth(s.element);
      return (c) => {
        const n = readCount(c, min);
        const a = new Array<unknown>(n);
        for (let i = 0; i < n; i++) a[i] = el(c);
        return a;
      };
    }
    case 'Tuple': {
      const els = s.elements.map((x) => makeReader(x, o));
      const names = s.names;
      if (names === undefined) return (c) => els.map((r) => r(c));
      return (c) => {
        const obj: Record<string, unknown> = {};
        for (let i = 0; i < els.length; i++) setOwn(obj, names[i]!, els[i]!(c));
        return obj;
      };
    }
    case 'Map': {
      const kr = makeReader(s.key, o.maps === 'Map' ? o : objectKeyOptions(o));
      const vr = makeReader(s.value, o);
      const min = minWidth(s.key) + minWidth(s.value);
      if (o.maps === 'Map') {
        return (c) => {
          const n = readCount(c, min);
          const m = new Map<unknown, unknown>();
          for (let i = 0; i < n; i++) { const k = kr(c); m.set(k, vr(c)); }
          return m;
        };
      }
      const kt = keyText(s.key) ?? String;
      return (c) => {
        const n = readCount(c, min);
        const m: Record<string, unknown> = {};
        for (let i = 0; i < n; i++) { const k = kr(c); setOwn(m, kt(k), vr(c)); }
        return m;
      };
    }
    case 'Variant': {
      const members = s.members.map((x) => makeReader(x, o));
      return (c) => {
        ensure(c, 1);
        const d = c.u8[c.pos]!;
        if (d === 255) { c.pos++; return null; }
        const r = members[d];
        if (r === undefined) throw new DecodeFault(`Variant discriminator ${d} is out of range (${members.length} members)`, c.pos);
        c.pos++;
        return r(c);
      };
    }
    case 'Dynamic': return dynamicReader(o);
    case 'JSON': return jsonReader(s, o);
    case 'AggregateFunction':
      throw new ChwireTypeError('AggregateFunction states cannot be decoded', 'AggregateFunction', -1);
    default:
      throw new Error(`no reader for ${s.kind}`);
  }
}

/** Read a binary type encoding at c.pos (rowbinary.md §6), advancing. */
export function readTypeAt(c: Cursor): TypeNode {
  try {
    const r = readBinaryType(c.u8, c.pos, c.end);
    c.pos = r.offset;
    return r.type;
  } catch (e) {
    if (e === NEED_MORE) { c.need = c.end + 1; throw e; }
    if (e instanceof ChwireDecodeError) throw new DecodeFault(`bad type encoding: ${e.message}`, e.offset);
    if (e instanceof ChwireTypeError) throw new DecodeFault(`bad type encoding: ${e.message}`, c.pos);
    throw e;
  }
}

const DYNAMIC_CACHE_LIMIT = 256;

/**
 * Dynamic: a binary type, then a value of that type. Readers are cached by the exact type bytes
 * (bounded, fill then clear): rows of one column mostly repeat a handful of types.
 */
function dynamicReader(o: ResolvedValueOptions): Reader {
  const byCode: (Reader | undefined)[] = [];
  const byBytes = new Map<string, Reader>();
  return (c) => {
    ensure(c, 1);
    const start = c.pos;
    const code = c.u8[start]!;
    if (code === 0) { c.pos++; return null; }
    const t = readTypeAt(c);
    const len = c.pos - start;
    let r: Reader | undefined;
    if (len === 1) {
      r = byCode[code];
      if (r === undefined) { r = typeReader(t, o, start); byCode[code] = r; }
    } else {
      let key = '';
      for (let i = start; i < c.pos; i++) key += String.fromCharCode(c.u8[i]!);
      r = byBytes.get(key);
      if (r === undefined) {
        r = typeReader(t, o, start);
        if (byBytes.size >= DYNAMIC_CACHE_LIMIT) byBytes.clear();
        byBytes.set(key, r);
      }
    }
    return r(c);
  };
}

function typeReader(t: TypeNode, o: ResolvedValueOptions, at: number): Reader {
  try {
    assertDecodable(t, '', '');
    return makeReader(t, o);
  } catch (e) {
    if (e instanceof ChwireTypeError) throw new DecodeFault('a Dynamic value holds a type that cannot be decoded (AggregateFunction)', at);
    throw e;
  }
}

/**
 * JSON: VarUInt path count, then per path its name and value — in the declared type for typed
 * paths, as a Dynamic value otherwise. Dotted paths become nested objects (like the engine's JSON
 * output); a dynamic path holding NULL is omitted, typed paths are kept even when NULL.
 */
function jsonReader(t: JsonType, o: ResolvedValueOptions): Reader {
  const typed = new Map<string, Reader>(t.typedPaths.map((p) => [p.path, makeReader(p.type, o)]));
  const dyn = dynamicReader(o);
  return (c) => {
    const n = readCount(c, 2);
    const paths: string[] = [];
    const values: unknown[] = [];
    for (let i = 0; i < n; i++) {
      const path = readString(c, false) as string;
      const tr = typed.get(path);
      const v = tr !== undefined ? tr(c) : dyn(c);
      if (v !== null || tr !== undefined) { paths.push(path); values.push(v); }
    }
    // The engine sends typed paths after the others: place all in its order (sorted by path).
    return jsonObject(paths, values);
  };
}
