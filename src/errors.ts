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
} as const;
export type ChwireErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

export interface ChwireErrorOptions {
  cause?: unknown;
  queryId?: string;
}

export class ChwireError extends Error {
  readonly code: ChwireErrorCode;
  readonly queryId: string | undefined;
  /** When the call was tried several times (retry option): the earlier attempts' errors, oldest first. */
  declare readonly earlierAttempts?: readonly unknown[];

  constructor(code: ChwireErrorCode, message: string, options: ChwireErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.queryId = options.queryId;
    Object.defineProperty(this, BRAND, { value: true });
  }

  override get name(): string {
    return this.constructor.name;
  }
}

export function isChwireError(e: unknown): e is ChwireError {
  return typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[BRAND] === true;
}

/** A type name that cannot be parsed, or a type chwire recognises but cannot handle. */
export class ChwireTypeError extends ChwireError {
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

export interface EncodeErrorDetails {
  column: string;
  /** 0-based index of the row in the caller's input. */
  row: number;
  /** What the column's type needs, e.g. `an integer in [0, 255]`. */
  expected: string;
  /** The offending value (kept for inspection; never printed in full). */
  value: unknown;
}

/** A value that cannot be encoded as its column's type. Raised before the block is sent. */
export class ChwireEncodeError extends ChwireError {
  readonly column: string;
  readonly row: number;
  readonly expected: string;
  readonly value: unknown;
  constructor(message: string, details: EncodeErrorDetails, options?: ChwireErrorOptions) {
    super(ERROR_CODES.encode, `${message}: column ${JSON.stringify(details.column)}, row ${details.row}: expected ${details.expected}, got ${describeValue(details.value)}`, options);
    this.column = details.column;
    this.row = details.row;
    this.expected = details.expected;
    this.value = details.value;
  }
}

/** An exception reported by ClickHouse, before or during the response body. */
export class ChwireServerError extends ChwireError {
  /** ClickHouse's numeric error code (e.g. 60), or 0 when the server did not send one. */
  readonly serverCode: number;
  /** ClickHouse's error name (e.g. `UNKNOWN_TABLE`), when the message carries it. */
  readonly serverName: string | undefined;
  /** HTTP status, when the error came with one. */
  readonly status: number | undefined;
  /** The message exactly as the server wrote it. */
  readonly serverMessage: string;
  constructor(serverMessage: string, details: { serverCode: number; serverName?: string | undefined; status?: number | undefined }, options?: ChwireErrorOptions) {
    super(ERROR_CODES.server, serverMessage.trim(), options);
    this.serverCode = details.serverCode;
    this.serverName = details.serverName;
    this.status = details.status;
    this.serverMessage = serverMessage;
  }
}

/** The connection failed or closed before the response was complete. */
export class ChwireConnectionError extends ChwireError {
  constructor(message: string, options?: ChwireErrorOptions) {
    super(ERROR_CODES.connection, message, options);
  }
}

/** No progress within the configured time. */
export class ChwireTimeoutError extends ChwireError {
  constructor(message: string, options?: ChwireErrorOptions) {
    super(ERROR_CODES.timeout, message, options);
  }
}

/** The caller aborted the operation through its AbortSignal (or by leaving a stream early). */
export class ChwireAbortError extends ChwireError {
  constructor(message: string, options?: ChwireErrorOptions) {
    super(ERROR_CODES.abort, message, options);
  }
}

/** Invalid options passed by the caller. */
export class ChwireConfigError extends ChwireError {
  constructor(message: string, options?: ChwireErrorOptions) {
    super(ERROR_CODES.config, message, options);
  }
}

function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  switch (typeof v) {
    case 'string': return `string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)}`;
    case 'number': case 'boolean': return `${typeof v} ${String(v)}`;
    case 'bigint': return `bigint ${String(v)}n`;
    case 'object': return Array.isArray(v) ? `array(${v.length})` : v instanceof Date ? `Date ${Number.isNaN(v.getTime()) ? 'Invalid Date' : v.toISOString()}` : (v.constructor?.name ?? 'object');
    default: return typeof v;
  }
}
