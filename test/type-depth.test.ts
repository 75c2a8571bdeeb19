// Types nested deeply (issue 10, limits): everything the engine returns with its default
// max_parser_depth (an Array nested ~990 levels in a SELECT) decodes on every path, equal to the
// engine's JSON; a type beyond MAX_TYPE_DEPTH (1000) is a ChwireTypeError naming the limit, in
// text headers (RowBinary, Native) and binary type encodings, even 20 000 levels deep: never a
// "corrupt header" ChwireDecodeError and never a stack overflow.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeRowBinary, decodeRowBinaryReference, createRowBinaryDecoder, decodeNative, decodeNativeColumns, readBinaryType, ChwireTypeError } from '../src/codec.js';
import { MAX_TYPE_DEPTH } from '../src/types/parse.js';
import { engineBytes, engineText } from './support/engine.js';
import { writeBody } from './support/rowbinary-writer.js';
import { parseType } from '../src/types/index.js';

const nestedSql = (n: number): string => `SELECT ${'['.repeat(n)}toUInt8(1)${']'.repeat(n)} AS v`;

function everyPath(rb: Uint8Array, nat: Uint8Array): [string, unknown][] {
  const s = createRowBinaryDecoder();
  const streamed = [...s.push(rb.slice(0, 100)), ...s.push(rb.slice(100))] as Record<string, unknown>[];
  s.end();
  return [
    ['rowbinary compiled', (decodeRowBinary(rb).rows[0] as Record<string, unknown>).v],
    ['rowbinary reference', (decodeRowBinaryReference(rb).rows[0] as Record<string, unknown>).v],
    ['rowbinary streamed', streamed[0]!.v],
    ['native rows', (decodeNative(nat).rows[0] as Record<string, unknown>).v],
    ['native columns', (decodeNativeColumns(nat).columns[0] as unknown[])[0]],
  ];
}

for (const n of [100, 300, 450]) {
  test(`an Array nested ${n} levels from the engine decodes on every path`, async () => {
    const sql = nestedSql(n);
    const expected = (JSON.parse(await engineText(sql, 'JSONEachRow')) as { v: unknown }).v;
    for (const [path, v] of everyPath(await engineBytes(sql, 'RowBinaryWithNamesAndTypes'), await engineBytes(sql, 'Native'))) {
      assert.deepEqual(v, expected, path);
    }
  });
}

test('a value nested exactly MAX_TYPE_DEPTH levels decodes (no stack overflow at the limit)', () => {
  let t = 'UInt8';
  let v: unknown = 7;
  let w: unknown = 7n; // the test writer takes integers as bigints
  for (let i = 1; i < MAX_TYPE_DEPTH; i++) { t = `Array(${t})`; v = [v]; w = [w]; }
  const body = writeBody([{ name: 'v', type: parseType(t) }], [[w]]);
  for (const decode of [decodeRowBinary, decodeRowBinaryReference]) {
    assert.deepEqual((decode(body).rows[0] as Record<string, unknown>).v, v);
  }
});

/** A RowBinaryWithNamesAndTypes header (no rows) with one column of type text `type`. */
function rowBinaryHeader(type: string): Uint8Array {
  const t = Buffer.from(type);
  const len = (n: number): number[] => { const out: number[] = []; while (n >= 0x80) { out.push((n & 0x7f) | 0x80); n = Math.floor(n / 128); } out.push(n); return out; };
  return Uint8Array.from([1, 1, 0x76, ...len(t.length), ...t]);
}

/** A Native block with one column of type text `type` and no rows. */
function nativeHeader(type: string): Uint8Array {
  const t = Buffer.from(type);
  const len = (n: number): number[] => { const out: number[] = []; while (n >= 0x80) { out.push((n & 0x7f) | 0x80); n = Math.floor(n / 128); } out.push(n); return out; };
  return Uint8Array.from([1, 0, 1, 0x76, ...len(t.length), ...t]);
}

const tooDeep = (e: unknown): boolean => e instanceof ChwireTypeError && /deeper than 1000 levels/.test(e.message) && /MAX_TYPE_DEPTH/.test(e.message) && e.message.length < 600;

for (const n of [MAX_TYPE_DEPTH + 1, 20_000]) {
  test(`a type nested ${n} levels is a ChwireTypeError naming the limit on every path`, () => {
    const type = `${'Array('.repeat(n)}UInt8${')'.repeat(n)}`;
    assert.throws(() => decodeRowBinary(rowBinaryHeader(type)), tooDeep);
    assert.throws(() => decodeRowBinaryReference(rowBinaryHeader(type)), tooDeep);
    assert.throws(() => { const d = createRowBinaryDecoder(); d.push(rowBinaryHeader(type)); d.end(); }, tooDeep);
    assert.throws(() => decodeNative(nativeHeader(type)), tooDeep);
    assert.throws(() => decodeNativeColumns(nativeHeader(type)), tooDeep);
    assert.throws(() => parseType(type), tooDeep);
    // The same depth as a binary type encoding (Array = 0x1e).
    const bin = new Uint8Array(n + 1).fill(0x1e);
    bin[n] = 0x01;
    assert.throws(() => readBinaryType(bin, 0, bin.length), tooDeep);
  });
}
