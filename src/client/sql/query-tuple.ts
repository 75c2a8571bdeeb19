// tuple(): the marker of a tuple value among query parameters (params.ts formats it). A module of
// its own so that an entry exporting tuple() reaches none of the parameter formatting, which a
// split bundle loads on the first call with params (lazy.ts).
/** A tuple value for `Tuple(...)` placeholders (a JS array would be sent as an Array). */
export class QueryTuple<T extends readonly unknown[] = readonly unknown[]> {
  /** The elements in order (typed by tuple()'s arguments, so a generated module can type each). */
  readonly values: T;
  constructor(values: T) {
    this.values = Object.freeze([...values]) as unknown as T;
  }
}

/** Mark values as one tuple: `{t:Tuple(UInt8, String)}` ← `tuple(1, 'x')`. */
export function tuple<const T extends readonly unknown[]>(...values: T): QueryTuple<T> {
  return new QueryTuple(values);
}
