// The contract shared by every streaming row decoder (RowBinaryWithNamesAndTypes and Native), so
// that transports feed bytes without knowing the format. No `node:` imports (part of chwire/codec).

export interface ColumnInfo {
  readonly name: string;
  /** The type name as the server sent it. */
  readonly type: string;
}

export type Row = Record<string, unknown> | unknown[];

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
   * The body ended. Throws a ChwireDecodeError naming column, row and byte offset when bytes of an
   * incomplete row, block or header remain: a truncated body is never a short result.
   */
  end(): void;
  /** Total bytes pushed so far. */
  readonly bytesIn: number;
  /** Total rows returned so far. */
  readonly rowCount: number;
}
