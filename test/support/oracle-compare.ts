// Expected rows from engine JSON (+ aux) and cell-by-cell comparison with decoded rows, so that a
// failure names the case, the column, the row and both values instead of dumping two row arrays.
//
// Invariant: options are resolved here from the public DecodeOptions with the project's own
// mergeValueOptions (validation is not what we test) and per-column overrides by own property only.
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import type { TypeNode } from '../../src/types/ast.js';
import { DEFAULT_VALUE_OPTIONS, VALUE_OPTION_KEYS, mergeValueOptions, type DecodeOptions, type ResolvedValueOptions, type ValueOptions } from '../../src/plan/options.js';
import { AmbiguousContract, expectedValue } from './expect.js';

export interface OracleColumn { readonly name: string; readonly type: TypeNode }

/** The options in force for one column: defaults ← whole-result options ← that column's override. */
export function resolvedFor(options: DecodeOptions | undefined, column: string): ResolvedValueOptions {
  // Only the value options: decoder-construction keys (rows, columns, any format switches) are not ours.
  const whole: Record<string, unknown> = {};
  for (const k of VALUE_OPTION_KEYS) if (options?.[k] !== undefined) whole[k] = options[k];
  const columns = options?.columns;
  const base = mergeValueOptions(DEFAULT_VALUE_OPTIONS, whole as ValueOptions, 'options');
  const over = columns !== undefined && Object.prototype.hasOwnProperty.call(columns, column) ? columns[column] : undefined;
  return mergeValueOptions(base, over, `options.columns[${JSON.stringify(column)}]`);
}

/** Placeholder for a cell whose expectation options.ts leaves ambiguous: not compared. */
export const SKIP: unique symbol = Symbol('oracle.skip');

export interface Expected {
  readonly rows: unknown[];
  /** Columns not compared, with the reason (AmbiguousContract message). */
  readonly skipped: Map<string, string>;
}

/** Expected rows (shape from options.rows) for engine JSON rows and per-column aux. */
export function expectedRows(columns: readonly OracleColumn[], json: readonly unknown[][], aux: readonly (readonly unknown[] | undefined)[], options?: DecodeOptions): Expected {
  const resolved = columns.map((c) => resolvedFor(options, c.name));
  const skipped = new Map<string, string>();
  const rows = json.map((row, r) => {
    if (row.length !== columns.length) throw new Error(`oracle: JSON row ${r} has ${row.length} values for ${columns.length} columns`);
    const cells = columns.map((c, i) => {
      try {
        return expectedValue(c.type, row[i], resolved[i]!, aux[i]?.[r]);
      } catch (e) {
        if (e instanceof AmbiguousContract) {
          skipped.set(c.name, e.message);
          return SKIP;
        }
        (e as Error).message = `column ${JSON.stringify(c.name)} row ${r}: ${(e as Error).message}`;
        throw e;
      }
    });
    if (options?.rows === 'array') return cells;
    const obj: Record<string, unknown> = {};
    columns.forEach((c, i) => Object.defineProperty(obj, c.name, { value: cells[i], enumerable: true, writable: true, configurable: true }));
    return obj;
  });
  return { rows, skipped };
}

function show(v: unknown): string {
  if (typeof v === 'bigint') return `${v}n`;
  if (v instanceof Date) return `Date(${Number.isNaN(v.getTime()) ? 'Invalid' : v.toISOString()})`;
  if (v instanceof Uint8Array) return `Uint8Array[${[...v].join(',')}]`;
  if (v instanceof Map) return `Map{${[...v].map(([k, x]) => `${show(k)} => ${show(x)}`).join(', ')}}`;
  if (Array.isArray(v)) return `[${v.map(show).join(', ')}]`;
  if (typeof v === 'object' && v !== null) return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${show(x)}`).join(', ')}}`;
  if (typeof v === 'number' && Object.is(v, -0)) return '-0';
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

/** Assert decoded rows equal expected rows, cell by cell; `label` names the case in the message. */
export function assertRowsMatch(actual: readonly unknown[], expected: readonly unknown[], columns: readonly OracleColumn[], label: string): void {
  assert.equal(actual.length, expected.length, `${label}: row count`);
  for (let r = 0; r < expected.length; r++) {
    const a = actual[r];
    const e = expected[r];
    if (Array.isArray(e)) {
      assert.ok(Array.isArray(a), `${label}: row ${r} is not an array`);
      assert.equal(a.length, e.length, `${label}: row ${r} length`);
    } else {
      assert.ok(typeof a === 'object' && a !== null && !Array.isArray(a), `${label}: row ${r} is not an object`);
      assert.equal(Object.getPrototypeOf(a), Object.prototype, `${label}: row ${r} is not a plain object`);
      assert.deepEqual(Object.keys(a), Object.keys(e as object), `${label}: row ${r} keys (column order)`);
    }
    columns.forEach((c, i) => {
      const av = Array.isArray(e) ? (a as unknown[])[i] : Object.getOwnPropertyDescriptor(a, c.name)?.value;
      const ev = Array.isArray(e) ? e[i] : (e as Record<string, unknown>)[c.name];
      if (ev !== SKIP && !isDeepStrictEqual(av, ev)) {
        assert.fail(`${label}: column ${JSON.stringify(c.name)} (${c.type.kind}) row ${r}: got ${show(av)}, expected ${show(ev)}`);
      }
    });
  }
}

/** Rows equal by deep strict equality (used between two decoder paths: no engine needed). */
export function sameRows(a: readonly unknown[], b: readonly unknown[]): boolean {
  return isDeepStrictEqual(a, b);
}
