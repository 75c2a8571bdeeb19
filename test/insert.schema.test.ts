// Insert schemas that change under the client (issue 10, item 8 and the misleading errors): a
// table dropped and recreated with other types, by this client and by another, must never get a
// block of the old types (18.16 stores them as they are and the table can no longer be read;
// the embedded engine converted them, DateTime -> Int8 gave 0); a column added by another
// client is found on the first insert that uses it; temporary tables are found in their
// session; unknown keys and rows that are no rows read the same in every row. On chdb:// and,
// when CHWIRE_TEST_HTTP_URL is set, on the real 18.16 server (which cannot verify a block's
// types itself).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, ChwireConfigError, ChwireEncodeError, type Client } from '../src/index.js';
import { REAL_URL, SKIP_REAL, uniqueName } from './support/ch-server.js';

const targets: { name: string; url: string; skip: string | false }[] = [
  { name: 'chdb://', url: 'chdb://', skip: false },
  { name: 'real server', url: REAL_URL ?? '', skip: SKIP_REAL },
];

for (const target of targets) {
  const skip = target.skip;
  const clients: Client[] = [];
  const tables: string[] = [];
  const client = (): Client => { const c = createClient({ url: target.url, requestTimeout: 60_000 }); clients.push(c); return c; };
  const table = (p: string): string => { const t = uniqueName(p); tables.push(t); return t; };
  after(async () => {
    if (skip !== false) return;
    const c = client();
    for (const t of tables) await c.execute(`DROP TABLE IF EXISTS ${t}`);
    for (const x of clients) await x.close();
  });

  test(`${target.name}: a table dropped and recreated with other types by this client gets the new types`, { skip }, async () => {
    const c = client();
    const t = table('chw_stale_own');
    await c.execute(`CREATE TABLE ${t} (v DateTime) ENGINE = MergeTree ORDER BY tuple()`);
    await c.insert(t, [{ v: new Date(1_000_000) }]);
    await c.execute(`DROP TABLE ${t}`);
    await c.execute(`CREATE TABLE ${t} (v Int8) ENGINE = MergeTree ORDER BY tuple()`);
    await c.insert(t, [{ v: 127 }, { v: 100 }]);
    assert.deepEqual(await c.fetch(`SELECT v FROM ${t} ORDER BY v`), [{ v: 100 }, { v: 127 }]);
  });

  test(`${target.name}: a table recreated by another client: an array is encoded again with the new types, the table stays readable`, { skip }, async () => {
    const c = client();
    const other = client();
    const t = table('chw_stale_other');
    await other.execute(`CREATE TABLE ${t} (v DateTime) ENGINE = MergeTree ORDER BY tuple()`);
    await c.insert(t, [{ v: new Date(1_000_000) }]);
    await other.execute(`DROP TABLE ${t}`);
    await other.execute(`CREATE TABLE ${t} (v Int8) ENGINE = MergeTree ORDER BY tuple()`);
    await c.insert(t, [{ v: 127 }, { v: 100 }]);
    assert.deepEqual(await other.fetch(`SELECT v FROM ${t} ORDER BY v`), [{ v: 100 }, { v: 127 }]);
    // A value the new type cannot hold is named with the new type, not the cached one.
    await other.execute(`DROP TABLE ${t}`);
    await other.execute(`CREATE TABLE ${t} (v Decimal(10, 2)) ENGINE = MergeTree ORDER BY tuple()`);
    await assert.rejects(c.insert(t, [{ v: '1.505' }]), (e: unknown) => e instanceof ChwireEncodeError && /Decimal\(10, 2\)|2 fractional/.test(e.message) && !/Int8/.test(e.message));
    await c.insert(t, [{ v: '1.500' }]);
    assert.deepEqual(await other.fetch(`SELECT toFloat64(v) AS v FROM ${t}`), [{ v: 1.5 }]);
  });

  test(`${target.name}: a table recreated by another client: a generator input is never written with the old types`, { skip }, async () => {
    const c = client();
    const other = client();
    const t = table('chw_stale_gen');
    await other.execute(`CREATE TABLE ${t} (v DateTime) ENGINE = MergeTree ORDER BY tuple()`);
    await c.insert(t, [{ v: new Date(1_000_000) }]);
    await other.execute(`DROP TABLE ${t}`);
    await other.execute(`CREATE TABLE ${t} (v Int8) ENGINE = MergeTree ORDER BY tuple()`);
    const gen = function* () { yield { v: 127 }; yield { v: 100 }; };
    try {
      await c.insert(t, gen());
      // Servers that cannot verify types: the schema was read for this insert, so it is right.
      assert.deepEqual(await other.fetch(`SELECT v FROM ${t} ORDER BY v`), [{ v: 100 }, { v: 127 }]);
    } catch (e) {
      // Servers that verify: refused, reported as a changed table, nothing inserted.
      assert.ok(e instanceof ChwireConfigError, String(e));
      assert.match(e.message, /column "v" is now Int8 \(was DateTime\).*nothing was inserted/);
      assert.deepEqual(await other.fetch(`SELECT v FROM ${t}`), []);
      await c.insert(t, gen());
      assert.deepEqual(await other.fetch(`SELECT v FROM ${t} ORDER BY v`), [{ v: 100 }, { v: 127 }]);
    }
  });

  test(`${target.name}: a column added by another client is found on the first insert that uses it`, { skip }, async () => {
    const c = client();
    const other = client();
    const t = table('chw_added');
    await other.execute(`CREATE TABLE ${t} (id UInt32) ENGINE = MergeTree ORDER BY id`);
    await c.insert(t, [{ id: 1 }]);
    await other.execute(`ALTER TABLE ${t} ADD COLUMN c String`);
    await c.insert(t, (function* () { yield { id: 2, c: 'x' }; })());
    await c.insert(t, [[3, 'y']]);
    assert.deepEqual(await other.fetch(`SELECT id, c FROM ${t} ORDER BY id`), [{ id: 1, c: '' }, { id: 2, c: 'x' }, { id: 3, c: 'y' }]);
    // A key the table really lacks: the same message shape in row 0 and in row 2, naming refreshSchema.
    const shape = (row: number) => (e: unknown): boolean => e instanceof ChwireEncodeError && e.column === 'zz' && e.row === row
      && e.message.includes(`unknown column: column "zz", row ${row}: expected one of the insertable columns of ${t} ("id", "c")`) && e.message.includes('refreshSchema');
    await assert.rejects(c.insert(t, [{ id: 4, zz: 1 }]), shape(0));
    await assert.rejects(c.insert(t, [{ id: 4 }, { id: 5 }, { id: 6, zz: 1 }]), shape(2));
  });

  test(`${target.name}: a row that is no row is named by its row, in one message shape`, { skip }, async () => {
    const c = client();
    const t = table('chw_badrow');
    await c.execute(`CREATE TABLE ${t} (id UInt32) ENGINE = MergeTree ORDER BY id`);
    const check = (row: number, got: RegExp) => (e: unknown): boolean => e instanceof ChwireEncodeError && e.row === row
      && new RegExp(`^not a row: row ${row}: expected an object keyed by column name, got ${got.source}$`).test(e.message);
    await assert.rejects(c.insert(t, [null] as unknown as object[]), check(0, /null/));
    await assert.rejects(c.insert(t, [{ id: 1 }, 'text'] as unknown as object[]), check(1, /a string \(4 characters\)/));
    await assert.rejects(c.insert(t, [{ id: 1 }, { id: 2 }, null] as unknown as object[]), check(2, /null/));
  });

  test(`${target.name}: insert() into a session's temporary table`, { skip }, async () => {
    const c = client();
    const sessionId = uniqueName('chw_sess');
    await c.execute('CREATE TEMPORARY TABLE tmpx (id UInt32, s String)', { sessionId });
    await c.insert('tmpx', [{ id: 1, s: 'a' }, { id: 2, s: 'b' }], { sessionId });
    assert.deepEqual(await c.fetch('SELECT id, s FROM tmpx ORDER BY id', { sessionId }), [{ id: 1, s: 'a' }, { id: 2, s: 'b' }]);
    // Outside the session the table does not exist.
    await assert.rejects(c.insert('tmpx', [{ id: 3, s: 'c' }]), (e: unknown) => e instanceof ChwireConfigError && /table tmpx not found/.test(e.message));
  });
}
