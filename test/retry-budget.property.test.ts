// The retry budget's accounting (src/transport/retry-budget.ts) against a reference model, with
// random sequences of calls, retries and clock steps: a retry is granted exactly when the retries
// already granted in the window's buckets plus one fit in minRetries + ratio · the calls there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RetryBudget, resolveRetryBudget, DEFAULT_RETRY_BUDGET } from '../src/transport/retry-budget.js';
import { resolveRetry } from '../src/transport/retry.js';
import { ChwireConfigError } from '../src/errors.js';

type Step = { kind: 'call' } | { kind: 'retry' } | { kind: 'wait'; ms: number };
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constant<Step>({ kind: 'call' }),
  fc.constant<Step>({ kind: 'retry' }),
  fc.integer({ min: 0, max: 3000 }).map((ms): Step => ({ kind: 'wait', ms })),
);

test('retry budget: grants exactly what the reference model grants; the bound holds at every moment', () => {
  fc.assert(fc.property(
    fc.record({ ratio: fc.double({ min: 0, max: 1, noNaN: true }), minRetries: fc.integer({ min: 0, max: 5 }), window: fc.integer({ min: 10, max: 20_000 }) }),
    fc.integer({ min: 0, max: 1e9 }),
    fc.array(step, { maxLength: 300 }),
    (policy, start, steps) => {
      let now = start;
      const budget = new RetryBudget(policy, () => now);
      const bucketMs = policy.window / 10;
      // Reference: every event with its bucket number; the window is the 10 newest buckets.
      const events: { bucket: number; kind: 'call' | 'retry' }[] = [];
      const inWindow = (kind: 'call' | 'retry'): number => {
        const head = Math.floor(now / bucketMs);
        return events.filter((e) => e.kind === kind && e.bucket > head - 10).length;
      };
      for (const s of steps) {
        if (s.kind === 'wait') { now += s.ms; continue; }
        const bucket = Math.floor(now / bucketMs);
        if (s.kind === 'call') { budget.recordCall(); events.push({ bucket, kind: 'call' }); continue; }
        const expected = inWindow('retry') + 1 <= policy.minRetries + policy.ratio * inWindow('call');
        assert.equal(budget.tryRetry(), expected);
        if (expected) events.push({ bucket, kind: 'retry' });
        assert.ok(inWindow('retry') <= policy.minRetries + policy.ratio * inWindow('call'));
        assert.deepEqual(budget.counts(), { calls: inWindow('call'), retries: inWindow('retry') });
      }
    },
  ));
});

test('retry budget: under sustained failure retries stay near ratio · calls; a quiet client can still retry minRetries times', () => {
  let now = 0;
  const b = new RetryBudget(DEFAULT_RETRY_BUDGET, () => now);
  let granted = 0;
  for (let i = 0; i < 10_000; i++) {
    now += 1; // 1 000 calls a second, each wanting two retries
    b.recordCall();
    if (b.tryRetry()) granted++;
    if (b.tryRetry()) granted++;
  }
  // 10 s of traffic spans two windows at most: two allowances of minRetries.
  assert.ok(granted <= 2 * 10 + 0.2 * 10_000 && granted >= 0.2 * 10_000 - 200, `${granted} retries for 10 000 calls`);
  const quiet = new RetryBudget(DEFAULT_RETRY_BUDGET, () => now);
  let q = 0;
  for (let i = 0; i < 10; i++) { quiet.recordCall(); if (quiet.tryRetry()) q++; }
  assert.equal(q, 10, 'minRetries per window whatever the traffic');
});

test('retry budget options: defaults, false, and every bad value refused', () => {
  assert.deepEqual(resolveRetry(undefined).budget, { ratio: 0.2, minRetries: 10, window: 10_000 });
  assert.deepEqual(resolveRetry({ budget: { ratio: 0.5 } }).budget, { ratio: 0.5, minRetries: 10, window: 10_000 });
  assert.equal(resolveRetry({ budget: false }).budget, false);
  assert.equal(resolveRetryBudget(false), false);
  for (const bad of [{ ratio: 2 }, { ratio: -0.1 }, { ratio: Number.NaN }, { minRetries: 1.5 }, { minRetries: -1 }, { window: 0 }, { per: 1 }, 3, null]) {
    assert.throws(() => resolveRetry({ budget: bad as never }), ChwireConfigError, JSON.stringify(bad));
  }
});
