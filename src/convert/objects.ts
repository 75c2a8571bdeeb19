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
