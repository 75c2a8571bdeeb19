// What `chwire insert` says about what it committed: the final line (rows written, from the
// server's summary, else counted by the client from the input's lines and said to be), and the
// error of an insert that failed or was interrupted after input had left (the server may have
// committed part of it: it writes each block it parsed before the error). Invariant: a message
// never says less than what may have happened: once a byte of input was sent and the error is
// not one the server raises before reading data, it says the table may hold part of the input.
import { ChwireAbortError, ChwireServerError } from '../index.js';

/** Formats read one row per line (a header line for …WithNames, two for …WithNamesAndTypes). */
const LINE_FORMATS = /^(?:CSV|TSV|TabSeparated|TSVRaw|TabSeparatedRaw|JSONEachRow|JSONLines|NDJSON|JSONStringsEachRow|JSONCompactEachRow|JSONCompactStringsEachRow|LineAsString)(WithNames(AndTypes)?)?$/;

/** Counts the rows of a line format as its bytes pass: newlines, and a last line without one. */
export class LineCount {
  private lines = 0;
  private lastByte = 10;
  private constructor(private readonly headerLines: number) {}

  /** A counter for `format`, or undefined when its rows are not lines (Parquet, Native, …). */
  static of(format: string): LineCount | undefined {
    const m = LINE_FORMATS.exec(format);
    return m === null ? undefined : new LineCount(m[2] !== undefined ? 2 : m[1] !== undefined ? 1 : 0);
  }

  add(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) this.lines++;
    this.lastByte = chunk[chunk.length - 1]!;
  }

  /** Rows (lines less the header lines) seen so far. */
  rows(): number {
    return Math.max(0, this.lines + (this.lastByte === 10 ? 0 : 1) - this.headerLines);
  }
}

/** What left and what the server acknowledged, for the messages. */
export interface InsertSent {
  bytes: number;
  /** Rows the server reported written (progress), if it did. */
  written: number | undefined;
  /** The input's rows counted by the client (line formats), if countable. */
  lines: LineCount | undefined;
}

/** The command's last line on success. */
export function doneLine(table: string, summaryRows: string | undefined, sent: InsertSent): string {
  if (summaryRows !== undefined) return `chwire insert: ${summaryRows} rows written into ${table}`;
  // Servers before 22.x send no X-ClickHouse-Summary: the client counts the lines it sent.
  if (sent.lines !== undefined) return `chwire insert: ${sent.lines.rows()} rows into ${table} (counted by chwire as lines of input: this server reports no row count; a quoted value spanning lines or a row skipped under input_format_allow_errors_* is counted as the lines it has)`;
  return `chwire insert: done into ${table} (this server reports no row count, and the rows of this format are not counted by chwire)`;
}

/** Server errors raised before any data is read: nothing was committed. */
const BEFORE_DATA = new Set([
  60, // UNKNOWN_TABLE
  81, // UNKNOWN_DATABASE
  62, // SYNTAX_ERROR
  73, // UNKNOWN_FORMAT
  164, // READONLY
  192, 193, 194, 516, // unknown user, wrong password, required password, authentication failed
  497, // ACCESS_DENIED
]);

function sentText(sent: InsertSent): string {
  const rows = sent.lines === undefined ? '' : `, ${sent.lines.rows()} rows as lines`;
  return `${sent.bytes} bytes of input${rows}`;
}

/**
 * The error of an insert interrupted by Ctrl-C: what may have been committed, never only "aborted".
 * The server commits the blocks it formed from the bytes it read, so part of the input may be in
 * the table whatever the abort message says.
 */
export function interruptedInsert(e: unknown, table: string, sent: InsertSent): Error {
  const acked = sent.written === undefined ? 'the server reported no rows written yet' : `the server had reported ${sent.written} rows written`;
  const msg = sent.bytes === 0
    ? `interrupted before any data was sent: nothing was inserted into ${table}`
    : `interrupted after ${sent.bytes} bytes of input were sent (${sent.lines === undefined ? '' : `${sent.lines.rows()} rows as lines; `}${acked}): the server may have committed part or all of them into ${table}; check the table before inserting again (${(e as Error).message})`;
  return new ChwireAbortError(msg, { cause: e, queryId: (e as { queryId?: string }).queryId });
}

/**
 * The error of an insert that failed after input had left (a row the server cannot parse, a cut
 * connection): the server commits each block it parsed before the error (max_insert_block_size
 * rows, 1 048 576 by default), so the table may hold part of the input. The client's message
 * is kept whole, with what was sent and what to do appended.
 */
export function failedInsert(e: unknown, table: string, sent: InsertSent): unknown {
  if (sent.bytes === 0 || !(e instanceof Error)) return e;
  if (e instanceof ChwireServerError && BEFORE_DATA.has(e.serverCode)) return e;
  const acked = sent.written === undefined ? '' : `, the server had reported ${sent.written} rows written`;
  e.message = `${e.message}; after ${sentText(sent)} had been sent${acked}: the server may have committed part of them into ${table} (the blocks it formed from the rows it parsed before the error); check the table before inserting again, and see "Atomic imports" in docs/cli.md`;
  return e;
}
