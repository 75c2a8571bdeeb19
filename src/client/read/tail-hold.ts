// Holding back what may be the start of an exception an older server appends to a body. Servers
// before 25.11 write `Code: NNN… DB::Exception: …\n` as plain text after the data they had already
// sent (HTTP status 200 was gone), and only the very end of the body shows it. Such text is at
// most HOLD_BYTES long, ends the body and starts with `Code: `. So bytes are passed on (to a
// decoder, or to a raw consumer) at once, except from the first `Code: ` within the last
// HOLD_BYTES (or a prefix of it at the very end) onwards: those wait until more bytes push them
// out of that window, or until the body has ended without an exception. No byte of such an
// exception is ever decoded as rows or handed over as data, and a stream of ordinary data waits
// for at most 5 bytes. Responses whose exceptions are framed apart from the data (25.11+'s tagged
// framing, cut out by the transport; the embedded engine) need no holding.

import { indexOfBytes, latin1Bytes } from '../../io/bytes.js';
import { trailingServerError } from '../../transport/server-error.js';
import type { TransportResponse } from '../../transport/types.js';

/** Longest appended exception recognised (the transport's tail window is the same 16 KiB). */
export const HOLD_BYTES = 16 * 1024;

/** `Code: `, how every appended exception starts. */
const MARK = latin1Bytes('Code: ');

export class TailHold {
  private held: Uint8Array[] = [];
  private bytes = 0;
  /** `held` starts with a whole `Code: ` (the first within the window); else it is at most a prefix of one. */
  private anchored = false;

  /** `limit` 0 holds nothing back. */
  constructor(private readonly limit: number) {}

  /** Takes a chunk; returns the bytes now safe to pass on, oldest first (often the chunk itself). */
  push(chunk: Uint8Array): Uint8Array[] {
    if (this.limit === 0) return [chunk];
    if (chunk.length === 0) return [];
    const before = this.bytes;
    this.held.push(chunk);
    this.bytes += chunk.length;
    if (this.anchored) {
      // The held `Code: ` may still start an exception until `limit` bytes follow it.
      if (this.bytes <= this.limit) return [];
      return this.release(this.bytes - this.rescan());
    }
    // Held: at most a prefix of `Code: ` (before) and now the chunk. Cheapest checks first: a
    // `Code: ` that began in the held prefix, then the first one in the chunk's last `limit` bytes.
    for (let p = 0; p < before; p++) {
      if (this.matchAt(p)) { this.anchored = true; return this.release(p); }
    }
    const at = indexOfBytes(chunk, MARK, Math.max(0, chunk.length - this.limit));
    if (at >= 0) { this.anchored = true; return this.release(before + at); }
    return this.release(this.bytes - this.prefixAtEnd());
  }

  /** The bytes still held, once the body has ended (and was found free of an appended exception). */
  drain(): Uint8Array[] {
    const out = this.held;
    this.held = [];
    this.bytes = 0;
    this.anchored = false;
    return out;
  }

  /** After an anchored `Code: ` left the window: the bytes to keep, found again from scratch. */
  private rescan(): number {
    const w = Math.min(this.bytes, this.limit);
    const window = new Uint8Array(w);
    let at = w;
    for (let k = this.held.length - 1; k >= 0 && at > 0; k--) {
      const c = this.held[k]!;
      const take = Math.min(at, c.length);
      window.set(c.subarray(c.length - take), at - take);
      at -= take;
    }
    const first = indexOfBytes(window, MARK);
    this.anchored = first >= 0;
    return first >= 0 ? w - first : this.prefixAtEnd();
  }

  /** Whether a whole `Code: ` starts at held byte `p`. */
  private matchAt(p: number): boolean {
    if (p + MARK.length > this.bytes) return false;
    for (let i = 0; i < MARK.length; i++) if (this.byteAt(p + i) !== MARK[i]) return false;
    return true;
  }

  /** Length of the longest proper prefix of `Code: ` that the held bytes end with (0–5). */
  private prefixAtEnd(): number {
    for (let m = Math.min(MARK.length - 1, this.bytes); m > 0; m--) {
      let ok = true;
      for (let i = 0; i < m && ok; i++) ok = this.byteAt(this.bytes - m + i) === MARK[i];
      if (ok) return m;
    }
    return 0;
  }

  /** Held byte `i` (used on a few bytes near chunk edges only). */
  private byteAt(i: number): number {
    for (const c of this.held) {
      if (i < c.length) return c[i]!;
      i -= c.length;
    }
    return -1;
  }

  /** Hands over the first `n` held bytes (a chunk split where needed, without copying). */
  private release(n: number): Uint8Array[] {
    if (n <= 0) return [];
    if (n === this.bytes) return this.drain();
    const out: Uint8Array[] = [];
    this.bytes -= n;
    while (n > 0) {
      const c = this.held[0]!;
      if (c.length <= n) {
        out.push(c);
        this.held.shift();
        n -= c.length;
      } else {
        out.push(c.subarray(0, n));
        this.held[0] = c.subarray(n);
        n = 0;
      }
    }
    return out;
  }
}

/**
 * The body of `response`, with what may be an appended exception released only once the body has
 * ended without one (then a ChwireServerError is thrown instead, its message followed by `hint`).
 * Framed responses, and responses whose exceptions come before the body (`exceptionsApart`:
 * wait_end_of_query), pass straight through.
 */
export async function* heldBody(response: TransportResponse, queryId: string | undefined, exceptionsApart = false, hint = ''): AsyncGenerator<Uint8Array> {
  const hold = new TailHold(response.exceptionsFramed === true || exceptionsApart ? 0 : HOLD_BYTES);
  try {
    for await (const chunk of response.body) yield* hold.push(chunk);
    const appended = exceptionsApart ? undefined : trailingServerError(response.tailText(), queryId, response.url);
    if (appended !== undefined) {
      appended.message += hint;
      throw appended;
    }
    yield* hold.drain();
  } finally {
    hold.drain();
  }
}
