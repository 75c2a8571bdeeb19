// One Native block from a contiguous buffer (native.md §1): VarUInt ncols, VarUInt nrows, then
// per column its name, its type and (when nrows > 0) its data. Shared by the row decoder and the
// columnar reader, which differ only in what they read for each column (`onColumn`).
//
// Invariants:
// - Resumable at column granularity: `progress` remembers the header and the columns already
//   read (as offsets from the block's first byte), so a stream that stops mid-block re-reads only
//   the unfinished column when more bytes arrive, never the whole block (no quadratic re-reading).
// - And inside a column, for readers that can stop there (resumable.ts): when `onColumn` throws
//   NEED_MORE with `c.resume` set, `progress` keeps the column and that resume point, and the next
//   attempt calls `onColumn(…, fresh = false)` at exactly that point, without its header again.
//   Every byte before `blockStart + progress.rel` is then spent: a stream decoder whose readers
//   copy what they keep may drop those bytes (`dropSpent`) and retry with the block starting at
//   the first byte it still holds.
// - Running out of bytes throws NEED_MORE with `c.need` an exact lower bound on the bytes needed;
//   `progress.column` names the column being read, for truncation errors at end().
// - Header lengths are checked before anything is allocated; corrupt bytes become a
//   ChwireDecodeError naming column, the block's first row, and the absolute body offset.
// - Column readers are built once per (name, type) and reused for every block of the result.
import { ChwireDecodeError } from '../../errors.js';
import type { TypeNode } from '../../types/ast.js';
import { parseType } from '../../types/parse.js';
import { readBinaryType } from '../../types/binary.js';
import { printType } from '../../types/print.js';
import { NEED_MORE } from '../../io/need-more.js';
import type { Cursor, NativeCursor } from '../../io/cursor.js';
import { DecodeFault, MAX_LENGTH, fault } from '../../io/fault.js';
import { readVarUInt } from '../../io/varint.js';
import { utf8Decode } from '../../io/utf8.js';
import { need } from './column-readers.js';

export interface ColumnSlot<R> {
  readonly name: string;
  /** The type text as the block header spells it. */
  readonly type: string;
  readonly node: TypeNode;
  readonly reader: R;
}

/** Resolves a block column to its reader, caching by name and type. */
export class SlotCache<R> {
  private readonly map = new Map<string, ColumnSlot<R>>();
  /**
   * `binaryTypes`: the header's types are binary type encodings (the query was sent with
   * output_format_native_encode_types_in_binary_format=1); they are reported printed as text.
   */
  constructor(private readonly make: (name: string, type: string, node: TypeNode) => R, readonly binaryTypes = false) {}

  get(name: string, type: string): ColumnSlot<R> {
    const key = name + '\u0000' + type;
    let s = this.map.get(key);
    if (s === undefined) {
      const node = parseType(type);
      s = { name, type, node, reader: this.make(name, type, node) };
      if (this.map.size >= 1024) this.map.clear();
      this.map.set(key, s);
    }
    return s;
  }
}

/** Where a partly read block stands. Reset with `startBlock` before the first attempt of a block. */
export interface BlockProgress<R> {
  active: boolean;
  /** Offset from the block's first byte of the next unread part. */
  rel: number;
  ncols: number;
  rows: number;
  slots: ColumnSlot<R>[];
  /** Column being read when the last attempt stopped (undefined while in the block header). */
  column: string | undefined;
  /** The column stopped inside its data at `rel` by a resumable read (undefined otherwise). */
  current: ColumnSlot<R> | undefined;
}

export function newProgress<R>(): BlockProgress<R> {
  return { active: false, rel: 0, ncols: 0, rows: 0, slots: [], column: undefined, current: undefined };
}

/**
 * After an attempt that stopped inside the block at `blockStart` (the first byte a stream still
 * holds): how many of its bytes are spent and may be dropped. The progress is rebased so that the
 * next attempt starts the block at the first byte kept. Only for decoders whose readers copy what
 * they keep (never views of the input).
 */
export function dropSpent<R>(p: BlockProgress<R>): number {
  if (!p.active) return 0;
  const spent = p.rel;
  p.rel = 0;
  return spent;
}

function readString(c: Cursor): string {
  const at = c.pos;
  const len = readVarUInt(c);
  if (len > MAX_LENGTH) throw fault(`header string length ${len} is beyond the engine's limit`, at);
  need(c, len);
  const s = utf8Decode(c.u8, c.pos, c.pos + len);
  c.pos += len;
  return s;
}

/** A binary type encoding (rowbinary.md §6) at c.pos, as its canonical text. */
export function readBinaryTypeText(c: Cursor): string {
  try {
    const r = readBinaryType(c.u8, c.pos, c.end);
    c.pos = r.offset;
    return printType(r.type);
  } catch (e) {
    if (e === NEED_MORE) c.need = c.end + 1;
    if (e instanceof ChwireDecodeError) throw fault(`bad binary type encoding: ${e.message}`, e.offset);
    throw e;
  }
}

/**
 * Read (the rest of) the block starting at `blockStart`. `onColumn(slot, k, rows)` reads column
 * k's data when rows > 0 and keeps what it read. `origin` is the body offset of c.u8[0] and
 * `rowBase` the result row of the block's first row (both for error messages only). Returns
 * normally only when the whole block was read; c.pos is then just after it.
 */
export function readBlock<R>(
  c: NativeCursor, blockStart: number, p: BlockProgress<R>, cache: SlotCache<R>, origin: number, rowBase: number,
  onColumn: (slot: ColumnSlot<R>, k: number, rows: number, fresh: boolean) => void,
): void {
  try {
    if (!p.active) {
      c.pos = blockStart;
      p.column = undefined;
      const ncols = readVarUInt(c);
      const rows = readVarUInt(c);
      if (ncols > 1e6) throw fault(`block announces ${ncols} columns`, blockStart);
      if (rows > MAX_LENGTH) throw fault(`block announces ${rows} rows`, blockStart);
      p.active = true;
      p.ncols = ncols;
      p.rows = rows;
      p.slots = [];
      p.rel = c.pos - blockStart;
    }
    while (p.slots.length < p.ncols) {
      c.pos = blockStart + p.rel;
      let slot = p.current;
      const fresh = slot === undefined;
      if (slot === undefined) {
        p.column = undefined;
        const name = readString(c);
        p.column = name;
        slot = cache.get(name, cache.binaryTypes ? readBinaryTypeText(c) : readString(c));
        // Every row of every column takes ≥ 1 byte (an empty tuple too, column-readers.ts): an
        // exact lower bound before allocating.
        if (p.rows > 0) need(c, p.rows);
      }
      if (p.rows > 0) {
        c.resume = -1;
        try {
          onColumn(slot, p.slots.length, p.rows, fresh);
        } catch (e) {
          if (e === NEED_MORE && c.resume !== undefined && c.resume >= 0) {
            // Stopped inside the column's data: continue there, past what the reader already took.
            p.current = slot;
            p.rel = c.resume - blockStart;
          }
          throw e;
        }
      }
      p.current = undefined;
      p.slots.push(slot);
      p.rel = c.pos - blockStart;
    }
    p.active = false;
  } catch (e) {
    if (e instanceof DecodeFault) {
      p.active = false;
      p.current = undefined;
      throw new ChwireDecodeError(e.message, { column: p.column, row: p.column === undefined ? undefined : rowBase, offset: origin + e.offset });
    }
    throw e;
  }
}
