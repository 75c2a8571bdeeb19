// Every example of docs/migrating.md runs: each ```ts block whose first line is `// example: <name>`
// is compiled (types stripped), its `http://localhost:8123` pointed at the 18.16 server (or, for
// blocks marked `(26.x)`, at the loopback test server over the embedded engine), its table name
// made unique, and imported as a module from inside the package, so `chwire`, `chwire/compat` and
// `chwire/compat/web` resolve through package.json's exports as a user's import would.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { REAL_URL, SKIP_REAL } from './support/ch-server.js';
import { startTestServer } from './support/test-server.js';

const DOC = readFileSync(fileURLToPath(new URL('../../docs/migrating.md', import.meta.url)), 'utf8');
const DIR = fileURLToPath(new URL('./.migrating-examples/', import.meta.url));
mkdirSync(DIR, { recursive: true });

const server = await startTestServer({ storeInserts: true });
after(() => server.close());

interface Example { name: string; modern: boolean; code: string }

function examples(): Example[] {
  const out: Example[] = [];
  for (const m of DOC.matchAll(/```ts\n([\s\S]*?)```/g)) {
    const code = m[1]!;
    const head = /^\/\/ example: ([a-z-]+)( \(26\.x\))?\n/.exec(code);
    assert.ok(head !== null, `every ts block of docs/migrating.md is an example: ${code.slice(0, 60)}`);
    out.push({ name: head[1]!, modern: head[2] !== undefined, code });
  }
  return out;
}

test('docs/migrating.md has its examples', () => {
  const names = examples().map((e) => e.name);
  assert.deepEqual(names, ['switch', 'calls', 'web', 'types', 'insert', 'errors', 'ping', 'streams', 'timeout']);
});

for (const ex of examples()) {
  test(`docs/migrating.md example "${ex.name}" runs`, { skip: ex.modern ? false : SKIP_REAL }, async () => {
    const url = ex.modern ? server.url : REAL_URL!;
    const source = `import assert from 'node:assert/strict';\n${ex.code}`
      .replaceAll('http://localhost:8123', url)
      .replaceAll('compat_docs_t', `compat_docs_t_${process.pid}_${ex.name}`);
    const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    const file = `${DIR}${ex.name}.mjs`;
    writeFileSync(file, js);
    await import(`${pathToFileURL(file).href}?${Date.now()}`);
  });
}
