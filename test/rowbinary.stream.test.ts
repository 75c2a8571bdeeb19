// The chunked decoder's contract (src/stream-decoder.ts): rows as soon as they are complete, the
// header split anywhere, only the incomplete tail kept (as a copy), bytes copied O(1) times each
// when one value spans many chunks, and a truncated body reported at end().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { createRowBinaryDecoder, decodeRowBinary, ChwireDecodeError, ChwireConfigError, type TypeNode } from '../src/codec.js';
import { writeBody } from './support/rowbinary-writer.js';
import { engineBytes } from './support/engine.js';

const enc = new TextEncoder();

test('rows come out of the push that completes them; columns appear once the header is in', () => {
  const cols = [{ name: 'n', type: { kind: 'UInt32' } as TypeNode }, { name: 's', type: { kind: 'String' } as TypeNode }];
  const bytes = writeBody(cols, [[1n, enc.encode('a')], [2n, enc.encode('bb')]]);
  const h = writeBody(cols, []).length;
  const d = createRowBinaryDecoder({ rows: 'array' });
  assert.equal(d.columns, undefined);
  assert.deepEqual(d.push(bytes.subarray(0, h - 1)), []);
  assert.equal(d.columns, undefined);
  assert.deepEqual(d.push(bytes.subarray(h - 1, h + 6)), [[1, 'a']]);
  assert.deepEqual(d.columns, [{ name: 'n', type: 'UInt32' }, { name: 's', type: 'String' }]);
  assert.equal(d.rowCount, 1);
  assert.deepEqual(d.push(bytes.subarray(h + 6)), [[2, 'bb']]);
  d.end();
  assert.equal(d.bytesIn, bytes.length);
  assert.equal(d.rowCount, 2);
  assert.throws(() => d.push(new Uint8Array(1)), ChwireConfigError);
});

test('a body with a header and no rows is fine; an empty or header-truncated body is not', () => {
  const d = createRowBinaryDecoder();
  assert.deepEqual(d.push(writeBody([{ name: 'a', type: { kind: 'UInt8' } }], [])), []);
  d.end();
  const e = createRowBinaryDecoder();
  assert.throws(() => e.end(), ChwireDecodeError);
  const f = createRowBinaryDecoder();
  f.push(Uint8Array.of(1, 1));
  assert.throws(() => f.end(), (err: unknown) => err instanceof ChwireDecodeError && /truncated header/.test(err.message) && err.offset === 2);
});

test('a 16 MiB string in 64 KiB chunks: one decode attempt once complete, bytes copied O(1) times', () => {
  const size = 16 << 20;
  const big = new Uint8Array(size).fill(0x61);
  const cols = [{ name: 's', type: { kind: 'String' } as TypeNode }, { name: 'n', type: { kind: 'UInt8' } as TypeNode }];
  const bytes = writeBody(cols, [[big, 7n], [enc.encode('x'), 8n]]);
  const d = createRowBinaryDecoder({ strings: 'bytes' });
  const rows: unknown[] = [];
  const t0 = performance.now();
  let pushesWithRows = 0;
  for (let at = 0; at < bytes.length; at += 65536) {
    const got = d.push(bytes.subarray(at, at + 65536));
    if (got.length > 0) pushesWithRows++;
    rows.push(...got);
  }
  d.end();
  const ms = performance.now() - t0;
  assert.equal(rows.length, 2);
  assert.equal(((rows[0] as Record<string, Uint8Array>).s).length, size);
  assert.ok(((rows[0] as Record<string, Uint8Array>).s).every((b) => b === 0x61));
  assert.equal((rows[1] as Record<string, unknown>).n, 8);
  assert.equal(pushesWithRows, 1);
  // 256 chunks; quadratic re-copying would move ~2 GiB. Generous bound for a loaded machine.
  assert.ok(ms < 3000, `took ${ms.toFixed(0)} ms`);
});

test('a row of 300k values arriving in 4 KiB chunks is decoded once, not re-decoded per chunk', () => {
  const n = 300_000;
  const cols = [{ name: 'a', type: { kind: 'Array', element: { kind: 'Tuple', elements: [{ kind: 'String' }, { kind: 'Nullable', inner: { kind: 'UInt32' } }] } } as TypeNode }];
  const values = Array.from({ length: n }, (_, i) => [enc.encode(String(i)), i % 3 === 0 ? null : BigInt(i)]);
  const bytes = writeBody(cols, [[values], [[]]]);
  const d = createRowBinaryDecoder({ rows: 'array' });
  const rows: unknown[][] = [];
  let chunks = 0;
  for (let at = 0; at < bytes.length; at += 4096, chunks++) rows.push(...(d.push(bytes.subarray(at, at + 4096)) as unknown[][]));
  d.end();
  assert.equal(rows.length, 2);
  const a = rows[0]![0] as unknown[][];
  assert.equal(a.length, n);
  assert.deepEqual(a[4], ['4', 4]);
  assert.deepEqual(a[3], ['3', null]);
  assert.ok(chunks > 500);
  const attempts = (d as unknown as { decodeAttempts: number }).decodeAttempts;
  assert.ok(attempts <= 4, `compiled decoder ran ${attempts} times for ${chunks} chunks`);
});

test('strings:bytes are copies: mutating the pushed chunk afterwards changes nothing', () => {
  const cols = [{ name: 's', type: { kind: 'String' } as TypeNode }, { name: 'f', type: { kind: 'FixedString', length: 2 } as TypeNode }];
  const bytes = writeBody(cols, [[enc.encode('abc'), enc.encode('xy')]]);
  const chunk = bytes.slice();
  const d = createRowBinaryDecoder({ strings: 'bytes', rows: 'array' });
  const [row] = d.push(chunk) as unknown[][];
  chunk.fill(0);
  d.end();
  assert.deepEqual(row, [enc.encode('abc'), enc.encode('xy')]);
  assert.equal(Object.getPrototypeOf(row![0]), Uint8Array.prototype);
  assert.notEqual((row![0] as Uint8Array).buffer, chunk.buffer);
});

test('engine body split at every byte position, and byte by byte, equals the whole decode', async () => {
  const bytes = await engineBytes(
    "SELECT number AS n, toString(number) AS s, [number, NULL]::Array(Nullable(UInt64)) AS a, map('k', toDateTime64(number, 3, 'UTC')) AS m, CAST(number % 2, 'Enum8(\\'x\\' = 0, \\'y\\' = 1)') AS e, toDecimal64(number / 7, 4) AS d FROM numbers(5)",
    'RowBinaryWithNamesAndTypes',
  );
  const whole = decodeRowBinary(bytes).rows;
  for (let cut = 0; cut <= bytes.length; cut++) {
    const d = createRowBinaryDecoder();
    const a = bytes.slice(0, cut);
    const b = bytes.slice(cut);
    const rows = [...d.push(a), ...d.push(b)];
    d.end();
    if (!isDeepStrictEqual(rows, whole)) assert.fail(`split at ${cut}`);
  }
  const d = createRowBinaryDecoder();
  const rows: unknown[] = [];
  for (const byte of bytes) rows.push(...d.push(Uint8Array.of(byte)));
  d.end();
  assert.ok(isDeepStrictEqual(rows, whole));
});
