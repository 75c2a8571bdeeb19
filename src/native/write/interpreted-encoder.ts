// The Native encoder without generated code, for runtimes that refuse code generation from strings
// (codegen/compile.ts decides): the loop of encoder.ts's generated `encodeBlock`, run as ordinary
// code. Invariant: the same blocks and the same ChwireEncodeErrors (column, row, expected, value) as
// the generated encoder, for any rows. Numeric columns store their general coercer's result (the
// generated fast paths are shortcuts to the same values).
import { ByteSink } from './sink.js';
import type { ColumnWriter } from './column-writers.js';

const TYPED = {
  Uint8Array, Uint16Array, Uint32Array, Int8Array, Int16Array, Int32Array,
  BigInt64Array, BigUint64Array, Float32Array, Float64Array,
} as const;
export type TypedArrayName = keyof typeof TYPED;

interface Helpers {
  own(o: object, k: string): boolean;
  sizeHint(n: number): number;
  badRow(r: unknown, array: boolean): never;
  checkKeys(r: Record<string, unknown>): void;
  rowError(e: unknown, col: number, row: number): unknown;
  dataError(e: unknown, col: number, rowBase: number): unknown;
}

export interface InterpretedEncoderParts {
  names: readonly string[];
  shape: 'object' | 'array';
  /** Column names a plain read would find on Object.prototype: read as own properties only. */
  inherited: readonly boolean[];
  /** Typed-array columns: their array and coercer; undefined: values gathered for the column writer. */
  inline: readonly ({ ctor: TypedArrayName; slow: (v: unknown) => unknown } | undefined)[];
  writers: readonly ColumnWriter[];
  helpers: Helpers;
  /** Per column: its name and type, as the block header writes them. */
  head: readonly Uint8Array[];
}

type Column = { [i: number]: unknown; length: number };

export function interpretedEncodeBlock(p: InterpretedEncoderParts): (rows: readonly unknown[], start: number, end: number, rowBase: number) => Uint8Array[] {
  const { names, shape, inherited, inline, writers: W, helpers: H, head } = p;
  const m = names.length;
  return (rows, start, end, rowBase) => {
    const n = end - start;
    if (!(n > 0)) return [];
    const cols: Column[] = [];
    for (let k = 0; k < m; k++) {
      const x = inline[k];
      cols.push(x === undefined ? new Array<unknown>(n) : new TYPED[x.ctor](n) as unknown as Column);
    }
    let j = 0;
    let col = -1;
    try {
      for (let i = start; i < end; i++, j++) {
        const r = rows[i] as Record<string, unknown> & unknown[];
        let keys = 0;
        let present = 0;
        if (shape === 'object') {
          if (typeof r !== 'object' || r === null || Array.isArray(r)) H.badRow(r, false);
          for (const _ in r) keys++;
        } else if (!Array.isArray(r) || r.length !== m) {
          H.badRow(r, true);
        }
        for (let k = 0; k < m; k++) {
          col = k;
          const name = names[k]!;
          const v = shape === 'array' ? r[k] : inherited[k] ? (H.own(r, name) ? r[name] : undefined) : r[name];
          if (shape === 'object' && v !== undefined) present++;
          const x = inline[k];
          cols[k]![j] = x === undefined ? v : x.slow(v);
        }
        if (shape === 'object' && keys !== present) { col = -1; H.checkKeys(r); }
      }
    } catch (e) {
      throw H.rowError(e, col, rowBase + j);
    }
    const s = new ByteSink(H.sizeHint(n));
    s.varUInt(m);
    s.varUInt(n);
    for (let k = 0; k < m; k++) {
      s.bytes(head[k]!);
      if (inline[k] !== undefined) s.view(cols[k] as unknown as ArrayBufferView);
      else {
        try {
          W[k]!.prefix(s);
          W[k]!.data(cols[k] as unknown[], s);
        } catch (e) {
          throw H.dataError(e, k, rowBase);
        }
      }
    }
    return s.chunks();
  };
}
