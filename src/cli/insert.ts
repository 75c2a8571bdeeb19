// `chwire insert`: a file (or stdin) in any input format streamed into a table. Invariant: bytes
// pass through untouched (the server parses the format); the only look at them is the count of
// lines for the final message of a line format (insert-outcome.ts); an interrupted insert
// (SIGINT, SIGTERM) exits 130 / 143 with the client's message of what may have been committed.
import { parseArgs } from 'node:util';
import { createClient } from '../index.js';
import { CONNECTION_HELP, CONNECTION_OPTIONS, SETTING_HELP, UsageError, clientOptions, settingPairs } from './args.js';
import { counted } from './counted.js';
import { LineCount, doneLine, failedInsert, interruptedInsert, type InsertSent } from './insert-outcome.js';
import { openInput } from './files.js';
import { note } from './messages.js';
import { progressLine } from './progress.js';
import type { Interrupt } from './signals.js';
import type { CommandIO } from './gen.js';
import type { Progress } from '../client/observe/progress.js';

export const INSERT_HELP = `Usage: chwire insert <table> [FILE|-] --format FORMAT [--setting NAME=VALUE]...

Streams FILE (or stdin, with - or no FILE) into the table; the server parses FORMAT (CSV,
CSVWithNames, TSV, JSONEachRow, Parquet, Native, …). A progress line goes to stderr on a terminal.
An import is not atomic: the server commits the blocks it parsed before an error (of up to
max_insert_block_size rows); see "Atomic imports" in docs/cli.md for all-or-nothing loads.

  --format FORMAT   the input format (required)
${SETTING_HELP}
${CONNECTION_HELP}
`;

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
