// Composite columns of a stream (Array, Nullable, Map, Tuple) are read part by part as their bytes
// arrive (src/native/read/resume-steps.ts): the same rows as a whole-body decode for every chunk
// size, prefixes (LowCardinality inside Array) and NULLs inside arrays included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createNativeDecoder, decodeNative } from '../src/native/index.js';
import { engineBytes } from './support/engine.js';

const COLUMNS = [
  "arrayMap(x -> concat('tag', toString((number + x) % 50)), range(number % 4)) AS tags",
  "if(number % 3 = 0, NULL, concat('note ', toString(number))) AS note",
  "map('a', toString(number), 'b', toString(number % 7)) AS m",
  "tuple(toString(number), number % 100) AS t",
  'arrayMap(x -> range(x % 3), range(number % 3)) AS aa',
  "arrayMap(x -> toLowCardinality(toString(x)), range(number % 3)) AS alc",
  "arrayMap(x -> if(x = 1, NULL, toString(x)), range(number % 3)) AS an",
];

function streamed(body: Uint8Array, chunk: number): unknown[] {
  const d = createNativeDecoder();
  const rows: unknown[] = [];
  for (let at = 0; at < body.length; at += chunk) for (const r of d.push(body.subarray(at, at + chunk))) rows.push(r);
  d.end();
  return rows;
}

test('Native stream: composite columns fed in small chunks give the rows of the whole body', async () => {
  const body = await engineBytes(`SELECT number AS id, ${COLUMNS.join(', ')} FROM numbers(3000)`, 'Native');
  const whole = decodeNative(body).rows;
  assert.equal(whole.length, 3000);
  for (const chunk of [1, 7, 64, 4096]) assert.deepEqual(streamed(body, chunk), whole, `chunks of ${chunk} bytes`);
});

