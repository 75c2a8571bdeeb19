// Generated source → function (the one `new Function` of the project: RowBinary decoders, Native
// row builders and encoders all come through here), the hash that names generated code, and the
// bounded cache of compiled code.
//
// Invariants: a function is compiled from generator output only (see emitter.ts and the Native
// generators); the cache holds at most `limit` entries and evicts the least recently used (Map
// insertion order, refreshed on hit), so a client that sees many schemas cannot grow without bound.
// Where code generation from strings is refused (workerd, a strict CSP, node
// --disallow-code-generation-from-strings; detected once per process), `compiled()` returns
// undefined and every caller takes its interpreted path, which gives the same results (callers
// first look for code compiled ahead of time: precompiled.ts).

/** Whether `new Function` works here, found once (the first call pays one tiny compile). */
let evalAllowed: boolean | undefined;

export function codeGenerationAllowed(): boolean {
  if (evalAllowed === undefined) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-implied-eval
      evalAllowed = (new Function('return 1') as () => number)() === 1;
    } catch {
      // EvalError (V8 flag, workerd, CSP), or any other refusal: generate no code.
      evalAllowed = false;
    }
  }
  return evalAllowed;
}

/**
 * Generated `source` compiled as the body of a function with these parameter names, or undefined
 * where code generation is refused (then take the interpreted path).
 */
export function compiled<F>(params: readonly string[], source: string): F | undefined {
  if (!codeGenerationAllowed()) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function(...params, source) as F;
}

/** FNV-1a, 2 × 32 bits, as 16 hex digits: names generated code (sourceURL) without schema text. */
export function hashKey(key: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ key.length;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) ^ (h2 >>> 15);
  }
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
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
