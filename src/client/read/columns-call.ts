// fetchColumns() and streamColumns() as functions over any client: the calls that bring the
// columnar Native readers. Client.fetchColumns / streamColumns are these functions; an app that
// imports only createQueryClient bundles none of them.
// Invariant: each call is checked, counted in flight and observed as the methods always were:
// options are checked (and a FORMAT clause refused) before anything is sent, destroy() reaches
// the call's signal, and the requests it sends are observed under its query id.
import { checkCallOptions } from '../options/call-options.js';
import { newQueryId } from '../query-id.js';
import { formatClauseError } from '../sql/format-clause.js';
import { mergeDecodeOptions, pickDecodeOptions } from './decode-options.js';
import { fetchColumnsImpl, openColumns, type ColumnsOptions, type ColumnsResult } from './columns.js';
import { ColumnStreamImpl, type ColumnStream } from './column-stream.js';
import { implOf, type QueryClient } from '../query-client.js';

/** The whole result as typed-array columns (Native format), one array per column. */
export function fetchColumns(client: QueryClient, sql: string, opts: ColumnsOptions = {}): Promise<ColumnsResult> {
  try {
    const c = implOf(client, 'fetchColumns');
    checkCallOptions('fetchColumns', opts, c.perCallSettings);
    const clause = formatClauseError(sql, undefined, c.formatClauses);
    if (clause !== undefined) throw clause;
    return c.tracked(opts, (o) => c.observed('fetchColumns', sql, o.queryId ?? newQueryId(), o, undefined,
      (queryId) => fetchColumnsImpl(c, sql, { ...o, ...mergeDecodeOptions(c.decodeDefaults, pickDecodeOptions(o)), ...(queryId === undefined ? {} : { queryId }) }),
      (r) => r.rowCount, () => undefined), 'fetchColumns');
  } catch (e) {
    return Promise.reject(e);
  }
}

/** The result as column batches, one per Native block as it arrives (the shapes of fetchColumns). */
export function streamColumns(client: QueryClient, sql: string, opts: ColumnsOptions = {}): ColumnStream {
  const c = implOf(client, 'streamColumns');
  checkCallOptions('streamColumns', opts, c.perCallSettings);
  const all = c.cancellable({ ...opts, ...mergeDecodeOptions(c.decodeDefaults, pickDecodeOptions(opts)) } as ColumnsOptions);
  const queryId = opts.queryId ?? newQueryId();
  return new ColumnStreamImpl(c.openTracked(async () => {
    // Observed like stream(): its requests go through request() by query id while it runs.
    const call = await c.begin('streamColumns', sql, queryId, opts);
    const forget = (): void => { if (call !== undefined && c.calls.get(queryId) === call) c.calls.delete(queryId); };
    if (call !== undefined) c.calls.set(queryId, call);
    try {
      const q = await openColumns(c, sql, all, queryId);
      return { ...q, done: call === undefined ? undefined : (e: unknown, rows: number | undefined) => { forget(); call.end(e, rows, q.response.summary); } };
    } catch (e) {
      forget();
      call?.end(e, undefined);
      throw e;
    }
  }), queryId, all);
}
