// `chwire gen`: typed query functions and precompiled decoders from the server's own description
// of tables and queries. Invariant: the file written is exactly emitModule's output for what the
// server describes now; `--check` writes nothing and fails when the file on disk differs from it.
// Exit codes: 0 written / up to date, 1 out of date (--check) or a failure, 2 usage, 3 the server
// could not be reached, 4 the server refused to describe a query or table (the message names it).
import { readFile, rm, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { createClient } from '../index.js';
import { ChwireConnectionError, ChwireServerError, ChwireTimeoutError } from '../errors.js';
import { CONNECTION_HELP, CONNECTION_OPTIONS, DECODE_HELP, DECODE_OPTIONS, UsageError, clientOptions, decodeOptions, pairs } from './args.js';
import { describeQuery, describeTable, quotedTable } from '../gen/describe.js';
import { GENERATED_MARK, emitModule, type GenQuery, type GenTable } from '../gen/emit.js';
import { parseMarker, parseQueriesFile, placeholderTypes, trimStatement, type QueryKind } from '../gen/sql-text.js';
import { lineDiff } from './diff.js';

export const GEN_HELP = `Usage: chwire gen --url URL [--table db.name]... [--query name=SQL]... [--queries file.sql]... --out file.ts [--check] [decode options]

Writes file.ts: row, insert and parameter types, typed query and insert functions, and the
compiled decoders of each result schema (used without eval at run time), in one file.

  --table NAME       a table: <Pascal>Row, <Pascal>Insert and insert<Pascal>() (repeatable)
  --query name=SQL   a named query: <Pascal>Row, <Pascal>Params, name() and nameStream();
                     "name :one=SQL" or "name :exec=SQL" as in a .sql file (repeatable)
  --queries FILE     named queries from a .sql file, each after a "-- name: topUsers" line,
                     optionally ":one", ":many" (default) or ":exec" as sqlc writes them (repeatable)
  --out FILE.ts      where to write (required)
  --check            write nothing; print a unified diff and exit 1 when the file is out of date
${CONNECTION_HELP}
Decode options (the row types follow them; default: chwire's lossless defaults):
${DECODE_HELP}
Exit codes: 0 written or up to date; 1 out of date (--check) or failed; 2 usage; 3 the server
could not be reached; 4 the server refused to describe a query or table.
`;

export interface CommandIO {
  readonly stdout: { write(s: string): unknown; isTTY?: boolean };
  readonly stderr: { write(s: string): unknown; isTTY?: boolean };
  readonly env: NodeJS.ProcessEnv;
}

export const GEN_EXIT = { ok: 0, stale: 1, usage: 2, unreachable: 3, refused: 4 } as const;

/** An error of one query or table, with the exit code it means. */
class GenError extends Error {
  constructor(message: string, readonly exitCode: number, options?: ErrorOptions) {
    super(message, options);
  }
}

/** Describe one query or table; errors name it and say whether the server was unreachable. */
async function named<T>(what: string, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    const msg = (e as Error).message;
    if (e instanceof ChwireConnectionError || e instanceof ChwireTimeoutError) throw new GenError(`${what}: the server could not be reached: ${msg}`, GEN_EXIT.unreachable, { cause: e });
    if (e instanceof ChwireServerError) throw new GenError(`${what}: the server could not describe it: ${msg}`, GEN_EXIT.refused, { cause: e });
    if (e instanceof SyntaxError) throw new UsageError(`${what}: ${msg}`);
    throw new GenError(`${what}: ${msg}`, 1, { cause: e });
  }
}

export async function genCommand(argv: readonly string[], io: CommandIO): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      ...CONNECTION_OPTIONS, ...DECODE_OPTIONS,
      table: { type: 'string', multiple: true },
      query: { type: 'string', multiple: true },
      queries: { type: 'string', multiple: true },
      out: { type: 'string' },
      check: { type: 'boolean' },
    },
    allowPositionals: false,
    strict: true,
  });
  if (values.help === true) { io.stdout.write(GEN_HELP); return 0; }
  if (values.out === undefined) throw new UsageError('gen needs --out file.ts');
  if (!values.out.endsWith('.ts')) throw new UsageError('--out must name a .ts file');
  const wanted: { name: string; kind: QueryKind; sql: string }[] = [];
  for (const [marker, sql] of pairs(values.query, '--query')) {
    let q: { name: string; kind: QueryKind };
    try { q = parseMarker(marker, '--query'); } catch (e) { throw new UsageError((e as Error).message); }
    let text: string;
    try { text = trimStatement(sql); } catch (e) { throw new UsageError(`query ${q.name}: ${(e as Error).message}`); }
    wanted.push({ ...q, sql: text });
  }
  for (const file of values.queries ?? []) {
    let parsed;
    try { parsed = parseQueriesFile(await readFile(file, 'utf8'), file); } catch (e) { throw new UsageError((e as Error).message); }
    for (const q of parsed) wanted.push(q);
  }
  if ((values.table ?? []).length === 0 && wanted.length === 0) throw new UsageError('gen needs at least one --table, --query or --queries');
  const options = decodeOptions(values);

  const client = createClient(clientOptions(values, io.env));
  let out: ReturnType<typeof emitModule>;
  try {
    const tables: GenTable[] = [];
    for (const table of values.table ?? []) {
      const columns = await named(`table ${table}`, () => describeTable(client, table));
      const result = await named(`table ${table}`, () => describeQuery(client, `SELECT * FROM ${quotedTable(table)}`));
      tables.push({ table, columns, result });
    }
    const queries: GenQuery[] = [];
    for (const q of wanted) {
      const what = `query ${q.name}`;
      const params = await named(what, async () => placeholderTypes(q.sql));
      const result = q.kind === 'exec' ? [] : await named(what, () => describeQuery(client, q.sql));
      queries.push({ name: q.name, sql: q.sql, kind: q.kind, params, result });
    }
    out = emitModule({ options, tables, queries });
  } catch (e) {
    if (!(e instanceof GenError)) throw e;
    io.stderr.write(`chwire gen: ${e.message}\n`);
    return e.exitCode;
  } finally {
    await client.close();
  }

  const path = values.out;
  if (values.check === true) {
    let disk: string;
    try { disk = await readFile(path, 'utf8'); } catch { disk = ''; }
    if (disk === out.ts) return GEN_EXIT.ok;
    io.stdout.write(`--- ${path} (on disk)\n+++ ${path} (from the server now)\n${lineDiff(disk, out.ts)}`);
    io.stderr.write(`chwire gen --check: ${path} is out of date; run the same command without --check\n`);
    return GEN_EXIT.stale;
  }
  await writeFile(path, out.ts);
  // Files of the earlier layout (decoders in a companion .js) are replaced by the one file.
  const stem = path.slice(0, -'.ts'.length);
  for (const old of [`${stem}.decoders.js`, `${stem}.decoders.d.ts`]) {
    const text = await readFile(old, 'utf8').catch(() => undefined);
    if (text?.startsWith(GENERATED_MARK) === true) await rm(old);
  }
  io.stderr.write(`chwire gen: wrote ${path}\n`);
  return GEN_EXIT.ok;
}
