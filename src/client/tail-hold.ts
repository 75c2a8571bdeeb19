// The last bytes of a response body, held back until the body has ended: servers before 25.11
// append an exception as plain text after the data they had already sent, and only the very end
// of the body shows it. Bytes are passed on (to a decoder, or to a raw consumer) only once they
// are more than HOLD_BYTES from the end received so far, so no byte of such an exception is ever
// decoded as rows or handed over as data. Responses whose exceptions are framed apart from the
// data (25.11+'s tagged framing, cut out by the transport; the embedded engine) need no holding.

import { trailingServerError } from '../transport/server-error.js';
import type { TransportResponse } from '../transport/types.js';

/** Enough for an appended exception (one message, well under the transport's 16 KiB tail window). */
export const HOLD_BYTES = 16 * 1024;

export class TailHold {
  private readonly held: Uint8Array[] = [];
  private bytes = 0;

  /** `limit` 0 holds nothing back. */
  constructor(private readonly limit: number) {}

  /** Takes a chunk; returns the chunks now outside the held window, oldest first (often none). */
  push(chunk: Uint8Array): Uint8Array[] {
    if (this.limit === 0) return [chunk];
    this.held.push(chunk);
    this.bytes += chunk.length;
    let n = 0;
    let rest = this.bytes;
    while (n < this.held.length - 1 && rest - this.held[n]!.length >= this.limit) rest -= this.held[n++]!.length;
    if (n === 0) return [];
    this.bytes = rest;
    return this.held.splice(0, n);
  }

  /** The chunks still held, once the body has ended (and was found free of an appended exception). */
  drain(): Uint8Array[] {
    this.bytes = 0;
    return this.held.splice(0);
  }
}

/**
 * The body of `response`, its last HOLD_BYTES released only once it has ended without an appended
 * exception (then a ChwireServerError is thrown instead). Framed responses pass straight through.
 */
export async function* heldBody(response: TransportResponse, queryId: string | undefined): AsyncGenerator<Uint8Array> {
  const hold = new TailHold(response.exceptionsFramed === true ? 0 : HOLD_BYTES);
  try {
    for await (const chunk of response.body) yield* hold.push(chunk);
    const appended = trailingServerError(response.tailText(), queryId);
    if (appended !== undefined) throw appended;
    yield* hold.drain();
  } finally {
    hold.drain();
  }
}
