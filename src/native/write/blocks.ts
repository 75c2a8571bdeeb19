// Rows (an array or any sync/async iterable) → a stream of encoded Native blocks, one at a time,
// so an HTTP body can send block k while block k+1 is being encoded.
//
// Invariants: never yields a 0-row block (the engine rejects an empty block carrying a subset of
// the table's columns, native.md §6); with blockSize 0 the whole input is encoded before the first
// yield, so a bad value anywhere means nothing is yielded (all-or-nothing). Row numbers in errors
// count from the first row of the whole input.
import { ChwireConfigError } from '../../errors.js';
import type { NativeEncoder } from './encoder.js';

/**
 * Rows per Native block actually encoded: a block of `blockSize` rows is sent as consecutive
 * Native blocks of at most this many rows, yielded together once all of them encoded (so a bad
 * value still stops the whole block, and the server squashes them into the same parts). Why:
 * holding 65 536 row objects from a generator until their block is encoded kept them alive
 * across young-generation collections, each of which then copied them all (measured on Node 20,
 * 2M generated rows: 14 s of scavenges at 65 536 rows a block against 1.3 s at 8 192); and one
 * slice encodes in a few milliseconds, so the event loop can get a turn between slices.
 */
export const SLICE_ROWS = 8192;

/**
 * Rows per slice of an iterable input (an array is sliced at SLICE_ROWS). A source's rows wait in
 * the buffer until their slice is encoded, so this bounds the row objects an insert keeps alive:
 * with 20 concurrent inserts of 16-column events, 8 192-row slices kept ~160k events (~200 MB of
 * heap at the peak) against ~20k at 1 024 (bench:ingest). The encoded bytes are what a block
 * holds until it is complete, ~5× smaller than the objects they came from.
 */
export const ITERABLE_SLICE_ROWS = 1024;

/**
 * The slice's chunks copied into one buffer of their exact size. A slice of an iterable waits
 * (with the rest of its block) until the block is complete; its chunks are views into the
 * encoder's growing buffers, which hold up to twice the bytes written, so keeping the chunks
 * would keep that slack for as long as the block is being filled.
 */
function compact(chunks: Uint8Array[]): Uint8Array[] {
  if (chunks.length <= 1) return chunks;
  let n = 0;
  for (const c of chunks) n += c.length;
  const out = new Uint8Array(n);
  let p = 0;
  for (const c of chunks) { out.set(c, p); p += c.length; }
  return [out];
}

/**
 * `pause`, when given, is called between slices and every 128 buffered rows of an iterable input;
 * when it returns a promise, encoding waits for it (the caller uses it to give the event loop a
 * turn while a CPU-bound source fills a block or a long block encodes). `progress.rows`, when
 * given, counts the rows read from an iterable input (so a caller can tell a slow source from a
 * stalled one). `uniformSlices` (an insert with a deduplication token) cuts an array's slices as an
 * iterable's (ITERABLE_SLICE_ROWS): the server hashes each Native block it reads, so a retry from
 * an array must send the very blocks a first attempt from a generator sent, or the blocks that
 * attempt committed are stored again.
 */
export async function* nativeBlocks(
  rows: Iterable<unknown> | AsyncIterable<unknown>,
  encoder: NativeEncoder,
  blockSize: number,
  pause?: () => Promise<void> | undefined,
  progress?: { rows: number },
  uniformSlices = false,
): AsyncGenerator<Uint8Array[]> {
  if (!Number.isSafeInteger(blockSize) || blockSize < 0) {
    throw new ChwireConfigError(`blockSize must be a non-negative integer, got ${String(blockSize)}`);
  }
  const arraySlice = uniformSlices ? ITERABLE_SLICE_ROWS : SLICE_ROWS;
  const slice = blockSize === 0 ? arraySlice : Math.min(blockSize, arraySlice);
  // An array is sliced in place: no copying of the caller's rows.
  if (Array.isArray(rows)) {
    const n = rows.length;
    if (n === 0) return;
    const size = blockSize === 0 ? n : blockSize;
    for (let start = 0; start < n; start += size) {
      const end = Math.min(n, start + size);
      let parts: Uint8Array[] = [];
      for (let s = start; s < end; s += slice) {
        if (s > start && pause !== undefined) { const p = pause(); if (p !== undefined) await p; }
        const chunk = encoder.encodeBlock(rows, s, Math.min(end, s + slice), s);
        parts = parts.length === 0 ? chunk : parts.concat(chunk);
      }
      yield parts;
    }
    return;
  }
  const rowsPerSlice = blockSize === 0 ? ITERABLE_SLICE_ROWS : Math.min(blockSize, ITERABLE_SLICE_ROWS);
  let buffer: unknown[] = [];
  let group: Uint8Array[] = [];
  let inGroup = 0;
  let rowBase = 0;
  // Rows to buffer before the next slice is encoded: a group's last slice is cut so that a
  // group holds exactly blockSize rows (with slices of SLICE_ROWS, a blockSize that is not a
  // multiple of it made blocks of the next multiple: 32 768 rows for 25 000).
  let want = rowsPerSlice;
  /** Adds a row; returns a finished group of parts when this row completed one. */
  const add = (row: unknown): Uint8Array[] | undefined => {
    buffer.push(row);
    if (progress !== undefined) progress.rows++;
    if (buffer.length < want) return undefined;
    const chunk = compact(encoder.encodeBlock(buffer, 0, buffer.length, rowBase));
    rowBase += buffer.length;
    inGroup += buffer.length;
    buffer = [];
    group = group.length === 0 ? chunk : group.concat(chunk);
    if (blockSize === 0 || inGroup < blockSize) { want = Math.min(rowsPerSlice, blockSize === 0 ? rowsPerSlice : blockSize - inGroup); return undefined; }
    const done = group;
    group = [];
    inGroup = 0;
    want = rowsPerSlice;
    return done;
  };
  if (typeof (rows as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
    for await (const row of rows as AsyncIterable<unknown>) {
      const block = add(row);
      if (block !== undefined) yield block;
      else if (pause !== undefined && (buffer.length & 127) === 0) { const p = pause(); if (p !== undefined) await p; }
    }
  } else {
    // A sync iterable is read synchronously: no promise per row.
    for (const row of rows as Iterable<unknown>) {
      const block = add(row);
      if (block !== undefined) yield block;
      else if (pause !== undefined && (buffer.length & 127) === 0) { const p = pause(); if (p !== undefined) await p; }
    }
  }
  if (buffer.length > 0) {
    const chunk = compact(encoder.encodeBlock(buffer, 0, buffer.length, rowBase));
    group = group.length === 0 ? chunk : group.concat(chunk);
  }
  if (group.length > 0) yield group;
}
