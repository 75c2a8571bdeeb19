// What a `chwire gen` module calls at run time besides the client (exported from `chwire/codec`):
// the check that a result has the columns the module was generated for, once per result, so a
// row's declared type and its values cannot disagree silently (a setting such as join_use_nulls, a
// server profile or a schema change can change a result's types without changing the query).
//
// Invariant: the check compares each column's name and type text exactly (the header the module
// was generated from against the header received), once per result and never per row; a
// mismatch is a ChwireDecodeError naming the query, the column, the expected and the received type.
// No `node:` imports (part of `chwire/codec`).
import { ChwireDecodeError } from '../errors.js';

/** A result header as a generated module spells it: [name, ClickHouse type] per column. */
export type ExpectedColumns = readonly (readonly [string, string])[];

interface Column { readonly name: string; readonly type: string }

/** What checkedStream needs of a stream (a RowStream has it; declared here so chwire/codec needs no client types). */
export interface CheckableStream {
  [Symbol.asyncIterator](): AsyncIterator<unknown>;
  batches(): AsyncIterable<unknown[]>;
  readonly columns: readonly Column[] | undefined;
  readonly queryId: string | undefined;
  readonly summary: unknown;
  cancel(): void;
}

/**
 * Throws unless `got` has exactly the `expected` columns (names, types, order). `got` undefined or
 * empty (no header: an empty result in Native, which sends no block) passes: there is no row to
 * mistype (a result always has a column when it has a header).
 */
export function checkColumns(what: string, expected: ExpectedColumns, got: readonly Column[] | undefined): void {
  if (got === undefined || got.length === 0) return;
  const n = Math.max(expected.length, got.length);
  for (let k = 0; k < n; k++) {
    const e = expected[k];
    const g = got[k];
    if (e !== undefined && g !== undefined && e[0] === g.name && e[1] === g.type) continue;
    const fix = 'the module no longer describes this result: a setting (e.g. join_use_nulls), a server profile or a schema change altered it; run `chwire gen` again or call without what changed it';
    let message: string;
    if (e === undefined) message = `${what}: the result has an extra column ${JSON.stringify(g!.name)} (${g!.type}) at position ${k + 1}`;
    else if (g === undefined) message = `${what}: column ${JSON.stringify(e[0])} (${e[1]}) is missing from the result`;
    else if (e[0] !== g.name) message = `${what}: column ${k + 1} is ${JSON.stringify(g.name)} (${g.type}), expected ${JSON.stringify(e[0])} (${e[1]})`;
    else message = `${what}: column ${JSON.stringify(e[0])} is ${g.type} in the result, expected ${e[1]}`;
    throw new ChwireDecodeError(`${message}: ${fix}`, { column: (g ?? { name: e![0] }).name, offset: 0 });
  }
}

/**
 * The stream, with its columns checked before the first row (or batch) is handed over; a
 * mismatch cancels the query and throws from the loop. After the check each step is the inner
 * stream's own (one boolean test).
 */
export function checkedStream<S extends CheckableStream>(what: string, expected: ExpectedColumns, stream: S): S {
  let checked = false;
  const check = (): void => {
    if (checked) return;
    try {
      checkColumns(what, expected, stream.columns);
    } catch (e) {
      stream.cancel();
      throw e;
    }
    checked = true;
  };
  const wrap = <T>(inner: AsyncIterator<T>): AsyncIterableIterator<T> => {
    const it: AsyncIterableIterator<T> = {
      next: () => (checked ? inner.next() : inner.next().then((r) => { if (r.done !== true) check(); return r; })),
      return: (v?: unknown) => (inner.return !== undefined ? inner.return(v as T) : Promise.resolve({ done: true as const, value: v as T })),
      [Symbol.asyncIterator]: () => it,
    };
    return it;
  };
  const checkedOne: CheckableStream = {
    get columns() { return stream.columns; },
    get queryId() { return stream.queryId; },
    get summary() { return stream.summary; },
    cancel: () => stream.cancel(),
    batches: () => ({ [Symbol.asyncIterator]: () => wrap(stream.batches()[Symbol.asyncIterator]()) }),
    [Symbol.asyncIterator]: () => wrap(stream[Symbol.asyncIterator]()),
  };
  // The same members as the stream given (a RowStream's), each delegating to it.
  return checkedOne as S;
}
