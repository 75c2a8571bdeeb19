// chwire/compat: @clickhouse/client 1.x's API (createClient, query/exec/command/insert/ping/close,
// ClickHouseError) over chwire's transport, so a service moves with one import changed
// (docs/migrating.md). Node-only: results are node:stream Readables, as the official Node client's.
export { createClient } from './compat/client.js';
export type {
  ClickHouseClient, BaseQueryParams, QueryParams, ExecParams, CommandParams, InsertParams,
  CommandResult, ExecResult, InsertResult, PingResult, PingParams,
} from './compat/client.js';
export { ResultSet } from './compat/result-set.js';
export type { Row, ResponseHeaders } from './compat/result-set.js';
export { ClickHouseError } from './compat/errors.js';
export { ClickHouseLogLevel } from './compat/options.js';
export type { ClickHouseClientConfigOptions, ClickHouseSettings, JSONHandling, OfficialLogger as Logger, LogParams } from './compat/options.js';
export type { DataFormat } from './compat/formats.js';
