// `chwire query`: a result's bytes in any output format, streamed to stdout or a file. Invariant:
// bytes pass through untouched (the server writes the format; nothing is parsed or copied per row);
// an interrupted command (SIGINT, SIGTERM) aborts the query on the server and exits 130 / 143
// (signals.ts); `--out` holds the whole result or nothing new (files.ts); a reader that closes
// stdout early (`| head`) ends the query quietly with exit 0. Only the query client is loaded
// (no insert encoders, no columnar readers, no code generator: test/cli.startup.test.ts).
import { randomUUID } from 'node:crypto';
import { createWriteStream, fstatSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { createQueryClientWith, type QueryClient } from '../client/query-client.js';
import { withGlobalTracer } from '../client/observe/otel-global.js';
import { nodeTransport } from '../node-transports.js';
import { CONNECTION_HELP, CONNECTION_OPTIONS, SETTING_HELP, UsageError, clientOptions, pairs, settingPairs } from './args.js';
import { counted } from './counted.js';
import type { AtomicOutput } from './files.js';
import { progressLine } from './progress.js';
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

/**
 * Asks the server to stop `queryId` and waits for its answer (bounded): the transport's own KILL
 * QUERY after an abort is sent in the background, and the client's close() that follows cut it
 * off before it reached the server (measured on 18.16: the query ran on). chdb:// stops an
 * aborted query in process. Any failure is ignored (the query may have ended already).
 */
/**
 * Where a result without `--out` goes. stdout redirected to a regular file (`> file`) is written
 * through an asynchronous file stream, whose writev sends the chunks that arrived during a write
 * in one call (process.stdout writes a file synchronously, one call per chunk: ~48 000 of 4 KiB
 * for 180 MB from 18.16); it is ended (flushed) but fd 1 stays open. A pipe or a terminal is
 * process.stdout, as it is.
 */
function stdoutSink(): { stream: Writable; end: boolean } {
  let file = false;
  try { file = fstatSync(1).isFile(); } catch { /* not a file: process.stdout */ }
  if (!file) return { stream: process.stdout, end: false };
  const stream = createWriteStream('', { fd: 1, autoClose: false });
  // Errors reach the command through pipeline(); this keeps one that comes after it from being unhandled.
  stream.on('error', () => undefined);
  return { stream, end: true };
}

async function stopOnServer(client: QueryClient, url: string | readonly string[] | undefined, queryId: string): Promise<void> {
  if ((typeof url === 'string' ? [url] : url ?? []).some((u) => u.startsWith('chdb:'))) return;
  await client.execute(`KILL QUERY WHERE query_id = '${queryId}' ASYNC`, { signal: AbortSignal.timeout(5000) }).catch(() => undefined);
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
  // createClient's query half (index.ts), as chwire's own entry builds it: streamRaw and KILL QUERY.
  const client = createQueryClientWith(withGlobalTracer(options), nodeTransport);
  const progress = progressLine(io.stderr);
  const queryId = randomUUID();
  let out: AtomicOutput | undefined;
  let sink: { stream: Writable; end: boolean } | undefined;
  // A reader that has seen enough (`| head`) closes the pipe: stop the query, say nothing, exit 0.
  // Registered before pipeline()'s own listener, so the abort (and its KILL QUERY) comes first.
  let readerGone = false;
  const onStdoutError = (e: NodeJS.ErrnoException): void => {
    if (e.code === 'EPIPE') { readerGone = true; stop.abort(new Error('stdout was closed')); }
  };
  try {
    // The file is created before the query is sent: an unwritable destination costs no query.
    if (values.out !== undefined) {
      // files.ts (and node:crypto's randomBytes, node:fs/promises) only for --out.
      const { atomicOutput } = await import('./files.js');
      const file = out = await atomicOutput(values.out);
      stop.onForcedExit(() => file.discardSync());
    } else {
      sink = stdoutSink();
      sink.stream.on('error', onStdoutError);
    }
    const stream = client.streamRaw(positionals[0]!, {
      format: values.format ?? 'TabSeparated', params, signal: stop.signal, queryId, settings,
      ...(appended === undefined ? {} : { appendedExceptions: appended }),
      // Progress polling costs a small query per interval: only when a terminal shows it.
      ...(io.stderr.isTTY === true ? { onProgress: (p: Progress) => progress.server(p.readRows, p.totalRowsToRead) } : {}),
    });
    // Without a terminal to show progress on, the chunks go straight to the pipe (no generator between).
    const source = io.stderr.isTTY === true ? counted(stream, progress) : stream;
    await pipeline(source, out?.stream ?? sink!.stream, { end: out !== undefined || sink!.end });
    await out?.commit();
  } catch (e) {
    await out?.discard();
    if (stop.signal.aborted) await stopOnServer(client, options.url, queryId);
    if (readerGone) return 0;
    throw e;
  } finally {
    // After EPIPE the listener stays: a later error of the closed pipe has nothing left to stop.
    if (!readerGone) sink?.stream.off('error', onStdoutError);
    progress.done();
    await client.close();
  }
  return 0;
}
