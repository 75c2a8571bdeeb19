// The retry budget of one client: retries may be at most a fraction of the calls made recently,
// plus a small allowance so that low traffic can still retry (Finagle's RetryBudget, Envoy's
// retry_budget, gRPC's retry throttling). Under a blip a few calls fail and are retried; under an
// overload every call fails, and without a budget each would be sent `attempts` times, multiplying
// the load on a server that is already turning queries away.
// Invariant: at every moment, the retries granted within the buckets of the window are at most
// minRetries + ratio · the calls recorded in those same buckets (the window slides in `BUCKETS`
// steps: a bucket leaves whole once it is older than the window).
// Pure accounting over an injected clock: no timers, no I/O.
import { ChwireConfigError } from '../errors.js';

export interface RetryBudgetOptions {
  /** Retries allowed per call made in the window (0–1). Default 0.2 (a retry for every fifth call). */
  ratio?: number;
  /** Retries allowed in each window whatever the traffic. Default 10. */
  minRetries?: number;
  /** The sliding window, ms. Default 10 000. */
  window?: number;
}

export interface RetryBudgetPolicy {
  readonly ratio: number;
  readonly minRetries: number;
  readonly window: number;
}

export const DEFAULT_RETRY_BUDGET: RetryBudgetPolicy = { ratio: 0.2, minRetries: 10, window: 10_000 };

/** Buckets per window. */
const BUCKETS = 10;

export function resolveRetryBudget(b: RetryBudgetOptions | false | undefined): RetryBudgetPolicy | false {
  if (b === undefined) return DEFAULT_RETRY_BUDGET;
  if (b === false) return false;
  if (typeof b !== 'object' || b === null || Array.isArray(b)) throw new ChwireConfigError('option retry.budget must be false or { ratio?, minRetries?, window? }');
  for (const k of Object.keys(b)) {
    if (k !== 'ratio' && k !== 'minRetries' && k !== 'window') throw new ChwireConfigError(`unknown retry.budget option ${JSON.stringify(k)}`);
  }
  const ratio = b.ratio ?? DEFAULT_RETRY_BUDGET.ratio;
  if (typeof ratio !== 'number' || !(ratio >= 0 && ratio <= 1)) throw new ChwireConfigError(`option retry.budget.ratio must be a number in [0, 1], got ${String(ratio)}`);
  const minRetries = b.minRetries ?? DEFAULT_RETRY_BUDGET.minRetries;
  if (typeof minRetries !== 'number' || !Number.isInteger(minRetries) || minRetries < 0) throw new ChwireConfigError(`option retry.budget.minRetries must be an integer >= 0, got ${String(minRetries)}`);
  const window = b.window ?? DEFAULT_RETRY_BUDGET.window;
  if (typeof window !== 'number' || !Number.isFinite(window) || window < BUCKETS) throw new ChwireConfigError(`option retry.budget.window must be a number of ms >= ${BUCKETS}, got ${String(window)}`);
  return { ratio, minRetries, window };
}

export class RetryBudget {
  private readonly calls = new Array<number>(BUCKETS).fill(0);
  private readonly retries = new Array<number>(BUCKETS).fill(0);
  /** The bucket number (time / step) of the newest bucket. */
  private head: number;
  private readonly step: number;
  /** Retries refused so far (for tests and figures). */
  refused = 0;

  constructor(readonly policy: RetryBudgetPolicy, private readonly now: () => number = Date.now) {
    this.step = policy.window / BUCKETS;
    this.head = Math.floor(now() / this.step);
  }

  /** Empties the buckets that have left the window. */
  private advance(): number {
    const b = Math.floor(this.now() / this.step);
    if (b > this.head) {
      for (let i = this.head + 1; i <= Math.min(b, this.head + BUCKETS); i++) {
        this.calls[i % BUCKETS] = 0;
        this.retries[i % BUCKETS] = 0;
      }
      this.head = b;
    }
    return this.head % BUCKETS;
  }

  /** A call starts (its first attempt). */
  recordCall(): void {
    this.calls[this.advance()]!++;
  }

  /** Whether one more retry fits in the budget; when it does, it is counted as made. */
  tryRetry(): boolean {
    const i = this.advance();
    let calls = 0;
    let retries = 0;
    for (let k = 0; k < BUCKETS; k++) { calls += this.calls[k]!; retries += this.retries[k]!; }
    if (retries + 1 > this.policy.minRetries + this.policy.ratio * calls) {
      this.refused++;
      return false;
    }
    this.retries[i]!++;
    return true;
  }

  /** Calls and retries in the current window. */
  counts(): { calls: number; retries: number } {
    this.advance();
    return { calls: this.calls.reduce((a, b) => a + b, 0), retries: this.retries.reduce((a, b) => a + b, 0) };
  }
}
