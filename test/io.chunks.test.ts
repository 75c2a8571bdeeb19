// ByteQueue (io/chunks.ts) against a model: random appends (small chunks and ones bigger than the
// buffer), consumes and compactions keep exactly the unread bytes, in order, and never depend on
// the caller's chunk after append returns.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ByteQueue } from '../src/io/chunks.js';

type Step = { append: number } | { consume: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ append: fc.oneof(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 60000, max: 200000 })) }),
  fc.record({ consume: fc.integer({ min: 0, max: 1 << 20 }) }),
);

test('ByteQueue holds exactly the unconsumed bytes through appends, consumes and compactions', () => {
  fc.assert(fc.property(fc.array(stepArb, { maxLength: 60 }), (steps) => {
    const q = new ByteQueue();
    let model: number[] = [];
    let next = 0;
    for (const step of steps) {
      if ('append' in step) {
        const chunk = new Uint8Array(step.append);
        for (let i = 0; i < chunk.length; i++) chunk[i] = (next + i * 7) & 0xff;
        next += 13;
        q.append(chunk);
        model = model.concat(Array.from(chunk));
        chunk.fill(0); // the caller may reuse its chunk
      } else {
        const n = Math.min(step.consume, q.length);
        q.consume(n);
        model = model.slice(n);
      }
      assert.equal(q.length, model.length);
      assert.deepEqual(Array.from(q.buf.subarray(q.start, q.end)), model);
    }
  }), { numRuns: 150 });
});
