// Giving the event loop a turn during a long read. Rows, row arrays and column batches that are
// already decoded are handed over through settled promises, so a consumer's `for await` can run
// through a whole 65 536-row block, or several, in microtasks alone, and no timer, socket or other
// request runs meanwhile (measured: the per-row stream held the loop ~60 ms per block).
// Invariant: `due()` is cheap enough to call per row (a counter; the clock is read once per
// `checkEvery` calls), and says true once SLICE_MS have passed since the last turn; `turn()` then
// resolves after the macrotask queue (timers, I/O) has had its turn. No `node:` import: the
// global `performance` and `setImmediate` (or `setTimeout` where there is none).

/** Work between turns of the loop (plus at most `checkEvery` calls' worth). */
const SLICE_MS = 10;

// Read through globalThis (a property, not a free Node global: chwire/web's graph has none).
const si = (globalThis as { setImmediate?: (f: () => void) => unknown }).setImmediate;
const defer: (f: () => void) => void = typeof si === 'function' ? (f) => { si(f); } : (f) => setTimeout(f, 0);

export class LoopTurns {
  private calls = 0;
  private since = performance.now();

  /** `checkEvery`: calls between two reads of the clock (256 for rows, 1 for arrays and batches). */
  constructor(private readonly checkEvery: number) {}

  /** Whether the loop is owed a turn (call once per unit of work handed over). */
  due(): boolean {
    if (++this.calls < this.checkEvery) return false;
    this.calls = 0;
    return performance.now() - this.since >= SLICE_MS;
  }

  /** Resolves once the macrotask queue has run. */
  turn(): Promise<void> {
    return new Promise<void>((resolve) => defer(() => {
      this.since = performance.now();
      resolve();
    }));
  }

  /** Note a turn that happened anyway (the consumer waited on I/O). */
  reset(): void {
    this.since = performance.now();
    this.calls = 0;
  }
}
