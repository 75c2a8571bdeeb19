// What the server says about a table or a query, for `chwire gen`: the result columns exactly as
// a result header names and types them (what the decoders will be built from at run time), and a
// table's columns with their default kinds (what insert() must be given).
//
// Invariant: only the server's own description is used, never a parse of the SQL: a query's
// columns come from the header of the query itself run with LIMIT 0 (or `DESCRIBE` where an empty
// result has no header), with each placeholder replaced by a value of its type (its default, or
// a typed literal on servers without defaultValueOfTypeName). A default kind is one of
// DEFAULT_KINDS or refused.
import type { Client } from '../client/client.js';
import { quoteIdentifier, quoteString, splitTableName } from '../client/sql/identifiers.js';
import { withTypedDefaults } from './sql-text.js';
import { DEFAULT_KINDS } from './ts-types.js';
import { ChwireConfigError, ChwireDecodeError, ChwireServerError, ChwireTypeError } from '../errors.js';

export interface ResultColumn {
  readonly name: string;
  /** The type as the result header spells it. */
  readonly type: string;
}

export interface TableColumn extends ResultColumn {
  /** `''`, `DEFAULT`, `MATERIALIZED`, `ALIAS` or `EPHEMERAL`. */
  readonly defaultKind: string;
}

/** The columns of `SELECT …` as its result header has them. */
export async function describeQuery(client: Client, sql: string): Promise<ResultColumn[]> {
  try {
    return await describeWith(client, withTypedDefaults(sql, 'function'));
  } catch (e) {
    // Servers without defaultValueOfTypeName (18.16: Code 46) get a typed literal instead.
    if (!(e instanceof ChwireServerError && e.serverCode === 46 && /defaultValueOfTypeName/.test(e.message))) throw e;
    return await describeWith(client, withTypedDefaults(sql, 'literal'));
  }
}

async function describeWith(client: Client, probe: string): Promise<ResultColumn[]> {
  let rows;
  try {
    rows = await client.fetch(`SELECT * FROM (\n${probe}\n) LIMIT 0`, { rows: 'array' });
  } catch (e) {
    // A header with a column the client cannot decode (AggregateFunction states): the server's
    // description as text instead, so the caller can say which column and generate the rest.
    if (!(e instanceof ChwireDecodeError || e instanceof ChwireConfigError || e instanceof ChwireTypeError)) throw e;
    return await describeText(client, probe);
  }
  if (rows.columns.length > 0) return rows.columns.map((c) => ({ name: c.name, type: c.type }));
  // Native (older servers) sends no header for an empty result: ask DESCRIBE instead.
  const desc = await client.fetch<unknown[]>(`DESCRIBE TABLE (\n${probe}\n)`, { rows: 'array' });
  return desc.map((r) => ({ name: String(r[0]), type: String(r[1]) }));
}

async function describeText(client: Client, probe: string): Promise<ResultColumn[]> {
  let text = '';
  const decoder = new TextDecoder();
  for await (const chunk of client.streamRaw(`DESCRIBE TABLE (\n${probe}\n)`, { format: 'JSONEachRow' })) text += decoder.decode(chunk, { stream: true });
  return text.split('\n').filter((l) => l !== '').map((l) => {
    const r = JSON.parse(l) as { name: string; type: string };
    return { name: r.name, type: r.type };
  });
}

/** A table's columns in order, with their default kinds. */
export async function describeTable(client: Client, table: string): Promise<TableColumn[]> {
  const [db, name] = splitTableName(table);
  const dbExpr = db === undefined ? 'currentDatabase()' : quoteString(db);
  const rows = await client.fetch<unknown[]>(
    `SELECT name, type, default_kind FROM system.columns WHERE database = ${dbExpr} AND table = ${quoteString(name)}`,
    { rows: 'array' },
  );
  if (rows.length === 0) throw new Error(`table ${table} not found (or it has no columns)`);
  return rows.map((r) => ({ name: String(r[0]), type: String(r[1]), defaultKind: defaultKind(String(r[2]), String(r[0])) }));
}

/** system.columns' default_kind, checked against DEFAULT_KINDS: any other text from a server is refused. */
function defaultKind(kind: string, column: string): string {
  if (DEFAULT_KINDS.includes(kind)) return kind;
  throw new ChwireDecodeError(`system.columns gives the column the default kind ${JSON.stringify(kind.slice(0, 100))}${kind.length > 100 ? '…' : ''}, which is none of ${DEFAULT_KINDS.filter((k) => k !== '').join(', ')}: refused, nothing is generated from it`, { column, offset: 0 });
}

/** `db.table` quoted for SQL text. */
export function quotedTable(table: string): string {
  const [db, name] = splitTableName(table);
  return db === undefined ? quoteIdentifier(name) : `${quoteIdentifier(db)}.${quoteIdentifier(name)}`;
}
