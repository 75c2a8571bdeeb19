// The Insert types `chwire gen` writes promise that columns with a default may be left out: insert()
// keeps that promise by sending only the columns the first row gives (plus those without a
// default), so the server writes DEFAULT / EPHEMERAL-derived values, a Nullable column with a
// DEFAULT gets its default (not NULL), and LowCardinality(Nullable) is optional. Rows that disagree
// with the first row fail naming the row and the column. On the engine (chdb://) and on 18.16.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, ChwireEncodeError, type Client } from '../src/index.js';
import { emitModule } from '../src/gen/emit.js';
import { describeQuery, describeTable } from '../src/gen/describe.js';
import { SKIP_REAL, realClient, uniqueName } from './support/ch-server.js';

async function leftOutDefaults(client: Client, table: string, ephemeral: boolean): Promise<void> {
  // 18.16 (no EPHEMERAL) needs a setting for LowCardinality columns.
  const settings: Record<string, number> = ephemeral ? {} : { allow_experimental_low_cardinality_type: 1 };
  await client.execute(`CREATE TABLE ${table} (id UInt64, flag UInt8 DEFAULT 7, event_id UUID DEFAULT generateUUIDv4(), ${ephemeral ? "raw String EPHEMERAL '', len UInt64 DEFAULT length(raw)," : ''} note Nullable(String) DEFAULT 'dflt', lc LowCardinality(Nullable(String)), plain Nullable(String), m UInt8 MATERIALIZED id + 1, a UInt8 ALIAS 2) ENGINE = Memory`, { settings });
  await client.insert(table, [{ id: 1 }, { id: 2 }]);
  await client.insert(table, [{ id: 3, flag: 1, note: null, plain: 'p', lc: 'l', ...(ephemeral ? { raw: 'abcd' } : {}) }]);
  const rows = await client.fetch<Record<string, unknown>>(`SELECT id, flag, event_id != toUUID('00000000-0000-0000-0000-000000000000') AS has_uuid, ${ephemeral ? 'len,' : ''} note, lc, plain, m FROM ${table} ORDER BY id`);
  const len = (n: number): Record<string, unknown> => (ephemeral ? { len: BigInt(n) } : {});
  assert.deepEqual(rows.map((r) => ({ ...r })), [
    { id: 1n, flag: 7, has_uuid: 1, ...len(0), note: 'dflt', lc: null, plain: null, m: 2 },
    { id: 2n, flag: 7, has_uuid: 1, ...len(0), note: 'dflt', lc: null, plain: null, m: 3 },
    { id: 3n, flag: 1, has_uuid: 1, ...len(4), note: null, lc: 'l', plain: 'p', m: 4 },
  ]);

  // A later row gives a column the first row left out: refused, naming row and column; nothing inserted.
  await assert.rejects(client.insert(table, [{ id: 10 }, { id: 11, flag: 0 }]), (e: unknown) => {
    assert.ok(e instanceof ChwireEncodeError, String(e));
    assert.equal(e.column, 'flag');
    assert.equal(e.row, 1);
    assert.match(e.message, /the first row of this insert left "flag" out/);
    return true;
  });
  // A later row leaves out a Nullable column with a default that the first row gave: refused (not NULL).
  await assert.rejects(client.insert(table, (function* () { yield { id: 12, note: 'x' }; yield { id: 13 }; })()), (e: unknown) => {
    assert.ok(e instanceof ChwireEncodeError, String(e));
    assert.equal(e.column, 'note');
    assert.equal(e.row, 1);
    return true;
  });
  assert.deepEqual([...await client.fetch(`SELECT count() AS c FROM ${table} WHERE id >= 10`)], [{ c: 0n }]);
}

test('insert() leaves columns with a default to the server (engine): DEFAULT, EPHEMERAL, Nullable DEFAULT, LowCardinality(Nullable)', { timeout: 60_000 }, async () => {
  const client = createClient({ url: 'chdb://' });
  const table = uniqueName('gen_ins');
  try {
    await leftOutDefaults(client, table, true);
    // The generated Insert type says the same: every column with a default, and LowCardinality(Nullable), is optional.
    const mod = emitModule({ options: {}, tables: [{ table, columns: await describeTable(client, table), result: await describeQuery(client, `SELECT * FROM ${table}`) }], queries: [] });
    const insert = mod.ts.slice(mod.ts.indexOf('Insert {'), mod.ts.indexOf('}', mod.ts.indexOf('Insert {')));
    assert.match(insert, /readonly id: /);
    for (const c of ['flag', 'event_id', 'raw', 'len', 'note', 'lc', 'plain']) assert.match(insert, new RegExp(`readonly ${c}\\?: `), c);
    assert.doesNotMatch(insert, /readonly (m|a)\b/);
  } finally {
    await client.execute(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
    await client.close();
  }
});

test('insert() leaves columns with a default to the server (18.16)', { skip: SKIP_REAL, timeout: 60_000 }, async () => {
  const client = realClient();
  const table = uniqueName('gen_ins');
  try {
    await leftOutDefaults(client, table, false);
  } finally {
    await client.execute(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
    await client.close();
  }
});
