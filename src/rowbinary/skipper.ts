// A resumable scanner that finds where an incomplete row ends, for chunked input, without
// decoding it. Re-running the decoder from the row's first byte on every chunk is quadratic when
// one row spans many chunks (an Array of millions of strings arriving in 64 KiB pieces); the
// scanner instead keeps its place (an explicit stack of pending types) and continues with each new
// chunk, so a row is scanned once overall and decoded once, when complete.
//
// Invariant: the scanner only measures. It reads length prefixes, flags, discriminators and type
// encodings, allocates nothing per value, and never reports an end beyond the bytes present; an
// array or map of fixed-width items (empty tuples too) is measured in one step, not per item.
// Anything odd (a length beyond the 1 GiB limit, a bad discriminator, a value of type Nothing)
// is reported as CORRUPT and left to the decoder, which produces the precise error.
import type { TypeNode, JsonType } from '../types/ast.js';
import { structural } from '../plan/structural.js';
import { fixedWidth } from '../types/ast.js';
import { MAX_LENGTH } from '../io/fault.js';
import { NEED_MORE } from '../io/need-more.js';
import { utf8Decode } from '../io/utf8.js';
import { readBinaryType } from '../types/binary.js';

/** A JSON path entry: path string, then a typed value or a Dynamic one. */
interface JsonPathItem { readonly kind: '$jsonPath'; readonly json: JsonType }
type Item = TypeNode | JsonPathItem;

interface Frame {
  seq: readonly Item[];
  idx: number;
  reps: number;
}

export const SCAN_MORE = -1;
export const SCAN_CORRUPT = -2;

const DYNAMIC: TypeNode = { kind: 'Dynamic' };

export class RowScanner {
  private stack: Frame[] = [];
  /** Offset from the row's first byte where scanning continues. */
  private rel = 0;

  constructor(private readonly columns: readonly TypeNode[]) {}

  /** Start scanning a new row. */
  reset(): void {
    this.stack = this.columns.length > 0 ? [{ seq: this.columns, idx: 0, reps: 1 }] : [];
    this.rel = 0;
  }

  /**
   * Continue over bytes[rowStart, end): returns the row's end offset (absolute in `bytes`) when
   * the row is complete, SCAN_MORE when more bytes are needed (state kept), SCAN_CORRUPT when
   * the bytes cannot be a row of this schema.
   */
  scan(bytes: Uint8Array, rowStart: number, end: number): number {
    let p = rowStart + this.rel;
    const stack = this.stack;
    for (;;) {
      const f = stack[stack.length - 1];
      if (f === undefined) return p;
      if (f.idx === f.seq.length) {
        f.reps--;
        if (f.reps > 0) f.idx = 0;
        else stack.pop();
        continue;
      }
      const r = this.item(bytes, p, end, f.seq[f.idx]!);
      if (r === SCAN_MORE) { this.rel = p - rowStart; return SCAN_MORE; }
      if (r === SCAN_CORRUPT) return SCAN_CORRUPT;
      p = r;
    }
  }

  /** Consume one item at p: returns the new offset, having advanced the frame (and maybe pushed one). */
  private item(b: Uint8Array, p: number, end: number, it: Item): number {
    const stack = this.stack;
    const f = stack[stack.length - 1]!;
    if (it.kind === '$jsonPath') {
      const s = lengthPrefixed(b, p, end);
      if (s < 0) return s;
      // The path text decides whether the value is typed (no prefix) or Dynamic.
      const path = utf8Decode(b, varEnd(b, p), s);
      const typed = it.json.typedPaths.find((x) => x.path === path);
      f.idx++;
      stack.push({ seq: [typed !== undefined ? typed.type : DYNAMIC], idx: 0, reps: 1 });
      return s;
    }
    const t = structural(it);
    const w = fixedWidth(t);
    if (w >= 0) {
      if (p + w > end) return SCAN_MORE;
      f.idx++;
      return p + w;
    }
    switch (t.kind) {
      case 'String': {
        const s = lengthPrefixed(b, p, end);
        if (s >= 0) f.idx++;
        return s;
      }
      case 'Nullable': {
        if (p >= end) return SCAN_MORE;
        const flag = b[p]!;
        if (flag > 1) return SCAN_CORRUPT;
        f.idx++;
        if (flag === 0) stack.push({ seq: [t.inner], idx: 0, reps: 1 });
        return p + 1;
      }
      case 'Array': case 'Map': {
        const n = readCount(b, p, end);
        if (n.value < 0) return n.value;
        const seq = t.kind === 'Array' ? [t.element] : [t.key, t.value];
        // Items of one fixed width (none for empty tuples) are measured at once, not one by one:
        // a count is never a loop of its size here (the decoder bounds zero-width counts).
        const w = seqWidth(seq);
        if (w >= 0) {
          if (n.end + n.value * w > end) return SCAN_MORE;
          f.idx++;
          return n.end + n.value * w;
        }
        f.idx++;
        if (n.value > 0) stack.push({ seq, idx: 0, reps: n.value });
        return n.end;
      }
      case 'Tuple': {
        f.idx++;
        if (t.elements.length > 0) stack.push({ seq: t.elements, idx: 0, reps: 1 });
        return p;
      }
      case 'Variant': {
        if (p >= end) return SCAN_MORE;
        const d = b[p]!;
        if (d === 255) { f.idx++; return p + 1; }
        const m = t.members[d];
        if (m === undefined) return SCAN_CORRUPT;
        f.idx++;
        stack.push({ seq: [m], idx: 0, reps: 1 });
        return p + 1;
      }
      case 'Dynamic': {
        if (p >= end) return SCAN_MORE;
        if (b[p] === 0) { f.idx++; return p + 1; }
        let r: { type: TypeNode; offset: number };
        try {
          r = readBinaryType(b, p, end);
        } catch (e) {
          return e === NEED_MORE ? SCAN_MORE : SCAN_CORRUPT;
        }
        f.idx++;
        stack.push({ seq: [r.type], idx: 0, reps: 1 });
        return r.offset;
      }
      case 'JSON': {
        const n = readCount(b, p, end);
        if (n.value < 0) return n.value;
        f.idx++;
        if (n.value > 0) stack.push({ seq: [{ kind: '$jsonPath', json: t }], idx: 0, reps: n.value });
        return n.end;
      }
      default:
        // Nothing (no values), AggregateFunction (refused earlier): let the decoder report it.
        return SCAN_CORRUPT;
    }
  }
}

/** Bytes of one run of `seq` when every item is fixed-width, else -1. */
function seqWidth(seq: readonly TypeNode[]): number {
  let w = 0;
  for (const x of seq) {
    const v = fixedWidth(structural(x));
    if (v < 0) return -1;
    w += v;
  }
  return w;
}

/** A VarUInt at p: its value and end, or value SCAN_MORE / SCAN_CORRUPT. */
function readCount(b: Uint8Array, p: number, end: number): { value: number; end: number } {
  let value = 0;
  let mul = 1;
  for (let i = 0; i < 10; i++) {
    if (p >= end) return { value: SCAN_MORE, end: p };
    const x = b[p++]!;
    value += (x & 0x7f) * mul;
    if (x < 0x80) return value > MAX_LENGTH ? { value: SCAN_CORRUPT, end: p } : { value, end: p };
    mul *= 128;
  }
  return { value: SCAN_CORRUPT, end: p };
}

/** End of the (complete, already read) VarUInt at p. */
function varEnd(b: Uint8Array, p: number): number {
  while (b[p]! >= 0x80) p++;
  return p + 1;
}

/** End of a VarUInt-length-prefixed byte string at p, or SCAN_MORE / SCAN_CORRUPT. */
function lengthPrefixed(b: Uint8Array, p: number, end: number): number {
  const n = readCount(b, p, end);
  if (n.value < 0) return n.value;
  if (n.end + n.value > end) return SCAN_MORE;
  return n.end + n.value;
}
