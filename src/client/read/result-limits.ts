// The bounds of a buffered call: the bytes of the decompressed body and the rows of its result
// (fetch, fetchOne, fetchValue, fetchColumns, compat's text() and json()), and its overall time
// (callTimeout, checked here, applied by query-client.ts), client-wide (createClient) and per call.
// Invariants: the bytes are counted as each chunk arrives, before it is decoded, so a body (or
// one huge String value whose length prefix promises more bytes) never accumulates past the bound;
// a bound reached is a ChwireLimitError naming the option, its value and how to raise it; streams
// hold no result and take neither option (refused, never ignored). One check per chunk, one per
// batch of rows: nothing per value.
import { ChwireConfigError, ChwireLimitError } from '../../errors.js';

export interface ResultLimitOptions {
  /**
   * Most bytes of the (decompressed) response body a buffered call reads before it fails with
   * ChwireLimitError. Default 268435456 (256 MiB); 0: no bound.
   */
  maxResultBytes?: number;
  /**
   * Most rows a buffered call keeps before it fails with ChwireLimitError. Default 10000000 for
   * fetch, fetchOne and fetchValue (a row is a JS object or array), none for fetchColumns (a row is
   * a few bytes of typed arrays: maxResultBytes bounds it); 0: no bound.
   */
  maxResultRows?: number;
}

/** The options this module checks (createClient's, and the buffered calls'). */
export const RESULT_LIMIT_KEYS = ['maxResultBytes', 'maxResultRows'] as const;

export const DEFAULT_MAX_RESULT_BYTES = 256 * 1024 * 1024;
/** The row bound of the row calls (fetch, fetchOne, fetchValue) when none is given. */
export const DEFAULT_MAX_RESULT_ROWS = 10_000_000;

/** The client-wide bounds as given (undefined: the call's default). */
export interface ResultLimits {
  readonly bytes: number | undefined;
  readonly rows: number | undefined;
}

function bound(name: string, v: unknown, where: string): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new ChwireConfigError(`option ${name}${where} must be a non-negative integer (0: no bound), got ${String(v)}`);
  return v;
}

/** createClient's bounds, checked (ChwireConfigError naming the option). */
export function resolveResultLimits(o: ResultLimitOptions): ResultLimits {
  return { bytes: bound('maxResultBytes', o.maxResultBytes, ''), rows: bound('maxResultRows', o.maxResultRows, '') };
}

/**
 * A call's callTimeout: its own (checked: a non-negative number of ms) over the client's; 0: none.
 * (An overall deadline of a buffered call, where requestTimeout bounds the gaps between bytes.)
 */
export function callTimeoutOf(call: string, own: unknown, client: number): number {
  if (own === undefined) return client;
  if (typeof own !== 'number' || !Number.isFinite(own) || own < 0) throw new ChwireConfigError(`option callTimeout of ${call} must be a non-negative number of milliseconds (0: none), got ${String(own)}`);
  return own;
}

/** The calls that buffer a result, and whether their rows cost a JS object each. */
export type BufferedCall = 'fetch' | 'fetchOne' | 'fetchValue' | 'fetchColumns';

/** The bounds of one call: its own over the client's over the call's default. */
export function callBudget(call: BufferedCall, client: ResultLimits, opts: ResultLimitOptions, queryId: string | undefined): ResultBudget {
  const where = ` of ${call}`;
  const bytes = bound('maxResultBytes', opts.maxResultBytes, where) ?? client.bytes ?? DEFAULT_MAX_RESULT_BYTES;
  const rows = bound('maxResultRows', opts.maxResultRows, where) ?? client.rows ?? (call === 'fetchColumns' ? 0 : DEFAULT_MAX_RESULT_ROWS);
  return new ResultBudget(bytes, rows, call, queryId, CLIENT_HINT);
}

/** How a bound is raised, for the error message. */
export interface LimitHint {
  /** Undefined: the call takes no bound of its own. */
  perCall: ((option: string, value: number) => string) | undefined;
  client(option: string, value: number): string;
  stream: string;
}

const CLIENT_HINT: LimitHint = {
  perCall: (o, v) => `{ ${o}: ${v} } on the call`,
  client: (o, v) => `createClient({ ${o}: ${v} })`,
  stream: 'read it with stream() or streamColumns(), which hold no result',
};

/** Counts a buffered result against its bounds (0: none); throws ChwireLimitError past one. */
export class ResultBudget {
  private bytes = 0;
  private rows = 0;

  constructor(
    readonly maxBytes: number,
    readonly maxRows: number,
    private readonly call: string,
    private readonly queryId: string | undefined,
    private readonly hint: LimitHint,
    private readonly names: { bytes: string; rows: string } = { bytes: 'maxResultBytes', rows: 'maxResultRows' },
  ) {}

  /** `n` more body bytes arrived (before they are decoded). */
  addBytes(n: number): void {
    this.bytes += n;
    if (this.maxBytes > 0 && this.bytes > this.maxBytes) throw this.over('maxResultBytes', this.maxBytes, 'bytes of response body (after decompression)');
  }

  /** `n` more rows were decoded. */
  addRows(n: number): void {
    this.rows += n;
    if (this.maxRows > 0 && this.rows > this.maxRows) throw this.over('maxResultRows', this.maxRows, 'rows');
  }

  /** The rows decoded so far are `n` (a collector that counts them itself). */
  rowsNow(n: number): void {
    this.rows = n;
    if (this.maxRows > 0 && n > this.maxRows) throw this.over('maxResultRows', this.maxRows, 'rows');
  }

  private over(limit: 'maxResultBytes' | 'maxResultRows', max: number, what: string): ChwireLimitError {
    const name = limit === 'maxResultBytes' ? this.names.bytes : this.names.rows;
    const raised = max * 4;
    return new ChwireLimitError(
      `the result of ${this.call} is larger than ${name} (${max} ${what}): the rest was not read and the query was cancelled. `
        + `Raise the bound ${this.hint.perCall === undefined ? '' : `for this call (${this.hint.perCall(name, raised)}) or `}for the client (${this.hint.client(name, raised)}), 0 for none, or ${this.hint.stream}`,
      { limit, bound: max },
      { queryId: this.queryId },
    );
  }
}
