// The `ch` value helpers of chwire/kysely: what a JavaScript value cannot say about its ClickHouse
// type. `ch.type(v, 'LowCardinality(String)')` sends v as that type; `ch.decimal('1.5', 18, 4)` a
// Decimal from its text, exactly. Invariant: a wrapped value's type text is parsed and printed
// again by chwire (never spliced as given); the value is checked against it when it is sent.
import { ChwireConfigError } from '../errors.js';
import { parseType } from '../types/parse.js';
import { printType } from '../types/print.js';
import type { QueryParamValue } from '../client/sql/params.js';

/** A value with the ClickHouse type it is sent as. */
export class ChTyped {
  constructor(readonly value: QueryParamValue, readonly type: string) {}
}

function typed(value: QueryParamValue, type: string): ChTyped {
  if (typeof type !== 'string') throw new ChwireConfigError('ch.type: the type must be a ClickHouse type name (a string)');
  return new ChTyped(value, printType(parseType(type)));
}

// Each helper is typed as the value it wraps, so Kysely's builder takes it where the column's value
// goes (`where('amount', '=', ch.decimal('1.5', 18, 4))`); at run time it is a ChTyped.
export const ch = {
  /** `value` sent as the ClickHouse type `type` (checked against it before sending). */
  type<V extends QueryParamValue>(value: V, type: string): V {
    return typed(value, type) as unknown as V;
  },
  /** A Decimal(precision, scale) from its decimal text, exactly. */
  decimal(value: string, precision: number, scale: number): string {
    if (!Number.isInteger(precision) || !Number.isInteger(scale)) throw new ChwireConfigError('ch.decimal: precision and scale must be integers');
    return typed(value, `Decimal(${precision}, ${scale})`) as unknown as string;
  },
} as const;
