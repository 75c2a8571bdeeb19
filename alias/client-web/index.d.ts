// @clickhouse/client-web's types, as chwire/compat/web declares them.
export * from '../../dist/cjs/compat-web.js';
export { default } from '../../dist/cjs/compat-web.js';
