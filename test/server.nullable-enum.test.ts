// Nullable(Enum8/16) read as Native from 18.16: the server writes its column default (code 0, which
// these enums do not list) under each NULL. A code under a NULL is no value, so every read path
// (fetch, stream, batches, fetchColumns, inside an Array) gives null there and the label elsewhere,
// the values the server's own JSONEachRow gives for the same rows; a listed code stays checked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SKIP_REAL, realClient, uniqueName } from './support/ch-server.js';

const E8 = "Enum8('a' = 1, 'b' = 2, 'z' = -5)";
const E16 = "Enum16('x' = 300, 'y' = -300)";

test('Nullable(Enum8/16) with NULLs from 18.16: every read path gives null under a NULL and the label elsewhere, as the server\'s JSON does', { skip: SKIP_REAL }, async () => {
  const c = realClient();
  const table = uniqueName('nullable_enum');
  try {
    await c.execute(`CREATE TABLE ${table} (i UInt32, e8 Nullable(${E8}), e16 Nullable(${E16}), a Array(Nullable(${E8}))) ENGINE = Memory`);
    await c.execute(`INSERT INTO ${table} VALUES (1, NULL, 'x', [NULL, 'a']), (2, 'b', NULL, []), (3, 'z', 'y', [NULL]), (4, NULL, NULL, ['z', NULL, 'b'])`);
    const sql = `SELECT e8, e16, a FROM ${table} ORDER BY i`;
    // The oracle: the server's own JSON of the same rows.
    let text = '';
    for await (const chunk of c.streamRaw(sql, { format: 'JSONEachRow' })) text += Buffer.from(chunk).toString('utf8');
    const expected = text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(expected.length, 4);
    assert.deepEqual(expected[0], { e8: null, e16: 'x', a: [null, 'a'] });

    assert.deepEqual(await c.fetch(sql), expected);
    const streamed: unknown[] = [];
    for await (const row of c.stream(sql)) streamed.push(row);
    assert.deepEqual(streamed, expected);
    const batched: unknown[] = [];
    for await (const batch of c.stream(sql).batches()) batched.push(...batch);
    assert.deepEqual(batched, expected);
    const cols = await c.fetchColumns(sql);
    assert.deepEqual(cols.columns.map((col) => Array.from(col as ArrayLike<unknown>)), ['e8', 'e16', 'a'].map((k) => expected.map((r) => r[k])));
  } finally {
    await c.execute(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
    await c.close();
  }
});
