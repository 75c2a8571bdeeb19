// Building plain objects from server-chosen keys (Map keys, JSON paths, tuple names at run time).
//
// Invariant: every key becomes an OWN enumerable property, including "__proto__" (plain
// assignment `o["__proto__"] = v` would replace the prototype instead), and the prototype of
// every object built here is Object.prototype, like a literal's.

/** o[key] = v as an own property, whatever the key. */
export function setOwn(o: Record<string, unknown>, key: string, v: unknown): void {
  if (key === '__proto__') Object.defineProperty(o, key, { value: v, enumerable: true, writable: true, configurable: true });
  else o[key] = v;
}

/**
 * Place `v` at the dotted `path` of `root` ("a.b.c" → root.a.b.c), creating plain objects on the
 * way, like the engine's JSON rendering of the JSON type. A segment that already holds a
 * non-object (a path that is both a leaf and a prefix) keeps the leaf and nests nothing.
 */
export function setJsonPath(root: Record<string, unknown>, path: string, v: unknown): void {
  let o = root;
  let start = 0;
  for (;;) {
    const dot = path.indexOf('.', start);
    if (dot < 0) { setOwn(o, path.slice(start), v); return; }
    const seg = path.slice(start, dot);
    let next = Object.prototype.hasOwnProperty.call(o, seg) ? o[seg] : undefined;
    if (next === undefined) {
      next = {};
      setOwn(o, seg, next);
    } else if (typeof next !== 'object' || next === null || Array.isArray(next) || next instanceof Uint8Array || next instanceof Date || next instanceof Map) {
      return;
    }
    o = next as Record<string, unknown>;
    start = dot + 1;
  }
}

/**
 * Order of two JSON paths as the engine sorts them (by UTF-8 bytes, i.e. by code point; plain
 * `<` on JS strings compares UTF-16 units and would put "😀" before "\uFFFD").
 */
export function comparePaths(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (D800-DFFF) stand for code points above FFFF: move them above E000-FFFF.
    if (x >= 0xd800) x += x <= 0xdfff ? 0x2000 : -0x800;
    if (y >= 0xd800) y += y <= 0xdfff ? 0x2000 : -0x800;
    return x - y;
  }
  return a.length - b.length;
}

/**
 * One JSON value from its (path, value) pairs in any order: the paths placed in the engine's
 * order (sorted, as its JSON output lists them), so that every read path builds objects whose
 * keys enumerate alike. Integer-like keys ("1", "10") still enumerate first, as in every JS object.
 */
export function jsonObject(paths: readonly string[], values: readonly unknown[]): Record<string, unknown> {
  const obj: Record<string, unknown> = {};
  const n = paths.length;
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) sorted = comparePaths(paths[i - 1]!, paths[i]!) <= 0;
  if (sorted) {
    for (let i = 0; i < n; i++) setJsonPath(obj, paths[i]!, values[i]);
    return obj;
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((i, j) => comparePaths(paths[i]!, paths[j]!));
  for (const i of order) setJsonPath(obj, paths[i]!, values[i]);
  return obj;
}
