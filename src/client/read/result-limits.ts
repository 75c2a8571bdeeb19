// The bounds of a buffered call: the bytes it holds and the rows of its result (fetch, fetchOne,
// fetchValue, fetchColumns, streamRaw's text() and json(), compat's text() and json()), and its
// overall time (callTimeout, checked here, applied by query-client.ts), client-wide (createClient)
// and per call, a per-call bound never above the client's ceiling (maxResultBytesCeiling,
// maxResultRowsCeiling) when it sets one.
// Invariants: the bytes are counted as each chunk arrives, before it is decoded, so a body (or
// one huge String value whose length prefix promises more bytes) never accumulates past the bound;
// what decoding holds beyond those bytes (blocks, columns, JS values: held-cost.ts) is added to
// the same count, so the bound is one of memory; a bound reached is a ChwireLimitError naming the
// option, its value and how to raise it; streams hold no result and take neither option (refused,
// never ignored). One check per chunk, one per batch of rows: nothing per value.
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

/** The ceilings a client sets on what a call may ask for (createClient only). */
export interface ResultCeilingOptions {
  /**
   * Highest maxResultBytes a call may give (a call's larger value, or its 0, is refused with
   * ChwireConfigError before anything is sent); also caps the client's own bound and the default.
   * Default: none.
   */
  maxResultBytesCeiling?: number;
  /** As maxResultBytesCeiling, for maxResultRows. Default: none. */
  maxResultRowsCeiling?: number;
}

/** The options this module checks (createClient's, and the buffered calls'). */
export const RESULT_LIMIT_KEYS = ['maxResultBytes', 'maxResultRows'] as const;
/** The ceilings: createClient's options only. */
export const RESULT_CEILING_KEYS = ['maxResultBytesCeiling', 'maxResultRowsCeiling'] as const;

export const DEFAULT_MAX_RESULT_BYTES = 256 * 1024 * 1024;
/** The row bound of the row calls (fetch, fetchOne, fetchValue) when none is given. */
export const DEFAULT_MAX_RESULT_ROWS = 10_000_000;

/** The client-wide bounds as given (undefined: the call's default), and the ceilings (undefined: none). */
export interface ResultLimits {
  readonly bytes: number | undefined;
  readonly rows: number | undefined;
  readonly bytesCeiling?: number | undefined;
  readonly rowsCeiling?: number | undefined;
}

function bound(name: string, v: unknown, where: string): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new ChwireConfigError(`option ${name}${where} must be a non-negative integer (0: no bound), got ${String(v)}`);
  return v;
}

function ceiling(name: string, v: unknown): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= 0) throw new ChwireConfigError(`option ${name} must be a positive integer, got ${String(v)}`);
  return v;
}

/** A bound of `what` (0: none) within `top` (undefined: no ceiling), else ChwireConfigError. */
function withinCeiling(name: string, v: number, top: number | undefined, what: string): number {
  if (top === undefined || (v > 0 && v <= top)) return v;
  throw new ChwireConfigError(`option ${name}${what} is ${v === 0 ? '0 (no bound)' : v}, above the client's ${name}Ceiling (${top}): a call may lower the bound, not raise it past the ceiling`);
}

/** createClient's bounds, checked (ChwireConfigError naming the option). */
export function resolveResultLimits(o: ResultLimitOptions & ResultCeilingOptions): ResultLimits {
  const bytesCeiling = ceiling('maxResultBytesCeiling', o.maxResultBytesCeiling);
  const rowsCeiling = ceiling('maxResultRowsCeiling', o.maxResultRowsCeiling);
  const bytes = bound('maxResultBytes', o.maxResultBytes, '');
  const rows = bound('maxResultRows', o.maxResultRows, '');
  if (bytes !== undefined) withinCeiling('maxResultBytes', bytes, bytesCeiling, ' of createClient');
  if (rows !== undefined) withinCeiling('maxResultRows', rows, rowsCeiling, ' of createClient');
  return { bytes, rows, bytesCeiling, rowsCeiling };
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
export type BufferedCall = 'fetch' | 'fetchOne' | 'fetchValue' | 'fetchColumns' | 'streamRaw';

/** A call's own bounds, checked against the client's ceilings (ChwireConfigError before anything is sent). */
export function checkCallLimits(call: string, client: ResultLimits, opts: ResultLimitOptions): { bytes: number | undefined; rows: number | undefined } {
  const where = ` of ${call}`;
  const bytes = bound('maxResultBytes', opts.maxResultBytes, where);
  const rows = bound('maxResultRows', opts.maxResultRows, where);
  if (bytes !== undefined) withinCeiling('maxResultBytes', bytes, client.bytesCeiling, where);
  if (rows !== undefined) withinCeiling('maxResultRows', rows, client.rowsCeiling, where);
  return { bytes, rows };
}

/** `v` (0: none) no higher than the ceiling `top`. */
function capped(v: number, top: number | undefined): number {
  return top === undefined ? v : v === 0 ? top : Math.min(v, top);
}

/**
 * The bounds of one call: its own over the client's over the call's default, the default capped
 * by the client's ceiling. (streamRaw's rows are the lines json() parses; none by default.)
 */
export function callBudget(call: BufferedCall, client: ResultLimits, opts: ResultLimitOptions, queryId: string | undefined): ResultBudget {
  const own = checkCallLimits(call, client, opts);
  const bytes = own.bytes ?? client.bytes ?? capped(DEFAULT_MAX_RESULT_BYTES, client.bytesCeiling);
  const rows = own.rows ?? client.rows ?? capped(call === 'fetchColumns' || call === 'streamRaw' ? 0 : DEFAULT_MAX_RESULT_ROWS, client.rowsCeiling);
  return new ResultBudget(bytes, rows, call, queryId, call === 'streamRaw' ? RAW_HINT : CLIENT_HINT);
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

const RAW_HINT: LimitHint = { ...CLIENT_HINT, stream: 'iterate the stream (for await), which holds no result' };

const HELD_WHAT = 'bytes held: the response body after decompression, and an estimate of the blocks, columns and JS values decoded from it';

/** Counts a buffered result against its bounds (0: none); throws ChwireLimitError past one. */
export class ResultBudget {
  private bytes = 0;
  private rows = 0;
  /** Of the bytes counted, those that are the estimate of what decoding holds (held-cost.ts). */
  private held = 0;

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
    if (this.maxBytes > 0 && this.bytes > this.maxBytes) throw this.over('maxResultBytes', this.maxBytes, this.held > 0 ? HELD_WHAT : 'bytes of response body (after decompression)');
  }

  /** Decoding holds about `n` more bytes beyond the body's (blocks, columns, JS values: held-cost.ts). */
  addHeld(n: number): void {
    this.held += n;
    this.bytes += n;
    if (this.maxBytes > 0 && this.bytes > this.maxBytes) throw this.over('maxResultBytes', this.maxBytes, HELD_WHAT);
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
