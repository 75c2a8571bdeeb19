// Kysely's database introspector over system.databases, system.tables and system.columns (every
// server version chwire supports has them). Invariant: names come back as the server stores them;
// the database asked about goes as a typed value (a parameter or sqlLiteral), never as SQL text.
import { sql, type DatabaseIntrospector, type DatabaseMetadata, type DatabaseMetadataOptions, type Kysely, type SchemaMetadata, type TableMetadata } from 'kysely';
import { parseType } from '../types/parse.js';

interface ColumnRow { table: string; name: string; type: string; default_kind: string }

export class ChwireIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const r = await sql<{ name: string }>`SELECT name FROM system.databases ORDER BY name`.execute(this.db);
    return r.rows.map((row) => ({ name: row.name }));
  }

  async getTables(_options?: DatabaseMetadataOptions): Promise<TableMetadata[]> {
    // Two reads, joined here (a JOIN's ANY/ALL semantics differ between server generations).
    const tableRows = await sql<{ name: string; engine: string; database: string }>`SELECT name, engine, database FROM system.tables WHERE database = currentDatabase() ORDER BY name`.execute(this.db);
    const columnRows = await sql<ColumnRow>`SELECT table, name, type, default_kind FROM system.columns WHERE database = currentDatabase()`.execute(this.db);
    const tables = new Map<string, TableMetadata & { columns: TableMetadata['columns'][number][] }>();
    for (const t of tableRows.rows) tables.set(t.name, { name: t.name, schema: t.database, isView: /View$/.test(t.engine), columns: [] });
    // system.columns lists each table's columns in their table order.
    for (const row of columnRows.rows) {
      const t = tables.get(row.table);
      if (t === undefined) continue;
      let nullable = false;
      try { nullable = parseType(row.type).kind === 'Nullable'; } catch { /* a type chwire does not parse: not marked */ }
      t.columns.push({ name: row.name, dataType: row.type, isNullable: nullable, isAutoIncrementing: false, hasDefaultValue: row.default_kind !== '' });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}
