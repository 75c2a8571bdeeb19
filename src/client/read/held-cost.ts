// What a buffered result holds beyond the bytes of its body, estimated per block and per batch
// (never per value), so that maxResultBytes bounds memory, not only bytes: a body of endless
// 1-row Native blocks costs ~270 bytes of heap per column of each block for ~20 bytes of body, a
// column of empty Strings ~13 bytes per 1-byte value, of empty Arrays ~50 per 8 bytes, of Dates
// (`wire: false`) ~120 per 2 bytes (measured on Node 20: heapUsed + arrayBuffers after gc).
// Invariant: the estimate only grows with what is held, and is charged to the same ResultBudget
// (addHeld) as the body's bytes, once per chunk of fetchColumns and once per chunk of json().
import type { ResultBudget } from './result-limits.js';

/** Heap a block's part of one column costs (a typed array, its buffer, the part's record). */
export const PART_COST = 256;
/** Heap a JS value costs beyond its wire bytes (an array slot and the value's own header). */
export const VALUE_COST = 32;
/** Heap an object or array JSON.parse builds costs (json(): per `{` or `[` byte of the text). */
export const JSON_CONTAINER_COST = 32;

/** Counts what a collector of Native blocks holds, charging the growth since the last call. */
export class HeldBlocks {
  private blocks = 0;
  private rows = 0;

  constructor(private readonly budget: ResultBudget) {}

  /** The collector now holds `blocks` blocks of `columns` columns (`valueColumns` of JS values) and `rows` rows. */
  charge(held: { blocks: number; columns: number; valueColumns: number }, rows: number): void {
    const newBlocks = held.blocks - this.blocks;
    const newRows = rows - this.rows;
    if (newBlocks === 0 && newRows === 0) return;
    this.blocks = held.blocks;
    this.rows = rows;
    this.budget.addHeld(newBlocks * held.columns * PART_COST + newRows * held.valueColumns * VALUE_COST);
  }
}

/** The objects and arrays JSON.parse may build from `chunk` (an upper bound: `{` and `[` in strings count too). */
export function jsonContainers(chunk: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < chunk.length; i++) {
    const b = chunk[i]!;
    if (b === 0x7b || b === 0x5b) n++;
  }
  return n;
}

/** The `\n` bytes of `chunk`: the rows of a line-per-row JSON format (json()'s maxResultRows). */
export function newlines(chunk: Uint8Array): number {
  let n = 0;
  for (let at = chunk.indexOf(0x0a); at >= 0; at = chunk.indexOf(0x0a, at + 1)) n++;
  return n;
}
