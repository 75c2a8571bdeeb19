// The encoder's byte sink across its buffer boundaries (src/native/write/sink.ts): a String value
// of any length and script written where the current buffer ends, or the block crossing several
// buffers, decodes back to the same strings (the decoder is the oracle; the engine reads the same
// bytes in the roundtrip tests). Before, a short non-ASCII value within 10 bytes of a buffer's end
// had its length written into a new buffer and its bytes left in the old one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compileNativeEncoder, decodeNative } from '../src/native/index.js';

const enc = compileNativeEncoder([{ name: 's', type: 'String' }], 'array');

function roundtrip(values: string[]): string[] {
  const chunks = enc.encodeBlock(values.map((v) => [v]), 0, values.length, 0);
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let p = 0;
  for (const c of chunks) { all.set(c, p); p += c.length; }
  return decodeNative(all).rows.map((r) => (r as { s: string }).s);
}

test('a short non-ASCII value at each position near the end of the first buffer (4 096 bytes)', () => {
  for (let pad = 0; pad < 40; pad++) {
    const values: string[] = [];
    let used = 0;
    const target = 4096 - 12 - pad;
    while (used + 101 < target) { values.push('x'.repeat(100)); used += 101; }
    values.push('y'.repeat(Math.max(0, target - used - 1)), 'é', 'z', '€€', 'ü'.repeat(70));
    assert.deepEqual(roundtrip(values), values, `pad ${pad}`);
  }
});

test('strings of any script and length, many buffers long, decode back', () => {
  fc.assert(fc.property(
    fc.array(fc.oneof(fc.string({ maxLength: 4 }), fc.string({ unit: 'grapheme', maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 90 }), fc.string({ maxLength: 300 })), { maxLength: 400 }),
    (values) => {
      // Lone surrogates become U+FFFD in UTF-8, as TextEncoder writes them.
      const want = values.map((v) => new TextDecoder().decode(new TextEncoder().encode(v)));
      assert.deepEqual(roundtrip(values), want);
    },
  ), { numRuns: 200 });
});
