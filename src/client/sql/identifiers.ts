// Table and column names as they go into generated SQL text (INSERT statements and schema
// lookups). Invariant: every name is either a plain identifier or back-quoted, and every string
// value a single-quoted literal, with the server's own escaping (types/quote.ts, the one place
// that knows it); nothing the caller passes can end the quoting.
import { UNESCAPES } from '../../types/quote.js';
export { quoteIdentifier, quoteString } from '../../types/quote.js';

/**
 * A quoted part starting at `s[i]` (a back-quote or a double quote), read as the server reads it:
 * the quote doubled or backslash-escaped stands for itself, `\n` and friends for their character.
 * Returns the name and the index after the closing quote, or undefined when it is not closed.
 */
function quotedAt(s: string, i: number): { name: string; end: number } | undefined {
  const q = s[i]!;
  let out = '';
  for (let j = i + 1; j < s.length; j++) {
    const c = s[j]!;
    if (c === '\\' && j + 1 < s.length) { const e = s[++j]!; out += UNESCAPES[e] ?? e; continue; }
    if (c === q) {
      if (s[j + 1] === q) { out += q; j++; continue; }
      return { name: out, end: j + 1 };
    }
    out += c;
  }
  return undefined;
}

const isQuote = (c: string | undefined): boolean => c === '`' || c === '"';

/** The rest of a name from `i` as a table name: quoted when it is exactly one quoted part, else as written. */
function tableAt(s: string, i: number): string {
  if (isQuote(s[i])) {
    const q = quotedAt(s, i);
    if (q !== undefined && q.end === s.length) return q.name;
  }
  return s.slice(i);
}

/**
 * `db.table` or `table` → [database | undefined, table], each part bare or quoted as ClickHouse
 * writes it (back-quotes or double quotes, the quote doubled or backslash-escaped inside): for a
 * table ``we"ird`t`` in database `s`, `s.we"ird`t`, `` `s`.`we"ird``t` ``, `"s"."we""ird`t"`. A
 * bare database ends at the first dot (a bare table name may hold dots); a quoted part may hold
 * anything. Text that is not of this shape is one bare table name.
 */
export function splitTableName(table: string): [string | undefined, string] {
  if (isQuote(table[0])) {
    const db = quotedAt(table, 0);
    if (db === undefined) return [undefined, table];
    if (db.end === table.length) return [undefined, db.name];
    if (table[db.end] === '.' && db.end + 1 < table.length) return [db.name, tableAt(table, db.end + 1)];
    return [undefined, table];
  }
  const dot = table.indexOf('.');
  if (dot <= 0 || dot === table.length - 1) return [undefined, table];
  return [table.slice(0, dot), tableAt(table, dot + 1)];
}
