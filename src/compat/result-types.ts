// The shapes of query() results that both compat entries share (chwire/compat over node:http,
// chwire/compat/web over fetch): response headers, ResponseJSON, json()'s type per format, a
// streamed row, and the bound text() and json() read within. Types and one small factory only;
// runtime-neutral. Invariant: the official client's names and shapes.
import { ResultBudget } from '../client/read/result-limits.js';
import type { RawFormat, SingleDocumentJSONFormat, StreamableJSONFormat } from './formats.js';

export type ResponseHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** The official ResponseJSON: what json() gives for JSON, JSONCompact, JSONStrings, … */
export interface ResponseJSON<T = unknown> {
  data: T[];
  query_id?: string;
  totals?: T;
  extremes?: Record<string, unknown>;
  meta?: { name: string; type: string }[];
  statistics?: { elapsed: number; rows_read: number; bytes_read: number };
  rows?: number;
  rows_before_limit_at_least?: number;
}

/** json()'s type as the official client types it: an array of rows for the streamable JSON formats, ResponseJSON for the documents. */
export type ResultJSONType<T, F extends string> =
  F extends StreamableJSONFormat ? T[]
    : F extends 'JSONObjectEachRow' ? Record<string, T>
      : F extends SingleDocumentJSONFormat ? ResponseJSON<T>
        : F extends RawFormat ? never
          : T;

/** One line of a streamed result. */
export interface Row<T = unknown> {
  /** The line's text, without its newline. */
  readonly text: string;
  /** The line parsed with the client's JSON handling (JSON formats). */
  json<U = T>(): U;
}

const COMPAT_HINT = {
  perCall: undefined,
  client: (o: string, v: number): string => `createClient({ ${o}: ${v} })`,
  stream: 'read it with stream(), which holds no result',
};

/** The bound of text() or json() (`call`): max_result_bytes (0: none), named by the compat option. */
export function resultBudget(maxBytes: number, call: string, queryId: string): ResultBudget {
  return new ResultBudget(maxBytes, 0, call, queryId, COMPAT_HINT, { bytes: 'max_result_bytes', rows: 'max_result_rows' });
}
