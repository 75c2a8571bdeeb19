// Live progress of one call (`onProgress`): what the server has read and written so far.
// Sources: while the query runs, a poll of `system.processes` for its query id, sent every
// `progressInterval` ms on another pooled connection to the host running it (works on every server
// version; 18.16 sends no progress headers, and later ones send them only with the response head,
// when the first result byte is ready); the X-ClickHouse-Summary of the response head; at the end,
// that summary (or the engine's figures) once more as the final event.
// Invariants: events are monotonic (each field the largest value seen); at most one event per
// interval while the query runs, plus exactly one final event; at most one poll in flight, none
// after the call ended, none at all unless the call has an onProgress; a failing poll is ignored.
import { ChwireConfigError } from '../../errors.js';
import { quoteString } from '../../types/quote.js';
import type { QuerySummary, Transport } from '../../transport/types.js';

export interface Progress {
  readRows: number;
  readBytes: number;
  /** The server's estimate of the rows the query will read (0 when it has none). */
  totalRowsToRead: number;
  writtenRows: number;
  writtenBytes: number;
  /** Time the query has run, in nanoseconds (the server's figure when it gives one). */
  elapsedNs: number;
}

export type ProgressListener = (p: Progress) => void;

/** Default `progressInterval`, ms. */
export const DEFAULT_PROGRESS_INTERVAL = 500;

/** An interval option in ms (`progressInterval` of the client or of a call, `slowConsumerMs`): undefined is `dflt`. */
export function intervalOption(name: string, v: unknown, dflt: number): number {
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new ChwireConfigError(`option ${name} must be a non-negative number of milliseconds, got ${String(v)}`);
  return v;
}

function num(v: string | undefined): number {
  const n = v === undefined ? NaN : Number(v);
  return Number.isFinite(n) ? n : 0;
}

export class ProgressReporter {
  private last: Progress = { readRows: 0, readBytes: 0, totalRowsToRead: 0, writtenRows: 0, writtenBytes: 0, elapsedNs: 0 };
  private lastEmit = -Infinity;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private polling: AbortController | undefined;
  private done = false;
  private host: string | undefined;
  private readonly t0 = performance.now();

  constructor(private readonly listener: ProgressListener, private readonly interval: number, private readonly queryId: string) {}

  /** Starts polling `transport` (pinned to `host` when known) until stop(); not for the embedded engine. */
  poll(transport: Transport, host: string | undefined): void {
    if (host !== undefined) this.host = host; // a retry on another host moves the poll with it
    if (this.done || this.timer !== undefined || transport.kind !== 'http') return;
    const sql = `SELECT read_rows, read_bytes, total_rows_approx, written_rows, written_bytes, elapsed FROM system.processes WHERE query_id = ${quoteString(this.queryId)}`;
    const tick = async (): Promise<void> => {
      if (this.done) return;
      const ac = new AbortController();
      this.polling = ac;
      try {
        const res = await transport.request({ sql, format: 'TabSeparated', signal: ac.signal, idempotent: true, host: this.host });
        let text = '';
        const dec = new TextDecoder();
        for await (const c of res.body) text += dec.decode(c, { stream: true });
        const f = text.split('\n')[0]!.split('\t');
        if (f.length >= 6 && !this.done) {
          this.update({
            readRows: num(f[0]), readBytes: num(f[1]), totalRowsToRead: num(f[2]), writtenRows: num(f[3]), writtenBytes: num(f[4]),
            elapsedNs: Math.round(num(f[5]) * 1e9),
          }, false);
        }
      } catch {
        // Best effort: the query may have ended, the pool may be busy; the next tick tries again.
      } finally {
        this.polling = undefined;
      }
      if (!this.done) this.schedule(tick);
    };
    this.schedule(tick);
  }

  private schedule(tick: () => Promise<void>): void {
    this.timer = setTimeout(() => void tick(), this.interval);
    // A pending poll never keeps the process alive on its own.
    (this.timer as { unref?: () => void }).unref?.();
  }

  /** Figures from a summary (the response head's, or the engine's), as an event if the interval allows. */
  summary(s: QuerySummary | undefined): void {
    if (s !== undefined && !this.done) this.update(fromSummary(s), false);
  }

  /** Stops polling and sends the final event (from the summary, when there is one). */
  end(s: QuerySummary | undefined): void {
    if (this.done) return;
    this.done = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.polling?.abort();
    this.update(s !== undefined ? fromSummary(s) : undefined, true);
  }

  private update(p: Progress | undefined, final: boolean): void {
    const l = this.last;
    const elapsedNs = Math.max(l.elapsedNs, p?.elapsedNs ?? 0, final ? Math.round((performance.now() - this.t0) * 1e6) : 0);
    const next: Progress = p === undefined ? { ...l, elapsedNs } : {
      readRows: Math.max(l.readRows, p.readRows), readBytes: Math.max(l.readBytes, p.readBytes),
      totalRowsToRead: Math.max(l.totalRowsToRead, p.totalRowsToRead),
      writtenRows: Math.max(l.writtenRows, p.writtenRows), writtenBytes: Math.max(l.writtenBytes, p.writtenBytes),
      elapsedNs,
    };
    this.last = next;
    const now = performance.now();
    if (!final && now - this.lastEmit < this.interval) return;
    this.lastEmit = now;
    try {
      this.listener({ ...next });
    } catch {
      // A listener that throws must not fail the query it reports on.
    }
  }
}

function fromSummary(s: QuerySummary): Progress {
  return {
    readRows: num(s['read_rows']), readBytes: num(s['read_bytes']), totalRowsToRead: num(s['total_rows_to_read']),
    writtenRows: num(s['written_rows']), writtenBytes: num(s['written_bytes']), elapsedNs: num(s['elapsed_ns']),
  };
}
