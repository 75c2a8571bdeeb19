// Result columns that share a name. Invariant: a result read as object rows never has two columns
// under one name: one key of an object cannot hold two columns, so the later would silently
// replace the earlier. Decided once per result set, from its header, before any row is handed
// over. Array rows (`rows: 'array'`), fetchValue and fetchColumns keep columns by position and
// are unaffected.
import { ChwireDecodeError } from '../../errors.js';
import type { ColumnInfo } from '../../stream-decoder.js';

/** The error for the first name two columns share, or undefined when all names are distinct. */
export function duplicateColumnError(columns: readonly ColumnInfo[], queryId: string | undefined): ChwireDecodeError | undefined {
  const seen = new Set<string>();
  for (const c of columns) {
    if (!seen.has(c.name)) { seen.add(c.name); continue; }
    const name = JSON.stringify(c.name.length > 200 ? `${c.name.slice(0, 200)}…` : c.name);
    return new ChwireDecodeError(
      `the result has two columns named ${name}, and an object row has one key per name (the second would silently replace the first): give them distinct aliases (SELECT x AS a, y AS b), or read rows as arrays with { rows: 'array' }`,
      { column: c.name, offset: 0 },
      { queryId },
    );
  }
  return undefined;
}
