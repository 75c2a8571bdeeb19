// `chwire gen` against the real 18.16 server with the names any tenant can give a column there: a
// newline followed by code and `//` (which an earlier emitter wrote into a `//` comment, so the code
// ran when the module was imported), U+2028 (which ends a `//` comment too), a backtick and `${`
// (once refused as "holds a template literal"), `*/` in an Enum label. The module must be generated,
// import without running any of the planted code, and insert and read rows under those names through
// its precompiled encoders and decoders in a process that refuses code generation. Then a hostile
// server: a proxy in front of 18.16 rewrites the query on system.columns so that the real server
// answers a `default_kind` of `DEFAULT */ } <code>; interface Z { /*`: gen must refuse it by name
// (exit 1) and write nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { main } from '../src/cli/main.js';
import { REAL_URL, SKIP_REAL, realClient, uniqueName } from './support/ch-server.js';

const run = promisify(execFile);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

async function cli(args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: { write: (s: string) => { stdout += s; return true; } },
    stderr: { isTTY: false, write: (s: string) => { stderr += s; return true; } },
    env: {},
  });
  return { stdout, stderr, code };
}

const PLANT = 'globalThis.chwirePwned = (globalThis.chwirePwned ?? 0) + 1';
/** Column names as JS strings, and as ClickHouse back-quoted identifiers. */
const AGG = `a\n${PLANT}//`;
const SEP = `b\u2028${PLANT}//`;
const TICK = 'c`${' + PLANT + '}`';
const ENUM = 'e */ x';
const LABEL = `*/ ${PLANT} /*`;
const ident = (s: string): string => '`' + s.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\n/g, '\\n') + '`';

// Imports the module, then inserts argv[3] (JSON rows) through its insert function and reads them
// back through its query `back`; says whether the planted code ran and where the code came from.
const RUNNER = `
import { createClient, precompiledHits } from 'chwire';
const before = globalThis.chwirePwned;
const mod = await import('./db.js');
const ran = globalThis.chwirePwned;
let refused = false;
try { new Function('return 1'); } catch { refused = true; }
const client = createClient({ url: process.argv[2] });
const insertFn = Object.keys(mod).find((k) => k.startsWith('insert'));
await mod[insertFn](client, JSON.parse(process.argv[3]));
const rows = [...await mod.back(client)];
const hits = { sources: precompiledHits('native-sources'), insert: precompiledHits('native-insert') };
await client.close();
process.stdout.write(JSON.stringify({ before, ran, refused, hits, rows }, (_, x) => typeof x === 'bigint' ? x.toString() + 'n' : x));
`;

const CASES: { what: string; columns: string; read: readonly string[]; rows: Record<string, unknown>[] }[] = [
  {
    what: 'a newline and U+2028 before code, `*/` in an Enum label',
    columns: `id UInt64, ${ident(AGG)} AggregateFunction(uniq, UInt64), ${ident(SEP)} String, ${ident(ENUM)} Enum8('${LABEL}' = 1, 'ok' = 2)`,
    read: [SEP, ENUM],
    rows: [{ id: 1, [SEP]: 'one', [ENUM]: LABEL }, { id: 2, [SEP]: 'two', [ENUM]: 'ok' }],
  },
  {
    what: 'a backtick and ${',
    columns: `id UInt64, ${ident(TICK)} String`,
    read: [TICK],
    rows: [{ id: 1, [TICK]: 'x`y' }, { id: 2, [TICK]: '${z}' }],
  },
];

for (const c of CASES) {
  test(`chwire gen on 18.16, column names with ${c.what}: the module imports without running them, and inserts and reads under those names`, { skip: SKIP_REAL, timeout: 120_000 }, async () => {
    const client = realClient();
    const table = uniqueName('gen_hostile');
    const dir = join(ROOT, 'dist', 'gen-test', uniqueName('hostile'));
    mkdirSync(dir, { recursive: true });
    try {
      await client.execute(`CREATE TABLE ${table} (${c.columns}) ENGINE = AggregatingMergeTree ORDER BY id`);
      const names = (await client.fetch<{ name: string }>(`SELECT name FROM system.columns WHERE database = currentDatabase() AND table = '${table}'`)).map((r) => r.name);
      assert.deepEqual(names.filter((n) => n !== 'id' && n !== AGG), c.read, 'the server keeps the names as given');
      const out = join(dir, 'db.ts');
      const back = `SELECT id, ${c.read.map(ident).join(', ')} FROM ${table} ORDER BY id`;
      const gen = await cli(['gen', '--url', REAL_URL!, '--table', table, '--query', `back=${back}`, '--out', out]);
      assert.equal(gen.code, 0, gen.stderr);
      const source = readFileSync(out, 'utf8');
      writeFileSync(join(dir, 'db.js'), ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText);
      writeFileSync(join(dir, 'runner.mjs'), RUNNER);
      const r = await run(process.execPath, ['--disallow-code-generation-from-strings', join(dir, 'runner.mjs'), REAL_URL!, JSON.stringify(c.rows)], { cwd: dir });
      const got = JSON.parse(r.stdout) as { before: unknown; ran: unknown; refused: boolean; hits: { sources: number; insert: number }; rows: unknown[] };
      assert.equal(got.before, undefined);
      assert.equal(got.ran, undefined, 'importing the module ran code planted in a column name');
      assert.equal(got.refused, true, 'the child must refuse new Function');
      assert.equal(got.hits.insert, 1, 'the insert went through the module\'s precompiled encoder');
      assert.equal(got.hits.sources, 1, 'the rows came through the module\'s precompiled Native row function');
      assert.deepEqual(got.rows, c.rows.map((row) => ({ ...row, id: `${String(row['id'])}n` })));
    } finally {
      await client.execute(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
      await client.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

/** A proxy to 18.16 that makes the server answer `kind` as every column's default_kind in system.columns. */
async function defaultKindProxy(target: string, kind: string): Promise<{ url: string; rewrites: () => number; close: () => Promise<void> }> {
  const t = new URL(target);
  let rewrites = 0;
  const swap = (sql: string): string => {
    if (!sql.includes('default_kind FROM system.columns')) return sql;
    rewrites++;
    return sql.replace('default_kind FROM system.columns', `'${kind.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}' AS default_kind FROM system.columns`);
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const q = url.searchParams.get('query');
      if (q !== null) url.searchParams.set('query', swap(q));
      const body = Buffer.from(swap(Buffer.concat(chunks).toString('utf8')));
      const headers = { ...req.headers, host: t.host, 'content-length': String(body.length) };
      const up = http.request({ host: t.hostname, port: t.port, method: req.method, path: url.pathname + url.search, headers }, (ur) => {
        res.writeHead(ur.statusCode ?? 502, ur.headers);
        ur.pipe(res);
      });
      up.on('error', () => res.destroy());
      up.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    rewrites: () => rewrites,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

test('chwire gen refuses a default_kind that is none of ClickHouse\'s (a hostile server in front of 18.16), naming the column; nothing is written', { skip: SKIP_REAL, timeout: 60_000 }, async () => {
  const client = realClient();
  const table = uniqueName('gen_dkind');
  const dir = join(ROOT, 'dist', 'gen-test', uniqueName('dkind'));
  mkdirSync(dir, { recursive: true });
  const proxy = await defaultKindProxy(REAL_URL!, `DEFAULT */ } ${PLANT}; interface Z { /*`);
  try {
    await client.execute(`CREATE TABLE ${table} (id UInt64, note String) ENGINE = Memory`);
    const out = join(dir, 'db.ts');
    const gen = await cli(['gen', '--url', proxy.url, '--table', table, '--out', out]);
    assert.ok(proxy.rewrites() > 0, 'the proxy answered the description of the table');
    assert.equal(gen.code, 1, gen.stderr);
    assert.match(gen.stderr, new RegExp(`^chwire gen: table ${table}: system\\.columns gives the column the default kind "DEFAULT \\*/ \\} .*", which is none of DEFAULT, MATERIALIZED, ALIAS, EPHEMERAL: refused, nothing is generated from it \\(column "id", byte offset 0\\)\\n$`));
    assert.equal(existsSync(out), false, 'nothing is written');
  } finally {
    await proxy.close();
    await client.execute(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
