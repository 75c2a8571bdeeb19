// A Native body fed chunk by chunk → columns: one NativeColumns batch per block as each block
// completes (createNativeColumnsDecoder, streamColumns), or all blocks joined at the end
// (NativeColumnsCollector, fetchColumns), so a result is decoded while the rest of it arrives and
// the body is never held whole.
//
// Invariants:
// - Between chunks only the unread tail is kept (ByteQueue); a block that spans chunks resumes at
//   the column where it stopped, and no attempt is made before the reader's exact lower bound of
//   bytes (`need`) has arrived, so each column of a block is read once, when it is complete.
// - A batch's columns are copies, never views of the queue (it is reused); a batch holds only its
//   own block. Blocks with 0 rows give no batch (their header still sets `header`).
// - A body that ends inside a block is a ChwireDecodeError at end() naming the column being read,
//   the block's first row and the body offset where the bytes ran out.
import { ChwireDecodeError } from '../errors.js';
import { createCursor, resetCursor } from '../io/cursor.js';
import { ByteQueue } from '../io/chunks.js';
import type { NativeCursor } from './column-readers.js';
import { ColumnBlocks } from './columns.js';
import type { NativeColumnsOptions } from './column-plan.js';
import type { NativeColumns } from './column-shapes.js';

/** Push decoder of a Native body into column batches (one per block). */
export interface NativeColumnsDecoder {
  /** Takes the next chunk; returns the batches of the blocks it completed (often none or one). */
  push(chunk: Uint8Array): NativeColumns[];
  /** The body has ended: throws if it ended inside a block. */
  end(): void;
  /** Column names and types, once the first block's header has arrived. */
  readonly header: { readonly names: readonly string[]; readonly types: readonly string[] } | undefined;
  /** Rows decoded so far. */
  readonly rowCount: number;
}

/** Feeds chunks through a queue into ColumnBlocks; `onBlock` gets each completed block's row count. */
class ChunkFeeder {
  /** Keeps up to 64 MiB when emptied: the decoder lives for one result (see ByteQueue). */
  private readonly queue = new ByteQueue(64 << 20);
  private readonly cursor: NativeCursor = Object.assign(createCursor(new Uint8Array(0)), { origin: 0, resume: -1 });
  /** Body offset of queue.start. */
  private consumed = 0;
  /** Body offset of the block being read. */
  private blockAt = 0;
  /** Do not retry before the queue holds this many bytes (an exact lower bound from the readers). */
  private waitFor = 0;
  private bytesIn = 0;

  constructor(readonly blocks: ColumnBlocks) {}

  feed(chunk: Uint8Array, onBlock: (rows: number) => void): void {
    this.bytesIn += chunk.length;
    this.queue.append(chunk);
    if (this.queue.length < this.waitFor) return;
    const q = this.queue;
    const c = this.cursor;
    while (q.length > 0) {
      resetCursor(c, q.buf, q.start, q.end);
      c.origin = this.consumed - q.start;
      const rows = this.blocks.block(c, q.start, this.consumed - q.start);
      if (rows === false) {
        const wait = Math.max(c.need - q.start, q.length + 1);
        // The block's bytes before where its reading stopped are spent (the collectors copied them).
        const spent = this.blocks.dropSpent();
        this.consumed += spent;
        q.consume(spent);
        this.waitFor = wait - spent;
        break;
      }
      const used = c.pos - q.start;
      this.consumed += used;
      q.consume(used);
      this.blockAt = this.consumed;
      this.waitFor = 0;
      onBlock(rows);
    }
  }

  end(): void {
    if (this.queue.length === 0 && !this.blocks.inBlock) return;
    const column = this.blocks.column;
    throw new ChwireDecodeError(`the body ends inside a Native block (${this.bytesIn - this.blockAt} bytes of it received)`, {
      column, row: column === undefined ? undefined : this.blocks.rowCount, offset: this.bytesIn,
    });
  }
}

class BatchDecoder implements NativeColumnsDecoder {
  private readonly feeder: ChunkFeeder;
  constructor(options: NativeColumnsOptions | undefined) {
    this.feeder = new ChunkFeeder(new ColumnBlocks(options, false));
  }

  get header(): NativeColumnsDecoder['header'] { return this.feeder.blocks.header; }
  get rowCount(): number { return this.feeder.blocks.rowCount; }

  push(chunk: Uint8Array): NativeColumns[] {
    const out: NativeColumns[] = [];
    const blocks = this.feeder.blocks;
    this.feeder.feed(chunk, (rows) => {
      const batch = blocks.takeBlock(rows);
      if (rows > 0) out.push(batch);
    });
    return out;
  }

  end(): void { this.feeder.end(); }
}

/** A streaming decoder of a Native body into one batch of columns per block. */
export function createNativeColumnsDecoder(options?: NativeColumnsOptions): NativeColumnsDecoder {
  return new BatchDecoder(options);
}

/** All blocks of a body fed chunk by chunk, each decoded as it completes, joined at `finish()`. */
export class NativeColumnsCollector {
  private readonly feeder: ChunkFeeder;
  constructor(options: NativeColumnsOptions | undefined) {
    this.feeder = new ChunkFeeder(new ColumnBlocks(options, false));
  }

  push(chunk: Uint8Array): void {
    this.feeder.feed(chunk, noop);
  }

  /** Ends the body (throws if it ended inside a block) and joins the columns. */
  finish(): NativeColumns {
    this.feeder.end();
    return this.feeder.blocks.finish();
  }
}

function noop(): void {}
