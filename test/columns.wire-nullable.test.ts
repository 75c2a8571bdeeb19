// `wire: false` gives arrays of values for every Nullable column kind, numbers included (issue 17,
// docs item: Nullable(Float64) stayed a { kind: 'nullable' } object while the docs said values):
// each such column equals what fetch gives for the same query. With the default (wire: true)
// Nullable numbers stay { kind: 'nullable', values, nulls }. On the engine and on 18.16.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, type Client } from '../src/index.js';
import { realClient, SKIP_REAL } from './support/ch-server.js';

const c = createClient({ url: 'chdb://' });
after(() => c.close());

const KINDS = ['Float64', 'Float32', 'Int8', 'UInt16', 'Int32', 'UInt32', 'Int64', 'UInt64', 'Date', 'DateTime', 'Decimal(9, 2)', 'Decimal(18, 4)', 'String'];
const MODERN = ['IPv4', 'Date32', "DateTime64(3, 'UTC')", 'Time', 'Decimal(38, 5)'];

function sql(kinds: string[]): string {
  const cols = kinds.map((k, i) => `CAST(if(number % 3 = 1, NULL, ${k.startsWith('IPv4') ? 'toIPv4(number)' : k === 'String' ? 'toString(number)' : k === 'Time' ? 'toTime(number)' : 'number'}), 'Nullable(${k.replace(/'/g, "\\'")})') AS c${i}`);
  return `SELECT ${cols.join(', ')} FROM system.numbers LIMIT 10`;
}

async function check(client: Client, kinds: string[]): Promise<void> {
  const q = sql(kinds);
  const rows = await client.fetch<unknown[]>(q, { rows: 'array' });
  const values = await client.fetchColumns(q, { wire: false });
  const wired = await client.fetchColumns(q);
  for (const [i, k] of kinds.entries()) {
    const col = values.columns[i]!;
    assert.ok(Array.isArray(col), `Nullable(${k}) with wire: false is an array of values`);
    assert.deepEqual(col, rows.map((r) => r[i]), `Nullable(${k}): the values fetch gives`);
    assert.ok(col.includes(null));
    if (k !== 'String' && k !== 'Decimal(38, 5)') assert.equal((wired.columns[i] as { kind?: string }).kind, 'nullable', `Nullable(${k}) by default`);
  }
}

test('wire: false on every Nullable column kind (engine)', async () => {
  await check(c, [...KINDS, ...MODERN]);
});

test('wire: false on every Nullable column kind (18.16)', { skip: SKIP_REAL }, async () => {
  const rc = realClient();
  try {
    await check(rc, KINDS);
  } finally {
    await rc.close();
  }
});
