// The five libraries and an app's own code, type-checked (`skipLibCheck: false`) with
// @clickhouse/client* installed as chwire's alias/ folders (test/server.libraries.test.ts runs tsc
// on this file). Every library's declarations are checked too: what they import from
// @clickhouse/client, @clickhouse/client/dist/config, @clickhouse/client-common and
// @clickhouse/client-web must exist in chwire's types, and a chwire/compat client must be assignable
// wherever a library takes the official ClickHouseClient.
import {
  createClient, ClickHouseClient, ClickHouseError, ResultSet,
  type ClickHouseClientConfigOptions, type ClickHouseSettings, type DataFormat, type InsertParams,
  type InsertResult, type QueryParams, type ResponseJSON, type Row,
} from '@clickhouse/client';
import type { NodeClickHouseClientConfigOptions } from '@clickhouse/client/dist/config';
import type { BaseClickHouseClientConfigOptions, ClickHouseSummary } from '@clickhouse/client-common';
import type { ClickHouseClient as WebClickHouseClient } from '@clickhouse/client-web';
import { createClient as createCompat } from 'chwire/compat';
import { Kysely, sql } from 'kysely';
import { ClickhouseDialect } from '@founderpath/kysely-clickhouse';
import { createQueryBuilder } from '@hypequery/clickhouse';
import { ClickhouseClient } from '@effect/sql-clickhouse';
import { Effect } from 'effect';
import { ClickHouseDriver } from '@cubejs-backend/clickhouse-driver';
import { migration } from 'clickhouse-migrations';

const url = 'http://localhost:8123';

// An app's own use of the official names.
const options: ClickHouseClientConfigOptions = { url, request_timeout: 1000, clickhouse_settings: { max_threads: 1 } };
const nodeOptions: NodeClickHouseClientConfigOptions = options;
const baseOptions: BaseClickHouseClientConfigOptions = { url };
const settings: ClickHouseSettings = { max_threads: 2 };
const client: ClickHouseClient = createClient(nodeOptions);
const compat: ClickHouseClient = createCompat(options);
export async function app(): Promise<void> {
  const params: QueryParams = { query: 'SELECT 1 AS x', format: 'JSON', clickhouse_settings: settings };
  const rs = await client.query({ ...params, format: 'JSON' });
  const doc: ResponseJSON<{ x: number }> = await rs.json<{ x: number }>();
  const rows: { x: number }[] = await (await client.query({ query: 'SELECT 1 AS x', format: 'JSONEachRow' })).json<{ x: number }>();
  const format: DataFormat = 'JSONEachRow';
  const insert: InsertParams<NodeJS.ReadableStream, { x: number }> = { table: 't', values: [{ x: 1 }], format };
  const done: InsertResult = await compat.insert(insert as InsertParams<never, { x: number }>);
  const summary: Partial<ClickHouseSummary> | undefined = done.summary;
  for await (const batch of (await client.query({ query: 'SELECT 1', format: 'JSONEachRow' })).stream()) {
    const row: Row = (batch as Row[])[0]!;
    row.json();
  }
  const e: unknown = new Error();
  if (e instanceof ClickHouseError) void e.code;
  void [doc, rows, summary, baseOptions, ResultSet];
}

// @founderpath/kysely-clickhouse: its options are @clickhouse/client/dist/config's.
export const kysely = new Kysely<{ t: { id: number } }>({ dialect: new ClickhouseDialect({ options: { url, keep_alive: { enabled: true } } }) });
export const count = sql<number>`count()`;

// @hypequery/clickhouse: a chwire/compat client injected where it takes the official (Node or web) client.
export const hq = createQueryBuilder({ client: createCompat({ url }) });
export const hqWeb = (c: WebClickHouseClient) => createQueryBuilder({ client: c });

// @effect/sql-clickhouse: its config extends ClickHouseClientConfigOptions.
export const layer = ClickhouseClient.layer({ url, clickhouse_settings: settings });
export const program = Effect.gen(function* () {
  const s = yield* ClickhouseClient.ClickhouseClient;
  yield* s.insertQuery({ table: 't', values: [{ id: 1 }], format: 'JSONEachRow' });
});

// Cube's driver: a subclass that hands it its client (its declared type is the official class).
export class CompatDriver extends ClickHouseDriver {
  protected override createClient(_maxPoolSize: number): ClickHouseClient {
    return createCompat({ url });
  }
}

// clickhouse-migrations.
export const migrate: Promise<void> = migration('migrations', url, 'default', '', 'db', 'ENGINE=Ordinary', 'MergeTree');
