// The client as its parts see it: the per-call options (QueryOptions, ExecOptions), the result
// type (Rows) and ClientCore, the part of the client that insert.ts, columns.ts,
// column-stream.ts and table-schema.ts call back into. Invariant: this module holds types only
// and imports nothing of the modules that use it, so client.ts sits above its parts and the
// parts below it (no import cycle through the client; test/imports.test.ts).
import type { DecodeOptions } from '../plan/options.js';
import type { ColumnInfo, Row } from '../stream-decoder.js';
import type { QuerySummary, ServerInfo, Transport, TransportRequest, TransportResponse } from '../transport/types.js';
import type { Capabilities } from './capabilities.js';
import type { Settings } from './options/config.js';
import type { QueryParams } from './sql/params.js';
import type { RawOptions, RawStream } from './read/raw-stream.js';
import type { SchemaCache } from './schema-cache.js';
import type { CallSurface, CallSurfaceOptions } from './options/call-surface.js';
import type { ProgressListener } from './observe/progress.js';
import type { ResultLimitOptions, ResultLimits } from './read/result-limits.js';

export interface QueryOptions extends DecodeOptions, CallSurfaceOptions, ResultLimitOptions {
  /** Values for `{name:Type}` placeholders, sent as `param_name` (never spliced into the SQL). */
  params?: QueryParams;
  settings?: Settings;
  queryId?: string;
  /** Queries with the same session id run one after another on the server's session. */
  sessionId?: string;
  signal?: AbortSignal;
  /** Wire format for rows; default RowBinaryWithNamesAndTypes (Native on servers without it). */
  format?: 'RowBinaryWithNamesAndTypes' | 'Native';
  /** Live progress of this call (rows and bytes read and written so far); see docs/client.md "Progress". */
  onProgress?: ProgressListener;
  /** Least time between two onProgress events, ms (default: the client's progressInterval, 500). */
  progressInterval?: number;
  /**
   * Milliseconds the whole call may take (fetch, fetchOne, fetchValue, fetchColumns, execute)
   * before ChwireTimeoutError, however steadily bytes arrive; default the client's callTimeout.
   * Not taken by streams (use `signal: AbortSignal.timeout(ms)`).
   */
  callTimeout?: number;
}

export type ExecOptions = Omit<QueryOptions, 'format' | keyof DecodeOptions | keyof ResultLimitOptions> & {
  /** The statement is safe to run twice (e.g. `CREATE TABLE IF NOT EXISTS`): retried like a read. Default false. */
  idempotent?: boolean;
};

/** All rows of a result, with its metadata as extra (non-enumerable) properties. */
export type Rows<R> = R[] & {
  readonly columns: readonly ColumnInfo[];
  readonly queryId: string | undefined;
  readonly summary: QuerySummary | undefined;
};

/** What insert.ts, columns.ts and table-schema.ts need from the client (client.ts implements it). */
export interface ClientCore {
  readonly transport: Transport;
  readonly database: string | undefined;
  readonly insertBlockSize: number;
  readonly requestTimeout: number;
  /** The client's bounds of buffered results, as given (result-limits.ts). */
  readonly resultLimits: ResultLimits;
  readonly schemas: SchemaCache;
  streamRaw(sql: string, opts: RawOptions): RawStream;
  /**
   * The client's own query for the call `parentQueryId` (an insert's DESCRIBE): streamRaw observed
   * as `kind`, as that call's child (its span's child; `parentQueryId` on the channel), never as a call of the app's.
   */
  internalRaw(sql: string, opts: RawOptions, kind: string, parentQueryId: string | undefined): RawStream;
  capabilities(signal?: AbortSignal): Promise<{ info: ServerInfo; caps: Capabilities }>;
  settingsFor(opts: { settings?: Settings | undefined }, auto?: Record<string, string>): Record<string, string>;
  lock(sessionId: string | undefined): Promise<() => void>;
  /** Parameters in the server's text form; ChwireConfigError when the server is too old for them. */
  queryParams(opts: { params?: QueryParams | undefined }, caps: Capabilities, info: ServerInfo, sql?: string): Promise<Record<string, string> | undefined>;
  /** The call's role and httpHeaders, validated; ChwireConfigError when the server is too old for roles. */
  surface(opts: CallSurfaceOptions, caps: Capabilities, info: ServerInfo): CallSurface;
  /** fetch with the library's decode defaults, not the client's (for the client's own queries). */
  fetchPlain<R = Row>(sql: string, opts?: QueryOptions): Promise<Rows<R>>;
  /** transport.request, observed when the request's query id belongs to an observed call (see observe/). */
  request(req: TransportRequest): Promise<TransportResponse>;
}
