// The insert path's value checks applied to values that travel another way: query parameters
// (params.ts) and SQL literals (literal.ts). The server wraps, truncates or rounds what does not
// fit there (`{p:UInt8}` = 300 reads 44, `CAST(-5 AS UInt64)` reads 2^64 - 5, `{p:Decimal(9, 2)}`
// = 1.239 reads 1.23), so the client refuses such a value before sending it, with the same
// coercer the Native encoder runs on an inserted value (convert/value-checks.ts scalarCoercer).
//
// Invariant: a value is checked only where the insert coercer reads it as the server reads the
// text chwire sends for it; where the two readings differ the value goes to the server as before
// (which then refuses it or reads it its own way, as documented): digits for a Date/Date32
// parameter (the server reads them as date text, `20240101`), numbers for DateTime64 (inserts read
// ticks, parameters and CAST seconds), strings for date-time, float, Bool and IPv4 types (the
// server's text parsers). The refusal names the type and the kind of the value, never the value.
import type { TypeNode } from '../../types/ast.js';
import { printType } from '../../types/print.js';
import { describeValue } from '../../errors.js';
import { EncodeFail } from '../../convert/encode-values.js';
import { scalarCoercer } from '../../convert/value-checks.js';

/** Types whose string values the insert coercer reads as the server does. */
const STRING_CHECKED = new Set<string>([
  'UInt8', 'UInt16', 'UInt32', 'UInt64', 'UInt128', 'UInt256', 'Int8', 'Int16', 'Int32', 'Int64', 'Int128', 'Int256',
  'Decimal', 'Enum8', 'Enum16', 'FixedString',
]);

const DATE_KINDS = new Set<string>(['Date', 'Date32', 'DateTime', 'DateTime64']);

/** Whether the insert coercer reads `v` as the server reads the text sent for it (see the header). */
function checked(v: unknown, kind: string, sql: boolean): boolean {
  switch (typeof v) {
    case 'number': case 'bigint':
      if (kind === 'DateTime64') return false;
      return sql || (kind !== 'Date' && kind !== 'Date32');
    case 'string': return STRING_CHECKED.has(kind);
    case 'boolean': return kind === 'Bool';
    case 'object':
      if (v instanceof Date) return DATE_KINDS.has(kind);
      return v instanceof Uint8Array && kind === 'FixedString';
    default: return false;
  }
}

/**
 * Checks values against their declared types, one coercer per type node (a call's parameters, or
 * one literal): made when first needed, kept for the checker's life, never shared between calls.
 */
export class ValueChecker {
  private readonly coercers = new Map<TypeNode, ((v: unknown) => unknown) | undefined>();

  /** `sql`: the value becomes a SQL literal (CAST semantics) rather than a parameter's text. */
  constructor(private readonly sql: boolean) {}

  /**
   * Why `v` cannot be sent as a `t`: `<kind of v> is not <what t takes> (<t>)`, or undefined when
   * it can (or is not checked here). `t` is the bare type (Nullable and LowCardinality removed).
   */
  refusal(v: unknown, t: TypeNode): string | undefined {
    if (!checked(v, t.kind, this.sql)) return undefined;
    let coerce = this.coercers.get(t);
    if (coerce === undefined && !this.coercers.has(t)) this.coercers.set(t, coerce = scalarCoercer(t));
    if (coerce === undefined) return undefined;
    try {
      coerce(v);
      return undefined;
    } catch (e) {
      if (!(e instanceof EncodeFail)) throw e;
      return `${describeValue(v)} is not ${e.expected} (${printType(t)})`;
    }
  }
}
