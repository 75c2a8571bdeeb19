// chwire/kysely against real servers: the embedded 26.7 engine (typed {pN:Type} parameters) and
// the 18.16 server (no parameters: sqlLiteral), the same suite on both. Hostile strings go through
// every position a value takes (where, in-lists, select expressions, insert values, update set)
// and come back unchanged; ids, money and dates stay exact; what ClickHouse has no form for is
// refused by name.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Kysely, sql, type Generated } from 'kysely';
import { createClient, type Client } from '../src/index.js';
import { ChwireDialect, ch } from '../src/kysely.js';
import { ChwireConfigError } from '../src/errors.js';
import { REAL_URL, SKIP_REAL, uniqueName } from './support/ch-server.js';

interface Events { id: bigint; kind: string; note: string | null; amount: string; at: Date; tags: string[]; n: Generated<number> }
interface DB { [table: string]: Events }

const HOSTILE = fc.oneof(
  fc.constantFrom("x\\' OR 1=1 --", "'", '\\', "\\'", '}', '{', '{p0:String}', '\0', '\u2028', '`', '"', '$1', '?', "' OR ''='", '\n--', '/*', '*/'),
  fc.string({ unit: 'binary', maxLength: 12 }),
);

const SERVERS: [string, () => Client, string | false][] = [
  ['the embedded engine (parameters)', () => createClient({ url: 'chdb://' }), false],
  ['18.16 (literals)', () => createClient({ url: REAL_URL, requestTimeout: 60_000 }), SKIP_REAL],
];

for (const [label, make, skip] of SERVERS) {
  test(`chwire/kysely on ${label}`, { skip, timeout: 120_000 }, async (t) => {
    const client = make();
    const db = new Kysely<DB>({ dialect: new ChwireDialect({ client }) });
    const table = uniqueName('kysely_events');
    after(async () => { await client.execute(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined); await db.destroy(); await client.close(); });
    await client.execute(`CREATE TABLE ${table} (id UInt64, kind String, note Nullable(String), amount Decimal(18, 4), at DateTime('UTC'), tags Array(String), n Int32 DEFAULT 7) ENGINE = MergeTree ORDER BY id`);

    await t.test('insertInto(…).values(…) is a Native insert; ids, money and dates come back exact', async () => {
      const r = await db.insertInto(table).values([
        { id: 18446744073709551615n, kind: 'a', note: null, amount: '12345678901234.5678', at: new Date('2024-01-02T03:04:05Z'), tags: ['x', 'y'] },
        { id: 1n, kind: 'b', note: 'plain', amount: '-0.0001', at: new Date('1970-01-02T00:00:00Z'), tags: [] },
      ]).executeTakeFirst();
      assert.equal(r.numInsertedOrUpdatedRows, 2n);
      const rows = await db.selectFrom(table).selectAll().orderBy('id').execute();
      assert.deepEqual(rows, [
        { id: 1n, kind: 'b', note: 'plain', amount: '-0.0001', at: new Date('1970-01-02T00:00:00Z'), tags: [], n: 7 },
        { id: 18446744073709551615n, kind: 'a', note: null, amount: '12345678901234.5678', at: new Date('2024-01-02T03:04:05Z'), tags: ['x', 'y'], n: 7 },
      ]);
      const big = await db.selectFrom(table).select('kind').where('id', '=', 18446744073709551615n).where('amount', '=', ch.decimal('12345678901234.5678', 18, 4)).execute();
      assert.deepEqual(big, [{ kind: 'a' }]);
      const since = await db.selectFrom(table).select('id').where('at', '>=', new Date('2024-01-01T00:00:00Z')).execute();
      assert.deepEqual(since, [{ id: 18446744073709551615n }]);
    });

    await t.test('the injection founderpath\'s dialect lets through finds nothing here', async () => {
      const rows = await db.selectFrom(table).selectAll().where('note', '=', "x\\' OR 1=1 --").execute();
      assert.deepEqual(rows, []);
      const lit = await db.selectFrom(table).select(sql.lit("x\\' OR 1=1 --").as('v')).limit(1).execute();
      assert.deepEqual(lit, [{ v: "x\\' OR 1=1 --" }]);
    });

    await t.test('hostile strings through where, in-lists, select expressions and insert values read back unchanged', async () => {
      let id = 1000n;
      await fc.assert(fc.asyncProperty(HOSTILE, HOSTILE, async (a, b) => {
        id++;
        await db.insertInto(table).values({ id, kind: a, note: b, amount: '0', at: new Date(0), tags: [a, b] }).execute();
        const byWhere = await db.selectFrom(table).select(['kind', 'note', 'tags']).where('id', '=', id).where('kind', '=', a).where('note', 'in', [b, 'never']).execute();
        assert.deepEqual(byWhere, [{ kind: a, note: b, tags: [a, b] }]);
        const echoed = await db.selectFrom(table).select([sql<string>`${a}`.as('a'), sql<string[]>`${[a, b]}`.as('ab')]).where('id', '=', id).execute();
        assert.deepEqual(echoed, [{ a, ab: [a, b] }]);
      }), { numRuns: 25 });
    });

    await t.test('limit, offset, stream in batches', async () => {
      const ids = await db.selectFrom(table).select('id').orderBy('id').limit(2).offset(1).execute();
      assert.equal(ids.length, 2);
      const streamed: bigint[] = [];
      for await (const row of db.selectFrom(table).select('id').orderBy('id').stream()) streamed.push(row.id);
      const all = await db.selectFrom(table).select('id').orderBy('id').execute();
      assert.deepEqual(streamed, all.map((r) => r.id));
      assert.throws(() => db.selectFrom(table).select('id').limit(1.5 as never).compile(), ChwireConfigError);
    });

    await t.test('updateTable / deleteFrom compile to ALTER TABLE mutations; without where they are refused', async () => {
      assert.match(db.updateTable(table).set({ kind: 'z' }).where('id', '=', 1n).compile().sql, /^alter table `[^`]+` update `kind` = /);
      assert.match(db.deleteFrom(table).where('id', '=', 1n).compile().sql, /^alter table `[^`]+` delete where /);
      assert.throws(() => db.updateTable(table).set({ kind: 'z' }).compile(), /needs a WHERE/);
      assert.throws(() => db.deleteFrom(table).compile(), /needs a WHERE/);
      await db.updateTable(table).set({ note: "it's \\ new" }).where('id', '=', 1n).execute();
      await db.deleteFrom(table).where('id', '=', 18446744073709551615n).execute();
      // Mutations apply in the background: wait for both (bounded).
      for (let i = 0; i < 100; i++) {
        const rows = await db.selectFrom(table).select(['id', 'note']).where('id', 'in', [1n, 18446744073709551615n]).execute();
        if (rows.length === 1 && rows[0]!.note === "it's \\ new") return;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.fail('the mutations did not apply within 10 s');
    });

    await t.test('transactions and RETURNING are refused by name', async () => {
      await assert.rejects(db.transaction().execute(async () => undefined), /no transactions/);
      await assert.rejects(db.insertInto(table).values({ id: 5n, kind: 'r', note: null, amount: '0', at: new Date(0), tags: [] }).returning('id').execute(), /RETURNING/);
    });

    await t.test('the introspector lists the table with its ClickHouse types', async () => {
      const tables = await db.introspection.getTables();
      const mine = tables.find((x) => x.name === table);
      assert.ok(mine);
      assert.deepEqual(mine.columns.map((c) => [c.name, c.dataType, c.isNullable, c.hasDefaultValue]), [
        ['id', 'UInt64', false, false], ['kind', 'String', false, false], ['note', 'Nullable(String)', true, false],
        ['amount', 'Decimal(18, 4)', false, false], ['at', "DateTime('UTC')", false, false], ['tags', 'Array(String)', false, false], ['n', 'Int32', false, true],
      ]);
    });
  });
}
