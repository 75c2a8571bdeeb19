// Feeding a Native body, chunk by chunk, to a block reader (rows or columns): the one loop both
// stream decoders share.
//
// Invariants:
// - Between chunks only unread bytes are kept (ByteQueue: amortised O(1) copies per byte): what a
//   completed block used is dropped, and so are the bytes of an unfinished block that its readers
//   have already copied (`dropSpent`, block-reader.ts), so a block of a million rows is never held
//   whole.
// - No attempt is made before the reader's exact lower bound of bytes (`c.need`) has arrived.
// - A body that ends inside a block is a ChwireDecodeError at end() naming the column being read,
//   the block's first row and the body offset where the bytes ran out.
import { ChwireDecodeError } from '../../errors.js';
import { createCursor, resetCursor, type NativeCursor } from '../../io/cursor.js';
import { ByteQueue } from '../../io/chunks.js';

/** What the feeder reads blocks into. */
export interface BlockTarget {
  /**
   * Read (the rest of) the block at `start` of c's bytes (`origin`: body offset of c.u8[0]); false
   * when the bytes ran out inside it (its progress kept for the next call).
   */
  block(c: NativeCursor, start: number, origin: number): boolean;
  /** After a false: how many of the unfinished block's first bytes are spent and may be dropped. */
  dropSpent(): number;
  /** Whether a block is unfinished. */
  readonly inBlock: boolean;
  /** The column being read when the bytes ran out (undefined in a block or column header). */
  readonly column: string | undefined;
  /** Rows of the completed blocks (the unfinished block's first row). */
  readonly rowCount: number;
}

export class BlockFeeder {
  private readonly queue: ByteQueue;
  private readonly cursor: NativeCursor = Object.assign(createCursor(new Uint8Array(0)), { origin: 0, resume: -1 });
  /** Body offset of queue.start. */
  private consumed = 0;
  /** Body offset of the block being read. */
  private blockAt = 0;
  /** Do not retry before the queue holds this many bytes (an exact lower bound from the readers). */
  private waitFor = 0;
  bytesIn = 0;

  /** `keep`: the queue's capacity kept when it empties (ByteQueue). */
  constructor(keep?: number) {
    this.queue = new ByteQueue(keep);
  }

  feed(chunk: Uint8Array, target: BlockTarget): void {
    this.bytesIn += chunk.length;
    this.queue.append(chunk);
    if (this.queue.length < this.waitFor) return;
    const q = this.queue;
    const c = this.cursor;
    while (q.length > 0) {
      resetCursor(c, q.buf, q.start, q.end);
      c.origin = this.consumed - q.start;
      if (!target.block(c, q.start, this.consumed - q.start)) {
        const wait = Math.max(c.need - q.start, q.length + 1);
        // The block's bytes before where its reading stopped are spent (the readers copied them).
        const spent = target.dropSpent();
        this.consumed += spent;
        q.consume(spent);
        this.waitFor = wait - spent;
        return;
      }
      const used = c.pos - q.start;
      this.consumed += used;
      q.consume(used);
      this.blockAt = this.consumed;
      this.waitFor = 0;
    }
  }

  /** The body has ended: throws if it ended inside a block. */
  end(target: BlockTarget): void {
    if (this.queue.length === 0 && !target.inBlock) return;
    const column = target.column;
    throw new ChwireDecodeError(`the body ends inside a Native block (${this.bytesIn - this.blockAt} bytes of it received)`, {
      column, row: column === undefined ? undefined : target.rowCount, offset: this.bytesIn,
    });
  }
}
