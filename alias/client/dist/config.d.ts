// @clickhouse/client/dist/config's types that libraries import, as chwire/compat declares them.
import type { ClickHouseClientConfigOptions } from '../../../dist/cjs/compat.js';
export type NodeClickHouseClientConfigOptions = ClickHouseClientConfigOptions;
export type { ClickHouseClientConfigOptions, BaseClickHouseClientConfigOptions } from '../../../dist/cjs/compat.js';
