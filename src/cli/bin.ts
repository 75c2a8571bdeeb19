#!/usr/bin/env node
// The executable behind `npx chwire …` (package.json "bin"): runs main() with this process's
// arguments and streams and exits with its code. Invariant: nothing else happens here, except
// turning on Node's module compile cache (Node 22.1+; a no-op where it is missing or disabled with
// NODE_DISABLE_COMPILE_CACHE) before main.js is loaded, so that a second run skips compiling the
// modules its command loads (docs/cli.md "Startup").
import * as nodeModule from 'node:module';

const withCache = nodeModule as { enableCompileCache?: () => unknown };
// A cache that cannot be used (a read-only tmpdir) only costs the compile it would have saved.
try { withCache.enableCompileCache?.(); } catch { /* run without the cache */ }

// Loaded after the cache is on (a static import would be compiled before this module's body runs).
// (No top-level await: the file is also built as CommonJS.)
import('./main.js').then(({ main }) => main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env })).then(
  (code) => { process.exitCode = code; },
  (e: unknown) => { process.stderr.write(`chwire: ${(e as Error).message}\n`); process.exitCode = 1; },
);
