// The CommonJS build (`npm run build` and `npm test` run it after tsc): every module of dist/src
// (tsc's ES module output) is rewritten as a CommonJS module at the same relative path under
// dist/cjs, beside a copy of its .d.ts, and dist/cjs/package.json says `"type": "commonjs"`, so
// Node loads those .js files with require() and TypeScript reads those .d.ts as CommonJS
// declarations. package.json's exports map sends `require` there (test/package.cjs.test.ts).
// Invariants: dist/cjs is rebuilt from nothing each time (no stale module survives a rename); the
// modules keep their relative specifiers (`./x.js`), so the CommonJS graph is the ES graph, one
// module per module: the entries share one copy of each class, as the ES build does; a module
// with top-level await cannot be expressed in CommonJS and fails this build, naming the file.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FROM = join(ROOT, 'dist', 'src');
const TO = join(ROOT, 'dist', 'cjs');

function* files(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* files(p);
    else yield p;
  }
}

rmSync(TO, { recursive: true, force: true });
let modules = 0;
for (const file of files(FROM)) {
  const rel = relative(FROM, file);
  const out = join(TO, rel);
  if (file.endsWith('.d.ts')) {
    mkdirSync(dirname(out), { recursive: true });
    copyFileSync(file, out);
  } else if (file.endsWith('.js')) {
    mkdirSync(dirname(out), { recursive: true });
    let code: string;
    try {
      code = transformSync(readFileSync(file, 'utf8'), { format: 'cjs', target: 'es2022', platform: 'node', sourcefile: `dist/src/${rel}` }).code;
    } catch (e) {
      throw new Error(`dist/src/${rel} cannot be a CommonJS module: ${(e as Error).message}`);
    }
    writeFileSync(out, code);
    modules++;
  }
}
writeFileSync(join(TO, 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
console.log(`dist/cjs: ${modules} CommonJS modules`);
