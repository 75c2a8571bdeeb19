// Type-only names of @clickhouse/client 1.x that chwire/compat's own modules do not need but that
// libraries built on the official client import (Cube, hypequery, @effect/sql-clickhouse: see
// alias/ and test/server.libraries.test.ts), declared as the official 1.23 declares them so that
// their declarations type-check against chwire/compat with `skipLibCheck: false`. No runtime code.

/** The server's X-ClickHouse-Summary, as the official client types it (numbers as strings). */
export interface ClickHouseSummary {
  read_rows: string;
  read_bytes: string;
  written_rows: string;
  written_bytes: string;
  total_rows_to_read: string;
  result_rows: string;
  result_bytes: string;
  elapsed_ns: string;
  /** Sent by ClickHouse 24.9 and later. */
  real_time_microseconds?: string;
}

/** A JSON document insert() takes (the official InputJSON: the shape of the `JSON` format's output). */
export interface InputJSON<T = unknown> {
  meta: { name: string; type: string }[];
  data: T[];
}

/** JSONObjectEachRow's input: rows keyed by name. */
export type InputJSONObjectEachRow<T = unknown> = Record<string, T>;

/** What insert()'s `values` may be (the official InsertValues<Stream, T>). */
export type InsertValues<Stream, T = unknown> = ReadonlyArray<T> | Stream | InputJSON<T> | InputJSONObjectEachRow<T>;
