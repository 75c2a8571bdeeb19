// A bounded per-query memo for converters whose inputs repeat (dates and timestamps as text,
// small decimals).
//
// Invariant: at most `limit` entries; when full, the whole map is cleared and filling starts
// again (no LRU bookkeeping on the hot path). It switches itself off for the rest of the query
// when a full generation had fewer hits than entries, so all-distinct inputs pay the lookup for
// at most `limit` values (bench/micro/convert-cache.ts measures hit, miss and off). Only
// immutable values (strings, numbers) are cached: a Date is mutable and handing one instance to
// several rows would let a mutation of one row change the others.

export class FillCache<K, V> {
  private map = new Map<K, V>();
  private hitsThisGeneration = 0;
  private off = false;
  hits = 0;
  misses = 0;
  constructor(readonly limit = 4096) {}

  get(key: K, make: (key: K) => V): V {
    if (this.off) return make(key);
    const v = this.map.get(key);
    if (v !== undefined) {
      this.hits++;
      this.hitsThisGeneration++;
      return v;
    }
    this.misses++;
    const made = make(key);
    if (this.map.size >= this.limit) {
      if (this.hitsThisGeneration < this.limit) {
        // Mostly distinct values: caching only costs. Stop for the rest of this query.
        this.off = true;
        this.map.clear();
        return made;
      }
      this.map.clear();
      this.hitsThisGeneration = 0;
    }
    this.map.set(key, made);
    return made;
  }

  get size(): number { return this.map.size; }
  get enabled(): boolean { return !this.off; }
}
