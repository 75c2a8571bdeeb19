// Which columns an insert of object rows sends, so that a column left out gets the server's
// default (DEFAULT and EPHEMERAL expressions; ALIAS and MATERIALIZED are never sent): decided once
// per insert from its first row, never per row.
//
// Invariants:
// - A column with a default that the first row leaves out (no key, or `undefined`) is not in the
//   INSERT's column list: the server computes its default for every row of the insert (a Nullable
//   column with a DEFAULT gets its default, never NULL). Every other column is sent: a Nullable
//   one without a default that a row leaves out is NULL, as before.
// - The rows of one insert agree with its first row: a later row that gives a column the first row
//   left out fails naming the row and the column (explainLeftOut) instead of the value being
//   dropped; a later row that leaves out a Nullable column with a default that the first row gave
//   fails too (guardNullableDefaults) instead of writing NULL where the default was meant. Other
//   columns left out by a later row are refused by the encoder, naming row and column.
// - Explicit `columns` options and array rows are not touched (the caller chose the columns).
import { ChwireConfigError, ChwireEncodeError } from '../../errors.js';
import type { TableColumn } from './insert-types.js';

/** DESCRIBE's default kinds whose column may be left out of an INSERT's column list. */
const DEFAULTED = new Set(['DEFAULT', 'EPHEMERAL']);

/** The columns an insert's `columns` option names, in its order, or a ChwireConfigError naming one the table lacks. */
export function namedInsertColumns(table: string, schema: readonly TableColumn[], names: readonly string[]): TableColumn[] {
  const byName = new Map(schema.map((c) => [c.name, c]));
  return names.map((n) => {
    const c = byName.get(n);
    if (c === undefined) throw new ChwireConfigError(`table ${table} has no insertable column ${JSON.stringify(n)}`);
    return c;
  });
}

export interface InsertColumnChoice {
  /** The columns to send, in table order. */
  readonly columns: TableColumn[];
  /** Columns with a default the first row left out (the server writes their default). */
  readonly leftOut: ReadonlySet<string>;
  /** Nullable columns with a default the first row gave: a later row must give them too. */
  readonly guarded: readonly string[];
}

function nullable(type: string): boolean {
  return /^(LowCardinality\()?Nullable\(/.test(type);
}

/** The columns an insert whose first row is `first` (an object) sends. */
export function chooseInsertColumns(schema: readonly TableColumn[], first: object): InsertColumnChoice {
  const row = first as Record<string, unknown>;
  const columns: TableColumn[] = [];
  const leftOut = new Set<string>();
  const guarded: string[] = [];
  for (const c of schema) {
    // As the encoder reads a row: own or inherited keys, except names Object.prototype has (own only).
    const given = (Object.prototype.hasOwnProperty.call(row, c.name) || !(c.name in Object.prototype)) && row[c.name] !== undefined;
    if (c.defaultKind !== undefined && DEFAULTED.has(c.defaultKind)) {
      if (!given) { leftOut.add(c.name); continue; }
      if (nullable(c.type)) guarded.push(c.name);
    }
    columns.push(c);
  }
  return { columns, leftOut, guarded };
}

function leftOutError(row: number, column: string, cause?: unknown): ChwireEncodeError {
  return new ChwireEncodeError('a column the first row left out', {
    column, row, value: undefined,
    expected: `no value: the first row of this insert left ${JSON.stringify(column)} out, so the server writes its default for every row (an insert's columns are decided by its first row; give the column in the first row, or insert such rows separately)`,
  }, cause === undefined ? undefined : { cause });
}

/** The encoder's "unknown column" for a column the first row left out, said as what it is. */
export function explainLeftOut(e: unknown, choice: InsertColumnChoice | undefined): unknown {
  if (choice === undefined || !(e instanceof ChwireEncodeError) || !e.message.startsWith('unknown column') || !choice.leftOut.has(e.column)) return e;
  return leftOutError(e.row, e.column, e);
}

function missingError(row: number, column: string): ChwireEncodeError {
  return new ChwireEncodeError('a column the first row gave is missing', {
    column, row, value: undefined,
    expected: `a value or null: ${JSON.stringify(column)} is Nullable with a default, and the first row of this insert gave it, so it is sent for every row (leaving it out here would write NULL, not its default; insert such rows separately)`,
  });
}

/**
 * The rows, checked that each gives the guarded columns (only when there are any: a loop over the
 * guarded columns per row, nothing else). Arrays are checked whole before encoding starts.
 */
export type RowSourceOf = { kind: 'array'; rows: readonly unknown[] } | { kind: 'sync'; rows: Iterable<unknown> } | { kind: 'async'; rows: AsyncIterable<unknown> };

export function guardNullableDefaults(source: RowSourceOf, guarded: readonly string[]): RowSourceOf {
  if (guarded.length === 0) return source;
  const check = (r: unknown, i: number): void => {
    if (typeof r !== 'object' || r === null) return; // the encoder reports a row that is no object
    for (const c of guarded) if ((r as Record<string, unknown>)[c] === undefined) throw missingError(i, c);
  };
  if (source.kind === 'array') {
    source.rows.forEach(check);
    return source;
  }
  if (source.kind === 'sync') {
    const rows = source.rows;
    return { kind: 'sync', rows: (function* () { let i = 0; for (const r of rows) { check(r, i++); yield r; } })() };
  }
  const rows = source.rows;
  return { kind: 'async', rows: (async function* () { let i = 0; for await (const r of rows) { check(r, i++); yield r; } })() };
}
