// A value and its ClickHouse type → a SQL literal, for servers without query parameters (before
// 19.11, such as 18.16) and for SQL that must be written out (a view, a migration): the same text
// chwire sends for the elements of an array parameter, wrapped in a CAST to the type.
//
// Invariant: `SELECT <sqlLiteral(v, T)>` gives back exactly v as a T (property-tested on the
// engine's parser and on 18.16 with hostile strings: quotes, backslashes, control characters,
// invalid UTF-8 bytes, every plane of Unicode). The type text is parsed and printed again by
// chwire (never spliced as given); the value can never end the literal: quotes and backslashes
// are escaped, and what the text form cannot carry is a ChwireConfigError naming the kind of the
// value, never the value. A value the insert path would refuse for the type (an integer out of
// range or with a fraction, too many Decimal digits, a Date outside the type's range, an unknown
// Enum label, a string too long for a FixedString: value-check.ts) is refused too, never cast
// to something else.
import { ChwireConfigError } from '../../errors.js';
import { isIntKind } from '../../types/ast.js';
import { parseType } from '../../types/parse.js';
import { printType } from '../../types/print.js';
import { formatLiteral, type QueryParamValue } from './params.js';
import { ValueChecker } from './value-check.js';

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

/**
 * An integer as bare decimal digits (`sqlInteger(100)` → `100`), checked to fit the integer type
 * `type` (UInt64 by default) as an insert checks it: for places where a `CAST` is not accepted,
 * such as `LIMIT` and `OFFSET` on servers before 20.x (18.16 refuses `LIMIT CAST(100 AS UInt32)`).
 * The literal's type is the server's choice for those digits (the smallest that holds them), not
 * `type`: use sqlLiteral where the type matters. Takes a number (a safe integer), a bigint or
 * decimal integer text; anything else is a ChwireConfigError naming the type, never the value.
 */
export function sqlInteger(value: number | bigint | string, type = 'UInt64'): string {
  const t = parseType(type);
  if (!isIntKind(t.kind)) throw new ChwireConfigError(`sqlInteger: ${printType(t)} is not an integer type (UInt8 … Int256)`);
  const why = new ValueChecker(true).refusal(value, t);
  if (why !== undefined) throw new ChwireConfigError(`sqlInteger: ${why}`);
  if (typeof value !== 'number' && typeof value !== 'bigint' && typeof value !== 'string') {
    throw new ChwireConfigError(`sqlInteger: cannot write ${typeof value} as an integer`);
  }
  return BigInt(value).toString();
}
