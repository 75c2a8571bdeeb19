// Smoke test of the test set-up itself: the engine answers and the golden fixtures are readable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engineBytes } from './support/engine.js';
import { fixtureIndex, fixtureBytes } from './support/fixtures.js';

test('the embedded engine returns RowBinaryWithNamesAndTypes bytes', async () => {
  const b = await engineBytes('SELECT toUInt8(1) AS a', 'RowBinaryWithNamesAndTypes');
  assert.deepEqual([...b], [1, 1, 0x61, 5, ...Buffer.from('UInt8'), 1]);
});

test('golden fixtures are present', () => {
  const idx = fixtureIndex();
  assert.ok(idx.cases.length >= 40);
  assert.ok(fixtureBytes('ints_min_max', 'rowbinary').length > 0);
});
