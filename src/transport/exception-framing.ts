// Recognises the exception block that ClickHouse 25.11+ writes into a body that has already
// started (http.md §7.2):
//   \r\n__exception__\r\n<TAG>\r\n<message>\n<LEN> <TAG>\r\n__exception__\r\n
// where TAG is the response's X-ClickHouse-Exception-Tag. Invariant: no byte of the block is ever
// passed on as data. The last 32 bytes of every chunk are held back until the next chunk (or a
// clean end) shows they are not the start of the 33-byte opening marker, so a marker split across
// network reads is still found before any of it reaches the decoder.
// Plain Uint8Arrays only (no Node Buffer): the fetch transport of chwire/web uses it too.
import { concatBytes, indexOfBytes, latin1Bytes } from '../io/bytes.js';

const HOLD = 32;
const EMPTY = new Uint8Array(0);
const utf8 = new TextDecoder('utf-8');

export class ExceptionFramingScanner {
  private readonly marker: Uint8Array;
  private readonly tag: string;
  private held: Uint8Array = EMPTY;
  /** Bytes from the opening marker on, once it was seen. */
  private block: Uint8Array[] | undefined;

  constructor(tag: string) {
    this.tag = tag;
    this.marker = latin1Bytes(`\r\n__exception__\r\n${tag}`);
  }

  get inException(): boolean {
    return this.block !== undefined;
  }

  /** Feed a chunk; returns the data bytes that are now known not to belong to an exception block. */
  push(c: Uint8Array): Uint8Array[] {
    if (this.block !== undefined) {
      this.block.push(c.slice());
      return [];
    }
    // Search where the marker can start: in the held bytes joined with the head of the chunk,
    // then in the chunk itself.
    const seamLen = Math.min(c.length, this.marker.length - 1);
    const seam = concatBytes([this.held, c.subarray(0, seamLen)]);
    const atSeam = indexOfBytes(seam, this.marker);
    if (atSeam >= 0) {
      const out = atSeam > 0 ? [seam.subarray(0, atSeam)] : [];
      this.block = [seam.slice(atSeam), c.slice(seamLen)];
      this.held = EMPTY;
      return out.filter((b) => b.length > 0);
    }
    const inChunk = indexOfBytes(c, this.marker);
    if (inChunk >= 0) {
      const out: Uint8Array[] = [];
      if (this.held.length > 0) out.push(this.held);
      if (inChunk > 0) out.push(c.subarray(0, inChunk));
      this.block = [c.slice(inChunk)];
      this.held = EMPTY;
      return out;
    }
    // No marker: release everything except the last HOLD bytes.
    const total = this.held.length + c.length;
    if (total <= HOLD) {
      this.held = concatBytes([this.held, c]);
      return [];
    }
    const out: Uint8Array[] = [];
    if (c.length >= HOLD) {
      if (this.held.length > 0) out.push(this.held);
      if (c.length > HOLD) out.push(c.subarray(0, c.length - HOLD));
      this.held = c.slice(c.length - HOLD);
    } else {
      const joined = concatBytes([this.held, c]);
      out.push(joined.subarray(0, joined.length - HOLD));
      this.held = joined.slice(joined.length - HOLD);
    }
    return out;
  }

  /** Everything held since the marker (and after it): data after all, when the body then ends cleanly. */
  takeBlock(): Uint8Array[] {
    const out = [...(this.block ?? []), this.held].filter((b) => b.length > 0);
    this.block = undefined;
    this.held = EMPTY;
    return out;
  }

  /** The body ended: the held-back bytes are data (when no block was seen). */
  flush(): Uint8Array[] {
    const h = this.held;
    this.held = EMPTY;
    return this.block === undefined && h.length > 0 ? [h] : [];
  }

  /**
   * The exception message (`Code: …`), or undefined when no block was seen. Uses the `<LEN>` of the
   * closing line when the block is complete; a block cut short yields whatever message arrived.
   */
  message(): string | undefined {
    if (this.block === undefined) return undefined;
    const text = utf8.decode(concatBytes(this.block));
    let rest = text.slice(this.marker.length);
    if (rest.startsWith('\r\n')) rest = rest.slice(2);
    const closing = `${this.tag}\r\n__exception__\r\n`;
    const end = rest.lastIndexOf(closing);
    if (end >= 0) {
      // `<message>\n<LEN> <TAG>`: LEN counts the bytes of `<message>\n`.
      const lenLineStart = rest.lastIndexOf('\n', end - 1);
      const m = lenLineStart >= 0 ? /^(\d+) $/.exec(rest.slice(lenLineStart + 1, end)) : null;
      if (m && lenLineStart >= 0) {
        const bytes = new TextEncoder().encode(rest.slice(0, lenLineStart + 1));
        const len = Number(m[1]);
        const msg = bytes.length >= len ? bytes.subarray(bytes.length - len) : bytes;
        return utf8.decode(msg).replace(/\n$/, '');
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
      const all = concatBytes(this.chunks);
      const keep = all.subarray(Math.max(0, all.length - this.limit));
      this.chunks = [keep];
      this.size = keep.length;
    }
  }

  text(): string {
    const all = concatBytes(this.chunks);
    return utf8.decode(all.subarray(Math.max(0, all.length - this.limit)));
  }
}
