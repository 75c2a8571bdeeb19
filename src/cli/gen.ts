// `chwire gen`: typed query functions and precompiled decoders from the server's own description
// of tables and queries. Invariant: the files written are exactly emitModule's output for what the
// server describes now; `--check` writes nothing and fails when the files on disk differ from it.
import { readFile, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { createClient } from '../index.js';
import { CONNECTION_HELP, CONNECTION_OPTIONS, DECODE_HELP, DECODE_OPTIONS, UsageError, clientOptions, decodeOptions, pairs } from './args.js';
import { describeQuery, describeTable, quotedTable } from '../gen/describe.js';
import { emitModule, type GenQuery, type GenTable } from '../gen/emit.js';
import { parseQueriesFile, placeholderTypes } from '../gen/sql-text.js';
import { lineDiff } from './diff.js';
import { note } from './messages.js';

export const GEN_HELP = `Usage: chwire gen --url URL [--table db.name]... [--query name=SQL]... [--queries file.sql]... --out file.ts [--check] [decode options]

Writes file.ts (row, insert and parameter types, typed query functions) and file.decoders.js (with
file.decoders.d.ts: the compiled decoders of each result schema, used without eval at run time).

  --table NAME       a table: <Pascal>Row and <Pascal>Insert (repeatable)
  --query name=SQL   a named query: <Pascal>Row, <Pascal>Params, name() and nameStream() (repeatable)
  --queries FILE     named queries from a .sql file, each after a "-- name: topUsers" line (repeatable)
  --out FILE.ts      where to write (required)
  --check            write nothing; exit 1 and print the difference when the files are out of date
${CONNECTION_HELP}
Decode options (the row types follow them; default: chwire's lossless defaults):
${DECODE_HELP}
`;

export interface CommandIO {
  readonly stdout: { write(s: string): unknown; isTTY?: boolean };
  readonly stderr: { write(s: string): unknown; isTTY?: boolean };
  readonly env: NodeJS.ProcessEnv;
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
  const named = pairs(values.query, '--query');
  for (const file of values.queries ?? []) {
    for (const q of parseQueriesFile(await readFile(file, 'utf8'))) named.push([q.name, q.sql]);
  }
  for (const [name] of named) {
    if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name)) throw new UsageError(`query name ${JSON.stringify(name)} is not a JavaScript identifier`);
  }
  if ((values.table ?? []).length === 0 && named.length === 0) throw new UsageError('gen needs at least one --table, --query or --queries');
  const options = decodeOptions(values);

  const client = createClient(clientOptions(values, io.env));
  let out: ReturnType<typeof emitModule>;
  try {
    const tables: GenTable[] = [];
    for (const table of values.table ?? []) {
      const columns = await describeTable(client, table);
      const result = await describeQuery(client, `SELECT * FROM ${quotedTable(table)}`);
      tables.push({ table, columns, result });
    }
    const queries: GenQuery[] = [];
    for (const [name, sql] of named) {
      let params: Map<string, string>;
      try { params = placeholderTypes(sql); } catch (e) { throw new UsageError(`query ${name}: ${(e as Error).message}`); }
      queries.push({ name, sql, params, result: await describeQuery(client, sql) });
    }
    const stem = values.out.slice(0, -'.ts'.length);
    out = emitModule({ options, tables, queries, decodersImport: `./${basename(stem)}.decoders.js` });
  } finally {
    await client.close();
  }

  const stem = values.out.slice(0, -'.ts'.length);
  const files: [string, string][] = [[values.out, out.ts], [`${stem}.decoders.js`, out.js], [`${stem}.decoders.d.ts`, out.dts]];
  if (values.check === true) {
    let stale = 0;
    for (const [path, text] of files) {
      let disk: string;
      try { disk = await readFile(path, 'utf8'); } catch { disk = ''; }
      if (disk === text) continue;
      stale++;
      io.stdout.write(`--- ${path} (on disk)\n+++ ${path} (from the server now)\n${lineDiff(disk, text)}`);
    }
    if (stale > 0) {
      io.stderr.write(`chwire gen --check: ${stale} file(s) out of date; run the same command without --check\n`);
      return 1;
    }
    return 0;
  }
  for (const [path, text] of files) await writeFile(path, text);
  note(io.stderr, `chwire gen: wrote ${files.map((f) => f[0]).join(', ')}`);
  return 0;
}
