// streamColumns and fetchColumns against the real ClickHouse 18.16 server (CHWIRE_TEST_HTTP_URL):
// one batch per block the server wrote, equal to the rows fetch reads from the same query, the
// zone of a top-level DateTime restored (text headers), typed wire integers, cancel mid-stream.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NativeColumns } from '../src/index.js';
import { SKIP_REAL as skip, realClient } from './support/ch-server.js';
import { cells } from './support/column-cells.js';

const SQL = `SELECT number AS n, toString(number * 7) AS s, toDateTime(1700000000 + number, 'Asia/Tokyo') AS t, toDate(number) AS d,
  toDecimal32(number / 8, 3) AS dec, if(number % 3 = 0, NULL, number / 3) AS nf FROM system.numbers LIMIT 200000`;

function rowsOf(batches: readonly NativeColumns[]): unknown[][] {
  const out: unknown[][] = [];
  for (const b of batches) {
    const cols = b.columns.map((c, k) => cells(c, b.types[k]));
    for (let i = 0; i < b.rowCount; i++) out.push(cols.map((c) => c[i]));
  }
  return out;
}

test('real server: streamColumns gives the server\'s blocks, equal to fetch; fetchColumns too', { skip }, async () => {
  const c = realClient();
  try {
    const expected = [...await c.fetch<unknown[]>(SQL, { rows: 'array', format: 'Native', settings: { max_block_size: 10000 } })];
    const batches: NativeColumns[] = [];
    for await (const b of c.streamColumns(SQL, { settings: { max_block_size: 10000 } })) batches.push(b);
    assert.ok(batches.length >= 20, `${batches.length} batches`);
    assert.ok(batches.every((b) => b.rowCount <= 10000));
    assert.deepEqual(batches[0]!.types, ['UInt64', 'String', "DateTime('Asia/Tokyo')", 'Date', 'Decimal(9, 3)', 'Nullable(Float64)']);
    assert.ok(batches[0]!.columns[2] instanceof Uint32Array && batches[0]!.columns[3] instanceof Uint16Array && batches[0]!.columns[4] instanceof Int32Array);
    assert.deepEqual(rowsOf(batches), expected);
    const whole = await c.fetchColumns(SQL, { strings: 'raw' });
    assert.equal(whole.rowCount, 200000);
    assert.deepEqual(rowsOf([whole]), expected);
    // Left early: the connection is released and the client answers at once.
    const s = c.streamColumns(SQL);
    for await (const _ of s) break;
    assert.equal(await c.fetchValue('SELECT 1 AS x'), 1);
  } finally {
    await c.close();
  }
});
