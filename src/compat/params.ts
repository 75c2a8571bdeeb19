// The official client's value classes for settings and query parameters, and its query_params as
// chwire's. Runtime-neutral.
// Invariants: a TupleParam is chwire's QueryTuple (formatted as `(…)` by the same code); a
// SettingsMap is sent as the text the official client sends for it; a top-level parameter that is
// undefined is sent as NULL (`\N`), as the official client sends it.
import { QueryTuple, type QueryParams } from '../client/sql/params.js';

/** A tuple value for `{name:Tuple(…)}` placeholders (the official TupleParam). */
export class TupleParam extends QueryTuple {
  constructor(values: readonly unknown[]) {
    super(values);
  }
}

/** A Map setting (e.g. additional_table_filters), sent as `{'k':'v',…}` (the official SettingsMap). */
export class SettingsMap {
  private constructor(private readonly record: Record<string, string>) {}

  toString(): string {
    return `{${Object.entries(this.record).map(([k, v]) => `'${k}':'${v}'`).join(',')}}`;
  }

  static from(record: Record<string, string>): SettingsMap {
    return new SettingsMap(record);
  }
}

/** The official query_params as chwire's: a top-level undefined becomes null (sent as `\N`). */
export function paramsOf(p: Record<string, unknown> | undefined): QueryParams | undefined {
  if (p === undefined) return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(p)) out[k] = v === undefined ? null : v;
  return out as QueryParams;
}
