// A bounded per-query memo for converters whose inputs repeat (dates, timestamps as text).
//
// Invariant: at most `limit` entries; when full, the whole map is cleared and filling starts
// again (no LRU bookkeeping on the hot path, so a miss costs one failed lookup and one insert).
// Only immutable values (strings, numbers) are ever cached: a Date is mutable and handing one
// instance to several rows would let a user's mutation of one row change the others.

export class FillCache<K, V> {
  private map = new Map<K, V>();
  hits = 0;
  misses = 0;
  constructor(readonly limit = 4096) {}

  get(key: K, make: (key: K) => V): V {
    const v = this.map.get(key);
    if (v !== undefined) return v;
    const made = make(key);
    if (this.map.size >= this.limit) this.map.clear();
    this.map.set(key, made);
    return made;
  }

  get size(): number { return this.map.size; }
}

/** The string converters worth memoising: output is immutable text and inputs repeat often. */
export function cachedConverter(make: (key: number) => string, limit = 4096): (key: number) => string {
  const cache = new FillCache<number, string>(limit);
  return (key: number) => cache.get(key, make);
}
