// What a streamed query (rows or raw bytes) shares: it is sent on first iteration, iterated once,
// and cancel() stops it and releases its connection and session lock.

import { ChwireConfigError } from '../errors.js';
import type { QuerySummary, TransportResponse } from '../transport/types.js';

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
  /** Rows decoded so far, counted only when the call is observed (opened.done set). */
  protected rowCount = 0;
  private started = false;

  constructor(private readonly open: () => Promise<O>, readonly queryId: string | undefined) {}

  get summary(): QuerySummary | undefined {
    return this.opened?.response.summary;
  }

  cancel(): void {
    this.cancelled = true;
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
    const q = await this.open();
    this.opened = q;
    return q;
  }
}
