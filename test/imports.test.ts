// The architecture of src/, read from its imports: every `.ts` file under src/ is parsed with the
// TypeScript parser and each relative specifier of an `import`, `export … from`, `import type`,
// `import('…')` or `import("…")` type is resolved to the file it names (type-only imports count:
// a cycle of types is a cycle of design). Two rules hold:
// - no cycle: the file graph has no strongly connected component of two files or more;
// - no upward import. "Upward" is defined by LAYERS below, lowest first: each file belongs to the
//   unit of the longest matching entry (a folder `x/` holds its subfolders unless a subfolder is
//   listed itself, as `client/observe/` is; a root file is listed by name). A file may import a
//   file of its own unit, or of a unit in a LOWER layer; importing a unit of the same layer (a
//   sibling) or of a higher one is upward. The layers are the data flow: bytes and types at the
//   bottom, codecs over them, transports, the client, then the entries and the CLI on top.
// A file in no unit fails the test: a new folder is placed in LAYERS on purpose, not by accident.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SRC = join(ROOT, 'src');

/** Lowest first. Units in one layer may not import each other. */
const LAYERS: readonly (readonly string[])[] = [
  ['errors.ts', 'stream-decoder.ts'], // the error classes and the decoder interface: import nothing
  ['io/'], // cursor, chunks, varints, UTF-8
  ['types/'], // type-name parser, printer, binary type encoding
  ['convert/', 'codegen/'], // value converters; the code emitter and compiler
  ['plan/'], // options → plan
  ['rowbinary/'], // RowBinary decoders
  ['native/read/', 'native/write/'], // Native readers; Native writers (neither imports the other)
  ['native/'], // native/index.ts: the Native codec facade
  ['columns/', 'arrow/', 'gen/runtime.ts', 'values/'], // helpers over columnar results; the chwire/arrow converters; what generated modules call (via chwire/codec); values to JSON
  ['codec.ts'], // chwire/codec: the codecs' facade
  ['transport/'], // HTTP, fetch and chdb transports
  ['client/observe/'], // logging, tracing, progress of calls
  ['client/'], // the client over any transport
  ['gen/', 'node-transports.ts', 'compat/', 'kysely/'], // code generation from a live schema; the Node transport factory; the @clickhouse/client-shaped layer; the Kysely dialect
  ['index.ts', 'web.ts', 'compat.ts', 'compat-web.ts', 'kysely.ts'], // the chwire, chwire/web, chwire/compat, chwire/compat/web and chwire/kysely entries
  ['cli/'], // the command line
];

function unitOf(rel: string): { unit: string; layer: number } | undefined {
  let best: { unit: string; layer: number } | undefined;
  LAYERS.forEach((units, layer) => {
    for (const u of units) {
      const hit = u.endsWith('/') ? rel.startsWith(u) : rel === u;
      if (hit && (best === undefined || u.length > best.unit.length)) best = { unit: u, layer };
    }
  });
  return best;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

interface Edge { from: string; to: string; line: number }

/** Every relative import of every file of src/, resolved to src-relative paths. */
function graph(): { files: string[]; edges: Edge[] } {
  const files = sources(SRC).map((f) => relative(SRC, f)).sort();
  const edges: Edge[] = [];
  for (const rel of files) {
    const file = join(SRC, rel);
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
    const add = (spec: string, n: ts.Node): void => {
      if (!spec.startsWith('./') && !spec.startsWith('../')) return;
      const to = relative(SRC, resolve(dirname(file), spec)).replace(/\.js$/, '.ts');
      edges.push({ from: rel, to, line: sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1 });
    };
    const visit = (n: ts.Node): void => {
      if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier !== undefined && ts.isStringLiteral(n.moduleSpecifier)) add(n.moduleSpecifier.text, n);
      else if (ts.isImportEqualsDeclaration(n) && ts.isExternalModuleReference(n.moduleReference) && ts.isStringLiteral(n.moduleReference.expression)) add(n.moduleReference.expression.text, n);
      else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0] !== undefined && ts.isStringLiteralLike(n.arguments[0])) add(n.arguments[0].text, n);
      else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) add(n.argument.literal.text, n);
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return { files, edges };
}

/** Strongly connected components of two files or more (Tarjan). */
function cycles(files: string[], edges: Edge[]): string[][] {
  const out = new Map<string, string[]>();
  for (const e of edges) (out.get(e.from) ?? out.set(e.from, []).get(e.from)!).push(e.to);
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, next); low.set(v, next); next++;
    stack.push(v); onStack.add(v);
    for (const w of out.get(v) ?? []) {
      if (!index.has(w)) { connect(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const c: string[] = [];
      let w: string;
      do { w = stack.pop()!; onStack.delete(w); c.push(w); } while (w !== v);
      if (c.length > 1) found.push(c.sort());
    }
  };
  for (const f of files) if (!index.has(f)) connect(f);
  return found;
}

const { files, edges } = graph();

test('the walk sees the whole of src/ (the parser found the imports)', () => {
  assert.ok(files.length > 100, `only ${files.length} files under src/`);
  assert.ok(edges.some((e) => e.from === 'client/query-client.ts' && e.to === 'transport/types.ts'), 'query-client.ts → transport/types.ts not seen');
  assert.ok(edges.some((e) => e.from === 'index.ts' && e.to === 'client/client.ts'), 'index.ts → client/client.ts not seen');
  const missing = edges.filter((e) => !files.includes(e.to)).map((e) => `${e.from}:${e.line} → ${e.to}`);
  assert.deepEqual(missing, [], 'imports of files that do not exist');
});

test('every file of src/ belongs to a unit of LAYERS', () => {
  assert.deepEqual(files.filter((f) => unitOf(f) === undefined), [], 'place these files\' folder in LAYERS (test/imports.test.ts)');
});

test('no import cycle in src/', () => {
  assert.deepEqual(cycles(files, edges), []);
});

test('no upward import in src/ (a unit imports its own files or lower layers only)', () => {
  const upward = edges.flatMap((e) => {
    const a = unitOf(e.from);
    const b = unitOf(e.to);
    if (a === undefined || b === undefined || a.unit === b.unit || b.layer < a.layer) return [];
    return [`${e.from}:${e.line} → ${e.to} (${a.unit} is layer ${a.layer}, ${b.unit} is layer ${b.layer})`];
  });
  assert.deepEqual(upward, []);
});

test('the checker can fail: a cycle and an upward import are seen in a made-up graph', () => {
  const made: Edge[] = [
    { from: 'client/a.ts', to: 'client/b.ts', line: 1 },
    { from: 'client/b.ts', to: 'client/a.ts', line: 1 },
    { from: 'transport/x.ts', to: 'client/a.ts', line: 1 },
  ];
  assert.deepEqual(cycles(['client/a.ts', 'client/b.ts', 'transport/x.ts'], made), [['client/a.ts', 'client/b.ts']]);
  assert.ok(unitOf('transport/x.ts')!.layer < unitOf('client/a.ts')!.layer);
  assert.equal(unitOf('client/observe/tracing.ts')!.unit, 'client/observe/');
  assert.ok(unitOf('native/read/block-reader.ts')!.unit.startsWith('native/'), 'a subfolder belongs to its folder\'s unit unless listed');
});
