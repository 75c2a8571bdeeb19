// chwire/kysely: a Kysely dialect on chwire's native API (optional peer `kysely`): values as typed
// query parameters (or exact sqlLiteral on servers before 19.11), results with chwire's exact
// values, inserts as Native blocks, UPDATE/DELETE as ALTER TABLE mutations (docs/kysely.md).
export { ChwireDialect, type ChwireDialectConfig } from './kysely/dialect.js';
export { ChwireQueryCompiler } from './kysely/compiler.js';
export { ChwireDriver } from './kysely/driver.js';
export { ChwireConnection, type KyselyClient } from './kysely/connection.js';
export { ChwireAdapter } from './kysely/adapter.js';
export { ChwireIntrospector } from './kysely/introspector.js';
export { ch, ChTyped } from './kysely/values.js';
