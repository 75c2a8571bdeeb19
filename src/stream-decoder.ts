// The contract shared by every streaming row decoder (RowBinaryWithNamesAndTypes and Native), so
// that transports feed bytes without knowing the format. No `node:` imports (part of chwire/codec).

export interface ColumnInfo {
  readonly name: string;
  /** The type name as the server sent it. */
  readonly type: string;
}

export type Row = Record<string, unknown> | unknown[];

/**
 * Rows of one decoded part of a body (a Native block), built on demand: `row(i)` returns a fresh
 * row equal to the one `push` would have returned, for 0 ≤ i < length. The source holds only the
 * part's compact column data, so a consumer that takes rows one by one and drops each keeps them
 * short-lived; dropping the source frees the part.
 */
export interface RowSource<R = Row> {
  readonly length: number;
  row(i: number): R;
}

export interface RowStreamDecoder<R = Row> {
  /** Column names and types once the header (or first block) has been read; undefined before. */
  readonly columns: readonly ColumnInfo[] | undefined;
  /**
   * Feed the next chunk of the body. Returns the rows that this chunk completed (possibly none).
   * The decoder keeps the bytes of an incomplete row (or block) until the next chunk arrives.
   * The caller may reuse `chunk` after the call returns.
   */
  push(chunk: Uint8Array): R[];
  /**
   * Optional: like `push`, but the completed rows come as RowSources in order (none for a chunk
   * that completed no row). Decoders offer it when building rows lazily is cheaper than building
   * them all at once. A decoder may expect one of push / pushSources to be used for a whole body
   * (mixing them must still give every row once, in order).
   */
  pushSources?(chunk: Uint8Array): RowSource<R>[];
  /**
   * Optional: pushSources for rows the caller keeps (fetch), which builds a big block's rows in
   * slices between turns of the event loop. Same mixing rule as pushSources.
   */
  pushBuilt?(chunk: Uint8Array): RowSource<R>[];
  /**
   * The body ended. Throws a ChwireDecodeError naming column, row and byte offset when bytes of an
   * incomplete row, block or header remain: a truncated body is never a short result.
   */
  end(): void;
  /** Total bytes pushed so far. */
  readonly bytesIn: number;
  /** Total rows returned so far (by push, or in the sources pushSources returned). */
  readonly rowCount: number;
}
