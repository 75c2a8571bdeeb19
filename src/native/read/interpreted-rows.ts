// Row builders without generated code, for runtimes that refuse code generation from strings
// (codegen/compile.ts decides): the same rows as the compiled builders of row-decoder.ts, built by
// a loop over the columns. Invariant: equal rows, key for key and in the same order, with a
// column named `__proto__` an own property (never the prototype).
import type { Row } from '../../stream-decoder.js';
import { setOwn } from '../../convert/objects.js';

type Values = ArrayLike<unknown>;
type At = ((d: unknown, i: number) => unknown) | undefined;

/** Row `i` of the block's columns `c`, as an object keyed by `names` or an array. */
export function interpretedRowBuilder(names: readonly string[], shape: 'object' | 'array'): (cols: readonly Values[], i: number) => Row {
  const m = names.length;
  if (shape === 'array') {
    return (c, i) => {
      const r: unknown[] = [];
      for (let k = 0; k < m; k++) r.push(c[k]![i]);
      return r as unknown as Row;
    };
  }
  return (c, i) => {
    const o: Record<string, unknown> = {};
    for (let k = 0; k < m; k++) setOwn(o, names[k]!, c[k]![i]);
    return o as Row;
  };
}

/** Per block: `row(i)` over eager values `c[k][i]` or lazy data read through `g[k](c[k], i)`. */
export function interpretedSourceFactory(names: readonly string[], shape: 'object' | 'array', lazy: readonly boolean[]): (cols: readonly unknown[], ats: readonly At[]) => (i: number) => Row {
  const m = names.length;
  return (c, g) => {
    const value = (k: number, i: number): unknown => (lazy[k] ? g[k]!(c[k], i) : (c[k] as Values)[i]);
    if (shape === 'array') {
      return (i) => {
        const r: unknown[] = [];
        for (let k = 0; k < m; k++) r.push(value(k, i));
        return r as unknown as Row;
      };
    }
    return (i) => {
      const o: Record<string, unknown> = {};
      for (let k = 0; k < m; k++) setOwn(o, names[k]!, value(k, i));
      return o as Row;
    };
  };
}
