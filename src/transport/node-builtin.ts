// Node's built-in modules that only some requests need (node:https and node:tls for https:// URLs,
// node:zlib for compressed bodies), loaded synchronously on first use instead of at import: a
// process that never speaks TLS or compression (`chwire query` to http://) does not compile them
// (node:https alone is ~25 ms of a CLI's start). Invariant: the same module object Node's own
// import would give (the built-in registry), loaded at most once, by name.
import { createRequire } from 'node:module';

type Loader = (id: string) => unknown;
// process.getBuiltinModule (Node 20.16+, 22.3+) reads the registry directly; before it, a require
// of a `node:` name is the same registry (the base path is never consulted for built-ins).
const proc = process as { getBuiltinModule?: Loader };
const load: Loader = typeof proc.getBuiltinModule === 'function' ? proc.getBuiltinModule.bind(process) : createRequire('/node-builtin.js');

/** A getter of the built-in module `id` (e.g. 'node:https'), loaded on its first call. */
export function lazyBuiltin<T>(id: string): () => T {
  let mod: T | undefined;
  return () => (mod ??= load(id) as T);
}
