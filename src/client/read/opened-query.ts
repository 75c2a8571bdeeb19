// What a streamed query (rows or raw bytes) shares: it is sent on first iteration, iterated once,
// and cancel() stops it and releases its connection and session lock. An abort of the call's
// signal ends the iteration at its next step with ChwireAbortError (rows already buffered or
// decoded are not handed over), as cancel() ends it at once without an error: both set `halted`,
// the one flag the loops read at each step (no per-row work added).

import { ChwireAbortError, ChwireConfigError } from '../../errors.js';
import type { QuerySummary, TransportResponse } from '../../transport/types.js';

export interface OpenedBody {
  response: TransportResponse;
  /** Releases the session lock. */
  release(): void;
  /** Ends the call's observation (observe/call.ts), once: its error, or undefined, and the rows handed over. */
  done?: ((error: unknown, rows: number | undefined) => void) | undefined;
}

export abstract class QueryStreamBase<O extends OpenedBody> {
  protected opened: O | undefined;
  protected cancelled = false;
  /** cancel() was called or the signal aborted: the loops stop at their next step. */
  protected halted = false;
  /** The abort that halted the stream (undefined after cancel() alone). */
  protected aborted: ChwireAbortError | undefined;
  private onAbort: (() => void) | undefined;
  /** Rows decoded so far, counted only when the call is observed (opened.done set). */
  protected rowCount = 0;
  private started = false;

  constructor(private readonly open: () => Promise<O>, readonly queryId: string | undefined, private readonly signal?: AbortSignal | undefined) {}

  get summary(): QuerySummary | undefined {
    return this.opened?.response.summary;
  }

  cancel(): void {
    this.cancelled = true;
    this.halted = true;
    if (this.opened !== undefined) {
      this.opened.response.cancel();
      this.opened.release();
      this.opened.done?.(undefined, this.rowCount);
    }
  }

  /** Marks the one iteration this stream allows. */
  protected start(): void {
    if (this.started) throw new ChwireConfigError('a query stream can be iterated only once');
    this.started = true;
  }

  /** Sends the request, unless cancel() came first (then undefined). */
  protected async begin(): Promise<O | undefined> {
    if (this.cancelled) return undefined;
    const signal = this.signal;
    if (signal !== undefined && this.onAbort === undefined) {
      this.onAbort = () => {
        this.aborted ??= new ChwireAbortError('query aborted by its AbortSignal', { queryId: this.queryId, cause: signal.reason });
        this.halted = true;
      };
      if (signal.aborted) this.onAbort();
      else signal.addEventListener('abort', this.onAbort, { once: true });
    }
    const q = await this.open();
    this.opened = q;
    return q;
  }

  /** At a step where `halted` was seen: the abort's error to throw, or undefined to end quietly (cancel()). */
  protected stopError(): ChwireAbortError | undefined {
    return this.cancelled ? undefined : this.aborted;
  }

  /** The stream is over: stop listening to the signal. */
  protected detach(): void {
    if (this.onAbort !== undefined) this.signal?.removeEventListener('abort', this.onAbort);
  }
}
