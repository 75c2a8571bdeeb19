// Options → plan: every decision about a result set, made once before any code is generated.
//
// Invariant: the plan is plain data and the ONLY input of code generation; its `key` (a string
// that spells out every decision) is the compiled-decoder cache key. Nothing decided here is
// looked at again per value. Per-column overrides are matched by own property of
// `options.columns` (so a column named "__proto__" or "constructor" cannot pick up inherited
// junk); overrides naming no column of the result are ignored (options may be shared by queries).
import type { TypeNode } from '../types/ast.js';
import { ChwireConfigError } from '../errors.js';
import {
  DECODE_OPTION_KEYS, DEFAULT_VALUE_OPTIONS, VALUE_OPTION_KEYS, mergeValueOptions,
  type DecodeOptions, type ResolvedValueOptions,
} from './options.js';

export interface ColumnPlan {
  readonly name: string;
  /** The type name as the server sent it (or as printed when the header was binary). */
  readonly typeText: string;
  readonly type: TypeNode;
  readonly opts: ResolvedValueOptions;
}

export interface RowPlan {
  readonly rows: 'object' | 'array';
  readonly columns: readonly ColumnPlan[];
  /** Every decision spelled out; equal keys ⇒ identical generated code. */
  readonly key: string;
}

export interface PlanColumnInput {
  readonly name: string;
  readonly type: TypeNode;
  readonly typeText: string;
}

const KNOWN_TOP = new Set(['rows', 'columns', ...VALUE_OPTION_KEYS]);

/** Split DecodeOptions into the whole-result value options, validated. */
export function resolveBaseOptions(options: DecodeOptions | undefined): { rows: 'object' | 'array'; base: ResolvedValueOptions } {
  if (options === undefined) return { rows: 'object', base: DEFAULT_VALUE_OPTIONS };
  const { rows, columns: _columns, ...whole } = options as DecodeOptions & Record<string, unknown>;
  for (const k of Object.keys(whole)) {
    if (!KNOWN_TOP.has(k) && (whole as Record<string, unknown>)[k] !== undefined) {
      // binaryTypes and similar construction options are stripped by the caller before this.
      throw new ChwireConfigError(`unknown decode option ${JSON.stringify(k)}`);
    }
  }
  if (rows !== undefined && rows !== 'object' && rows !== 'array') {
    throw new ChwireConfigError(`decode option rows must be 'object' or 'array', got ${JSON.stringify(rows)}`);
  }
  return { rows: rows ?? 'object', base: mergeValueOptions(DEFAULT_VALUE_OPTIONS, whole, 'options') };
}

/**
 * Decode options given once for many results (a client's defaults, DECODE_OPTION_KEYS of `o`,
 * the only keys read): every value checked now, per-column overrides included (those of columns
 * no result has yet, too), so a bad one fails where it is given, not at the first result.
 */
export function checkDecodeOptions(o: Readonly<Partial<Record<keyof DecodeOptions, unknown>>>): void {
  const given: Record<string, unknown> = {};
  for (const k of DECODE_OPTION_KEYS) {
    const v = o[k];
    if (v !== undefined) given[k] = v;
  }
  const options = given as DecodeOptions;
  resolvePlan([], options);
  for (const [name, over] of Object.entries(options.columns ?? {})) {
    const where = `options.columns[${JSON.stringify(name)}]`;
    if (over !== undefined && (typeof over !== 'object' || over === null || Array.isArray(over))) throw new ChwireConfigError(`decode option ${where} must be an object of value options`);
    mergeValueOptions(DEFAULT_VALUE_OPTIONS, over, where);
  }
}

export function resolvePlan(columns: readonly PlanColumnInput[], options?: DecodeOptions): RowPlan {
  const { rows, base } = resolveBaseOptions(options);
  const overrides = options?.columns;
  if (overrides !== undefined && (typeof overrides !== 'object' || overrides === null)) {
    throw new ChwireConfigError('decode option columns must be an object keyed by column name');
  }
  const cols: ColumnPlan[] = columns.map((c) => {
    const over = overrides !== undefined && Object.prototype.hasOwnProperty.call(overrides, c.name) ? overrides[c.name] : undefined;
    const opts = mergeValueOptions(base, over, `options.columns[${JSON.stringify(c.name)}]`);
    return { name: c.name, typeText: c.typeText, type: c.type, opts };
  });
  // The type node, not only its text: a column may be read as another type (JSON as String).
  const key = JSON.stringify([rows, cols.map((c) => [c.name, c.typeText, c.type, VALUE_OPTION_KEYS.map((k) => c.opts[k])])]);
  return { rows, columns: cols, key };
}

