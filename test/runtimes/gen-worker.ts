// A `chwire gen` module inside workerd, for the runtime smoke run (run.ts): the CLI generates a
// module against chdb:// (a table and a named query with a parameter), and a Worker entry that
// imports it and calls the generated query functions through chwire/web is bundled for miniflare.
// The Worker answers the rows (canonical text, smoke.ts), whether `new Function` was refused, and
// the precompiled registry's hits around the calls, so the test can assert the engine's rows came
// through the module's own decoders and not the interpreted fallback.
//
// Invariant: the same DDL and rows go to the engine the CLI describes (a chdb data directory, in a
// child process: libchdb binds one directory per process) and to the engine behind the loopback
// test server (this process), so the module's headers are exactly the ones the Worker receives.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';

const run = promisify(execFile);

export const GEN_TABLE = 'gen_worker_events';
export const GEN_DDL = [
  `CREATE TABLE ${GEN_TABLE} (id UInt64, name String, at DateTime('UTC'), kind Enum8('a' = 1, 'b c' = 2), score Nullable(Float64), tags Array(String), price Decimal(18, 4)) ENGINE = MergeTree ORDER BY id`,
  `INSERT INTO ${GEN_TABLE} SELECT number, concat('user "', toString(number), '"'), toDateTime(1700000000 + number * 3607, 'UTC'), if(number % 3 = 0, 'b c', 'a'), if(number % 4 = 0, NULL, number / 8), arrayMap(x -> toString(x * number), range(number % 4)), toDecimal64(number * 1.25, 4) FROM numbers(600)`,
];
/** The named query (SQL as given to `chwire gen --query`; other columns than the table's, so its own decoder) and the parameter the Worker passes. */
export const GEN_QUERY = `SELECT id, name, at, kind, score, tags FROM ${GEN_TABLE} WHERE id >= {min:UInt64} ORDER BY id`;
export const GEN_MIN = 250;

export interface GeneratedWorker {
  /** The bundled Worker (one ES module, no imports left). */
  readonly script: string;
  /** The generated module (types, functions and decoders in one file), as written by the CLI. */
  readonly ts: string;
  cleanup(): void;
}

/** Runs `chwire gen` (the package's bin) against a chdb data directory holding the table, and bundles the Worker. */
export async function generatedWorker(root: string): Promise<GeneratedWorker> {
  const dir = mkdtempSync(join(tmpdir(), 'chwire-gen-worker-'));
  try {
    // `chwire` resolves to this build, as in a project that installed it.
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(root, join(dir, 'node_modules', 'chwire'), 'dir');
    const url = `chdb://${join(dir, 'engine')}`;
    const setup = `
      import { createClient } from ${JSON.stringify(pathToFileURL(join(root, 'dist', 'src', 'index.js')).href)};
      const c = createClient({ url: ${JSON.stringify(url)} });
      for (const sql of ${JSON.stringify(GEN_DDL)}) await c.execute(sql);
      await c.close();`;
    await run(process.execPath, ['--input-type=module', '-e', setup], { cwd: dir });
    await run(process.execPath, [join(root, 'dist', 'src', 'cli', 'bin.js'), 'gen', '--url', url, '--table', GEN_TABLE, '--query', `eventsSince=${GEN_QUERY}`, '--out', join(dir, 'db.ts')], { cwd: dir });
    const ts = readFileSync(join(dir, 'db.ts'), 'utf8');
    writeFileSync(join(dir, 'worker.ts'), workerSource(root));
    const r = await build({
      entryPoints: [join(dir, 'worker.ts')], bundle: true, platform: 'browser', format: 'esm', target: 'es2022', write: false, logLevel: 'silent',
      absWorkingDir: dir,
    });
    return { script: r.outputFiles[0]!.text, ts, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

/**
 * The Worker: `/?url=<server>` calls the generated eventsSince() and a `SELECT *` of the table (the
 * table's row decoder), both through chwire/web, then eventsSince() again in Native (fetch, and a
 * stream read by .batches()), and answers their rows as canonical text with the hits of
 * chwire/web's public precompiledHits() before and after each.
 */
function workerSource(root: string): string {
  const dist = (p: string): string => JSON.stringify(join(root, 'dist', ...p.split('/')));
  return `
import { createClient } from 'chwire/web';
import { precompiledCount, precompiledHits } from 'chwire/web';
import { canon } from ${dist('test/runtimes/smoke.js')};
import { eventsSince, eventsSinceStream } from './db.ts';

export default {
  async fetch(request: Request): Promise<Response> {
    const u = new URL(request.url);
    let codegen: boolean;
    try { codegen = (new Function('return 1') as () => number)() === 1; } catch { codegen = false; }
    const client = createClient({ url: u.searchParams.get('url')!, requestTimeout: 20_000 });
    try {
      const registered = precompiledCount();
      const before = precompiledHits('rowbinary');
      const rows = await eventsSince(client, { min: ${GEN_MIN} });
      const afterQuery = precompiledHits('rowbinary');
      const table = await client.fetch('SELECT * FROM ${GEN_TABLE} ORDER BY id');
      const afterTable = precompiledHits('rowbinary');
      const nativeBefore = precompiledHits('native-sources');
      const native = await eventsSince(client, { min: ${GEN_MIN} }, { format: 'Native' });
      const afterNativeFetch = precompiledHits('native-sources');
      const batched = [];
      for await (const b of eventsSinceStream(client, { min: ${GEN_MIN} }, { format: 'Native' }).batches()) batched.push(...b);
      const afterNativeBatches = precompiledHits('native-sources');
      const body = {
        codegen, registered, before, afterQuery, afterTable, columns: rows.columns, rows: canon([...rows]), table: canon([...table]),
        nativeBefore, afterNativeFetch, afterNativeBatches, native: canon([...native]), batched: canon(batched),
      };
      return new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });
    } catch (e) {
      return new Response(String((e as Error)?.stack ?? e), { status: 500 });
    } finally {
      await client.close();
    }
  },
};
`;
}
