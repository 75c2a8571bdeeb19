// @clickhouse/client-web's types, as chwire's compat declares them (chwire/compat/web's, once this build has it).
export * from '../../dist/cjs/compat.js';
export { default } from '../../dist/cjs/compat.js';
