// Compile-time tests of the public TypeScript API. The files in test/types-api/ use `chwire` and
// `chwire/codec` as a user would, with `@ts-expect-error` on misuse; this test type-checks them
// with the TypeScript compiler API against the shipped declarations (dist/**/*.d.ts, reached
// through package.json `exports`), and fails with the compiler's diagnostics if there are any.
// An expected error that no longer happens is itself a diagnostic (TS2578), so loosened types fail.
// The codec file is checked without @types/node: `chwire/codec` must type-check in a browser project
// (and there every .d.ts it reaches is checked too, skipLibCheck off).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DIR = join(ROOT, 'test', 'types-api');

/** A user's strict NodeNext project. No rootDir/outDir: `chwire` resolves to dist's .d.ts, not to src. */
function options(nodeTypes: boolean): ts.CompilerOptions {
  return {
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    // lib.esnext.disposable for `await using` without @types/node (which otherwise provides it).
    lib: ['lib.es2022.d.ts', 'lib.esnext.disposable.d.ts'],
    types: nodeTypes ? ['node'] : [],
    // Without @types/node, checking every .d.ts (ours included) is cheap, so the codec program
    // also checks the shipped codec declarations themselves; checking @types/node would cost ~10 s.
    skipLibCheck: nodeTypes,
    skipDefaultLibCheck: true,
  };
}

function check(file: string, nodeTypes: boolean): { diagnostics: string; program: ts.Program } {
  const program = ts.createProgram([join(DIR, file)], options(nodeTypes));
  const all = ts.getPreEmitDiagnostics(program).filter((d) => d.file === undefined || !d.file.fileName.includes('/node_modules/'));
  const diagnostics = ts.formatDiagnostics(all, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => ROOT,
    getNewLine: () => '\n',
  });
  return { diagnostics, program };
}

/** Our files in the program, relative to the root: proof of which declarations were checked. */
function ours(program: ts.Program): string[] {
  return program.getSourceFiles().map((f) => relative(ROOT, f.fileName)).filter((f) => !f.startsWith('node_modules') && !f.startsWith('..'));
}

test('the shipped declarations exist (run after tsc)', () => {
  for (const f of ['dist/src/index.d.ts', 'dist/src/codec.d.ts']) assert.ok(existsSync(join(ROOT, f)), `${f} missing: build first`);
});

test('chwire: client options, results and errors type-check as documented', () => {
  const { diagnostics, program } = check('client-usage.ts', true);
  assert.equal(diagnostics, '');
  const files = ours(program);
  assert.ok(files.includes('dist/src/index.d.ts'), `'chwire' did not resolve to the shipped declarations: ${files.join(', ')}`);
  assert.ok(!files.some((f) => f.startsWith('src/')), 'the check must use the .d.ts files, not the sources');
});

test('chwire/arrow: toArrow, arrowBatches and the column helpers type-check in a strict project', () => {
  const { diagnostics, program } = check('arrow-usage.ts', true);
  assert.equal(diagnostics, '');
  assert.ok(ours(program).includes('dist/src/arrow/index.d.ts'), "'chwire/arrow' did not resolve to the shipped declarations");
});

test('chwire/codec: codec API type-checks without @types/node', () => {
  const { diagnostics, program } = check('codec-usage.ts', false);
  assert.equal(diagnostics, '');
  const files = program.getSourceFiles().map((f) => f.fileName);
  assert.ok(files.some((f) => f.endsWith('dist/src/codec.d.ts')), "'chwire/codec' did not resolve to dist/src/codec.d.ts");
  assert.ok(!files.some((f) => f.includes('/@types/node/')), '@types/node was pulled into the codec-only program');
});
