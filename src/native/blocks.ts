// Rows (an array or any sync/async iterable) → a stream of encoded Native blocks, one at a time,
// so an HTTP body can send block k while block k+1 is being encoded.
//
// Invariants: never yields a 0-row block (the engine rejects an empty block carrying a subset of
// the table's columns, native.md §6); with blockSize 0 the whole input is encoded before the first
// yield, so a bad value anywhere means nothing is yielded (all-or-nothing). Row numbers in errors
// count from the first row of the whole input.
import { ChwireConfigError } from '../errors.js';
import type { NativeEncoder } from './encoder.js';

/**
 * `pause`, when given, is called every 1024 buffered rows of an iterable input; when it returns a
 * promise, the rows wait for it (the caller uses it to give the event loop a turn while a
 * CPU-bound source fills a block).
 */
export async function* nativeBlocks(
  rows: Iterable<unknown> | AsyncIterable<unknown>,
  encoder: NativeEncoder,
  blockSize: number,
  pause?: () => Promise<void> | undefined,
): AsyncGenerator<Uint8Array[]> {
  if (!Number.isSafeInteger(blockSize) || blockSize < 0) {
    throw new ChwireConfigError(`blockSize must be a non-negative integer, got ${String(blockSize)}`);
  }
  // An array is sliced in place: no copying of the caller's rows.
  if (Array.isArray(rows)) {
    const n = rows.length;
    if (n === 0) return;
    const size = blockSize === 0 ? n : blockSize;
    for (let start = 0; start < n; start += size) {
      const end = Math.min(n, start + size);
      yield encoder.encodeBlock(rows, start, end, start);
    }
    return;
  }
  let buffer: unknown[] = [];
  let rowBase = 0;
  const add = (row: unknown): Uint8Array[] | undefined => {
    buffer.push(row);
    if (blockSize > 0 && buffer.length === blockSize) {
      const block = encoder.encodeBlock(buffer, 0, buffer.length, rowBase);
      rowBase += buffer.length;
      buffer = [];
      return block;
    }
    return undefined;
  };
  if (typeof (rows as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
    for await (const row of rows as AsyncIterable<unknown>) {
      const block = add(row);
      if (block !== undefined) yield block;
      else if (pause !== undefined && (buffer.length & 1023) === 0) { const p = pause(); if (p !== undefined) await p; }
    }
  } else {
    // A sync iterable is read synchronously: no promise per row.
    for (const row of rows as Iterable<unknown>) {
      const block = add(row);
      if (block !== undefined) yield block;
      else if (pause !== undefined && (buffer.length & 1023) === 0) { const p = pause(); if (p !== undefined) await p; }
    }
  }
  if (buffer.length > 0) yield encoder.encodeBlock(buffer, 0, buffer.length, rowBase);
}
