// @founderpath/kysely-clickhouse's README: a Kysely instance over ClickhouseDialect.
import { Kysely, sql } from 'kysely';
import { ClickhouseDialect } from '@founderpath/kysely-clickhouse';
const { print, printError } = await import(`${process.env.EXAMPLES}/print.mjs`);

const db = new Kysely({ dialect: new ClickhouseDialect({ options: { url: process.env.CH_URL, database: process.env.CH_DB } }) });
// The dialect inserts as JSONCompactEachRowWithNames, which 18.16 does not have: an error path on that
// server (the test's setup wrote the rows), the insert itself on a newer one.
try {
  print('insert', await db.insertInto('kysely_events')
    .values([{ id: 4, name: 'signup', at: '2024-01-05 03:04:05' }, { id: 5, name: "o'clock", at: '2024-01-06 12:00:00' }])
    .executeTakeFirst());
} catch (e) {
  printError('insert', e);
}
print('select', await db.selectFrom('kysely_events').selectAll().where('id', '>', 1).orderBy('id').execute());
print('count', await db.selectFrom('kysely_events').select(sql`count()`.as('n')).executeTakeFirst());
try {
  await db.selectFrom('kysely_missing').selectAll().execute();
  print('missing', 'no error');
} catch (e) {
  printError('missing', e);
}
await db.destroy();
