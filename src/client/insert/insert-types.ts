// The public types of client.insert(): its input shapes, options and result. Types only (no code),
// so the client, the insert pipeline and the schema cache share them without an import cycle.
import type { QuerySummary } from '../../transport/types.js';
import type { CallSurfaceOptions } from '../options/call-surface.js';
import type { Settings } from '../options/config.js';
import type { ProgressListener } from '../observe/progress.js';

/**
 * One row to encode: an object keyed by column name, or an array of values in column order.
 * (Any object is accepted by the type; the encoder names the row and column of a value that does
 * not fit.) Uint8Array chunks are Native bytes made elsewhere, sent as they are.
 */
export type InsertRow = object;

/** Rows to encode (or Native bytes), as an array, a sync or async iterable (a Node Readable is one). */
export type InsertInput<R extends InsertRow = InsertRow> =
  | readonly R[]
  | Iterable<R>
  | AsyncIterable<R>;

/** Bytes already in the insert's `format` (Buffers, Uint8Arrays, or strings sent as UTF-8). */
export type InsertBytes =
  | readonly (Uint8Array | string)[]
  | Iterable<Uint8Array | string>
  | AsyncIterable<Uint8Array | string>;

export interface InsertOptions extends CallSurfaceOptions {
  /** Insert only these columns (the others take their defaults). Default: every insertable column. */
  columns?: readonly string[];
  settings?: Settings;
  queryId?: string;
  sessionId?: string;
  signal?: AbortSignal;
  /** Rows per Native block; 0 = the whole input as one block (all or nothing). Default: the client's insertBlockSize. */
  blockSize?: number;
  /**
   * Default `'Native'`: rows are objects or arrays, encoded here. Any other format name: `rows`
   * are bytes (Buffers, Uint8Arrays or strings, e.g. JSON lines for `'JSONEachRow'`) sent as is.
   */
  format?: string;
  /**
   * Asynchronous insert (`async_insert=1`, ClickHouse 21.11+): the server buffers the data with
   * other inserts and writes it later. `true` or `{ wait: true }`: the call resolves once the
   * buffer holding the data was written to the table (`wait_for_async_insert=1`);
   * `{ wait: false }`: once the server has received and parsed it, before it is written.
   * Default: synchronous (`async_insert=0`).
   */
  async?: boolean | { wait?: boolean };
  /**
   * Sent as `insert_deduplication_token` (ClickHouse 22.2+), with the server told to form one
   * block per `blockSize` rows: a retry with the same token, rows, order and block size commits
   * every row exactly once in a table that deduplicates inserts (docs/client.md "Deduplication").
   * Makes the request retryable when the input can be produced again (an array).
   */
  deduplicationToken?: string;
  /** Live progress of this insert (rows and bytes written so far); see docs/client.md "Progress". */
  onProgress?: ProgressListener;
  /** Least time between two onProgress events, ms (default: the client's progressInterval, 500). */
  progressInterval?: number;
}

export interface InsertResult {
  readonly queryId: string | undefined;
  readonly summary: QuerySummary | undefined;
}

export interface TableColumn {
  readonly name: string;
  readonly type: string;
  /** DESCRIBE's default kind (`DEFAULT`, `EPHEMERAL`, or '' / absent): columns with a default may be left out of a row. */
  readonly defaultKind?: string;
}
