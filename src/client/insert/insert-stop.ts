// How an insert stops while its source is being waited for: an abort (the caller's signal) or
// requestTimeout without a row from the source ends the request body cleanly after the blocks
// already sent, so the server commits exactly those on every version and transport (cutting the
// connection instead made the outcome a race: 18.16 takes a closed connection for the end of the
// body and commits what it read, unless the KILL QUERY that follows arrives first; newer servers
// drop the squashed rows). While the server is what is waited for (the body is complete or the
// socket is full), the abort is passed on to the transport, which cuts the request.
// Invariant: exactly one of the two paths handles an abort, decided at the moment it happens.
import { ChwireAbortError, ChwireTimeoutError } from '../../errors.js';

export class InputStop {
  /** Why the body was ended early (set when `race` gave up on the source). */
  error: ChwireAbortError | ChwireTimeoutError | undefined;
  private readonly ctl = new AbortController();
  private wake: (() => void) | undefined;
  private readonly onAbort = (): void => this.abort();

  /** Rows read from the source so far (counted by nativeBlocks): a source that moves is not stalled. */
  readonly progress = { rows: 0 };

  constructor(private readonly signal: AbortSignal | undefined, private readonly stallMs: number) {
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** The signal for the transport: aborted only for an abort that comes while the source is not being waited for. */
  transportSignal(): AbortSignal | undefined {
    if (this.signal === undefined) return undefined;
    if (this.signal.aborted) this.ctl.abort(this.signal.reason);
    return this.ctl.signal;
  }

  private abort(): void {
    if (this.error !== undefined) return;
    if (this.wake !== undefined) { // waiting for the source (inside race)
      this.error = new ChwireAbortError('insert aborted by its AbortSignal while waiting for its input: the request was ended after the blocks already sent (they are committed)', { cause: this.signal?.reason });
      this.wake();
    } else {
      this.ctl.abort(this.signal?.reason);
    }
  }

  /** Whether the source is being waited for (the transport then leaves the timing to this). */
  pending(): boolean {
    return this.wake !== undefined;
  }

  /** The source's next block, or undefined when an abort or an input stall ended the wait. */
  async race<T>(next: Promise<T>): Promise<T | undefined> {
    if (this.signal?.aborted === true) { this.abort(); if (this.error !== undefined) return undefined; }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stopped = new Promise<undefined>((resolve) => {
      this.wake = () => resolve(undefined);
      if (this.stallMs > 0) {
        // (The transport does not time out while this waits: see TransportRequest.inputPending.)
        const ms = this.stallMs;
        let seen = this.progress.rows;
        const check = (): void => {
          // Rows arrived since the last check: the source is slow, not stalled.
          if (this.progress.rows !== seen) { seen = this.progress.rows; timer = setTimeout(check, ms); return; }
          this.error ??= new ChwireTimeoutError(`the insert's input stalled: no rows from it for ${ms} ms (requestTimeout); the request was ended after the blocks already sent (they are committed)`);
          this.wake?.();
        };
        timer = setTimeout(check, ms);
      }
    });
    try {
      return await Promise.race([next, stopped]);
    } finally {
      this.wake = undefined;
      if (timer !== undefined) clearTimeout(timer);
    }
  }

  dispose(): void {
    this.signal?.removeEventListener('abort', this.onAbort);
  }
}
