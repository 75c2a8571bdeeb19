// Turns the text of a ClickHouse exception into a ChwireServerError. Both message styles are
// recognised: 26.x `Code: 60. DB::Exception: <text>. (UNKNOWN_TABLE) (version 26.7.2.1)` and
// 18.16 `Code: 47, e.displayText() = DB::Exception: <text>, e.what() = DB::Exception`.
// Invariant: the message is kept exactly as the server wrote it (`serverMessage`; `message` adds the host); nothing here ever sees credentials.
// The bounds of an HTTP error body (its text and its time) are defined here for both transports.
import { ChwireServerError } from '../errors.js';

const CODE_RE = /Code: (\d+)[.,]/;
// The error name is the last `(UPPER_CASE)` group, before an optional `(version …)` suffix.
const NAME_RE = /\(([A-Z][A-Z0-9_]+)\)(?:\s*\(version [^)]*\))?\s*$/;

/**
 * Most bytes of an HTTP error body's text that are read (after decompression): a real server's
 * exception is a few KiB; what follows is not read and the connection is closed.
 */
export const ERROR_BODY_BYTES = 1 << 20;

/**
 * Longest time an HTTP error body may take once its response head has arrived (or requestTimeout,
 * when that is shorter): a server writes its exception at once, so a body still arriving after
 * this is cut (an endless error body keeps the no-progress timer from ever firing).
 */
export const ERROR_BODY_MS = 10_000;

/** The time bound of an error body under `requestTimeout` (0: none): ERROR_BODY_MS or requestTimeout, the shorter. */
export function errorBodyMs(requestTimeout: number): number {
  return requestTimeout > 0 ? Math.min(requestTimeout, ERROR_BODY_MS) : ERROR_BODY_MS;
}

/**
 * `cut`: why the body was not read to its end (too long, too slow, an encoding the client did
 * not ask for, not decompressible); it goes in front of the server's text in `message`
 * (`serverMessage` stays the text as received). `cause`: what stopped it, when an error did (the
 * decompressor's, with its `Z_…` code).
 */
export function serverErrorFromText(text: string, status: number | undefined, queryId: string | undefined, headerCode?: string, host?: string, cut?: string, cause?: unknown): ChwireServerError {
  const message = text.replace(/\s+$/, '');
  const m = CODE_RE.exec(message);
  const code = m ? Number(m[1]) : headerCode !== undefined && /^\d+$/.test(headerCode) ? Number(headerCode) : 0;
  const n = NAME_RE.exec(message);
  const shown = message.length > 0 ? message : `HTTP status ${status ?? '?'} with an empty body`;
  const prefix = cut === undefined ? undefined : `HTTP status ${status ?? '?'}, error body ${cut}: `;
  return new ChwireServerError(shown, { serverCode: code, serverName: n ? n[1] : undefined, status }, { queryId, host, ...(prefix !== undefined ? { prefix } : {}), ...(cause !== undefined ? { cause } : {}) });
}

/**
 * An exception appended as text after the data by an old server (18.16 style): the body ends
 * cleanly, so the only sign is undecodable trailing bytes. Looks for the last `Code: NNN` in the
 * tail; returns undefined when there is none (then the decode error stands).
 */
export function appendedServerError(tail: string, queryId: string | undefined, host?: string): ChwireServerError | undefined {
  const at = tail.lastIndexOf('Code: ');
  if (at < 0 || !/^Code: \d+[.,]/.test(tail.slice(at))) return undefined;
  // An exception line ends the body; take from `Code:` to the end.
  const text = tail.slice(at);
  if (!/DB::Exception|Exception/.test(text)) return undefined;
  return serverErrorFromText(text, undefined, queryId, undefined, host);
}

// The whole message of an exception that ends the body: 18.16 `…, e.what() = DB::Exception` or
// 19.x–25.x `… (version x.y.z…)`, each followed by one newline.
const TRAILING_EXCEPTION = /Code: \d+(?:, e\.displayText\(\) = |\. )DB::Exception: (?:(?!Code: \d+[.,] )[\s\S])*?(?:e\.what\(\) = DB::Exception|\(version [0-9][^)\n]*\))\n$/;

/**
 * A body that decoded completely can still end with an old server's appended exception (its text
 * happened to decode as whole rows). Recognised only by the exact closing of such a message at
 * the very end of the body; undefined otherwise.
 */
export function trailingServerError(tail: string, queryId: string | undefined, host?: string): ChwireServerError | undefined {
  const m = TRAILING_EXCEPTION.exec(tail);
  return m === null ? undefined : serverErrorFromText(m[0], undefined, queryId, undefined, host);
}
