// Every error chwire throws on purpose. One base class with a stable `code` and structured
// fields; a `Symbol.for` brand makes `isChwireError` work across two copies of the package
// (where `instanceof` would not). No `node:` imports: this file is part of `chwire/codec`.

const BRAND = Symbol.for('chwire.error');

export const ERROR_CODES = {
  type: 'CHWIRE_TYPE',
  decode: 'CHWIRE_DECODE',
  encode: 'CHWIRE_ENCODE',
  server: 'CHWIRE_SERVER',
  connection: 'CHWIRE_CONNECTION',
  timeout: 'CHWIRE_TIMEOUT',
  abort: 'CHWIRE_ABORT',
  config: 'CHWIRE_CONFIG',
  limit: 'CHWIRE_LIMIT',
} as const;
export type ChwireErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

export interface ChwireErrorOptions {
  cause?: unknown;
  queryId?: string | undefined;
  /** The host the error came from: its base URL, without credentials (as `client.hosts()[].url`). */
  host?: string | undefined;
}

/** Where a call's time went, on an error of a call that gave up or failed (HTTP). */
export interface CallTimings {
  /** Attempts made (1 when it was not retried). */
  readonly attempts: number;
  /** The hosts the attempts went to, in order (base URLs without credentials; one per attempt and failover). */
  readonly hosts: readonly string[];
  /** Milliseconds spent waiting for a connection: a free pooled socket, then connecting. */
  readonly connectionMs: number;
  /** Milliseconds spent waiting for the server once connected (request sent, until its answer or the error). */
  readonly serverMs: number;
  /** Milliseconds spent between attempts (retry backoff). */
  readonly backoffMs: number;
}

export class ChwireError extends Error {
  readonly code: ChwireErrorCode;
  readonly queryId: string | undefined;
  /**
   * The host the error came from (server errors, connection failures, timeouts of the HTTP
   * transports): its base URL without credentials, as `client.hosts()[].url` shows it.
   */
  readonly host: string | undefined;
  /** When the call was tried several times (retry option): the earlier attempts' errors, oldest first. */
  declare readonly earlierAttempts?: readonly unknown[];
  /** Where the call's time went (HTTP): attempts, hosts, waits for a connection and for the server. */
  declare readonly timings?: CallTimings;
  /**
   * On an insert's error once part of its body had left (a cut connection, an abort or a timeout
   * while the server was waited for, `destroy()`): the blocks (and their rows) handed to the
   * connection, the last possibly in part. The server may have committed up to that many.
   */
  declare readonly insertSent?: { readonly blocks: number; readonly rows: number };
  /**
   * On an insert's error when its rows came from an iterable (sync or async, a Node Readable):
   * how many rows the insert had taken from it. None is taken after the error: the rows after
   * that many are still the source's, for the next call.
   */
  declare readonly rowsTaken?: number;

  constructor(code: ChwireErrorCode, message: string, options: ChwireErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.queryId = options.queryId;
    this.host = options.host;
    Object.defineProperty(this, BRAND, { value: true });
  }

  // Each class names itself in text: a minifier renames classes, and `e.name` must stay
  // `ChwireServerError` in a bundle. A subclass that does not override this keeps its class name.
  override get name(): string {
    return this.constructor === ChwireError ? 'ChwireError' : this.constructor.name;
  }
}

export function isChwireError(e: unknown): e is ChwireError {
  return typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[BRAND] === true;
}

/**
 * Replaces `e.message` and keeps `e.stack`'s first line equal to `name: message`. V8 formats
 * `stack` on its first read, with the message of that moment, so it is read before the message
 * changes (read after, it already held the new message and the old header's replacement repeated
 * the addition).
 */
export function replaceMessage(e: Error, message: string): void {
  const stack = e.stack;
  const header = `${e.name}: ${e.message}`;
  e.message = message;
  if (typeof stack === 'string' && stack.startsWith(header)) e.stack = `${e.name}: ${message}${stack.slice(header.length)}`;
}

/** A type name that cannot be parsed, or a type chwire recognises but cannot handle. */
export class ChwireTypeError extends ChwireError {
  override get name(): string { return this.constructor === ChwireTypeError ? 'ChwireTypeError' : this.constructor.name; }
  /** The whole type text being parsed. */
  readonly text: string;
  /** Offset in `text` where the problem was found (-1 when not applicable). */
  readonly position: number;
  constructor(message: string, text: string, position: number, options?: ChwireErrorOptions) {
    super(ERROR_CODES.type, position >= 0 ? `${message} at position ${position} in type ${JSON.stringify(text)}` : `${message} (type ${JSON.stringify(text)})`, options);
    this.text = text;
    this.position = position;
  }
}

export interface DecodeErrorDetails {
  /** Column name, or undefined when the error is in the header. */
  column?: string | undefined;
  /** 0-based row number in the whole result. */
  row?: number | undefined;
  /** Byte offset in the whole body (not in the current chunk). */
  offset: number;
}

/** A body that is truncated, corrupt or inconsistent with its own header. */
export class ChwireDecodeError extends ChwireError {
  override get name(): string { return this.constructor === ChwireDecodeError ? 'ChwireDecodeError' : this.constructor.name; }
  readonly column: string | undefined;
  readonly row: number | undefined;
  readonly offset: number;
  constructor(message: string, details: DecodeErrorDetails, options?: ChwireErrorOptions) {
    const where: string[] = [];
    if (details.column !== undefined) where.push(`column ${JSON.stringify(details.column)}`);
    if (details.row !== undefined) where.push(`row ${details.row}`);
    where.push(`byte offset ${details.offset}`);
    super(ERROR_CODES.decode, `${message} (${where.join(', ')})`, options);
    this.column = details.column;
    this.row = details.row;
    this.offset = details.offset;
  }
}

/**
 * Where and why a value does not fit. `value` is the offending value itself: the error keeps only
 * its kind (describeValue), never its text or digits. An error rebuilt from another (to reword
 * it) passes `like` instead and keeps that one's description.
 */
export type EncodeErrorDetails = {
  column: string;
  /** 0-based index of the row in the caller's input. */
  row: number;
  /** What the column's type needs, e.g. `an integer in [0, 255]`. */
  expected: string;
} & ({ value: unknown } | { like: ChwireEncodeError });

/**
 * A value that cannot be encoded as its column's type. Raised before the block is sent.
 * Insert values are data the caller may not want shown: the message and every field name the
 * row, the column, what was expected and only the kind of what was given (`got a string (12
 * characters)`, `got NaN`, `got an array of 3`); `row` and `column` locate the value in the
 * caller's own input.
 */
export class ChwireEncodeError extends ChwireError {
  override get name(): string { return this.constructor === ChwireEncodeError ? 'ChwireEncodeError' : this.constructor.name; }
  readonly column: string;
  readonly row: number;
  readonly expected: string;
  /** The kind of the offending value (`a string (12 characters)`, `a bigint`, `NaN`…), never its content. */
  readonly value: string;
  constructor(message: string, details: EncodeErrorDetails, options?: ChwireErrorOptions) {
    const given = 'like' in details ? details.like.value : describeValue(details.value);
    // column '' is a problem of the whole row (not an object or array): no column to name.
    super(ERROR_CODES.encode, `${message}: ${details.column === '' ? '' : `column ${JSON.stringify(details.column)}, `}row ${details.row}: expected ${details.expected}, got ${given}`, options);
    this.column = details.column;
    this.row = details.row;
    this.expected = details.expected;
    this.value = given;
  }
}

/** An exception reported by ClickHouse, before or during the response body. */
export class ChwireServerError extends ChwireError {
  override get name(): string { return this.constructor === ChwireServerError ? 'ChwireServerError' : this.constructor.name; }
  /** ClickHouse's numeric error code (e.g. 60), or 0 when the server did not send one. */
  readonly serverCode: number;
  /** ClickHouse's error name (e.g. `UNKNOWN_TABLE`), when the message carries it. */
  readonly serverName: string | undefined;
  /** HTTP status, when the error came with one. */
  readonly status: number | undefined;
  /** The message exactly as the server wrote it (up to the 1 MiB an error body is read to). */
  readonly serverMessage: string;
  /**
   * `message` is the server's text (past SERVER_MESSAGE_CHARS its start and end only), followed by ` (host <url>)` when the host is known; a call that
   * was retried puts its summary first (`after 3 attempts on …: `), with the last attempt's error as `cause`.
   */
  constructor(serverMessage: string, details: { serverCode: number; serverName?: string | undefined; status?: number | undefined }, options?: ChwireErrorOptions & { prefix?: string }) {
    super(ERROR_CODES.server, `${options?.prefix ?? ''}${shownServerText(serverMessage.trim())}${options?.host !== undefined ? ` (host ${options.host})` : ''}`, options);
    this.serverCode = details.serverCode;
    this.serverName = details.serverName;
    this.status = details.status;
    this.serverMessage = serverMessage;
  }
}

/** Most characters of a server's text that go into a ChwireServerError's `message` (the whole text is `serverMessage`). */
export const SERVER_MESSAGE_CHARS = 8192;
/** Of those, the characters kept from the text's end (where 26.x puts the error name and version). */
const SERVER_MESSAGE_TAIL = 1024;

/**
 * The server's text as `message` shows it: whole up to SERVER_MESSAGE_CHARS, else its start and its
 * end around a note of how much was left out (a log line or a terminal gets a few KiB, not 1 MiB).
 */
function shownServerText(text: string): string {
  if (text.length <= SERVER_MESSAGE_CHARS) return text;
  const head = text.slice(0, SERVER_MESSAGE_CHARS - SERVER_MESSAGE_TAIL);
  const tail = text.slice(text.length - SERVER_MESSAGE_TAIL);
  return `${head} … [${text.length - head.length - tail.length} characters of the server's message not shown here: the whole text is the error's serverMessage] … ${tail}`;
}

/** The connection failed or closed before the response was complete. */
export class ChwireConnectionError extends ChwireError {
  override get name(): string { return this.constructor === ChwireConnectionError ? 'ChwireConnectionError' : this.constructor.name; }
  constructor(message: string, options?: ChwireErrorOptions) {
    super(ERROR_CODES.connection, message, options);
  }
}

/** No progress within the configured time. */
export class ChwireTimeoutError extends ChwireError {
  override get name(): string { return this.constructor === ChwireTimeoutError ? 'ChwireTimeoutError' : this.constructor.name; }
  constructor(message: string, options?: ChwireErrorOptions) {
    super(ERROR_CODES.timeout, message, options);
  }
}

/** The caller aborted the operation through its AbortSignal (or by leaving a stream early). */
export class ChwireAbortError extends ChwireError {
  override get name(): string { return this.constructor === ChwireAbortError ? 'ChwireAbortError' : this.constructor.name; }
  constructor(message: string, options?: ChwireErrorOptions) {
    super(ERROR_CODES.abort, message, options);
  }
}

/**
 * A buffered result went over a bound the caller can raise (`maxResultBytes`, `maxResultRows`):
 * the rest was not read, the request was cancelled. `limit` names the option, `bound` its value.
 */
export class ChwireLimitError extends ChwireError {
  override get name(): string { return this.constructor === ChwireLimitError ? 'ChwireLimitError' : this.constructor.name; }
  /** The option whose bound was reached: `'maxResultBytes'` or `'maxResultRows'`. */
  readonly limit: 'maxResultBytes' | 'maxResultRows';
  /** The bound in force (bytes of the decompressed body, or rows). */
  readonly bound: number;
  constructor(message: string, details: { limit: 'maxResultBytes' | 'maxResultRows'; bound: number }, options?: ChwireErrorOptions) {
    super(ERROR_CODES.limit, message, options);
    this.limit = details.limit;
    this.bound = details.bound;
  }
}

/** Invalid options passed by the caller. */
export class ChwireConfigError extends ChwireError {
  override get name(): string { return this.constructor === ChwireConfigError ? 'ChwireConfigError' : this.constructor.name; }
  constructor(message: string, options?: ChwireErrorOptions) {
    super(ERROR_CODES.config, message, options);
  }
}

/**
 * The kind of an insert value, for errors: its type and what is not data (NaN, ±Infinity, an
 * invalid Date, null, undefined, a string's length, an array's length, a class name), never its
 * text or digits. Never throws (a hostile object's constructor getter is not trusted).
 */
export function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  switch (typeof v) {
    case 'string': return `a string (${v.length} character${v.length === 1 ? '' : 's'})`;
    case 'number': return Number.isNaN(v) ? 'NaN' : v === Infinity ? 'Infinity' : v === -Infinity ? '-Infinity' : 'a number';
    case 'bigint': return 'a bigint';
    case 'boolean': return 'a boolean';
    case 'symbol': return 'a symbol';
    case 'function': return 'a function';
    case 'object': {
      try {
        if (Array.isArray(v)) return `an array of ${v.length}`;
        if (v instanceof Date) return Number.isNaN(v.getTime()) ? 'an invalid Date' : 'a Date';
        const proto = Object.getPrototypeOf(v) as { constructor?: unknown } | null;
        if (proto === null) return 'an object (null prototype)';
        const ctor = Object.getOwnPropertyDescriptor(proto, 'constructor')?.value as { name?: unknown } | undefined;
        const name = typeof ctor === 'function' && typeof ctor.name === 'string' && /^[A-Za-z_$][\w$]{0,63}$/.test(ctor.name) ? ctor.name : 'object';
        if (ArrayBuffer.isView(v)) return `an object (${name}, ${v.byteLength} byte${v.byteLength === 1 ? '' : 's'})`;
        return `an object (${name})`;
      } catch {
        return 'an object';
      }
    }
    default: return 'a value';
  }
}
