// Package integrity, checked on the compiled output (dist/) that `npm pack` would ship:
// - `chwire/codec` and everything it loads use no Node module and no Node global (it must run in a
//   worker or a browser bundle), in the JS and in the .d.ts graph;
// - the `exports` map resolves `chwire` and `chwire/codec` (through package self-reference, as a
//   user's `import` would) to modules exposing the documented names, and nothing else is reachable;
// - the embedded engine `chdb` stays an optional peer (never installed by default, never loaded
//   statically, never needed by the type declarations);
// - the tarball holds the built library and the package's documents only.
// Imports are found by parsing each file with the TypeScript parser (not by regex), so comments and
// strings that mention `node:` cannot fool the walk, and every specifier form is seen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The package root: dist/test/package.test.js → ../.. */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  main?: string;
  types?: string;
  exports: Record<string, Record<'import' | 'require', { types: string; default: string }>>;
  files?: string[];
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};

interface ModuleRef {
  specifier: string;
  /** `import('x')` (loaded on first use) as opposed to a static import/export. */
  dynamic: boolean;
  line: number;
}

interface GraphFile {
  refs: ModuleRef[];
  /** Free uses of Node-only globals, as `name@line`. */
  nodeGlobals: string[];
  /** `/// <reference types="..." />` directives (a .d.ts pulling in @types/node, say). */
  typeReferences: string[];
}

const NODE_GLOBALS = new Set(['Buffer', 'process', 'require', '__dirname', '__filename', 'global', 'setImmediate', 'clearImmediate']);

/** Every module specifier of a JS or .d.ts file, and its free uses of Node globals. */
function scan(file: string): GraphFile {
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, file.endsWith('.d.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const refs: ModuleRef[] = [];
  const nodeGlobals: string[] = [];
  const lineOf = (n: ts.Node): number => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  const visit = (n: ts.Node): void => {
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier !== undefined && ts.isStringLiteral(n.moduleSpecifier)) {
      refs.push({ specifier: n.moduleSpecifier.text, dynamic: false, line: lineOf(n) });
    } else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = n.arguments[0];
      // A computed specifier cannot be checked statically: treat it as a violation.
      refs.push({ specifier: arg !== undefined && ts.isStringLiteralLike(arg) ? arg.text : '<computed>', dynamic: true, line: lineOf(n) });
    } else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) {
      refs.push({ specifier: n.argument.literal.text, dynamic: false, line: lineOf(n) });
    } else if (ts.isIdentifier(n) && NODE_GLOBALS.has(n.text) && isFreeUse(n)) {
      nodeGlobals.push(`${n.text}@${lineOf(n)}`);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return { refs, nodeGlobals, typeReferences: sf.typeReferenceDirectives.map((r) => r.fileName) };
}

/** An identifier that names a global (not `x.Buffer`, not `{ process: 1 }`, not a declaration). */
function isFreeUse(id: ts.Identifier): boolean {
  const p = id.parent;
  if (ts.isPropertyAccessExpression(p) && p.name === id) return false;
  if (ts.isQualifiedName(p) && p.right === id) return false;
  if ((ts.isPropertyAssignment(p) || ts.isMethodDeclaration(p) || ts.isPropertyDeclaration(p) || ts.isPropertySignature(p)) && p.name === id) return false;
  if ((ts.isVariableDeclaration(p) || ts.isParameter(p) || ts.isFunctionDeclaration(p) || ts.isBindingElement(p) || ts.isClassDeclaration(p)) && p.name === id) return false;
  return true;
}

/** The files reachable from `entry` through relative specifiers, each with its scan. */
function walk(entry: string): Map<string, GraphFile> {
  const seen = new Map<string, GraphFile>();
  const todo = [entry];
  const isDts = entry.endsWith('.d.ts');
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    assert.ok(existsSync(file), `${rel(file)} is imported but does not exist (stale or partial build?)`);
    const scanned = scan(file);
    seen.set(file, scanned);
    for (const r of scanned.refs) {
      if (!r.specifier.startsWith('./') && !r.specifier.startsWith('../')) continue;
      const target = resolve(dirname(file), r.specifier);
      todo.push(isDts ? target.replace(/\.js$/, '.d.ts') : target);
    }
  }
  return seen;
}

const rel = (f: string): string => relative(ROOT, f);
const dist = (p: string): string => resolve(ROOT, p);

/** Specifiers in `graph` that are not relative paths, as `file:line → specifier`. */
function nonRelative(graph: Map<string, GraphFile>, keep: (r: ModuleRef) => boolean = () => true): string[] {
  const out: string[] = [];
  for (const [file, g] of graph) {
    for (const r of g.refs) {
      if (!r.specifier.startsWith('./') && !r.specifier.startsWith('../') && keep(r)) out.push(`${rel(file)}:${r.line} → ${r.specifier}${r.dynamic ? ' (dynamic)' : ''}`);
    }
  }
  return out.sort();
}

// ---------------------------------------------------------------------------------------------
// (a) chwire/codec and chwire/web load no Node module

test('chwire/web: no module outside the package anywhere in its JS import graph, and no free Node global', () => {
  const graph = walk(dist(pkg.exports['./web']!.import.default));
  // The walk must have reached the shared client core, the fetch transport and the codecs (the
  // readers and the insert path behind their dynamic import()s, client/lazy.ts).
  for (const f of ['dist/src/client/client.js', 'dist/src/client/insert/insert.js', 'dist/src/transport/fetch.js', 'dist/src/rowbinary/decode.js', 'dist/src/native/read/row-decoder.js', 'dist/src/native/write/encoder.js']) {
    assert.ok(graph.has(dist(f)), `the walk from ${pkg.exports['./web']!.import.default} did not reach ${f}`);
  }
  // Not even the optional peer @opentelemetry/api: chwire/web takes the app's tracer (a dangling
  // import of a package the app did not install is what workerd refuses to load).
  const outside = nonRelative(graph);
  assert.deepEqual(outside, [], 'chwire/web must import nothing from node: or any package');
  const uses: string[] = [];
  for (const [file, g] of graph) for (const u of g.nodeGlobals) uses.push(`${rel(file)}: ${u}`);
  assert.deepEqual(uses.sort(), []);
});

test('chwire/web: its type declarations need neither node: modules nor @types/node', () => {
  const graph = walk(dist(pkg.exports['./web']!.import.types));
  assert.ok(graph.has(dist('dist/src/client/client.d.ts')), 'the .d.ts walk did not reach client/client.d.ts');
  assert.deepEqual(nonRelative(graph), []);
  const refs = [...graph].flatMap(([file, g]) => g.typeReferences.map((t) => `${rel(file)} → /// <reference types="${t}" />`));
  assert.deepEqual(refs, []);
});

// ---------------------------------------------------------------------------------------------
// (a') chwire/codec is I/O-free

test('chwire/codec: no module outside the package anywhere in its JS import graph', () => {
  const graph = walk(dist(pkg.exports['./codec']!.import.default));
  // The walk must really have followed the codec's imports: the RowBinary decoder, the Native
  // codec, the type parser and the errors are all behind this entry.
  for (const f of ['dist/src/rowbinary/decode.js', 'dist/src/native/index.js', 'dist/src/types/parse.js', 'dist/src/errors.js', 'dist/src/codegen/compile.js']) {
    assert.ok(graph.has(dist(f)), `the walk from ${pkg.exports['./codec']!.import.default} did not reach ${f}`);
  }
  assert.deepEqual(nonRelative(graph), [], 'chwire/codec must import nothing from node: or any package');
});

test('chwire/codec: no free use of a Node global (Buffer, process, require, ...)', () => {
  // Feature detection through `globalThis.Buffer` is allowed (a property access, not a free name).
  const uses: string[] = [];
  for (const [file, g] of walk(dist(pkg.exports['./codec']!.import.default))) {
    for (const u of g.nodeGlobals) uses.push(`${rel(file)}: ${u}`);
  }
  assert.deepEqual(uses.sort(), []);
});

test('chwire/codec: its type declarations need neither node: modules nor @types/node', () => {
  const graph = walk(dist(pkg.exports['./codec']!.import.types));
  assert.ok(graph.has(dist('dist/src/types/ast.d.ts')), 'the .d.ts walk did not reach types/ast.d.ts');
  assert.deepEqual(nonRelative(graph), []);
  const refs = [...graph].flatMap(([file, g]) => g.typeReferences.map((t) => `${rel(file)} → /// <reference types="${t}" />`));
  assert.deepEqual(refs, []);
});

test('the checker can fail: the `chwire` entry (HTTP, the lazy built-ins) is seen importing node: modules', () => {
  // A control for the tests above: the same walk over the I/O entry must find node: imports
  // (node:zlib and node:https are loaded on first use through transport/node-builtin.ts, which imports node:module).
  const found = nonRelative(walk(dist(pkg.exports['.']!.import.default)));
  assert.ok(found.some((s) => s.endsWith('→ node:module')), `expected node:module among ${found.join(', ')}`);
  assert.ok(found.some((s) => s.endsWith('→ node:http')), `expected node:http among ${found.join(', ')}`);
});

test('the checker can fail: free uses of Buffer are seen in the HTTP transport', () => {
  const http = scan(dist('dist/src/transport/http.js'));
  assert.ok(http.nodeGlobals.some((u) => u.startsWith('Buffer@')), `no Buffer use found in transport/http.js: ${http.nodeGlobals.join(', ')}`);
});

// ---------------------------------------------------------------------------------------------
// (b) the exports map

const ERROR_CLASSES = [
  'ChwireError', 'ChwireTypeError', 'ChwireDecodeError', 'ChwireEncodeError', 'ChwireServerError',
  'ChwireConnectionError', 'ChwireTimeoutError', 'ChwireAbortError', 'ChwireConfigError', 'ChwireLimitError',
] as const;

/** Runtime names each entry must export, and what kind of value each is. */
const EXPECTED: Record<'chwire' | 'chwire/codec' | 'chwire/web' | 'chwire/compat' | 'chwire/compat/web', Record<string, 'function' | 'class' | 'object'>> = {
  'chwire/compat': { createClient: 'function', ClickHouseError: 'class', ResultSet: 'class', ClickHouseLogLevel: 'object' },
  'chwire/compat/web': { createClient: 'function', ClickHouseError: 'class', ResultSet: 'class', ClickHouseLogLevel: 'object', parseError: 'function', SettingsMap: 'class', TupleParam: 'class' },
  chwire: {
    createClient: 'function', tuple: 'function', QueryTuple: 'class', isChwireError: 'function', ERROR_CODES: 'object',
    ...Object.fromEntries(ERROR_CLASSES.map((c) => [c, 'class'])),
  },
  'chwire/web': {
    createClient: 'function', tuple: 'function', QueryTuple: 'class', isChwireError: 'function', ERROR_CODES: 'object',
    ...Object.fromEntries(ERROR_CLASSES.map((c) => [c, 'class'])),
  },
  'chwire/codec': {
    decodeRowBinary: 'function', decodeRowBinaryReference: 'function', createRowBinaryDecoder: 'function',
    compileRowDecoder: 'function', compiledCacheSize: 'function', clearCompiledCache: 'function',
    parseType: 'function', printType: 'function', readBinaryType: 'function', encodeBinaryType: 'function', typeEquals: 'function',
    compileNativeEncoder: 'function', nativeBlocks: 'function', createNativeDecoder: 'function', decodeNative: 'function', decodeNativeColumns: 'function',
    isChwireError: 'function', ERROR_CODES: 'object',
    ...Object.fromEntries(ERROR_CLASSES.map((c) => [c, 'class'])),
  },
};

function kindOf(v: unknown): string {
  if (typeof v === 'function') return /^class\b/.test(Function.prototype.toString.call(v)) ? 'class' : 'function';
  return v === null ? 'null' : typeof v;
}

for (const entry of ['chwire', 'chwire/codec', 'chwire/web', 'chwire/compat', 'chwire/compat/web'] as const) {
  test(`import('${entry}') resolves through the exports map and exposes the documented names`, async () => {
    const mod = (await import(entry)) as Record<string, unknown>;
    const missing = Object.keys(EXPECTED[entry]).filter((n) => !(n in mod));
    assert.deepEqual(missing, [], `${entry} is missing exports`);
    const wrongKind = Object.entries(EXPECTED[entry]).filter(([n, k]) => kindOf(mod[n]) !== k).map(([n, k]) => `${n}: ${kindOf(mod[n])}, expected ${k}`);
    assert.deepEqual(wrongKind, []);
  });
}

test('the entries share one copy of the error classes, all derived from ChwireError', async () => {
  const main = (await import('chwire')) as Record<string, unknown>;
  const codec = (await import('chwire/codec')) as Record<string, unknown>;
  const web = (await import('chwire/web')) as Record<string, unknown>;
  const Base = main.ChwireError as abstract new (...a: never[]) => Error;
  for (const c of ERROR_CLASSES) {
    // Two copies of a class would make `instanceof` fail between a decoder and a client error.
    assert.equal(main[c], codec[c], `${c} differs between chwire and chwire/codec`);
    assert.equal(main[c], web[c], `${c} differs between chwire and chwire/web`);
    assert.ok(c === 'ChwireError' || (main[c] as { prototype: unknown }).prototype instanceof Base, `${c} does not extend ChwireError`);
  }
});

test('chwire/codec works through its package path: parse and print a type name', async () => {
  const codec = (await import('chwire/codec')) as typeof import('../src/codec.js');
  const text = 'Map(String, Array(Nullable(Decimal(18, 4))))';
  const ast = codec.parseType(text);
  assert.equal(ast.kind, 'Map');
  assert.equal(codec.printType(ast), text);
  assert.throws(() => codec.parseType('Array(UInt8'), (e: unknown) => e instanceof codec.ChwireTypeError);
});

test('every exports target, main and types exist on disk; nothing but the seven entries is exported', async () => {
  assert.equal(pkg.name, 'chwire');
  assert.deepEqual(Object.keys(pkg.exports).sort(), ['.', './arrow', './codec', './compat', './compat/web', './kysely', './web']);
  for (const [sub, t] of Object.entries(pkg.exports)) {
    for (const cond of ['import', 'require'] as const) {
      // `types` must come first: TypeScript takes the first matching condition.
      assert.equal(Object.keys(t[cond])[0], 'types', `exports["${sub}"].${cond}: "types" must be the first condition`);
      for (const p of [t[cond].types, t[cond].default]) assert.ok(existsSync(dist(p)), `exports["${sub}"].${cond} → ${p} does not exist`);
      assert.equal(t[cond].types.replace(/\.d\.ts$/, '.js'), t[cond].default, `exports["${sub}"].${cond}: types and default describe different modules`);
    }
  }
  for (const p of [pkg.main, pkg.types]) assert.ok(p !== undefined && existsSync(dist(p)), `${p} does not exist`);
  // Deep imports are closed: users cannot come to depend on internal module paths.
  await assert.rejects(import('chwire/dist/src/errors.js' as string), (e: NodeJS.ErrnoException) => e.code === 'ERR_PACKAGE_PATH_NOT_EXPORTED');
});

test('chwire/arrow: apache-arrow an optional peer, imported by chwire/arrow alone', async () => {
  assert.ok(pkg.peerDependencies?.['apache-arrow'] !== undefined, 'apache-arrow must be a peerDependency');
  assert.equal(pkg.peerDependenciesMeta?.['apache-arrow']?.optional, true, 'peerDependenciesMeta["apache-arrow"].optional must be true');
  assert.equal(pkg.dependencies?.['apache-arrow'], undefined);
  for (const entry of ['.', './codec', './web', './compat', './compat/web']) {
    const found = nonRelative(walk(dist(pkg.exports[entry]!.import.default)), (r) => r.specifier === 'apache-arrow' || r.specifier.startsWith('apache-arrow/'));
    assert.deepEqual(found, [], `${entry} must not load apache-arrow`);
  }
  const arrowImports = nonRelative(walk(dist(pkg.exports['./arrow']!.import.default)), (r) => !isBuiltin(r.specifier));
  assert.ok(arrowImports.length > 0 && arrowImports.every((s) => / → apache-arrow$/.test(s)), arrowImports.join('\n'));
  const mod = await import('chwire/arrow' as string) as Record<string, unknown>;
  assert.equal(typeof mod.toArrow, 'function');
  assert.equal(typeof mod.arrowBatches, 'function');
});

test('chwire/kysely: kysely an optional peer, imported by chwire/kysely alone', async () => {
  assert.ok(pkg.peerDependencies?.kysely !== undefined, 'kysely must be a peerDependency');
  assert.equal(pkg.peerDependenciesMeta?.kysely?.optional, true, 'peerDependenciesMeta.kysely.optional must be true');
  assert.equal(pkg.dependencies?.kysely, undefined);
  for (const entry of ['.', './codec', './web', './compat', './compat/web', './arrow']) {
    const found = nonRelative(walk(dist(pkg.exports[entry]!.import.default)), (r) => r.specifier === 'kysely' || r.specifier.startsWith('kysely/'));
    assert.deepEqual(found, [], `${entry} must not load kysely`);
  }
  const imports = nonRelative(walk(dist(pkg.exports['./kysely']!.import.default)), (r) => !isBuiltin(r.specifier));
  assert.ok(imports.length > 0 && imports.every((s) => / → kysely$/.test(s)), imports.join('\n'));
  const mod = await import('chwire/kysely' as string) as Record<string, unknown>;
  assert.equal(typeof mod.ChwireDialect, 'function');
  assert.equal(typeof mod.ch, 'object');
});

// ---------------------------------------------------------------------------------------------
// (c) chdb is an optional peer

test('chdb: a devDependency and an optional peerDependency, never installed by default', () => {
  assert.equal(pkg.dependencies?.chdb, undefined, 'chdb must not be in dependencies (~540 MB engine)');
  assert.equal(pkg.optionalDependencies?.chdb, undefined, 'chdb must not be in optionalDependencies (npm installs them by default)');
  assert.ok(pkg.devDependencies?.chdb !== undefined, 'chdb must be a devDependency (the tests use it)');
  assert.ok(pkg.peerDependencies?.chdb !== undefined, 'chdb must be a peerDependency');
  assert.equal(pkg.peerDependenciesMeta?.chdb?.optional, true, 'peerDependenciesMeta.chdb.optional must be true');
  // No runtime dependency at all: everything chwire loads is its own code or a Node builtin.
  assert.deepEqual(Object.keys(pkg.dependencies ?? {}), []);
});

test('chdb is loaded only on first use: no static import of it, and only Node builtins otherwise', () => {
  const graph = walk(dist(pkg.exports['.']!.import.default));
  assert.deepEqual(nonRelative(graph, (r) => !r.dynamic && !isBuiltin(r.specifier)), [], 'static imports of packages from the chwire entry');
  const dynamic = nonRelative(graph, (r) => r.dynamic && !isBuiltin(r.specifier));
  assert.deepEqual(dynamic.map((s) => s.replace(/:\d+ /, ' ')).sort(), [
    'dist/src/client/observe/otel-global.js → @opentelemetry/api (dynamic)', // only for tracing: true
    'dist/src/transport/chdb-engine.js → chdb (dynamic)',
  ]);
});

test('the type declarations of `chwire` do not need the chdb package', () => {
  // A user without the optional peer must still type-check: no .d.ts may refer to 'chdb'.
  const found = nonRelative(walk(dist(pkg.exports['.']!.import.types)), (r) => !isBuiltin(r.specifier));
  assert.deepEqual(found, []);
});

// ---------------------------------------------------------------------------------------------
// (d) what npm would publish

interface PackResult { files: { path: string }[] }

test('npm pack ships dist/src, dist/cjs (the CommonJS build), its TypeScript sources (for the source maps), the alias/ packages, README, package.json and license files only', () => {
  // --ignore-scripts: a prepack build must not run inside the test (the test runs after tsc).
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const files = (JSON.parse(out) as PackResult[])[0]!.files.map((f) => f.path).sort();
  const allowed = (p: string): boolean => p.startsWith('dist/src/') || p.startsWith('dist/cjs/') || /^alias\/(README\.md|client(-common|-web)?\/.*\.(js|d\.ts|json))$/.test(p) || /^src\/.*\.ts$/.test(p) || p === 'package.json' || /^(README|LICENSE|LICENCE|NOTICE|CHANGELOG)(\.md|\.txt)?$/i.test(p);
  assert.deepEqual(files.filter((p) => !allowed(p)), [], 'files outside the allowed set');
  assert.ok(!files.some((p) => /(^|\/)(test|tests|fixtures|bench|demo|scripts|notes)\//.test(p) || /\.test\.js$/.test(p)), 'tests, fixtures or benches in the tarball');
  for (const p of ['package.json', 'README.md', 'LICENSE', 'dist/src/index.js', 'dist/src/index.d.ts', 'dist/src/codec.js', 'dist/src/codec.d.ts', 'dist/cjs/index.js', 'dist/cjs/index.d.ts', 'dist/cjs/package.json']) {
    assert.ok(files.includes(p), `${p} is not in the tarball`);
  }
  // The alias packages (docs/migrating.md, libraries) and what their entries load by relative path.
  for (const p of ['alias/client/package.json', 'alias/client/index.js', 'alias/client/index.d.ts', 'alias/client/dist/config.js', 'alias/client/dist/config.d.ts', 'alias/client-common/index.js', 'alias/client-web/index.js']) {
    assert.ok(files.includes(p), `${p} is not in the tarball`);
  }
  for (const entry of files.filter((p) => /^alias\/.*\.(js|d\.ts)$/.test(p))) {
    const text = readFileSync(join(ROOT, entry), 'utf8');
    for (const [, spec] of text.matchAll(/(?:require\(|from )'(\.[^']+)'/g)) {
      if (spec!.includes('compat-web')) continue; // loaded when this build has it (alias/client-web/index.js)
      const target = join(dirname(entry), spec!).replace(/\\/g, '/').replace(/\.js$/, entry.endsWith('.d.ts') ? '.d.ts' : '.js');
      assert.ok(files.includes(target), `${entry} loads ${spec}, which the tarball does not hold`);
    }
  }
  // Every shipped module is the output of a current source file: a renamed or deleted source
  // leaves its old output in dist/, and npm would publish it (clean dist/ before packing).
  const stale = files.filter((p) => /^dist\/(src|cjs)\//.test(p) && p !== 'dist/cjs/package.json').map((p) => p.replace(/^dist\/(src|cjs)\//, 'src/').replace(/\.(d\.ts|js\.map|js)$/, '.ts')).filter((src) => !existsSync(join(ROOT, src)));
  assert.deepEqual([...new Set(stale)], [], 'dist/src holds output of sources that no longer exist');
  // Every source map points at a source that is shipped too (a debugger would show nothing else).
  const missing: string[] = [];
  for (const m of files.filter((p) => p.endsWith('.js.map'))) {
    const map = JSON.parse(readFileSync(join(ROOT, m), 'utf8')) as { sources: string[] };
    for (const src of map.sources) {
      const target = join(dirname(m), src).replace(/\\/g, '/');
      if (!files.includes(target)) missing.push(`${m} → ${target}`);
    }
  }
  assert.deepEqual(missing, [], 'source maps that point at unshipped sources');
});

// `npm ci` refuses a lock file that lacks any optional dependency of a locked package. chdb's
// platform packages for other systems are not served by the registry this project installs from,
// so `npm install` drops them from the lock; they are kept as os/cpu-restricted entries (npm skips
// them on other platforms without fetching). This keeps `npm ci` (what CI runs) working.
test('package-lock.json records every optional platform package of chdb', () => {
  const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as {
    packages: Record<string, { optionalDependencies?: Record<string, string> }>;
  };
  const chdb = lock.packages['node_modules/chdb'];
  assert.ok(chdb, 'chdb is locked');
  for (const name of Object.keys(chdb.optionalDependencies ?? {})) {
    assert.ok(lock.packages[`node_modules/${name}`], `${name} is in package-lock.json (else npm ci fails)`);
  }
});
