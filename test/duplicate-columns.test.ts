// Two result columns of one name (issue 25, item 13). ClickHouse returns them for a repeated
// expression (`SELECT a, a`, `SELECT 1 AS a, 1 AS a`; `SELECT 1 AS a, 2 AS a` is its own error), on
// Debian's 18.16 and on the embedded engine alike, and a hostile server can send any header. Object
// rows merged them into one key, silently; now every object-row path refuses the result with a
// ChwireDecodeError naming the column before any row is handed over, and array rows keep both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, ChwireDecodeError, type Client } from '../src/index.js';
import { REAL_URL, SKIP_REAL } from './support/ch-server.js';

const SQLS = ['SELECT 1 AS a, 1 AS a', 'SELECT a, a FROM (SELECT 7 AS a)', 'SELECT number AS n, n FROM numbers(3)'];
const dup = (name: string) => (e: unknown): boolean => e instanceof ChwireDecodeError && e.column === name && e.message.includes(`two columns named "${name}"`) && e.message.includes("{ rows: 'array' }");

const targets: [string, string | false, () => Client][] = [
  ['chdb://', false, () => createClient({ url: 'chdb://' })],
  ['18.16', SKIP_REAL, () => createClient({ url: REAL_URL })],
  ['18.16 Native', SKIP_REAL, () => createClient({ url: REAL_URL })],
];

for (const [kind, skip, make] of targets) {
  test(`${kind}: duplicate column names are refused on fetch, fetchOne and stream; array rows keep both`, { skip }, async () => {
    const c = make();
    const format = kind.endsWith('Native') ? { format: 'Native' as const } : {};
    try {
      for (const sql of SQLS) {
        const name = sql.includes('AS n') ? 'n' : 'a';
        await assert.rejects(c.fetch(sql, format), dup(name), `fetch ${sql}`);
        await assert.rejects(c.fetchOne(sql, format), dup(name), `fetchOne ${sql}`);
        const got: unknown[] = [];
        const gotBatches: unknown[] = [];
        await assert.rejects((async () => { for await (const r of c.stream(sql, format)) got.push(r); })(), dup(name), `stream ${sql}`);
        assert.deepEqual(got, [], 'no row handed over');
        await assert.rejects((async () => { for await (const b of c.stream(sql, format).batches()) gotBatches.push(b); })(), dup(name), `batches ${sql}`);
        assert.deepEqual(gotBatches, []);
      }
      assert.deepEqual(await c.fetch('SELECT 1 AS a, 1 AS a', { ...format, rows: 'array' }), [[1, 1]]);
      assert.equal(await c.fetchValue('SELECT 7 AS a, 7 AS a', format), 7);
      // Distinct names (a join's y.a) are untouched.
      assert.deepEqual(await c.fetch('SELECT x.a, y.a FROM (SELECT 1 AS a) AS x CROSS JOIN (SELECT 2 AS a) AS y', format), [{ a: 1, 'y.a': 2 }]);
    } finally {
      await c.close();
    }
  });
}
