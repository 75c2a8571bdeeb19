// `chwire query`: a result's bytes in any output format, streamed to stdout or a file, and
// `chwire insert`: a file (or stdin) in any input format streamed into a table. Invariant: bytes
// pass through untouched in both directions (the server writes and parses the format); an
// interrupted command (Ctrl-C) aborts the query on the server and exits non-zero.
import { createReadStream, createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { createClient, ChwireAbortError } from '../index.js';
import { CONNECTION_HELP, CONNECTION_OPTIONS, UsageError, clientOptions, pairs } from './args.js';
import { progressLine, type ProgressSink } from './progress.js';
import type { CommandIO } from './gen.js';
import type { Progress } from '../client/observe/progress.js';

export const QUERY_HELP = `Usage: chwire query <SQL> [--format FORMAT] [--out FILE] [--param name=value]...

Streams the result to stdout (or FILE) in FORMAT (default TabSeparated: CSV, CSVWithNames, TSV,
JSONEachRow, Parquet, Native, …). A progress line goes to stderr when it is a terminal.

  --format FORMAT     any ClickHouse output format
  --out FILE          write to FILE instead of stdout
  --param name=value  a value for a {name:Type} placeholder, as the server's text form (repeatable)
${CONNECTION_HELP}
`;

export const INSERT_HELP = `Usage: chwire insert <table> [FILE|-] --format FORMAT

Streams FILE (or stdin, with - or no FILE) into the table; the server parses FORMAT (CSV,
CSVWithNames, TSV, JSONEachRow, Parquet, Native, …). A progress line goes to stderr on a terminal.

  --format FORMAT   the input format (required)
${CONNECTION_HELP}
`;

/** Ctrl-C aborts the running call (which also stops the query on the server). */
function interruptible(): { signal: AbortSignal; dispose(): void } {
  const ac = new AbortController();
  const onSig = (): void => ac.abort(new Error('interrupted'));
  process.once('SIGINT', onSig);
  return { signal: ac.signal, dispose: () => process.off('SIGINT', onSig) };
}

/**
 * The error of an insert interrupted by Ctrl-C: what may have been committed, never only "aborted".
 * The server commits the blocks it formed from the bytes it read, so part of the input may be in
 * the table whatever the abort message says.
 */
function interruptedInsert(e: unknown, table: string, sent: { bytes: number; written: number | undefined }): Error {
  const acked = sent.written === undefined ? 'the server reported no rows written yet' : `the server had reported ${sent.written} rows written`;
  const msg = sent.bytes === 0
    ? `interrupted before any data was sent: nothing was inserted into ${table}`
    : `interrupted after ${sent.bytes} bytes of input were sent (${acked}): the server may have committed part or all of them into ${table}; check the table before inserting again (${(e as Error).message})`;
  return new ChwireAbortError(msg, { cause: e, queryId: (e as { queryId?: string }).queryId });
}

async function* counted(src: AsyncIterable<Uint8Array>, p: ProgressSink): AsyncGenerator<Uint8Array> {
  for await (const chunk of src) {
    p.bytes(chunk.length);
    yield chunk;
  }
}

export async function queryCommand(argv: readonly string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: { ...CONNECTION_OPTIONS, format: { type: 'string' }, out: { type: 'string' }, param: { type: 'string', multiple: true } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help === true) { io.stdout.write(QUERY_HELP); return 0; }
  if (positionals.length !== 1) throw new UsageError('query takes exactly one SQL argument (quote it)');
  const params = Object.fromEntries(pairs(values.param, '--param'));
  const client = createClient(clientOptions(values, io.env));
  const progress = progressLine(io.stderr);
  const stop = interruptible();
  try {
    const stream = client.streamRaw(positionals[0]!, {
      format: values.format ?? 'TabSeparated', params, signal: stop.signal,
      // Progress polling costs a small query per interval: only when a terminal shows it.
      ...(io.stderr.isTTY === true ? { onProgress: (p: Progress) => progress.server(p.readRows, p.totalRowsToRead) } : {}),
    });
    const dest = values.out === undefined ? process.stdout : createWriteStream(values.out);
    await pipeline(counted(stream, progress), dest, { end: values.out !== undefined });
  } finally {
    progress.done();
    stop.dispose();
    await client.close();
  }
  return 0;
}

export async function insertCommand(argv: readonly string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: { ...CONNECTION_OPTIONS, format: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help === true) { io.stdout.write(INSERT_HELP); return 0; }
  if (positionals.length < 1 || positionals.length > 2) throw new UsageError('insert takes a table and optionally a file (or -)');
  if (values.format === undefined) throw new UsageError('insert needs --format (CSV, JSONEachRow, Parquet, Native, …)');
  const [table, file] = positionals as [string, string | undefined];
  const source: AsyncIterable<Uint8Array> = file === undefined || file === '-' ? process.stdin : createReadStream(file);
  const client = createClient(clientOptions(values, io.env));
  const progress = progressLine(io.stderr);
  const stop = interruptible();
  // What left and what the server acknowledged, for the message of an interrupted insert.
  const sent = { bytes: 0, written: undefined as number | undefined };
  const tty = io.stderr.isTTY === true;
  try {
    const res = await client.insert(table, counted(source, { bytes: (n) => { sent.bytes += n; progress.bytes(n); }, server: (r, t) => progress.server(r, t), done: () => progress.done() }), {
      format: values.format, signal: stop.signal,
      onProgress: (p: Progress) => { sent.written = p.writtenRows; if (tty) progress.server(p.writtenRows, 0); },
    }).catch((e: unknown) => { throw stop.signal.aborted ? interruptedInsert(e, table, sent) : e; });
    progress.done();
    const written = res.summary?.['written_rows'];
    io.stderr.write(`chwire insert: ${written === undefined ? 'done' : `${written} rows written`} into ${table}\n`);
  } finally {
    progress.done();
    stop.dispose();
    await client.close();
  }
  return 0;
}
