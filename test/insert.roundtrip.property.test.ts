// What fetch returns inserts back (issue 26, item 5): for each type, random values made by the
// engine itself (generateRandom, seeded by fast-check) are fetched under the default options,
// inserted into a second table of the same column type, and fetched again: the same rows, unless
// the type is in the documented table of lossy defaults (src/plan/mapping.ts LOSSY_DEFAULTS,
// rendered into docs/types.md), and then the same rows under the option that table names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createClient, type Client } from '../src/index.js';
import { LOSSY_DEFAULTS } from '../src/plan/mapping.js';
import { uniqueName } from './support/ch-server.js';

const TYPES: { type: string; lossy?: string }[] = [
  { type: 'Int8' }, { type: 'UInt64' }, { type: 'Int128' }, { type: 'UInt256' },
  { type: 'Float32' }, { type: 'Float64' }, { type: 'Decimal(38, 10)' }, { type: 'Decimal(9, 3)' },
  { type: 'Bool' }, { type: 'Date' }, { type: 'Date32' }, { type: "DateTime('Asia/Tokyo')" }, { type: 'DateTime' },
  { type: "DateTime64(3, 'UTC')" }, { type: "DateTime64(6, 'America/New_York')", lossy: 'datetime64' }, { type: 'DateTime64(9)', lossy: 'datetime64' },
  { type: 'String', lossy: 'strings' }, { type: 'FixedString(3)', lossy: 'strings' },
  { type: 'UUID' }, { type: 'IPv4' }, { type: 'IPv6' }, { type: "Enum8('a' = 1, 'b' = -3)" },
  { type: 'Nullable(Int32)' }, { type: 'LowCardinality(Nullable(String))', lossy: 'strings' }, { type: 'Array(Nullable(Int64))' },
  { type: 'Tuple(a UInt8, b Date)' }, { type: 'Tuple(Int16, Float64)' },
  { type: 'Map(UInt16, Int8)' }, { type: 'Map(Bool, UInt8)' }, { type: 'Map(Array(UInt8), Int32)' },
  { type: 'Map(Tuple(UInt8, Int16), UInt8)' }, { type: 'Map(Float64, UInt8)' }, { type: 'Map(Date, Array(UInt8))' },
  { type: 'Map(UUID, Map(Int8, UInt8))' }, { type: 'Map(String, UInt8)', lossy: 'string-keys' },
];

async function roundTrip(c: Client, type: string, seed: number, options: Record<string, string>): Promise<void> {
  const [a, b] = [uniqueName('rt_a'), uniqueName('rt_b')];
  await c.execute(`CREATE TABLE ${a} (id UInt32, v ${type}) ENGINE = Memory`);
  await c.execute(`CREATE TABLE ${b} (id UInt32, v ${type}) ENGINE = Memory`);
  try {
    await c.execute(`INSERT INTO ${a} SELECT rowNumberInAllBlocks(), v FROM generateRandom('v ${type.replace(/'/g, "\\'")}', ${seed}, 6, 3) LIMIT 12`);
    const first = await c.fetch(`SELECT id, v FROM ${a} ORDER BY id`, options);
    await c.insert(b, first);
    const again = await c.fetch(`SELECT id, v FROM ${b} ORDER BY id`, options);
    assert.deepEqual(again, first, `${type}, seed ${seed}, options ${JSON.stringify(options)}`);
  } finally {
    await c.execute(`DROP TABLE IF EXISTS ${a}`);
    await c.execute(`DROP TABLE IF EXISTS ${b}`);
  }
}

test('fetch → insert → fetch is the identity under the default options, or the type is a documented lossy default and its option is', { timeout: 120_000 }, async () => {
  const c = createClient({ url: 'chdb://' });
  try {
    await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 31 }), async (seed) => {
      for (const { type, lossy } of TYPES) {
        if (lossy === undefined) { await roundTrip(c, type, seed, {}); continue; }
        const row = LOSSY_DEFAULTS.find((r) => r.key === lossy);
        assert.ok(row !== undefined, `${type}: ${lossy} is in the documented table`);
        await roundTrip(c, type, seed, row.options);
      }
    }), { numRuns: 4 });
  } finally {
    await c.close();
  }
});

test("the issue's cases: Bool, Array and Tuple map keys of maps: 'object' insert back; DateTime64(6) with datetime: 'string'", { timeout: 60_000 }, async () => {
  const c = createClient({ url: 'chdb://' });
  const t = uniqueName('rt_issue');
  try {
    await c.execute(`CREATE TABLE ${t} (b Map(Bool, UInt8), a Map(Array(String), UInt8), p Map(Tuple(UInt8, String), UInt8), f Map(Float64, UInt8), d DateTime64(6, 'UTC')) ENGINE = Memory`);
    await c.execute(`INSERT INTO ${t} VALUES (map(true, 1, false, 2), map(['x,y', 'it''s'], 1, [], 2), map((1, 'x'), 1), map(-0., 1, 0., 2), '2024-01-02 03:04:05.123456')`);
    const rows = await c.fetch(`SELECT b, a, p, f FROM ${t}`);
    assert.deepEqual(rows[0]!['a'], { "['x,y','it\\'s']": 1, '[]': 2 });
    await c.insert(t, rows, { columns: ['b', 'a', 'p', 'f'] });
    const back = await c.fetch(`SELECT b, a, p, f FROM ${t}`);
    assert.deepEqual(back[1], back[0]);
    assert.deepEqual(back[1]!['f'], { '-0': 1, '0': 2 });
    const exact = await c.fetch(`SELECT d FROM ${t} LIMIT 1`, { datetime: 'string' });
    await c.insert(t, exact, { columns: ['d'] });
    assert.deepEqual(await c.fetch(`SELECT toString(d) AS s FROM ${t} ORDER BY d DESC LIMIT 1`), [{ s: '2024-01-02 03:04:05.123456' }]);
  } finally {
    await c.execute(`DROP TABLE IF EXISTS ${t}`);
    await c.close();
  }
});
