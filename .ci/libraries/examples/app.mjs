// An app's own modules: `import` and `require` of @clickhouse/client, its dist/config subpath, and
// @clickhouse/client-common and @clickhouse/client-web's names, as services and libraries write them; one query and one server error.
import { createRequire } from 'node:module';
import { createClient, ClickHouseError } from '@clickhouse/client';
import * as common from '@clickhouse/client-common';
import { createClient as createWebClient } from '@clickhouse/client-web';
const { print, printError } = await import(`${process.env.EXAMPLES}/print.mjs`);
const require = createRequire(`${process.cwd()}/`);

const required = require('@clickhouse/client');
print('same module for import and require', required.createClient === createClient && required.ClickHouseError === ClickHouseError);
print('dist/config resolves', typeof require('@clickhouse/client/dist/config'));
print('client-common ClickHouseError', typeof common.ClickHouseError);
print('client-web createClient', typeof createWebClient);
const client = createClient({ url: process.env.CH_URL, database: process.env.CH_DB });
const rs = await client.query({ query: 'SELECT number AS n, toString(number) AS s FROM system.numbers LIMIT 3', format: 'JSONEachRow' });
print('query', await rs.json());
try {
  await client.query({ query: 'SELECT nope', format: 'JSONEachRow' });
} catch (e) {
  printError('error', e);
  print('instanceof ClickHouseError', e instanceof ClickHouseError);
}
await client.close();
