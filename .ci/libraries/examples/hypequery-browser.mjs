// @hypequery/clickhouse in a browser (its README and connection.d.ts: a browser app makes the client
// itself with @clickhouse/client-web's createClient and hands it over as `client`; the package's
// `browser` field swaps its auto-detected Node client for one that throws). Bundled for the browser
// (test/server.libraries-web.test.ts): a typed select with where/orderBy/limit, an aggregate with
// groupBy, an insert read back, rawQuery, and two error paths (a server error, an abort mid-query).
// The page is served on the ClickHouse server's origin (a forwarding loopback server), the database
// named by `?db=`; the lines land in window.__hypequery, as print.mjs would print them.
import { createClient } from '@clickhouse/client-web';
import { createQueryBuilder } from '@hypequery/clickhouse';
import { line, errorShape } from './print.mjs';

const lines = [];
const print = (label, value) => lines.push(JSON.parse(line(label, value)));
const database = new URL(location.href).searchParams.get('db');
const client = createClient({ url: location.origin, username: 'default', password: '', database });
const db = createQueryBuilder({ client });
try {
  print('select', await db.table('hq_orders').select(['id', 'region', 'amount']).where('status', 'eq', 'completed').orderBy('amount', 'DESC').limit(2).execute());
  const { queryId: _id, ...insert } = await db.insert('hq_orders').values([
    { id: 5, region: 'apac', status: 'completed', amount: 7.75 },
    { id: 6, region: 'us', status: 'cancelled', amount: 3 },
  ]).execute();
  print('insert', insert);
  print('revenueByRegion', await db.table('hq_orders').select(['region']).where('status', 'eq', 'completed').sum('amount', 'revenue').groupBy('region').orderBy('revenue', 'DESC').execute());
  print('raw', await db.rawQuery('SELECT number, toString(number * 3) AS s FROM system.numbers WHERE number % 2 = 1 LIMIT 3'));
  try {
    await db.rawQuery('SELECT nope FROM hq_orders');
    print('server error', 'no error');
  } catch (e) {
    print('server error', errorShape(e));
  }
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 200);
  try {
    await db.rawQuery('SELECT sleep(3)', [], { abortSignal: ac.signal });
    print('abort', 'no error');
  } catch (e) {
    print('abort', errorShape(e));
  }
  await db.close();
  window.__hypequery = { lines };
} catch (e) {
  window.__hypequery = { lines, error: String(e?.stack ?? e) };
}
