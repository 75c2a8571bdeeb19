// One call of the official client's API sent through chwire's client core, for both compat entries
// (chwire/compat over node:http, chwire/compat/web over fetch). Runtime-neutral: no `node:` import.
// Invariants: the statement goes with the call's parameters (in the server's text form), roles,
// headers, settings (the client's, then the call's), query id and session, exactly as chwire's own
// calls send them; the server's version is never asked for (every capability counts as present and
// the server refuses what it lacks, as it does for the official client); the body's bytes are
// handed over with any exception an older server appends after the data held back (tail-hold.ts).
import type { ClientCore } from '../client/client.js';
import type { Capabilities } from '../client/capabilities.js';
import { heldBody } from '../client/read/tail-hold.js';
import type { ServerInfo, TransportRequest, TransportResponse } from '../transport/types.js';
import { settingsOf, withoutDefaultFormat, type ClickHouseSettings } from './options.js';
import { paramsOf } from './params.js';

/** What every official call may carry that reaches the request. */
export interface CompatCallParams {
  clickhouse_settings?: ClickHouseSettings | undefined;
  query_params?: Record<string, unknown> | undefined;
  abort_signal?: AbortSignal | undefined;
  session_id?: string | undefined;
  role?: string | string[] | undefined;
  http_headers?: Record<string, string> | undefined;
}

const ANY_SERVER: ServerInfo = { version: 'unknown', major: Infinity, minor: Infinity };
const ALL_CAPS: Capabilities = {
  rowFormat: 'RowBinaryWithNamesAndTypes', params: true, asyncInsert: true, nativeBinaryTypes: true,
  nativeTypeCheck: true, deduplicationToken: true, roles: true,
};

/**
 * Sends `sql`. `format`: query()'s result format (a read, retried under chwire's policy);
 * undefined for exec/command/insert/ping (sent once). `sessionId`: the call's session or the
 * client's. No client-side session lock: as with the official client, the server refuses a second
 * query in a busy session.
 */
export async function sendCall(core: ClientCore, sql: string, p: CompatCallParams, queryId: string, sessionId: string | undefined,
  format: string | undefined, values?: AsyncIterable<Uint8Array>, answer: Pick<TransportRequest, 'encodedBody' | 'errorAnswers'> = {}): Promise<TransportResponse> {
  const params = await core.queryParams({ params: paramsOf(p.query_params) }, ALL_CAPS, ANY_SERVER, sql);
  const surface = core.surface({ role: p.role, httpHeaders: p.http_headers }, ALL_CAPS, ANY_SERVER);
  // default_format as a setting: sent as the request's own parameter, as the official client sends
  // it. A call with a format of its own (query) names it in the SQL too, which the server reads
  // first: there the request's parameter is that format.
  const given = withoutDefaultFormat(settingsOf(p.clickhouse_settings));
  return core.request({
    sql, format: format ?? given.format, params, settings: core.settingsFor({ settings: given.settings }), queryId,
    sessionId, signal: p.abort_signal, idempotent: format !== undefined && values === undefined,
    whole: format !== undefined || given.format !== undefined, body: values, ...surface, ...answer,
  });
}

/**
 * The response's body bytes, no byte of an exception an older server appends after the data among
 * them; an error while reading is passed through `mapError` (the entry's official shape); the
 * response is released when the bytes end, fail or are abandoned (then `done`, if given, is called).
 */
export async function* bodyBytes(r: TransportResponse, queryId: string, mapError: (e: unknown) => unknown, exceptionsApart = false, done?: () => void): AsyncGenerator<Uint8Array> {
  try {
    yield* heldBody(r, queryId, exceptionsApart);
  } catch (e) {
    throw mapError(e);
  } finally {
    r.cancel();
    done?.();
  }
}
