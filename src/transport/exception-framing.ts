// Recognises the exception block that ClickHouse 25.11+ writes into a body that has already
// started (http.md §7.2):
//   \r\n__exception__\r\n<TAG>\r\n<message>\n<LEN> <TAG>\r\n__exception__\r\n
// where TAG is the response's X-ClickHouse-Exception-Tag. Invariant: no byte of the block is ever
// passed on as data. The last 32 bytes of every chunk are held back until the next chunk (or a
// clean end) shows they are not the start of the 33-byte opening marker, so a marker split across
// network reads is still found before any of it reaches the decoder.
import { Buffer } from 'node:buffer';

const HOLD = 32;

export class ExceptionFramingScanner {
  private readonly marker: Buffer;
  private held: Buffer = Buffer.alloc(0);
  /** Bytes from the opening marker on, once it was seen. */
  private block: Buffer[] | undefined;

  constructor(tag: string) {
    this.marker = Buffer.from(`\r\n__exception__\r\n${tag}`, 'latin1');
  }

  get inException(): boolean {
    return this.block !== undefined;
  }

  /** Feed a chunk; returns the data bytes that are now known not to belong to an exception block. */
  push(chunk: Uint8Array): Uint8Array[] {
    const c = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.block !== undefined) {
      this.block.push(Buffer.from(c));
      return [];
    }
    // Search where the marker can start: in the held bytes joined with the head of the chunk,
    // then in the chunk itself.
    const seamLen = Math.min(c.length, this.marker.length - 1);
    const seam = Buffer.concat([this.held, c.subarray(0, seamLen)]);
    const atSeam = seam.indexOf(this.marker);
    if (atSeam >= 0) {
      const out = atSeam > 0 ? [seam.subarray(0, atSeam)] : [];
      this.block = [Buffer.from(seam.subarray(atSeam)), Buffer.from(c.subarray(seamLen))];
      this.held = Buffer.alloc(0);
      return out.filter((b) => b.length > 0);
    }
    const inChunk = c.indexOf(this.marker);
    if (inChunk >= 0) {
      const out: Uint8Array[] = [];
      if (this.held.length > 0) out.push(this.held);
      if (inChunk > 0) out.push(c.subarray(0, inChunk));
      this.block = [Buffer.from(c.subarray(inChunk))];
      this.held = Buffer.alloc(0);
      return out;
    }
    // No marker: release everything except the last HOLD bytes.
    const total = this.held.length + c.length;
    if (total <= HOLD) {
      this.held = Buffer.concat([this.held, c]);
      return [];
    }
    const out: Uint8Array[] = [];
    if (c.length >= HOLD) {
      if (this.held.length > 0) out.push(this.held);
      if (c.length > HOLD) out.push(c.subarray(0, c.length - HOLD));
      this.held = Buffer.from(c.subarray(c.length - HOLD));
    } else {
      const joined = Buffer.concat([this.held, c]);
      out.push(joined.subarray(0, joined.length - HOLD));
      this.held = Buffer.from(joined.subarray(joined.length - HOLD));
    }
    return out;
  }

  /** The body ended: the held-back bytes are data (when no block was seen). */
  flush(): Uint8Array[] {
    const h = this.held;
    this.held = Buffer.alloc(0);
    return this.block === undefined && h.length > 0 ? [h] : [];
  }

  /**
   * The exception message (`Code: …`), or undefined when no block was seen. Uses the `<LEN>` of the
   * closing line when the block is complete; a block cut short yields whatever message arrived.
   */
  message(): string | undefined {
    if (this.block === undefined) return undefined;
    const text = Buffer.concat(this.block).toString('utf8');
    const tag = this.marker.subarray(17).toString('latin1');
    let rest = text.slice(this.marker.length);
    if (rest.startsWith('\r\n')) rest = rest.slice(2);
    const closing = `${tag}\r\n__exception__\r\n`;
    const end = rest.lastIndexOf(closing);
    if (end >= 0) {
      // `<message>\n<LEN> <TAG>`: LEN counts the bytes of `<message>\n`.
      const lenLineStart = rest.lastIndexOf('\n', end - 1);
      const m = lenLineStart >= 0 ? /^(\d+) $/.exec(rest.slice(lenLineStart + 1, end)) : null;
      if (m && lenLineStart >= 0) {
        const bytes = Buffer.from(rest.slice(0, lenLineStart + 1), 'utf8');
        const len = Number(m[1]);
        const msg = bytes.length >= len ? bytes.subarray(bytes.length - len) : bytes;
        return msg.toString('utf8').replace(/\n$/, '');
      }
      return rest.slice(0, end).replace(/\n?\d* ?$/, '');
    }
    return rest;
  }
}

/** Keeps the last `limit` bytes seen (as whole recent chunks), for error diagnosis only. */
export class TailKeeper {
  private chunks: Uint8Array[] = [];
  private size = 0;
  constructor(private readonly limit = 16 * 1024) {}

  add(chunk: Uint8Array): void {
    this.chunks.push(chunk);
    this.size += chunk.byteLength;
    while (this.chunks.length > 1 && this.size - this.chunks[0]!.byteLength >= this.limit) {
      this.size -= this.chunks.shift()!.byteLength;
    }
    // Many tiny chunks (a server trickling bytes): coalesce so `add` stays O(1) amortised.
    if (this.chunks.length > 64) {
      const all = Buffer.concat(this.chunks);
      const keep = all.subarray(Math.max(0, all.length - this.limit));
      this.chunks = [keep];
      this.size = keep.length;
    }
  }

  text(): string {
    const all = Buffer.concat(this.chunks);
    return all.subarray(Math.max(0, all.length - this.limit)).toString('utf8');
  }
}
