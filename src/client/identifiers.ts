// Table and column names as they go into generated SQL text (INSERT statements and schema
// lookups). Invariant: every name is either a plain identifier or back-quoted, and every string
// value a single-quoted literal, with the server's own escaping (types/quote.ts, the one place
// that knows it); nothing the caller passes can end the quoting.
export { quoteIdentifier, quoteString } from '../types/quote.js';

/** `db.table` or `table` → [database | undefined, table]. A back-quoted part may contain dots. */
export function splitTableName(table: string): [string | undefined, string] {
  const m = /^(?:(`(?:[^`\\]|\\.)+`|[^.`]+)\.)?(`(?:[^`\\]|\\.)+`|[^`]+)$/.exec(table);
  if (m === null) return [undefined, table];
  const unq = (s: string): string => (s.startsWith('`') ? s.slice(1, -1).replace(/\\(.)/g, '$1') : s);
  return [m[1] === undefined ? undefined : unq(m[1]), unq(m[2]!)];
}
