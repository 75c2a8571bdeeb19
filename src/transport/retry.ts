// The retry policy: which failure of which request may be sent again, after how long, and under
// which query id. Pure functions of the failure and the request (no I/O), so the property test can
// drive them with random fault scripts.
// Invariants: a request is sent again only when that cannot do harm: nothing was sent (refused),
// or it is idempotent and its body can be produced again (or none of it was taken); a query id is
// reused only when the previous attempt is known never to have reached a server, so the server
// never sees the same id twice while the first may still run; the delays never take the call past
// its time budget (requestTimeout).
import { ChwireConfigError, ChwireServerError, isChwireError } from '../errors.js';
import { DEFAULT_RETRY_BUDGET, resolveRetryBudget, type RetryBudgetOptions, type RetryBudgetPolicy } from './retry-budget.js';

export interface RetryOptions {
  /** Attempts in all, the first included. Default 3. */
  attempts?: number;
  /** Base of the exponential backoff in ms. Default 100. */
  baseDelay?: number;
  /** Cap of one delay in ms. Default 5000. */
  maxDelay?: number;
  /** Retries at most this share of recent calls (retry-budget.ts); false: no budget. Default { ratio: 0.2, minRetries: 10, window: 10 000 }. */
  budget?: RetryBudgetOptions | false;
}

export interface RetryPolicy {
  readonly attempts: number;
  readonly baseDelay: number;
  readonly maxDelay: number;
  /** Undefined in policies made before the budget existed: the default budget. */
  readonly budget?: RetryBudgetPolicy | false;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseDelay: 100, maxDelay: 5000, budget: DEFAULT_RETRY_BUDGET };
export const NO_RETRY: RetryPolicy = { attempts: 1, baseDelay: 0, maxDelay: 0, budget: false };

export function resolveRetry(r: RetryOptions | false | undefined): RetryPolicy {
  if (r === undefined) return DEFAULT_RETRY;
  if (r === false) return NO_RETRY;
  if (typeof r !== 'object' || r === null || Array.isArray(r)) throw new ChwireConfigError('option retry must be false or { attempts?, baseDelay?, maxDelay?, budget? }');
  for (const k of Object.keys(r)) {
    if (k !== 'attempts' && k !== 'baseDelay' && k !== 'maxDelay' && k !== 'budget') throw new ChwireConfigError(`unknown retry option ${JSON.stringify(k)}`);
  }
  const num = (name: 'attempts' | 'baseDelay' | 'maxDelay', dflt: number, min: number): number => {
    const v = r[name];
    if (v === undefined) return dflt;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || (name === 'attempts' && !Number.isInteger(v))) {
      throw new ChwireConfigError(`option retry.${name} must be ${name === 'attempts' ? 'an integer' : 'a number'} >= ${min}, got ${String(v)}`);
    }
    return v;
  };
  return { attempts: num('attempts', 3, 1), baseDelay: num('baseDelay', 100, 0), maxDelay: num('maxDelay', 5000, 0), budget: resolveRetryBudget(r.budget) };
}

/** Full jitter: a uniform delay in [0, min(maxDelay, baseDelay · 2^(retry−1))). `retry` counts from 1. */
export function backoff(p: RetryPolicy, retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(p.maxDelay, p.baseDelay * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}

/**
 * Server errors that say "try again later" without anything having changed: the server turned the
 * query away before running it, or a part of it failed for a passing reason.
 * 202 TOO_MANY_SIMULTANEOUS_QUERIES and 203 NO_FREE_CONNECTION (limits of the moment),
 * 209 SOCKET_TIMEOUT and 210 NETWORK_ERROR (a distributed query lost a shard's connection),
 * 252 TOO_MANY_PARTS (inserts throttled until merges catch up), 439 CANNOT_SCHEDULE_TASK (thread pool full).
 */
export const RETRYABLE_SERVER_CODES: ReadonlySet<number> = new Set([202, 203, 209, 210, 252, 439]);

/** QUERY_WITH_SAME_ID_IS_ALREADY_RUNNING: the previous attempt is still running. */
export const SAME_ID_RUNNING = 216;

/** How an attempt failed, as far as retrying is concerned. */
export type FailureKind =
  /** Nothing reached any server: every host refused or was unreachable (the request was not sent). */
  | 'refused'
  /** A reused keep-alive socket failed at once, before the request could have reached the server. */
  | 'stale'
  /** The connection broke after the request was sent, before any response byte. */
  | 'reset'
  /** HTTP 502/503/504 (a proxy or load balancer in front of the server), or 429. */
  | 'status'
  /** A server error whose code says to try again (RETRYABLE_SERVER_CODES, or 216 after a retry). */
  | 'server'
  /** Anything else (timeout, abort, other server errors, errors mid-body): never retried. */
  | 'final';

export interface Failure {
  kind: FailureKind;
  /** Delay asked by the server (Retry-After), ms. */
  retryAfter?: number | undefined;
}

/** What the request allows. */
export interface Resendable {
  /** Safe to run twice (reads, ping, probe, execute with idempotent, insert with a token). */
  idempotent: boolean;
  /** The body can be produced again (a function), or there is none. */
  bodyRepeatable: boolean;
  /** Some byte of a one-shot body was taken by an earlier attempt. */
  bodyTaken: boolean;
}

export function mayRetry(f: Failure, r: Resendable): boolean {
  if (f.kind === 'final') return false;
  // Refused: nothing was sent anywhere, so even a write may go again (its body was not pulled
  // when it is a one-shot iterable: bytes are only taken once the connection is up).
  if (f.kind === 'refused') return r.bodyRepeatable || !r.bodyTaken;
  if (!r.idempotent) return false;
  return r.bodyRepeatable || !r.bodyTaken;
}

/** Whether the previous attempt is known never to have reached a server (then its id is free again). */
export function previousIsDead(f: Failure): boolean {
  return f.kind === 'refused' || f.kind === 'stale';
}

/**
 * The query id of attempt `attempt` (0 = the first): the caller's id first; a retry keeps it only
 * when every earlier attempt is known never to have reached a server, else `<id>-retry-N`, so the
 * server cannot reject it as already running (216) nor confuse it with the first.
 */
export function attemptQueryId(id: string | undefined, attempt: number, allEarlierDead: boolean): string | undefined {
  if (id === undefined || attempt === 0 || allEarlierDead) return id;
  return `${id}-retry-${attempt}`;
}

/** Retry-After as seconds or an HTTP date, in ms from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(v: string | undefined, now: number = Date.now()): number | undefined {
  if (v === undefined) return undefined;
  const t = v.trim();
  if (/^\d+$/.test(t)) return Number(t) * 1000;
  const at = Date.parse(t);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** The failure kind of a server error answered before the body (HTTP status, exception code). */
export function classifyStatus(status: number, e: unknown): FailureKind {
  if (status === 502 || status === 503 || status === 504 || status === 429) return 'status';
  if (e instanceof ChwireServerError && RETRYABLE_SERVER_CODES.has(e.serverCode)) return 'server';
  return 'final';
}

/** An error thrown after several attempts: the earlier attempts' errors, oldest first. */
export function withEarlierAttempts<E>(e: E, earlier: readonly unknown[]): E {
  if (earlier.length > 0 && isChwireError(e)) {
    Object.defineProperty(e, 'earlierAttempts', { value: Object.freeze([...earlier]), enumerable: false, configurable: true });
  }
  return e;
}
