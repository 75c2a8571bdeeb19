// A value and its ClickHouse type → a SQL literal, for servers without query parameters (before
// 19.11, such as 18.16) and for SQL that must be written out (a view, a migration): the same text
// chwire sends for the elements of an array parameter, wrapped in a CAST to the type.
//
// Invariant: `SELECT <sqlLiteral(v, T)>` gives back exactly v as a T (property-tested on the
// engine's parser and on 18.16 with hostile strings: quotes, backslashes, control characters,
// invalid UTF-8 bytes, every plane of Unicode). The type text is parsed and printed again by
// chwire (never spliced as given); the value can never end the literal: quotes and backslashes
// are escaped, and what the text form cannot carry is a ChwireConfigError naming the kind of the
// value, never the value.
import { parseType } from '../types/parse.js';
import { printType } from '../types/print.js';
import { formatLiteral, type QueryParamValue } from './params.js';

/**
 * `sqlLiteral('it\'s', 'String')` → `CAST('it\'s' AS String)`; `sqlLiteral([1n, 2n], 'Array(UInt64)')`
 * → `CAST([1, 2] AS Array(UInt64))`; `sqlLiteral(null, 'Nullable(String)')` → `CAST(NULL AS Nullable(String))`.
 * Values as for query parameters (docs/client.md "Parameters"): strings, numbers, bigints, booleans,
 * Dates, Uint8Array (the exact bytes of a String), null, arrays, `tuple(…)`, Maps and plain objects.
 */
export function sqlLiteral(value: QueryParamValue, type: string): string {
  const t = parseType(type);
  return `CAST(${formatLiteral(value, 'value', t)} AS ${printType(t)})`;
}
