// The `Client` of createClient: the query client (query-client.ts) with insert, fetchColumns,
// streamColumns and refreshSchema as methods. Each method is the function of the same name over
// the client (insert-call.ts, columns-call.ts), so a method and its function never differ.
// Invariant: nothing here but the wiring; an app that wants a smaller bundle imports
// createQueryClient and the functions it calls instead (see docs/web.md, "Bundle size").
import type { ClientOptions, TransportFactory } from './options/config.js';
import { QueryClientImpl, type QueryClient } from './query-client.js';
import { insert, refreshSchema } from './insert/insert-call.js';
import { fetchColumns, streamColumns } from './read/columns-call.js';
import type { InsertBytes, InsertInput, InsertOptions, InsertResult, InsertRow } from './insert/insert-types.js';
import type { ColumnsOptions, ColumnsResult } from './read/columns.js';
import type { ColumnStream } from './read/column-stream.js';

export type { QueryOptions, ExecOptions, Rows, ClientCore } from './core.js';
export type { QueryClient, ObjectRow, ExecResult, CloseOptions } from './query-client.js';
export type { QueryParams, QueryParamValue } from './sql/params.js';

/** The query client with inserts and the columnar calls. */
export interface Client extends QueryClient {
  /** Rows (objects keyed by column name, or arrays in column order) encoded as Native blocks. */
  insert<R extends InsertRow>(table: string, rows: InsertInput<R>, opts?: InsertOptions): Promise<InsertResult>;
  /** Bytes already in `opts.format` (Buffers, Uint8Arrays, or strings sent as UTF-8). */
  insert(table: string, rows: InsertBytes, opts: InsertOptions & { format: string }): Promise<InsertResult>;
  /** The whole result as typed-array columns (Native format), one array per column. */
  fetchColumns(sql: string, opts?: ColumnsOptions): Promise<ColumnsResult>;
  /** The result as column batches, one per Native block as it arrives (the shapes of fetchColumns). */
  streamColumns(sql: string, opts?: ColumnsOptions): ColumnStream;
  /** Forget cached table schemas used by insert() (all, or one table); see docs on the schema cache. */
  refreshSchema(table?: string): void;
}

/**
 * A client over the transport `makeTransport` builds for the options' URL: the Node entry
 * (index.ts) passes node:http and chdb transports, chwire/web (web.ts) a fetch transport.
 */
export function createClientWith(options: ClientOptions, makeTransport: TransportFactory): Client {
  return new ChwireClient(options, makeTransport);
}

class ChwireClient extends QueryClientImpl implements Client {
  insert(table: string, rows: InsertInput | InsertBytes, opts?: InsertOptions): Promise<InsertResult> {
    return insert(this, table, rows as InsertBytes, opts as InsertOptions & { format: string });
  }

  fetchColumns(sql: string, opts?: ColumnsOptions): Promise<ColumnsResult> {
    return fetchColumns(this, sql, opts);
  }

  streamColumns(sql: string, opts?: ColumnsOptions): ColumnStream {
    return streamColumns(this, sql, opts);
  }

  refreshSchema(table?: string): void {
    refreshSchema(this, table);
  }
}
