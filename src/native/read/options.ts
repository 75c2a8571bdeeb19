// Decode options → the resolved value options of each column, decided once per column (never per
// value), with the same validation as the RowBinary path (src/plan/options.ts).
import { ChwireConfigError } from '../../errors.js';
import { checkSessionZone } from '../../plan/session-zone.js';
import { DEFAULT_VALUE_OPTIONS, VALUE_OPTION_KEYS, mergeValueOptions, type DecodeOptions, type ResolvedValueOptions, type ValueOptions } from '../../plan/options.js';

/** DecodeOptions plus what only the Native reader needs to know. */
export interface NativeDecodeOptions extends DecodeOptions {
  /**
   * Types (in block headers and Dynamic prefixes) are binary type encodings: set this when the
   * query was sent with output_format_native_encode_types_in_binary_format=1. Default false.
   */
  binaryTypes?: boolean;
  /**
   * The zone DateTime/DateTime64 columns without their own zone are shown in by `datetime: 'text'`
   * and Map keys: set this to the query's `session_timezone`. Default: none (UTC).
   */
  sessionTimezone?: string;
}

export interface ResolvedNativeOptions {
  readonly rows: 'object' | 'array';
  readonly binaryTypes: boolean;
  /** The session's zone for zone-less date-time types (plan/session-zone.ts), or undefined. */
  readonly zone: string | undefined;
  readonly base: ResolvedValueOptions;
  /** Value options for the column `name` (overrides applied). */
  forColumn(name: string): ResolvedValueOptions;
}

export function resolveNativeOptions(options: NativeDecodeOptions | undefined): ResolvedNativeOptions {
  const rows = options?.rows ?? 'object';
  const columns = options?.columns;
  // Only the value options here: other DecodeOptions keys configure decoder construction.
  const values: Record<string, unknown> = {};
  for (const k of VALUE_OPTION_KEYS) if (options?.[k] !== undefined) values[k] = options[k];
  if (rows !== 'object' && rows !== 'array') throw new ChwireConfigError(`decode option rows must be 'object' or 'array', got ${JSON.stringify(rows)}`);
  const base = mergeValueOptions(DEFAULT_VALUE_OPTIONS, values as ValueOptions, 'options');
  const overrides = columns ?? {};
  if (typeof overrides !== 'object' || overrides === null) throw new ChwireConfigError('decode option columns must be an object keyed by column name');
  const own = (k: string) => Object.prototype.hasOwnProperty.call(overrides, k);
  for (const k of Object.keys(overrides)) mergeValueOptions(base, overrides[k], `options.columns[${JSON.stringify(k)}]`);
  const binaryTypes = options?.binaryTypes ?? false;
  if (typeof binaryTypes !== 'boolean') throw new ChwireConfigError('option binaryTypes must be a boolean');
  return {
    rows,
    binaryTypes,
    zone: checkSessionZone(options?.sessionTimezone),
    base,
    forColumn: (name) => (own(name) ? mergeValueOptions(base, overrides[name], `options.columns[${JSON.stringify(name)}]`) : base),
  };
}
