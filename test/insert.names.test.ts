// Tables whose names need quoting (issue 17 item 15): `db.table` with either part bare or quoted
// (back-quotes or double quotes; the quote doubled or backslash-escaped inside) reaches the same
// table, on chdb:// and on the real 18.16 server. Before: a table ``we"ird`t`` in database `s`
// could not be inserted into, written bare or quoted ("table … not found").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from '../src/index.js';
import { splitTableName } from '../src/client/sql/identifiers.js';
import { REAL_URL, SKIP_REAL, uniqueName } from './support/ch-server.js';

test('splitTableName: bare and quoted parts, doubled and escaped quotes', () => {
  const want: [string | undefined, string] = ['s', 'we"ird`t'];
  for (const spelled of ['s.we"ird`t', '`s`.`we"ird``t`', '`s`.`we"ird\\`t`', '"s"."we""ird`t"', 's."we\\"ird`t"', '`s`.we"ird`t', '"s".`we"ird``t`']) {
    assert.deepEqual(splitTableName(spelled), want, spelled);
  }
  assert.deepEqual(splitTableName('t'), [undefined, 't']);
  assert.deepEqual(splitTableName('`a.b`'), [undefined, 'a.b']);
  assert.deepEqual(splitTableName('`d.x`.`a.b`'), ['d.x', 'a.b']);
  assert.deepEqual(splitTableName('db.a.b'), ['db', 'a.b']);
  assert.deepEqual(splitTableName('we"ird`t'), [undefined, 'we"ird`t']);
  assert.deepEqual(splitTableName('`unclosed'), [undefined, '`unclosed']);
});

for (const target of [{ name: 'chdb://', url: 'chdb://', skip: false as string | false }, { name: 'real 18.16 server', url: REAL_URL ?? '', skip: SKIP_REAL }]) {
  test(`${target.name}: insert into a table named we"ird\`t in a database, its name bare or quoted every way`, { skip: target.skip, timeout: 60_000 }, async () => {
    const c = createClient({ url: target.url, requestTimeout: 30_000 });
    const db = uniqueName('inserts_s');
    await c.execute(`CREATE DATABASE ${db}`);
    try {
      await c.execute(`CREATE TABLE ${db}.\`we"ird\\\`t\` (id UInt32) ENGINE = MergeTree ORDER BY id`);
      const names = [`${db}.we"ird\`t`, `\`${db}\`.\`we"ird\`\`t\``, `\`${db}\`.\`we"ird\\\`t\``, `"${db}"."we""ird\`t"`, `${db}."we\\"ird\`t"`];
      for (const [i, n] of names.entries()) {
        const r = await c.insert(n, [{ id: i }]);
        assert.equal(typeof r.queryId, 'string', n);
      }
      assert.equal(await c.fetchValue(`SELECT count() FROM ${db}.\`we"ird\\\`t\``), BigInt(names.length));
    } finally {
      await c.execute(`DROP DATABASE ${db}`);
      await c.close();
    }
  });
}
