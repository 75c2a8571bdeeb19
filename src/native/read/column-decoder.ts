// A Native body fed chunk by chunk → columns: one NativeColumns batch per block as each block
// completes (createNativeColumnsDecoder, streamColumns), or all blocks joined at the end
// (NativeColumnsCollector, fetchColumns), so a result is decoded while the rest of it arrives and
// the body is never held whole; the join can be run in steps (finishSteps) with the loop's turns between.
//
// Invariants:
// - Between chunks only unread bytes are kept (block-feed.ts); a block that spans chunks resumes
//   where it stopped: inside a numeric, date or String column, else at the column's start, and no
//   attempt is made before the reader's exact lower bound of bytes (`need`) has arrived.
// - A batch's columns are copies, never views of the queue (it is reused); a batch holds only its
//   own block. Blocks with 0 rows give no batch (their header still sets `header`).
// - A body that ends inside a block is a ChwireDecodeError at end() naming the column being read,
//   the block's first row and the body offset where the bytes ran out.
import type { NativeCursor } from '../../io/cursor.js';
import { BlockFeeder, type BlockTarget } from './block-feed.js';
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

/** Feeds chunks into ColumnBlocks (block-feed.ts); `onBlock` gets each completed block's row count. */
class ChunkFeeder implements BlockTarget {
  /** Keeps up to 64 MiB when emptied: the decoder lives for one result (see ByteQueue). */
  private readonly feeder = new BlockFeeder(64 << 20);
  private onBlock: (rows: number) => void = noop;

  constructor(readonly blocks: ColumnBlocks) {}

  get inBlock(): boolean { return this.blocks.inBlock; }
  get column(): string | undefined { return this.blocks.column; }
  get rowCount(): number { return this.blocks.rowCount; }
  dropSpent(): number { return this.blocks.dropSpent(); }

  block(c: NativeCursor, start: number, origin: number): boolean {
    const rows = this.blocks.block(c, start, origin);
    if (rows === false) return false;
    this.onBlock(rows);
    return true;
  }

  feed(chunk: Uint8Array, onBlock: (rows: number) => void): void {
    this.onBlock = onBlock;
    try {
      this.feeder.feed(chunk, this);
    } finally {
      this.onBlock = noop;
    }
  }

  end(): void { this.feeder.end(this); }
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

  /** Rows of the blocks decoded so far. */
  get rowCount(): number {
    return this.feeder.blocks.rowCount;
  }

  /** What the blocks decoded so far hold beyond their bytes: blocks, columns, columns of JS values. */
  get held(): { blocks: number; columns: number; valueColumns: number } {
    const b = this.feeder.blocks;
    return { blocks: b.blockCount, columns: b.header?.names.length ?? 0, valueColumns: b.valueColumns };
  }

  /** Ends the body (throws if it ended inside a block) and joins the columns. */
  finish(): NativeColumns {
    this.feeder.end();
    return this.feeder.blocks.finish();
  }

  /**
   * As finish(), in steps: each `next()` joins a bounded piece (column-parts.ts), so a caller can
   * give the event loop a turn between them; the last returns the columns.
   */
  *finishSteps(): Generator<void, NativeColumns, void> {
    this.feeder.end();
    return yield* this.feeder.blocks.join();
  }
}

function noop(): void {}
