// fixedDateTime (the DateTime text fast path of the insert encoder) over sequences of values: it
// keeps the last valid day's seconds, so a sequence mixing repeated days, new days, impossible
// days (Feb 29 of common years, day 31 of short months) and bad times must give, value by value,
// what Date.UTC gives for a real calendar instant from 1970 on, and a negative number for everything else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fixedDateTime } from '../src/convert/encode-values.js';

const pad = (n: number, w: number): string => String(n).padStart(w, '0');

function reference(y: number, mo: number, d: number, h: number, mi: number, s: number): number {
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  // Date.UTC rolls an impossible day or time over; the fast path refuses it. (Years < 100 are not drawn.)
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return -1;
  return ms < 0 ? -1 : ms / 1000;
}

test('each value of a sequence reads as Date.UTC does (repeated, new and impossible days, bad times)', () => {
  const instant = fc.record({
    y: fc.oneof(fc.constant(2024), fc.constant(2023), fc.constant(1900), fc.constant(2000), fc.integer({ min: 1970, max: 2105 })),
    mo: fc.integer({ min: 0, max: 13 }), d: fc.integer({ min: 0, max: 32 }),
    h: fc.integer({ min: 0, max: 24 }), mi: fc.integer({ min: 0, max: 60 }), s: fc.integer({ min: 0, max: 60 }),
    sep: fc.constantFrom(' ', 'T'), z: fc.boolean(), repeat: fc.integer({ min: 1, max: 3 }),
  });
  fc.assert(fc.property(fc.array(instant, { maxLength: 30 }), (xs) => {
    for (const x of xs) {
      for (let k = 0; k < x.repeat; k++) {
        const text = `${pad(x.y, 4)}-${pad(x.mo, 2)}-${pad(x.d, 2)}${x.sep}${pad(x.h, 2)}:${pad(x.mi, 2)}:${pad((x.s + k) % 61, 2)}${x.z ? 'Z' : ''}`;
        // (Negative is the contract for what the fast path does not take: -1 or an instant before 1970.)
        const got = fixedDateTime(text);
        assert.equal(got < 0 ? -1 : got, reference(x.y, x.mo, x.d, x.h, x.mi, (x.s + k) % 61), text);
      }
    }
  }), { numRuns: 500 });
});
