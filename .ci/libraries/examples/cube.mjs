// Cube's ClickHouse driver: testConnection, query with `?` values, the download path, an insert, an error.
import { createRequire } from 'node:module';
const { print, printError } = await import(`${process.env.EXAMPLES}/print.mjs`);
const { ClickHouseDriver } = createRequire(`${process.cwd()}/`)('@cubejs-backend/clickhouse-driver');

// Read-only mode: the driver then sends no date_time_output_format, a setting 18.16 does not have.
process.env.CUBEJS_DB_CLICKHOUSE_READONLY = 'true';
const driver = new ClickHouseDriver({ host: process.env.CH_HOST, port: process.env.CH_PORT, username: 'default', password: '', database: process.env.CH_DB, readOnly: true });
await driver.testConnection();
print('connected', true);
// Pre-aggregation inserts go as JSONCompactEachRow, which 18.16 does not have: an error path on that
// server (the test's setup wrote the rows).
try {
  await driver.insert(`${process.env.CH_DB}.cube_items`, [[3, 'three']], {});
  print('insert', true);
} catch (e) {
  printError('insert', e);
}
print('query', await driver.query(`SELECT id, v FROM ${process.env.CH_DB}.cube_items WHERE id >= ? ORDER BY id`, [1]));
print('types', await driver.queryColumnTypes(`SELECT id, v FROM ${process.env.CH_DB}.cube_items`, []));
try {
  await driver.query('SELECT nope', []);
  print('error', 'no error');
} catch (e) {
  printError('error', e);
}
await driver.release();
