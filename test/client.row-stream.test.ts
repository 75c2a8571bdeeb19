// The row iterator of RowStreamImpl (src/client/read/row-stream.ts) on its own, fed by a scripted
// response and a real decoder (RowBinaryWithNamesAndTypes bytes from the embedded engine): rows in
// order across batches and chunks that complete no row, overlapping next() calls that must not
// reorder or lose rows, early return() releasing the connection exactly once, errors reaching the
// caller, a body cut mid-row failing instead of ending short, and (without exception framing) no
// row made from an exception's text appended after the data. Also fetch's join of its batches
// (joinBatches): every row once, in order, however many batches (one concat level or two).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRowBinaryDecoder } from '../src/codec.js';
import { ChwireDecodeError, ChwireServerError } from '../src/errors.js';
import { RowStreamImpl, joinBatches, type OpenedQuery } from '../src/client/read/row-stream.js';
import type { TransportResponse } from '../src/transport/types.js';
import { engineBytes } from './support/engine.js';

const ROWS = 5000;
const bytes = await engineBytes(`SELECT number AS n, toString(number * 7) AS s FROM numbers(${ROWS})`, 'RowBinaryWithNamesAndTypes');

interface Probe { cancels: number; releases: number; pulled: number }

/**
 * A stream over `data` (default: the engine's rows) cut into `size`-byte chunks (the last chunk may
 * stop at `limit`). `framed`: the response says exceptions cannot appear among the data (a 25.11+
 * server); otherwise the stream holds the body's last 16 KiB back until it has ended.
 */
function streamOf(size: number, limit = bytes.length, fail?: Error, framed = true, data: Uint8Array = bytes): { s: RowStreamImpl<{ n: bigint; s: string }>; probe: Probe } {
  const probe: Probe = { cancels: 0, releases: 0, pulled: 0 };
  async function* body(): AsyncGenerator<Uint8Array> {
    for (let at = 0; at < limit; at += size) {
      probe.pulled++;
      yield data.subarray(at, Math.min(at + size, limit));
    }
    if (fail !== undefined) throw fail;
  }
  const response: TransportResponse = {
    queryId: 'q', summary: undefined, timezone: undefined, body: body(),
    tailText: () => Buffer.from(data.subarray(Math.max(0, limit - 16384), limit)).toString('utf8'),
    cancel: () => { probe.cancels++; }, exceptionsFramed: framed,
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

test('without exception framing, no row is made from an exception appended after the data', async () => {
  // Clean end: every row, whatever the chunking (the last 16 KiB are decoded once the body ended).
  for (const size of [1000, 65536]) {
    const { s } = streamOf(size, bytes.length, undefined, false);
    let k = 0;
    for await (const r of s) expectRow(r, k++);
    assert.equal(k, ROWS);
  }
  // An 18.16-style exception after a cut mid-row: the text would decode as rows (a UInt64 and a
  // String) if it reached the decoder; it does not, and the loop ends in ChwireServerError.
  const cut = bytes.length - 20000;
  const text = Buffer.from(`Code: 241, e.displayText() = DB::Exception: Memory limit (for query) exceeded: would use 9.31 GiB, e.what() = DB::Exception\n`);
  const data = Buffer.concat([bytes.subarray(0, cut), text]);
  for (const size of [1000, 65536]) {
    const { s, probe } = streamOf(size, data.length, undefined, false, data);
    let k = 0;
    await assert.rejects(async () => { for await (const r of s) expectRow(r, k++); }, (e: unknown) => e instanceof ChwireServerError && e.serverCode === 241);
    // Rows stream before the error (those more than 16 KiB from the end), all of them genuine.
    assert.ok(k < ROWS && (size > data.length || k > 0), `${k} rows before the error`);
    assert.equal(probe.releases, 1);
  }
});

test('without exception framing, rows still arrive while the body trickles (only a Code: prefix waits)', { timeout: 10_000 }, async () => {
  // The body's next chunk is produced only after the consumer has seen rows of the previous one.
  let seen = 0;
  let wake: (() => void) | undefined;
  async function* body(): AsyncGenerator<Uint8Array> {
    for (let at = 0; at < bytes.length; at += 2000) {
      yield bytes.subarray(at, Math.min(at + 2000, bytes.length));
      if (at + 2000 < bytes.length) await new Promise<void>((r) => { wake = r; });
    }
  }
  const response: TransportResponse = {
    queryId: 'q', summary: undefined, timezone: undefined, body: body(),
    tailText: () => '', cancel: () => undefined, exceptionsFramed: false,
  };
  const s = new RowStreamImpl<{ n: bigint; s: string }>(async () => ({ response, decoder: createRowBinaryDecoder() as never, release: () => undefined }), 'q');
  const timer = setInterval(() => { if (seen > 0 && wake !== undefined) { const w = wake; wake = undefined; w(); } }, 1);
  try {
    let k = 0;
    for await (const r of s) { expectRow(r, k++); seen++; }
    assert.equal(k, ROWS);
  } finally {
    clearInterval(timer);
  }
});

test('a body cut in the middle of a row is a ChwireDecodeError, never a short result', async () => {
  const { s } = streamOf(1000, bytes.length - 3);
  let k = 0;
  await assert.rejects(async () => { for await (const r of s) expectRow(r, k++); }, ChwireDecodeError);
  assert.ok(k < ROWS);
});

test("fetch's batches joined: every row once and in order, from one batch to thousands (two concat levels)", async () => {
  // 1-byte chunks: each completes at most one row, so 5 000 rows arrive in ~5 000 batches (> 1 024).
  for (const size of [1, 7, 4096, bytes.length]) {
    const { s } = streamOf(size);
    const batches: { n: bigint; s: string }[][] = [];
    for await (const b of s.eagerBatches()) batches.push(b);
    const rows = joinBatches(batches);
    assert.equal(rows.length, ROWS, `chunk size ${size}, ${batches.length} batches`);
    rows.forEach(expectRow);
    if (size === 1) assert.ok(batches.length > 1024, `${batches.length} batches`);
  }
  // Rows that are arrays stay rows (concat spreads the batches, never the rows in them).
  const arrays = Array.from({ length: 2500 }, (_, k) => [[k, 'x'], [k, 'y']]);
  const joined = joinBatches(arrays);
  assert.equal(joined.length, 5000);
  assert.deepEqual(joined[4999], [2499, 'y']);
  assert.deepEqual(joinBatches([]), []);
  const one = [[1]];
  assert.equal(joinBatches([one]), one, 'one batch is the result itself');
});
