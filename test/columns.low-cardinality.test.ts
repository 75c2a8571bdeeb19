// LowCardinality columns from fetchColumns / streamColumns (issue 17, item 9): the dictionary holds
// each distinct value once, each used by some row, with `null` for NULL, and row i is
// dictionary[keys[i]] (fetchColumns: one dictionary merged over all blocks; streamColumns: one per
// batch). Before, a 20-host result of many blocks gave the blocks' dictionaries concatenated, with
// the unused "" default and NULL slots and repeats (grouping by key gave phantom groups). Against
// the engine (chdb://) and the 18.16 server, multi-block, Nullable and not.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, type Client } from '../src/index.js';
import { realClient, SKIP_REAL } from './support/ch-server.js';

const c = createClient({ url: 'chdb://' });
after(() => c.close());

// 200 000 rows of 20 hosts, every 7th row NULL in the Nullable column; small blocks: many of them.
const SQL = `SELECT toLowCardinality(concat('host-', toString(number % 20))) AS host,
  toLowCardinality(if(number % 7 = 3, NULL, concat('h', toString(number % 20)))) AS nhost,
  toString(number % 20) AS plain
  FROM system.numbers LIMIT 200000`;
const SETTINGS = { max_block_size: 8192 };

interface Lc { kind: 'lowCardinality'; dictionary: unknown[]; keys: ArrayLike<number>; nulls: Uint8Array | undefined }

function checkColumn(col: unknown, expectNull: boolean, want: (string | null)[]): void {
  const lc = col as Lc;
  assert.equal(lc.kind, 'lowCardinality');
  assert.equal(new Set(lc.dictionary).size, lc.dictionary.length, 'each distinct value once');
  const used = new Set<number>();
  for (let i = 0; i < lc.keys.length; i++) used.add(lc.keys[i]!);
  assert.equal(used.size, lc.dictionary.length, 'every entry used by some row');
  assert.equal(lc.dictionary.includes(null), expectNull, 'NULL is a null entry');
  assert.ok(!lc.dictionary.includes(''), 'no "" default slot');
  const cells = Array.from(lc.keys, (k) => lc.dictionary[k]);
  assert.deepEqual(cells, want);
  if (lc.nulls !== undefined) for (let i = 0; i < cells.length; i++) assert.equal(lc.nulls[i], cells[i] === null ? 1 : 0);
}

async function check(client: Client, sql: string): Promise<void> {
  const rows = await client.fetch<{ host: string; nhost: string | null }>(sql, { settings: SETTINGS });
  const r = await client.fetchColumns(sql, { settings: SETTINGS });
  const host = r.columns[r.names.indexOf('host')]!;
  const nhost = r.columns[r.names.indexOf('nhost')]!;
  checkColumn(host, false, rows.map((x) => x.host));
  checkColumn(nhost, true, rows.map((x) => x.nhost));
  assert.equal((host as Lc).dictionary.length, 20, '20 hosts, 20 entries');
  assert.equal((nhost as Lc).dictionary.length, 21, '20 hosts and NULL');
  // streamColumns: each batch's dictionary is compact for that batch.
  let at = 0;
  let batches = 0;
  for await (const b of client.streamColumns(sql, { settings: SETTINGS })) {
    batches++;
    checkColumn(b.columns[b.names.indexOf('host')], false, rows.slice(at, at + b.rowCount).map((x) => x.host));
    const part = rows.slice(at, at + b.rowCount).map((x) => x.nhost);
    checkColumn(b.columns[b.names.indexOf('nhost')], part.includes(null), part);
    at += b.rowCount;
  }
  assert.equal(at, rows.length);
  assert.ok(batches > 5, `several blocks (${batches})`);
}

test('LowCardinality on chdb://: one merged dictionary of distinct used values, NULL as null', async () => {
  await check(c, SQL);
});

test('LowCardinality on 18.16: the same', { skip: SKIP_REAL }, async () => {
  const rc = realClient();
  try {
    await check(rc, SQL);
  } finally {
    await rc.close();
  }
});
