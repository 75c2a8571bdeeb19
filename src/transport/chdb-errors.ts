// Errors of the embedded engine (chdb) as the ChwireErrors callers see. Invariant: an engine
// exception keeps the engine's own text once (a rethrown exception's repeated `Code: N.
// DB::Exception:` prefix and inner version suffix are folded), and never carries chdb's error
// object as a cause (its message repeats the same text).
import { ChwireAbortError, ChwireConfigError, ChwireServerError, ChwireTimeoutError, isChwireError } from '../errors.js';
import { serverErrorFromText } from './server-error.js';

/**
 * The engine's message with a rethrown exception folded into one: `Code: 27. DB::Exception:
 * Code: 27. DB::Exception: <text> (NAME) (version x). (NAME)` becomes `Code: 27.
 * DB::Exception: <text> (NAME)`.
 */
export function foldEngineMessage(message: string): string {
  let m = message.replace(/\s+$/, '');
  for (;;) {
    const r = /^Code: (\d+)\. DB::Exception: Code: \1\. DB::Exception: ([\s\S]*) \(version [^)]*\)\. \(([A-Z][A-Z0-9_]*)\)$/.exec(m);
    if (r === null) return m;
    m = `Code: ${r[1]}. DB::Exception: ${r[2]}`;
    if (!m.endsWith(`(${r[3]})`)) m += ` (${r[3]})`;
  }
}

/** Maps an error thrown by chdb to the ChwireError the caller sees. */
export function chdbError(e: unknown, queryId: string | undefined): Error {
  if (isChwireError(e)) return e;
  const err = e as { code?: string; message?: string; clickhouseCode?: number };
  const message = String(err.message ?? e);
  if (err.code === 'CHDB_ABORT') return new ChwireAbortError('query aborted by its AbortSignal', { queryId });
  if (err.code === 'CHDB_TIMEOUT') return new ChwireTimeoutError(`embedded query timed out: ${message}`, { queryId });
  const at = message.indexOf('Code: ');
  if (at >= 0 && /^Code: \d+/.test(message.slice(at))) return serverErrorFromText(foldEngineMessage(message.slice(at)), undefined, queryId);
  if (err.code === 'CHDB_BIND') return new ChwireConfigError(message, { queryId });
  return new ChwireServerError(message, { serverCode: err.clickhouseCode ?? 0 }, { queryId, cause: e });
}

/** The engine refused to stream this statement (SHOW, DESCRIBE, EXISTS, EXPLAIN…): it runs single-shot. */
export function isNotStreamable(e: unknown): boolean {
  const message = String((e as { message?: unknown } | undefined)?.message ?? '');
  return message.includes('Streaming query is not supported');
}
