// The compiled row decoder of one plan, and the bounded cache that makes building it a one-time
// cost per (schema, options).
//
// Invariant: `decode` never returns silently wrong rows: a row cut by the end of the bytes is
// either left for later (final=false) or reported; any fault inside a row is re-read by the
// reference decoder, which names the column, row and absolute offset in a ChwireDecodeError.
// Where code cannot be generated (codegen/compile.ts), the same plan is read by the reference
// decoder itself: the same rows and errors, more slowly (docs/web.md gives the cost).
import type { TypeNode } from '../types/ast.js';
import { printType } from '../types/print.js';
import type { DecodeOptions } from '../plan/options.js';
import { resolvePlan, type RowPlan } from '../plan/resolve.js';
import { zeroWidth } from '../plan/structural.js';
import { ChwireDecodeError, ChwireTypeError } from '../errors.js';
import { compiled, BoundedCache } from '../codegen/compile.js';
import { lookupPrecompiled } from '../codegen/precompiled.js';
import { NEED_MORE } from '../io/need-more.js';
import { DecodeFault, MAX_ZERO_WIDTH_VALUES, ZERO_WIDTH_PER_BYTE } from '../io/fault.js';
import { createCursor, resetCursor, type Cursor } from '../io/cursor.js';
import { plainBytes } from '../io/bytes.js';
import type { ColumnInfo, Row } from '../stream-decoder.js';
import { generateRowDecoder } from './generate.js';
import { H } from './helpers.js';
import { decodeReferenceRows } from './reference.js';

type RawDecode = (u8: Uint8Array, dv: DataView, p: number, end: number, out: Row[], cur: Cursor) => number;

export interface CompiledRowDecoder {
  /** The generated source (for debugging and snapshot tests). */
  readonly source: string;
  readonly plan: RowPlan;
  readonly columns: readonly ColumnInfo[];
  /**
   * Append the complete rows in bytes[start, end) to `out`; returns the offset of the first byte
   * not consumed (the start of an incomplete row, or `end`). With `final`, an incomplete row is
   * a ChwireDecodeError. `base` = absolute body offset of bytes[0], `rowBase` = rows before
   * `start` (both only for error messages). The budget of values that take no bytes
   * (MAX_ZERO_WIDTH_VALUES) runs over a body: it starts afresh when `rowBase` is 0.
   */
  decode(bytes: Uint8Array, start: number, end: number, out: Row[], final: boolean, base?: number, rowBase?: number): number;
  /** After decode() returned early: bytes of `bytes` needed before a retry can progress (0 = unknown). */
  readonly lastNeed: number;
}

export interface CompileColumn {
  readonly name: string;
  readonly type: TypeNode;
  /** The header's text; printed from `type` when absent. */
  readonly typeText?: string;
}

const cache = new BoundedCache<{ source: string; factory: (() => RawDecode) | undefined }>(256);

/** Entries in the compiled-decoder cache (tests, diagnostics). */
export function compiledCacheSize(): number { return cache.size; }

/** Empty the compiled-decoder cache (benchmarks measure cold builds; tests). */
export function clearCompiledCache(): void { cache.clear(); }

export function compileRowDecoder(columns: readonly CompileColumn[], options?: DecodeOptions): CompiledRowDecoder {
  const plan = resolvePlan(columns.map((c) => ({ name: c.name, type: c.type, typeText: c.typeText ?? printType(c.type) })), options);
  return compilePlan(plan);
}

export function compilePlan(plan: RowPlan): CompiledRowDecoder {
  refuseZeroWidthRows(plan);
  let entry = cache.get(plan.key);
  if (entry === undefined) {
    const gen = generateRowDecoder(plan);
    // A `chwire gen` module may carry this very decoder already compiled (no `new Function`); else
    // it is compiled here where code generation is allowed, else read by the reference decoder.
    const factory = lookupPrecompiled<(c: readonly unknown[], h: unknown) => RawDecode>('rowbinary', plan.key, gen.source) ?? compiled<(constants: readonly unknown[], helpers: unknown) => RawDecode>(['C', 'H'], gen.source);
    const constants = gen.constants;
    entry = { source: gen.source, factory: factory === undefined ? undefined : () => factory(constants, H) };
    cache.set(plan.key, entry);
  }
  return entry.factory === undefined ? new InterpretedRowDecoder(plan, entry.source) : new RowDecoderInstance(plan, entry.source, entry.factory());
}

/**
 * A row of only empty tuples takes no bytes in RowBinary: the body cannot say how many rows there
 * are (5 and 0 are the same bytes), so such a result is refused rather than read as no rows.
 * Native writes a byte per empty tuple and carries row counts.
 */
function refuseZeroWidthRows(plan: RowPlan): void {
  const cols = plan.columns;
  if (cols.length === 0 || !cols.every((c) => zeroWidth(c.type))) return;
  const text = cols.map((c) => `${JSON.stringify(c.name)} ${c.typeText}`).join(', ');
  throw new ChwireTypeError(
    `every column of this result is an empty tuple (${text}): its rows take no bytes in RowBinary, so the body cannot tell how many rows there are; read it with format: 'Native'`,
    cols[0]!.typeText, -1);
}

/** The decoder of a plan read by the reference decoder (no generated code): same contract, same rows. */
export function interpretPlan(plan: RowPlan): CompiledRowDecoder {
  refuseZeroWidthRows(plan);
  return new InterpretedRowDecoder(plan, '');
}

class InterpretedRowDecoder implements CompiledRowDecoder {
  readonly columns: readonly ColumnInfo[];
  readonly lastNeed = 0;
  private readonly budget = { zeroLeft: MAX_ZERO_WIDTH_VALUES };

  constructor(readonly plan: RowPlan, readonly source: string) {
    this.columns = plan.columns.map((c) => ({ name: c.name, type: c.typeText }));
  }

  decode(bytes: Uint8Array, start: number, end: number, out: Row[], final: boolean, base = 0, rowBase = 0): number {
    if (rowBase === 0) this.budget.zeroLeft = MAX_ZERO_WIDTH_VALUES;
    return decodeReferenceRows(this.plan, plainBytes(bytes), start, end, out, final, base, rowBase, Infinity, this.budget);
  }
}

class RowDecoderInstance implements CompiledRowDecoder {
  readonly columns: readonly ColumnInfo[];
  lastNeed = 0;
  private readonly cur: Cursor = createCursor(new Uint8Array(0));

  constructor(readonly plan: RowPlan, readonly source: string, private readonly raw: RawDecode) {
    this.columns = plan.columns.map((c) => ({ name: c.name, type: c.typeText }));
  }

  decode(bytes: Uint8Array, start: number, end: number, out: Row[], final: boolean, base = 0, rowBase = 0): number {
    const cur = this.cur;
    bytes = plainBytes(bytes);
    resetCursor(cur, bytes, start, end);
    if (rowBase === 0) cur.zeroLeft = MAX_ZERO_WIDTH_VALUES;
    cur.zeroFrom = start;
    this.lastNeed = 0;
    const before = out.length;
    try {
      const stop = this.raw(bytes, cur.dv, start, end, out, cur);
      cur.zeroLeft += ZERO_WIDTH_PER_BYTE * (stop - start);
      return stop;
    } catch (e) {
      if (e !== NEED_MORE && !(e instanceof DecodeFault)) throw e;
      const rowStart = cur.pos;
      // The complete rows' bytes earn their credit (an incomplete row's charges were given back).
      cur.zeroLeft += ZERO_WIDTH_PER_BYTE * (rowStart - start);
      if (e === NEED_MORE && !final) {
        this.lastNeed = cur.need;
        return rowStart;
      }
      // Re-read the failing row with the reference decoder: it names column and offset.
      const row = rowBase + out.length - before;
      const check: Row[] = [];
      // cur.zeroLeft is the budget at the row's start again (the generated catch restores its charges).
      decodeReferenceRows(this.plan, bytes, rowStart, end, check, true, base, row, 1, { zeroLeft: cur.zeroLeft });
      throw new ChwireDecodeError(
        `internal inconsistency: the compiled decoder failed (${e === NEED_MORE ? 'needs more bytes' : (e as Error).message}) where the reference decoder did not`,
        { row, offset: base + rowStart },
      );
    }
  }
}
