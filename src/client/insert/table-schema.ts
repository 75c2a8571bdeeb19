// The insertable columns of a table, as the server resolves the name for an INSERT: `DESCRIBE
// TABLE` (in the caller's session when one is given, so a session's temporary tables are found;
// system.columns does not list them), without MATERIALIZED and ALIAS columns. Reads go through
// the client's SchemaCache under the freshness the caller asks for. Each column keeps its default
// kind (DEFAULT, EPHEMERAL) so an insert can leave such columns to the server (insert-columns.ts).
// Invariant: a schema is reported `fresh` only when its read was sent after the asking call began,
// i.e. it reflects every DDL that completed before that call.
import { ChwireConfigError, ChwireServerError } from '../../errors.js';
import type { ClientCore } from '../core.js';
import type { TableColumn } from './insert-types.js';
import { quoteIdentifier, splitTableName } from '../sql/identifiers.js';
import { concatBytes } from '../../io/bytes.js';

export interface TableSchema {
  readonly key: string;
  readonly columns: TableColumn[];
  /** The read was sent during this call (not served from an older cache entry). */
  readonly fresh: boolean;
}

/** The cache key: database (or the client's) and name; a session's own key, since temporary tables live there. */
export function schemaKey(core: ClientCore, table: string, sessionId: string | undefined): string {
  const [db, name] = splitTableName(table);
  const base = `${db ?? core.database ?? ''}.${name}`;
  return sessionId === undefined ? base : `@session ${sessionId} ${base}`;
}

export async function tableSchema(
  core: ClientCore, table: string, o: { sessionId?: string | undefined; signal?: AbortSignal | undefined; queryId?: string | undefined },
  maxAge: number, since: number,
): Promise<TableSchema> {
  const key = schemaKey(core, table, o.sessionId);
  const hit = core.schemas.get(key, maxAge, since);
  if (hit !== undefined) return { key, columns: await hit.columns, fresh: hit.startedAt >= since };
  const read = describe(core, table, o);
  core.schemas.set(key, read);
  return { key, columns: await read, fresh: true };
}

async function describe(core: ClientCore, table: string, o: { sessionId?: string | undefined; signal?: AbortSignal | undefined; queryId?: string | undefined }): Promise<TableColumn[]> {
  const [db, name] = splitTableName(table);
  const target = db !== undefined ? `${quoteIdentifier(db)}.${quoteIdentifier(name)}` : quoteIdentifier(name);
  // JSON lines (any server version, and single-shot on the embedded engine): one per column, in
  // table order, type names on one line as the server prints them.
  const chunks: Uint8Array[] = [];
  try {
    // Observed as the insert's child (kind `describe`), never as a streamRaw of the app's: `o.queryId` is the insert's.
    for await (const c of core.internalRaw(`DESCRIBE TABLE ${target}`, { format: 'JSONEachRow', sessionId: o.sessionId, signal: o.signal }, 'describe', o.queryId)) chunks.push(c);
  } catch (e) {
    if (e instanceof ChwireServerError && (e.serverCode === 60 || e.serverCode === 81)) {
      throw new ChwireConfigError(`table ${table} not found${o.sessionId !== undefined ? ` (looked up in session ${o.sessionId})` : ''}`, { cause: e });
    }
    throw e;
  }
  const text = new TextDecoder().decode(concatBytes(chunks));
  const out: TableColumn[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const r = JSON.parse(line) as { name: string; type: string; default_type?: string };
    // MATERIALIZED and ALIAS columns cannot be inserted into.
    if (r.default_type === 'MATERIALIZED' || r.default_type === 'ALIAS') continue;
    out.push(r.default_type === undefined || r.default_type === '' ? { name: r.name, type: r.type } : { name: r.name, type: r.type, defaultKind: r.default_type });
  }
  if (out.length === 0) throw new ChwireConfigError(`table ${table} has no insertable columns`);
  return out;
}
