// The progress line of `chwire query` and `chwire insert` on a terminal: rows, bytes, rows/s,
// elapsed and a percentage: of the rows the server says it will read, or of the input file's bytes
// (an insert whose file size is known). Invariant: nothing is
// written unless the stream is a TTY, at most every 100 ms, and the line is cleared at the end, so
// output redirected to a file or a pipe carries no progress text.

export interface ProgressSink {
  /** Bytes moved so far (of the result, or of the input file). */
  bytes(n: number): void;
  /** What the server reported (rows read or written; rows it expects to read, 0 when unknown). */
  server(rows: number, totalRows: number): void;
  /** The bytes `bytes()` will reach in all (an input file's size); 0 = unknown. */
  expectBytes(total: number): void;
  done(): void;
}

interface Tty { isTTY?: boolean; write(s: string): unknown }

function human(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return `${n.toFixed(i === 0 ? 0 : 1)} ${units[i]}`;
}

export function progressLine(out: Tty, now: () => number = Date.now): ProgressSink {
  const start = now();
  let bytes = 0;
  let rows = 0;
  let total = 0;
  let totalBytes = 0;
  let last = 0;
  const draw = (force: boolean): void => {
    if (out.isTTY !== true) return;
    const t = now();
    if (!force && t - last < 100) return;
    last = t;
    const secs = Math.max((t - start) / 1000, 1e-3);
    const share = total > 0 ? rows / total : totalBytes > 0 ? bytes / totalBytes : -1;
    const pct = share >= 0 ? ` ${Math.min(100, 100 * share).toFixed(1)}%` : '';
    out.write(`\r\x1b[K${rows.toLocaleString('en-US')} rows, ${human(bytes)}, ${Math.round(rows / secs).toLocaleString('en-US')} rows/s, ${secs.toFixed(1)} s${pct}`);
  };
  return {
    bytes(n) { bytes += n; draw(false); },
    server(r, tot) { rows = r; total = tot; draw(false); },
    expectBytes(n) { totalBytes = n; },
    done() { if (out.isTTY === true) out.write('\r\x1b[K'); },
  };
}
