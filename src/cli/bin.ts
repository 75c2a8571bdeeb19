#!/usr/bin/env node
// The executable behind `npx chwire …` (package.json "bin"): runs main() with this process's
// arguments and streams and exits with its code. Invariant: nothing else happens here.
import { main } from './main.js';

main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env }).then(
  (code) => { process.exitCode = code; },
  (e: unknown) => { process.stderr.write(`chwire: ${(e as Error).message}\n`); process.exitCode = 1; },
);
