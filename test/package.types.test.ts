// The published type declarations type-check in a consumer project under the `lib` settings users
// have, with `skipLibCheck: false` (so chwire's own .d.ts are checked): ES2020 and ES2022 (neither
// has esnext.disposable), with and without DOM, with and without @types/node, and ESNext, in an
// ES module (`dist/src` declarations) and a CommonJS one (`dist/cjs`). The consumer reaches chwire
// as an installed package would: `node_modules/chwire` → this package, resolved through its
// `exports` map; @types/node is present only in the configurations that have it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Entries a browser app (no @types/node) imports (chwire/compat/web among them); `chwire/compat` is Node-only (node:stream).
 * `chwire/arrow` is checked in a program of its own: apache-arrow's declarations pull in
 * lib.esnext.disposable, which would hide a missing declaration of chwire's in the same program.
 */
const WEB_ENTRIES = ['chwire', 'chwire/web', 'chwire/codec', 'chwire/compat/web'];
const ALL_ENTRIES = [...WEB_ENTRIES, 'chwire/compat'];

interface Config { name: string; lib: string[]; node: boolean }

const CONFIGS: Config[] = [
  { name: 'ES2022', lib: ['lib.es2022.d.ts'], node: true },
  { name: 'ES2022 + DOM', lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], node: true },
  { name: 'ES2022 + DOM, no @types/node', lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], node: false },
  { name: 'ES2020', lib: ['lib.es2020.d.ts'], node: true },
  { name: 'ES2020 + DOM', lib: ['lib.es2020.d.ts', 'lib.dom.d.ts'], node: true },
  { name: 'ES2020 + DOM, no @types/node', lib: ['lib.es2020.d.ts', 'lib.dom.d.ts'], node: false },
  { name: 'ESNext + DOM', lib: ['lib.esnext.d.ts', 'lib.dom.d.ts'], node: true },
  { name: 'ESNext + DOM, no @types/node', lib: ['lib.esnext.d.ts', 'lib.dom.d.ts'], node: false },
];

/** A consumer project: chwire installed as a package, @types/node when asked, one ESM and one CJS file. */
function consumer(node: boolean, only?: string): { dir: string; files: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'chwire-types-'));
  mkdirSync(join(dir, 'node_modules', '@types'), { recursive: true });
  symlinkSync(ROOT, join(dir, 'node_modules', 'chwire'), 'dir');
  if (node) {
    symlinkSync(join(ROOT, 'node_modules', '@types', 'node'), join(dir, 'node_modules', '@types', 'node'), 'dir');
    symlinkSync(join(ROOT, 'node_modules', 'undici-types'), join(dir, 'node_modules', 'undici-types'), 'dir');
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const entries = only !== undefined ? [only] : node ? ALL_ENTRIES : WEB_ENTRIES;
  // Each entry's declarations loaded, and the disposable members used as a caller would.
  const esm = [
    ...entries.map((e, i) => `import * as m${i} from '${e}';`),
    `export const used = [${entries.map((_e, i) => `m${i}`).join(', ')}];`,
    ...(only === undefined ? ['export async function closeIt(c: m0.Client): Promise<void> { await c[Symbol.asyncDispose](); }'] : []),
  ].join('\n');
  const cjs = [
    ...entries.map((e, i) => `import m${i} = require('${e}');`),
    `export const used = [${entries.map((_e, i) => `m${i}`).join(', ')}];`,
  ].join('\n');
  writeFileSync(join(dir, 'app.ts'), esm);
  writeFileSync(join(dir, 'app.cts'), cjs);
  return { dir, files: [join(dir, 'app.ts'), join(dir, 'app.cts')] };
}

const RUNS: (Config & { only?: string })[] = [
  ...CONFIGS,
  { ...CONFIGS[2]!, only: 'chwire/arrow' },
  { ...CONFIGS[3]!, only: 'chwire/arrow' },
];

for (const config of RUNS) {
  test(`the published .d.ts${config.only === undefined ? '' : ` of ${config.only}`} type-check under ${config.name} (target ES2022, strict, skipLibCheck false)`, { timeout: 120_000 }, () => {
    const { dir, files } = consumer(config.node, config.only);
    try {
      const program = ts.createProgram(files, {
        target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
        lib: config.lib, types: config.node ? ['node'] : [], strict: true, skipLibCheck: false, noEmit: true,
        typeRoots: [join(dir, 'node_modules', '@types')],
      });
      const diags = ts.getPreEmitDiagnostics(program)
        // @types/node's own files are not ours to check.
        .filter((d) => d.file === undefined || !d.file.fileName.includes('/@types/node/'));
      const text = ts.formatDiagnostics(diags, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => dir, getNewLine: () => '\n' });
      assert.equal(text, '');
      // Both declaration trees were checked, reached through the package, not through src/.
      const names = program.getSourceFiles().map((f) => f.fileName);
      const index = config.only === undefined ? 'index.d.ts' : 'arrow/index.d.ts';
      assert.ok(names.some((f) => f.endsWith(`dist/src/${index}`)), 'the ES module declarations');
      assert.ok(names.some((f) => f.endsWith(`dist/cjs/${index}`)), 'the CommonJS declarations');
      assert.ok(!names.some((f) => /\/src\/[^/]+\.ts$/.test(f) && !f.endsWith('.d.ts')), 'no source file');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
