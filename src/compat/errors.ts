// chwire/compat errors: the shapes @clickhouse/client 1.x throws, built from chwire's typed errors.
// Invariants: a server exception becomes a ClickHouseError (`code` the server's number as a
// string, `type` its name) exactly when the official client's parser would find both in the text,
// else a plain Error carrying the server's text, as the official client does; chwire's own error
// is kept as `cause`. No `node:` import (runtime-neutral).
import { ChwireAbortError, ChwireConnectionError, ChwireServerError, ChwireTimeoutError, isChwireError } from '../errors.js';

/** A server exception, as @clickhouse/client 1.x has it: `code` is the server's error number as a string. */
export class ClickHouseError extends Error {
  readonly code: string;
  readonly type: string | undefined;
  constructor({ message, code, type }: { message: string; code: string; type?: string | undefined }, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.type = type;
    Object.setPrototypeOf(this, ClickHouseError.prototype);
  }
}

// The text must hold `Code: N` (or `Error: N`), then `Exception: <message>` and an upper-case name
// in parentheses with at least three capitals in a row (so `(2)` or `(official build)` are not
// names); the last `Exception: ` is taken (nested cluster errors repeat it) and the message ends at
// the first such name. Servers before ~20.x print no name: no match there, as for the official client.
const SERVER_ERROR = /(?:Code|Error): (\d+).*Exception: (.+?)\(((?=[A-Z0-9_]*[A-Z]{3})[A-Z0-9_]+)\)/s;

/** The official client's reading of a server's exception text: a ClickHouseError, or a plain Error with the text. */
export function errorFromServerText(text: string, cause?: unknown): Error {
  const m = SERVER_ERROR.exec(text);
  const options = cause === undefined ? undefined : { cause };
  if (m === null) return new Error(text, options);
  return new ClickHouseError({ code: m[1]!, message: m[2]!, type: m[3]! }, options);
}

/** The official parseError: a ClickHouseError where the text (or the Error's message) holds a server exception, else the Error (or a new one with the text). */
export function parseError(input: string | Error): ClickHouseError | Error {
  const text = input instanceof Error ? input.message : input;
  const parsed = errorFromServerText(text);
  if (parsed instanceof ClickHouseError) return parsed;
  return input instanceof Error ? input : parsed;
}

/**
 * chwire's error as the official client would have thrown it, with chwire's error as `cause`:
 * server exceptions parsed as above (the body text as sent, i.e. with the newline the server ends
 * it with), timeouts and aborts with the official messages, a failed connection as an Error with
 * the system `code` (`ECONNREFUSED`, …). Anything else (config errors, encode errors) is chwire's own.
 */
export function toOfficialError(e: unknown): unknown {
  if (!isChwireError(e)) return e;
  if (e instanceof ChwireServerError) {
    // An error answer whose compressed body would not decompress: the official client rejects
    // with the decompressor's error (`code: 'Z_DATA_ERROR'` …), whatever text came before it.
    const z = systemError(e.cause);
    if (z !== undefined && z.code.startsWith('Z_')) {
      const out = new Error(z.message, { cause: e }) as Error & { code?: string };
      out.code = z.code;
      return out;
    }
    // The HTTP body of an error ends with a newline, which chwire trims off its message.
    return errorFromServerText(e.status !== undefined ? `${e.serverMessage}\n` : e.serverMessage, e);
  }
  if (e instanceof ChwireTimeoutError) return new Error('Timeout error.', { cause: e });
  if (e instanceof ChwireAbortError) {
    // Aborted before the request was made: Node's own AbortError, as the official client gets it.
    if (e.message.endsWith('before it was sent')) {
      const out = new Error('The operation was aborted', { cause: e }) as Error & { code?: string };
      out.name = 'AbortError';
      out.code = 'ABORT_ERR';
      return out;
    }
    return new Error('The user aborted a request.', { cause: e });
  }
  if (e instanceof ChwireConnectionError) {
    // A call ended by requestTimeout (a retry that would end past it; a request abandoned without
    // a response head on a host that stopped answering): the official client's timeout.
    if (/would end past requestTimeout|without a response head/.test(e.message)) return new Error('Timeout error.', { cause: e });
    const sys = systemError(e.cause);
    if (sys !== undefined) {
      const out = new Error(sys.message, { cause: e }) as Error & { code?: string };
      out.code = sys.code;
      return out;
    }
  }
  return e;
}

/** Node's error codes: system (ECONNRESET), HTTP parser (HPE_HEADER_OVERFLOW), zlib (Z_DATA_ERROR). */
const SYSTEM_CODE = /^(?:E[A-Z_]+|HPE_[A-Z_]+|Z_[A-Z_]+)$/;

/** The Node system error (`code` like ECONNREFUSED) under a chwire connection error, if any. */
function systemError(c: unknown): { message: string; code: string } | undefined {
  for (let i = 0; i < 4 && typeof c === 'object' && c !== null; i++) {
    const code = (c as { code?: unknown }).code;
    if (typeof code === 'string' && SYSTEM_CODE.test(code)) return { message: (c as Error).message, code };
    c = (c as { cause?: unknown }).cause;
  }
  return undefined;
}
