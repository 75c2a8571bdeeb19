// Table and column names as they go into generated SQL text (INSERT statements and schema
// lookups). Invariant: every name is either a plain identifier or back-quoted with `\` and the
// back-quote escaped, and every string value is a single-quoted literal with `\` and `'` escaped;
// nothing the caller passes can end the quoting.

const PLAIN = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function quoteIdentifier(name: string): string {
  return PLAIN.test(name) ? name : `\`${name.replace(/\\/g, '\\\\').replace(/`/g, '\\`')}\``;
}

export function quoteString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** `db.table` or `table` → [database | undefined, table]. A back-quoted part may contain dots. */
export function splitTableName(table: string): [string | undefined, string] {
  const m = /^(?:(`(?:[^`\\]|\\.)+`|[^.`]+)\.)?(`(?:[^`\\]|\\.)+`|[^`]+)$/.exec(table);
  if (m === null) return [undefined, table];
  const unq = (s: string): string => (s.startsWith('`') ? s.slice(1, -1).replace(/\\(.)/g, '$1') : s);
  return [m[1] === undefined ? undefined : unq(m[1]), unq(m[2]!)];
}
