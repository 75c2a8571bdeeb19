// TailHold (src/client/read/tail-hold.ts) on its own, by property: any bytes in any chunking come out
// whole and in order; no byte of an exception appended at the end (text starting `Code: `, at most
// 16 KiB) is released before the body has ended; and ordinary data waits for at most 5 bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { HOLD_BYTES, TailHold } from '../src/client/read/tail-hold.js';

const MARK = Buffer.from('Code: ');

/** Data: random bytes with `Code: ` and its prefixes sprinkled in (they must not leak or stall). */
const dataArb = fc.array(fc.oneof(
  { weight: 6, arbitrary: fc.uint8Array({ minLength: 0, maxLength: 3000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 6 }).map((m) => new Uint8Array(MARK.subarray(0, m))) },
), { maxLength: 12 }).map((parts) => Buffer.concat(parts));

/** An 18.16-style exception, or none. */
const exceptionArb = fc.option(fc.string({ minLength: 0, maxLength: 400 }).map((t) => Buffer.from(`Code: 241, e.displayText() = DB::Exception: ${t}, e.what() = DB::Exception\n`)), { nil: undefined });

/** Cut `bytes` at the given sizes (cycled), chunks of 1 byte to a few KiB. */
function chunked(bytes: Buffer, sizes: number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0, k = 0; at < bytes.length; k++) {
    const n = sizes[k % sizes.length]!;
    out.push(new Uint8Array(bytes.subarray(at, at + n))); // not Buffers: the hold must handle both
    at += n;
  }
  return out;
}

test('TailHold: whole and in order; an appended exception is never released early; ordinary data waits for 5 bytes at most', () => {
  fc.assert(fc.property(dataArb, exceptionArb, fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 1, maxLength: 8 }), (data, exception, sizes) => {
    const body = exception === undefined ? data : Buffer.concat([data, exception]);
    const hold = new TailHold(HOLD_BYTES);
    const released: Uint8Array[] = [];
    let received = 0;
    for (const chunk of chunked(body, sizes)) {
      released.push(...hold.push(chunk));
      received += chunk.length;
      const out = released.reduce((n, c) => n + c.length, 0);
      // What is released is a prefix of the body that never reaches into the exception.
      assert.ok(out <= data.length || exception === undefined, `released ${out} bytes of ${data.length} data bytes`);
      // With no `Code: ` in the last 16 KiB received, at most a 5-byte prefix of it waits.
      const recent = body.subarray(Math.max(0, received - HOLD_BYTES), received);
      if (recent.indexOf(MARK) < 0) assert.ok(received - out <= 5, `${received - out} bytes held with no Code: in sight`);
    }
    const all = Buffer.concat([...released, ...hold.drain()]);
    assert.ok(all.equals(body), 'every byte, once, in order');
  }), { numRuns: 400 });
});

test('TailHold: a `Code: ` more than 16 KiB before the end is data and is released', () => {
  const hold = new TailHold(HOLD_BYTES);
  assert.deepEqual(hold.push(Buffer.from('xxCode: 1')).map((c) => Buffer.from(c).toString()), ['xx']);
  let out = 0;
  for (let i = 0; i < 20; i++) out += hold.push(new Uint8Array(1024).fill(0x61)).reduce((n, c) => n + c.length, 0);
  assert.equal(out, 'Code: 1'.length + 20 * 1024);
  assert.deepEqual(hold.drain(), []);
  // limit 0: everything passes straight through.
  const open = new TailHold(0);
  const c = Buffer.from('Code: 1');
  assert.deepEqual(open.push(c), [c]);
});
