// What a streamed insert of an iterable keeps in memory while its block fills (issue 28, item 3):
// at most ITERABLE_SLICE_ROWS of the source's row objects wait to be encoded, and the encoded
// slices held for the block are exact-size buffers (no slack of the encoder's growing buffers).
// The bytes still decode to the rows, block by block as before (the chdb engine reads them back
// in test/native.encode.test.ts; here the package's own decoder checks the round trip).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileNativeEncoder, type NativeEncoder } from '../src/native/write/encoder.js';
import { ITERABLE_SLICE_ROWS, nativeBlocks } from '../src/native/write/blocks.js';
import { decodeNative } from '../src/native/index.js';

const COLUMNS = [
  { name: 'id', type: 'UInt64' }, { name: 's', type: 'String' }, { name: 'lc', type: 'LowCardinality(String)' },
  { name: 'n', type: 'Nullable(String)' }, { name: 'a', type: 'Array(String)' }, { name: 'd', type: 'Decimal(18, 4)' },
];
const row = (k: number): Record<string, unknown> => ({
  id: k, s: `event ${k} with a message long enough to grow the encoder's buffer`, lc: `kind-${k % 7}`,
  n: k % 3 === 0 ? null : `ref-${k}`, a: k % 4 === 0 ? [] : ['x', `t${k % 9}`], d: `${k}.${k % 10}`,
});

/** The encoder, counting the rows it has encoded. */
function counting(enc: NativeEncoder, seen: { encoded: number }): NativeEncoder {
  return { ...enc, encodeBlock: (rows, start, end, base) => { seen.encoded += end - start; return enc.encodeBlock(rows, start, end, base); } } as NativeEncoder;
}

test('nativeBlocks: an async source has at most ITERABLE_SLICE_ROWS rows waiting for the encoder, blocks of 65 536 rows', async () => {
  const seen = { encoded: 0 };
  const enc = counting(compileNativeEncoder(COLUMNS, 'object'), seen);
  const total = 70_000;
  let produced = 0;
  let most = 0;
  async function* source(): AsyncGenerator<Record<string, unknown>> {
    for (let k = 0; k < total; k++) {
      most = Math.max(most, produced - seen.encoded);
      produced++;
      yield row(k);
    }
  }
  const blocks: Uint8Array[][] = [];
  for await (const b of nativeBlocks(source(), enc, 65_536)) blocks.push(b);
  assert.equal(blocks.length, 2);
  assert.ok(most <= ITERABLE_SLICE_ROWS, `rows produced but not yet encoded reached ${most}`);
  assert.ok(ITERABLE_SLICE_ROWS <= 1024);
  // Every row comes back, in order, from the bytes of the two blocks.
  const bytes = Buffer.concat(blocks.flat());
  const back = decodeNative(bytes).rows as Array<Record<string, unknown>>;
  assert.equal(back.length, total);
  for (const k of [0, 1, 1023, 1024, 65_535, 65_536, total - 1]) {
    assert.deepEqual({ ...back[k], id: Number(back[k]!.id), d: Number(back[k]!.d) }, { ...row(k), d: Number(`${k}.${k % 10}`) });
  }
});

test('nativeBlocks: the encoded slices an iterable\'s block holds are exact-size buffers', async () => {
  const enc = compileNativeEncoder(COLUMNS, 'object');
  function* source(): Generator<Record<string, unknown>> { for (let k = 0; k < 5000; k++) yield row(k); }
  const blocks: Uint8Array[][] = [];
  for await (const b of nativeBlocks(source(), enc, 4096)) blocks.push(b);
  assert.deepEqual(blocks.map((b) => b.length), [4, 1]);
  for (const part of blocks.flat()) {
    assert.equal(part.byteOffset, 0);
    assert.equal(part.byteLength, part.buffer.byteLength, 'a part that is a view into a larger buffer keeps that buffer alive');
  }
  const back = decodeNative(Buffer.concat(blocks.flat())).rows;
  assert.equal(back.length, 5000);
});
