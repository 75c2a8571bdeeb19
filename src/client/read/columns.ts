// client.fetchColumns(sql): the result read as Native and returned column by column (typed
// arrays for numbers, dates, times, Decimal32/64 and IPv4 by default: native/column-plan.ts).
// Invariants: each block is decoded as soon as its bytes have arrived (never a whole-body
// buffer) and each column is joined once, at the end, in steps with the loop's turns between; an exception an older server appends after
// the data is raised, never decoded (tail-hold.ts); the query holds its session lock until its
// body has ended.
import { newQueryId } from '../query-id.js';
import { NativeColumnsCollector } from '../../native/read/column-decoder.js';
import { LoopTurns } from './loop-turn.js';
import type { NativeColumns, NativeColumnsOptions } from '../../native/index.js';
import { createNativeDecoder } from '../../native/read/row-decoder.js';
import type { ColumnValueOptions } from '../../native/read/column-plan.js';
import type { DecodeOptions } from '../../plan/options.js';
import type { TransportResponse } from '../../transport/types.js';
import type { ClientCore, ExecOptions } from '../core.js';
import { nativeReadSettings } from '../capabilities.js';
import { wireRead } from '../options/wire-settings.js';
import { ChwireAbortError, ChwireDecodeError } from '../../errors.js';
import { appendedServerError, trailingServerError } from '../../transport/server-error.js';
import { HOLD_BYTES, TailHold } from './tail-hold.js';
import type { OpenedBody } from './opened-query.js';
import type { CallSurface } from '../options/call-surface.js';
import { parseType, printType } from '../../types/index.js';
import { callBudget, type ResultLimitOptions } from './result-limits.js';
import { HeldBlocks } from './held-cost.js';

export type ColumnsOptions = ExecOptions & ResultLimitOptions & Omit<DecodeOptions, 'strings' | 'columns' | 'rows'> & {
  /** `'raw'`: String columns as `{ kind: 'strings', offsets, data }` (no JS strings). */
  strings?: ColumnValueOptions['strings'];
  /** Per-column overrides, by column name. */
  columns?: Readonly<Record<string, ColumnValueOptions>>;
  /**
   * Dates, times, Decimal32/64, IPv4 and Enum as typed arrays of their wire integers (default
   * true; `types` says the precision, scale and zone); false: arrays of JS values, as `fetch` gives.
   */
  wire?: boolean;
  /**
   * Real column types by name, to restore what a text Native header loses (a top-level DateTime's
   * zone). Optional: servers from 24.7 on are asked for binary type headers, which keep the zone,
   * and on older ones the client describes the query itself; given types skip that request.
   */
  types?: Readonly<Record<string, string>>;
};

export type ColumnsResult = NativeColumns & { readonly queryId: string | undefined };

/** A columnar query sent: its response, the decode options resolved for it, and its session lock. */
export interface OpenedColumns extends OpenedBody {
  decode: NativeColumnsOptions;
  binaryTypes: boolean;
  /**
   * The query's DESCRIBE, which restores zones on servers without binary type headers: in the
   * query's session once its body has ended, outside it while the body still streams.
   */
  describe: (inSession: boolean) => Promise<{ name: string; type: string }[] | undefined>;
}

/** Sends `sql` for a columnar read (Native, with the client's read settings). */
export async function openColumns(core: ClientCore, sql: string, opts: ColumnsOptions, queryId: string): Promise<OpenedColumns> {
  const { info, caps } = await core.capabilities(opts.signal);
  const params = await core.queryParams(opts, caps, info, sql);
  const surface = core.surface(opts, caps, info);
  const settings = core.settingsFor(opts, nativeReadSettings(caps));
  const { params: _p, settings: _s, queryId: _q, sessionId: _i, signal: _g, onProgress: _o, progressInterval: _v, role: _r, httpHeaders: _h, maxResultBytes: _mb, maxResultRows: _mr, ...rest } = opts;
  const { binaryTypes, zone } = wireRead('Native', settings);
  const decode = { ...rest, binaryTypes, ...(zone === undefined ? {} : { sessionTimezone: zone }) } as NativeColumnsOptions;
  const release = await core.lock(opts.sessionId);
  try {
    const response = await core.request({ sql, format: 'Native', params, settings, queryId, sessionId: opts.sessionId, signal: opts.signal, idempotent: true, ...surface });
    return { response, release, decode, binaryTypes, describe: (inSession) => describeQuery(core, sql, { params, settings, signal: opts.signal, sessionId: inSession ? opts.sessionId : undefined, surface }) };
  } catch (e) {
    release();
    throw e;
  }
}

/** A decode failure where the body carries an appended `Code: …` is the server's error. */
export function explainDecodeError(e: unknown, response: TransportResponse, queryId: string | undefined): unknown {
  return (e instanceof ChwireDecodeError ? appendedServerError(response.tailText(), queryId, response.url) : undefined) ?? e;
}

/** Whether the reported types need the query's DESCRIBE to get their zones back. */
export function needsZones(q: OpenedColumns, opts: ColumnsOptions, types: readonly string[]): boolean {
  return !q.binaryTypes && opts.types === undefined && types.includes('DateTime');
}

export async function fetchColumnsImpl(core: ClientCore, sql: string, opts: ColumnsOptions): Promise<ColumnsResult> {
  const queryId = opts.queryId ?? newQueryId();
  const budget = callBudget('fetchColumns', core.resultLimits, opts, queryId);
  const q = await openColumns(core, sql, opts, queryId);
  let result: NativeColumns;
  try {
    const collector = new NativeColumnsCollector(q.decode);
    // What the blocks hold beyond their bytes counts against maxResultBytes too (held-cost.ts).
    const held = new HeldBlocks(budget);
    try {
      // Each chunk is decoded as it arrives: a block's columns are read once its bytes are in.
      // Chunks already buffered are read in microtasks alone: the loop gets a turn every ~10 ms.
      const turns = new LoopTurns(1);
      // An exception an older server appends after the data is never decoded (tail-hold.ts; inline,
      // not through heldBody(): an async generator per ~4 KiB chunk of 18.16's bodies cost ~8 %).
      const hold = new TailHold(q.response.exceptionsFramed === true ? 0 : HOLD_BYTES);
      for await (const chunk of q.response.body) {
        // Counted before it is decoded: a body past the bound never accumulates in the collector.
        budget.addBytes(chunk.byteLength);
        const safe = hold.push(chunk);
        for (let k = 0; k < safe.length; k++) collector.push(safe[k]!);
        if (budget.maxBytes > 0) held.charge(collector.held, collector.rowCount);
        if (budget.maxRows > 0) budget.rowsNow(collector.rowCount);
        if (turns.due()) await turns.turn();
      }
      const appended = trailingServerError(q.response.tailText(), queryId, q.response.url);
      if (appended !== undefined) throw appended;
      for (const c of hold.drain()) collector.push(c);
      // Joining the blocks' parts copies every value once (~100 ms for 1M rows of 16 blocks on a
      // loaded machine): done in steps, with the loop's turns between them.
      const steps = collector.finishSteps();
      let step = steps.next();
      while (step.done !== true) {
        if (turns.due()) await turns.turn();
        step = steps.next();
      }
      result = step.value;
      budget.rowsNow(result.rowCount);
    } catch (e) {
      // A body cut by an exception in mid-block: the server's error, not a decode error.
      throw explainDecodeError(e, q.response, queryId);
    }
    // A text Native header drops a top-level DateTime's zone (native.md §2). Where the server
    // cannot send binary type headers and the caller gave no `types`, the query's own schema
    // (DESCRIBE of it, analysed, not run) supplies it. Values are UTC instants either way.
    if (needsZones(q, opts, result.types)) {
      const described = await q.describe(true);
      if (described !== undefined) result.types = withZones(result.names, result.types, described);
    }
  } finally {
    q.response.cancel();
    q.release();
  }
  return Object.assign(result, { queryId: q.response.queryId ?? queryId });
}

/**
 * The result columns of `sql` as the server's DESCRIBE of it gives them (name, type), or undefined
 * when it cannot be described (not a SELECT, a trailing FORMAT or `;`…): best effort, the header's
 * types then stand. An abort is still an abort.
 */
async function describeQuery(
  core: ClientCore, sql: string,
  req: { params: Record<string, string> | undefined; settings: Record<string, string>; signal: AbortSignal | undefined; sessionId: string | undefined; surface: CallSurface },
): Promise<{ name: string; type: string }[] | undefined> {
  try {
    // Newlines around the query: a trailing `-- comment` must not swallow the closing parenthesis.
    const response = await core.transport.request({
      sql: `DESCRIBE TABLE (\n${sql}\n)`, format: 'Native', params: req.params, settings: req.settings,
      queryId: newQueryId(), sessionId: req.sessionId, signal: req.signal, idempotent: true, ...req.surface,
    });
    const decoder = createNativeDecoder({ rows: 'object' });
    const out: { name: string; type: string }[] = [];
    for await (const c of response.body) {
      for (const r of decoder.push(c) as { name?: unknown; type?: unknown }[]) out.push({ name: String(r.name), type: String(r.type) });
    }
    decoder.end();
    return out;
  } catch (e) {
    if (e instanceof ChwireAbortError) throw e;
    return undefined;
  }
}

/** Header types with each top-level zone-less `DateTime` replaced by the described `DateTime('tz')`. */
export function withZones(names: readonly string[], types: readonly string[], described: readonly { name: string; type: string }[]): string[] {
  if (described.length !== names.length) return [...types];
  return types.map((t, k) => {
    const d = described[k]!;
    if (t !== 'DateTime' || d.name !== names[k]) return t;
    try {
      const node = parseType(d.type);
      return node.kind === 'DateTime' && node.timezone !== undefined ? printType(node) : t;
    } catch {
      return t;
    }
  });
}
