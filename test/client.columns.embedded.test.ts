// streamColumns and fetchColumns on the embedded engine (chdb://): the batches equal the rows the
// client's own fetch gives for the same query (the engine's values through the row decoder), and
// binary type headers keep zones. Apart from the HTTP tests: a chdb:// session cannot open while
// the test helpers' standalone engine calls run in the same process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, type NativeColumns } from '../src/index.js';
import { cells } from './support/column-cells.js';

const SQL = `SELECT number AS n, toString(number * 7) AS s, toDateTime(1700000000 + number, 'Asia/Tokyo') AS t, toFloat64(number) / 3 AS f
  FROM numbers(5000) SETTINGS max_block_size = 700`;

function rowsOf(batches: readonly NativeColumns[]): unknown[][] {
  const out: unknown[][] = [];
  for (const b of batches) {
    const cols = b.columns.map((c, k) => cells(c, b.types[k]));
    for (let i = 0; i < b.rowCount; i++) out.push(cols.map((c) => c[i]));
  }
  return out;
}

test('streamColumns and fetchColumns on chdb://: the engine\'s rows, binary types keep zones', async () => {
  const c = createClient({ url: 'chdb://' });
  try {
    const expected = [...await c.fetch<unknown[]>(SQL, { rows: 'array' })];
    assert.equal(expected.length, 5000);
    const batches: NativeColumns[] = [];
    for await (const b of c.streamColumns(SQL)) batches.push(b);
    assert.ok(batches.length >= 1);
    assert.deepEqual(rowsOf(batches), expected);
    assert.equal(batches[0]!.types[2], "DateTime('Asia/Tokyo')");
    const whole = await c.fetchColumns(SQL, { strings: 'raw' });
    const s = whole.columns[1]!;
    assert.ok(!Array.isArray(s) && !ArrayBuffer.isView(s) && s.kind === 'strings');
    assert.deepEqual(rowsOf([whole]), expected);
    const stream = c.streamColumns(SQL);
    for await (const _ of stream) { stream.cancel(); }
    assert.equal(await c.fetchValue('SELECT 1 AS x'), 1);
  } finally {
    await c.close();
  }
});

