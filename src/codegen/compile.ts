// Generated source → function (the one `new Function` of the project), and the bounded cache of
// compiled decoders.
//
// Invariant: a factory is compiled from generator output only (see emitter.ts); the cache holds
// at most `limit` entries and evicts the least recently used (Map insertion order, refreshed on
// hit), so a client that sees many schemas cannot grow without bound.

/** Compile a factory body taking (C, H) — constants and helpers — and returning its result. */
export function compileFactory<T>(source: string): (constants: readonly unknown[], helpers: unknown) => T {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function('C', 'H', source) as (constants: readonly unknown[], helpers: unknown) => T;
}

export class BoundedCache<V> {
  private readonly map = new Map<string, V>();
  constructor(readonly limit = 256) {}

  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.limit) {
      const oldest = this.map.keys().next().value as string;
      this.map.delete(oldest);
    }
  }

  get size(): number { return this.map.size; }
  clear(): void { this.map.clear(); }
}
