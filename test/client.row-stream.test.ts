// The row iterator of RowStreamImpl (src/client/row-stream.ts) on its own, fed by a scripted
// response and a real decoder (RowBinaryWithNamesAndTypes bytes from the embedded engine): rows in
// order across batches and chunks that complete no row, overlapping next() calls that must not
// reorder or lose rows, early return() releasing the connection exactly once, errors reaching the
// caller, and a body cut mid-row failing instead of ending short.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRowBinaryDecoder } from '../src/codec.js';
import { ChwireDecodeError } from '../src/errors.js';
import { RowStreamImpl, type OpenedQuery } from '../src/client/row-stream.js';
import type { TransportResponse } from '../src/transport/types.js';
import { engineBytes } from './support/engine.js';

const ROWS = 5000;
const bytes = await engineBytes(`SELECT number AS n, toString(number * 7) AS s FROM numbers(${ROWS})`, 'RowBinaryWithNamesAndTypes');

interface Probe { cancels: number; releases: number; pulled: number }

/** A stream over `bytes` cut into `size`-byte chunks (the last chunk may stop at `limit`). */
function streamOf(size: number, limit = bytes.length, fail?: Error): { s: RowStreamImpl<{ n: bigint; s: string }>; probe: Probe } {
  const probe: Probe = { cancels: 0, releases: 0, pulled: 0 };
  async function* body(): AsyncGenerator<Uint8Array> {
    for (let at = 0; at < limit; at += size) {
      probe.pulled++;
      yield bytes.subarray(at, Math.min(at + size, limit));
    }
    if (fail !== undefined) throw fail;
  }
  const response: TransportResponse = {
    queryId: 'q', summary: undefined, timezone: undefined, body: body(),
    tailText: () => '', cancel: () => { probe.cancels++; },
  };
  const open = async (): Promise<OpenedQuery<{ n: bigint; s: string }>> => ({
    response, decoder: createRowBinaryDecoder() as never, release: () => { probe.releases++; },
  });
  return { s: new RowStreamImpl(open, 'q'), probe };
}

function expectRow(r: { n: bigint; s: string } | undefined, k: number): void {
  assert.ok(r !== undefined && r.n === BigInt(k) && r.s === String(k * 7), `row ${k}: ${String(r?.n)} ${r?.s}`);
}

test('for await yields every row in order, over chunks that complete many, one or no rows', async () => {
  for (const size of [1, 7, 4096, bytes.length]) {
    const { s, probe } = streamOf(size);
    let k = 0;
    for await (const r of s) expectRow(r, k++);
    assert.equal(k, ROWS, `chunk size ${size}`);
    assert.equal(probe.releases, 1);
  }
});

test('overlapping next() calls resolve in order and lose no row', async () => {
  const { s } = streamOf(333);
  const it = s[Symbol.asyncIterator]();
  const results = await Promise.all(Array.from({ length: ROWS + 3 }, () => it.next()));
  for (let k = 0; k < ROWS; k++) {
    assert.equal(results[k]!.done, false);
    expectRow(results[k]!.value, k);
  }
  for (let k = ROWS; k < ROWS + 3; k++) assert.equal(results[k]!.done, true);
});

test('leaving the loop early stops pulling the body and releases the connection once', async () => {
  const { s, probe } = streamOf(100);
  let k = 0;
  for await (const r of s) {
    expectRow(r, k);
    if (++k === 50) break;
  }
  assert.equal(probe.releases, 1);
  assert.ok(probe.cancels >= 1);
  assert.ok(probe.pulled < bytes.length / 100 / 2, `pulled ${probe.pulled} chunks after an early break`);
});

test('an error from the body reaches the loop after the rows before it; later next() is done', async () => {
  const { s, probe } = streamOf(4096, bytes.length, new Error('connection reset'));
  const it = s[Symbol.asyncIterator]();
  let k = 0;
  await assert.rejects(async () => {
    for (;;) {
      const r = await it.next();
      if (r.done === true) break;
      expectRow(r.value, k++);
    }
  }, /connection reset/);
  assert.equal(k, ROWS);
  assert.equal(probe.releases, 1);
  assert.deepEqual(await it.next(), { value: undefined, done: true });
});

test('a body cut in the middle of a row is a ChwireDecodeError, never a short result', async () => {
  const { s } = streamOf(1000, bytes.length - 3);
  let k = 0;
  await assert.rejects(async () => { for await (const r of s) expectRow(r, k++); }, ChwireDecodeError);
  assert.ok(k < ROWS);
});
