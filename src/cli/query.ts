// `chwire query`: a result's bytes in any output format, streamed to stdout or a file, and
// `chwire insert`: a file (or stdin) in any input format streamed into a table. Invariant: bytes
// pass through untouched in both directions (the server writes and parses the format); an
// interrupted command (SIGINT, SIGTERM) aborts the query on the server and exits 130 / 143
// (signals.ts); `--out` holds the whole result or nothing new (files.ts); a reader that closes
// stdout early (`| head`) ends the query quietly with exit 0.
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { createClient, type Client } from '../index.js';
import { CONNECTION_HELP, CONNECTION_OPTIONS, SETTING_HELP, UsageError, clientOptions, pairs, settingPairs } from './args.js';
import { LineCount, doneLine, failedInsert, interruptedInsert, type InsertSent } from './insert-outcome.js';
import { atomicOutput, openInput, type AtomicOutput } from './files.js';
import { note } from './messages.js';
import { progressLine, type ProgressSink } from './progress.js';
import type { Interrupt } from './signals.js';
import type { CommandIO } from './gen.js';
import type { Progress } from '../client/observe/progress.js';

export const QUERY_HELP = `Usage: chwire query <SQL> [--format FORMAT] [--out FILE] [--param name=value]... [--setting NAME=VALUE]...

Streams the result to stdout (or FILE) in FORMAT (default TabSeparated: CSV, CSVWithNames, TSV,
JSONEachRow, Parquet, Native, …). A progress line goes to stderr when it is a terminal.
SIGINT (Ctrl-C) or SIGTERM stops the query on the server (exit 130 / 143); a closed stdout
(| head) stops it quietly (exit 0).

  --format FORMAT     any ClickHouse output format
  --out FILE          write to FILE instead of stdout: written beside it under a temporary name
                      and renamed when complete (a failed or stopped export leaves FILE as it was)
  --param name=value  a value for a {name:Type} placeholder, as the server's text form (repeatable)
  --appended-exceptions detect|wait
                      servers before 25.11 append an error after the data: detect (default) streams
                      at once and recognises it; wait has the server finish first (buffering the result)
${SETTING_HELP}
${CONNECTION_HELP}
`;

export const INSERT_HELP = `Usage: chwire insert <table> [FILE|-] --format FORMAT [--setting NAME=VALUE]...

Streams FILE (or stdin, with - or no FILE) into the table; the server parses FORMAT (CSV,
CSVWithNames, TSV, JSONEachRow, Parquet, Native, …). A progress line goes to stderr on a terminal.
An import is not atomic: the server commits the blocks it parsed before an error (of up to
max_insert_block_size rows); see "Atomic imports" in docs/cli.md for all-or-nothing loads.

  --format FORMAT   the input format (required)
${SETTING_HELP}
${CONNECTION_HELP}
`;

/**
 * Asks the server to stop `queryId` and waits for its answer (bounded): the transport's own KILL
 * QUERY after an abort is sent in the background, and the client's close() that follows cut it
 * off before it reached the server (measured on 18.16: the query ran on). chdb:// stops an
 * aborted query in process. Any failure is ignored (the query may have ended already).
 */
async function stopOnServer(client: Client, url: string | readonly string[] | undefined, queryId: string): Promise<void> {
  if ((typeof url === 'string' ? [url] : url ?? []).some((u) => u.startsWith('chdb:'))) return;
  await client.execute(`KILL QUERY WHERE query_id = '${queryId}' ASYNC`, { signal: AbortSignal.timeout(5000) }).catch(() => undefined);
}

async function* counted(src: AsyncIterable<Uint8Array>, p: ProgressSink, lines?: LineCount): AsyncGenerator<Uint8Array> {
  for await (const chunk of src) {
    lines?.add(chunk);
    p.bytes(chunk.length);
    yield chunk;
  }
}

export async function queryCommand(argv: readonly string[], io: CommandIO, stop: Interrupt): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: { ...CONNECTION_OPTIONS, format: { type: 'string' }, out: { type: 'string' }, param: { type: 'string', multiple: true }, setting: { type: 'string', multiple: true }, 'appended-exceptions': { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help === true) { io.stdout.write(QUERY_HELP); return 0; }
  if (positionals.length !== 1) throw new UsageError('query takes exactly one SQL argument (quote it)');
  const appended = values['appended-exceptions'];
  if (appended !== undefined && appended !== 'detect' && appended !== 'wait') throw new UsageError(`--appended-exceptions must be detect or wait, got ${JSON.stringify(appended)}`);
  const params = Object.fromEntries(pairs(values.param, '--param'));
  const settings = settingPairs(values.setting);
  const options = clientOptions(values, io.env);
  const client = createClient(options);
  const progress = progressLine(io.stderr);
  const queryId = randomUUID();
  let out: AtomicOutput | undefined;
  // A reader that has seen enough (`| head`) closes the pipe: stop the query, say nothing, exit 0.
  // Registered before pipeline()'s own listener, so the abort (and its KILL QUERY) comes first.
  let readerGone = false;
  const onStdoutError = (e: NodeJS.ErrnoException): void => {
    if (e.code === 'EPIPE') { readerGone = true; stop.abort(new Error('stdout was closed')); }
  };
  try {
    // The file is created before the query is sent: an unwritable destination costs no query.
    if (values.out !== undefined) {
      const file = out = await atomicOutput(values.out);
      stop.onForcedExit(() => file.discardSync());
    } else {
      process.stdout.on('error', onStdoutError);
    }
    const stream = client.streamRaw(positionals[0]!, {
      format: values.format ?? 'TabSeparated', params, signal: stop.signal, queryId, settings,
      ...(appended === undefined ? {} : { appendedExceptions: appended }),
      // Progress polling costs a small query per interval: only when a terminal shows it.
      ...(io.stderr.isTTY === true ? { onProgress: (p: Progress) => progress.server(p.readRows, p.totalRowsToRead) } : {}),
    });
    await pipeline(counted(stream, progress), out?.stream ?? process.stdout, { end: out !== undefined });
    await out?.commit();
  } catch (e) {
    await out?.discard();
    if (stop.signal.aborted) await stopOnServer(client, options.url, queryId);
    if (readerGone) return 0;
    throw e;
  } finally {
    // After EPIPE the listener stays: a later error of the closed pipe has nothing left to stop.
    if (!readerGone) process.stdout.off('error', onStdoutError);
    progress.done();
    await client.close();
  }
  return 0;
}

export async function insertCommand(argv: readonly string[], io: CommandIO, stop: Interrupt): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: { ...CONNECTION_OPTIONS, format: { type: 'string' }, setting: { type: 'string', multiple: true } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help === true) { io.stdout.write(INSERT_HELP); return 0; }
  if (positionals.length < 1 || positionals.length > 2) throw new UsageError('insert takes a table and optionally a file (or -)');
  if (values.format === undefined) throw new UsageError('insert needs --format (CSV, JSONEachRow, Parquet, Native, …)');
  const settings = settingPairs(values.setting);
  const [table, file] = positionals as [string, string | undefined];
  const options = clientOptions(values, io.env);
  // Opened before anything is sent: a missing or unreadable file is one line, not a stack.
  const input = file === undefined || file === '-' ? undefined : await openInput(file);
  const source: AsyncIterable<Uint8Array> = input?.stream ?? process.stdin;
  const client = createClient(options);
  const progress = progressLine(io.stderr);
  // A file's size is known: the progress line shows the share of it sent.
  if (input !== undefined) progress.expectBytes(input.size);
  // What left and what the server acknowledged, for the messages (insert-outcome.ts).
  const sent: InsertSent = { bytes: 0, written: undefined, lines: LineCount.of(values.format) };
  const tty = io.stderr.isTTY === true;
  const lines = sent.lines;
  try {
    const res = await client.insert(table, counted(source, {
      bytes: (n) => {
        sent.bytes += n;
        // Rows on the line: the server's written rows when it reports them, else the lines sent.
        if (tty && lines !== undefined && sent.written === undefined) progress.server(lines.rows(), 0);
        progress.bytes(n);
      },
      server: (r, t) => progress.server(r, t),
      expectBytes: (n) => progress.expectBytes(n),
      done: () => progress.done(),
    }, lines), {
      format: values.format, signal: stop.signal, settings,
      // (A report of 0 rows written says nothing yet: the lines counted so far stay on the line.)
      onProgress: (p: Progress) => { if (p.writtenRows === 0) return; sent.written = p.writtenRows; if (tty) progress.server(p.writtenRows, 0); },
    }).catch((e: unknown) => { throw stop.signal.aborted ? interruptedInsert(e, table, sent) : failedInsert(e, table, sent); });
    progress.done();
    note(io.stderr, doneLine(table, res.summary?.['written_rows'], sent));
  } finally {
    progress.done();
    await client.close();
  }
  return 0;
}
