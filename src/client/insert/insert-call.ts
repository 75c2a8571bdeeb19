// insert() as a function over any client (`insert(client, table, rows, opts)`), and the
// insert-schema cache's refreshSchema: the calls that bring the Native encoders. Client.insert is
// this function; an app that imports only createQueryClient bundles none of it, and one that does
// loads the encoders on its first insert (lazy.ts: a chunk of their own in a split bundle).
// Invariant: the call is checked, counted in flight and observed as the method always was: its
// options are checked before anything is sent, destroy() reaches its signal, and the query id it
// used is the one observed.
import { checkCallOptions } from '../options/call-options.js';
import { newQueryId } from '../query-id.js';
import { loadInsert, loadedInsert } from '../lazy.js';
import type { InsertBytes, InsertInput, InsertOptions, InsertResult, InsertRow } from './insert-types.js';
import type { QuerySummary } from '../../transport/types.js';
import { implOf, type QueryClient } from '../query-client.js';

/** Rows (objects keyed by column name, or arrays in column order) encoded as Native blocks. */
export function insert<R extends InsertRow>(client: QueryClient, table: string, rows: InsertInput<R>, opts?: InsertOptions): Promise<InsertResult>;
/** Bytes already in `opts.format` (Buffers, Uint8Arrays, or strings sent as UTF-8). */
export function insert(client: QueryClient, table: string, rows: InsertBytes, opts: InsertOptions & { format: string }): Promise<InsertResult>;
export function insert(client: QueryClient, table: string, rows: InsertInput | InsertBytes, opts: InsertOptions = {}): Promise<InsertResult> {
  try {
    const c = implOf(client, 'insert');
    checkCallOptions('insert', opts, c.perCallSettings);
    return c.tracked(opts, (o) => c.observed('insert', `INSERT INTO ${table}`, o.queryId ?? newQueryId(), o, table,
      (queryId) => {
        const callOpts = queryId === undefined ? o : { ...o, queryId };
        const loaded = loadedInsert();
        return loaded !== undefined ? loaded(c, table, rows, callOpts) : loadInsert().then((insertRows) => insertRows(c, table, rows, callOpts));
      },
      (r) => writtenRows(r.summary), (r) => r.summary));
  } catch (e) {
    return Promise.reject(e);
  }
}

/** Forgets the table schemas cached for insert (all, or one table's); see docs on the schema cache. */
export function refreshSchema(client: QueryClient, table?: string): void {
  const schemas = implOf(client, 'refreshSchema').schemas;
  if (table === undefined) schemas.clear();
  else for (const k of [...schemas.keys()]) if (k === table || k.endsWith(`.${table}`)) schemas.delete(k);
}

function writtenRows(summary: QuerySummary | undefined): number | undefined {
  const n = Number(summary?.['written_rows']);
  return summary?.['written_rows'] !== undefined && Number.isFinite(n) ? n : undefined;
}
