// @clickhouse/client-common's types, as chwire/compat declares them.
export * from '../../dist/cjs/compat.js';
export { default } from '../../dist/cjs/compat.js';
