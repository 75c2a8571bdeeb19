// @hypequery/clickhouse's README: createQueryBuilder, a typed select with sum/groupBy, an insert, rawQuery.
import { createQueryBuilder } from '@hypequery/clickhouse';
const { print, printError } = await import(`${process.env.EXAMPLES}/print.mjs`);

const db = createQueryBuilder({ url: process.env.CH_URL, username: 'default', password: '', database: process.env.CH_DB });
const { queryId: _id, ...insert } = await db.insert('hq_orders').values([
  { id: 1, region: 'eu', status: 'completed', amount: 10.5 },
  { id: 2, region: 'us', status: 'completed', amount: 4 },
  { id: 3, region: 'eu', status: 'completed', amount: 1.25 },
  { id: 4, region: 'eu', status: 'cancelled', amount: 99 },
]).execute();
print('insert', insert);
const revenueByRegion = await db
  .table('hq_orders')
  .select(['region'])
  .where('status', 'eq', 'completed')
  .sum('amount', 'revenue')
  .groupBy('region')
  .orderBy('revenue', 'DESC')
  .execute();
print('revenueByRegion', revenueByRegion);
print('raw', await db.rawQuery('SELECT id, amount FROM hq_orders WHERE id <= 2 ORDER BY id'));
try {
  await db.rawQuery('SELECT nope FROM hq_orders');
  print('error', 'no error');
} catch (e) {
  printError('error', e);
}
await db.close();
