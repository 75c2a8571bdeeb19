// @clickhouse/client's option names (per call and per client) and what to use in chwire, for the
// message of an unknown option (call-options.ts for calls, config.ts for createClient).
// Invariant: a hint only names; it never changes which options are accepted.

/** @clickhouse/client's names (per call and per client) → what to use in chwire. */
const OFFICIAL: Readonly<Record<string, string>> = {
  query_params: 'params',
  clickhouse_settings: 'settings',
  abort_signal: 'signal',
  session_id: 'sessionId',
  query_id: 'queryId',
  http_headers: 'httpHeaders',
  request_timeout: 'requestTimeout',
  max_open_connections: 'maxOpenConnections',
  keep_alive: 'keepAlive',
  access_token: 'accessToken',
  log: 'logger',
  query: 'the SQL text, the first argument',
  table: 'the table name, the first argument of insert()',
  values: 'the rows, the second argument of insert()',
  auth: 'the client options username and password (or accessToken)',
  application: 'httpHeaders with a User-Agent of yours',
  ignore_error_response: 'none: errors always throw (streamRaw hands you the body)',
};

/** What to say about a key `call` does not know (with chwire's name when it is one of another call or the official client's). */
export function optionHint(key: string, call: string): string {
  const official = OFFICIAL[key];
  if (official !== undefined) {
    return /^[a-z][A-Za-z]*$/.test(official) ? ` (@clickhouse/client's name: chwire's is ${JSON.stringify(official)})` : ` (@clickhouse/client's option: in chwire, ${official})`;
  }
  if (key === 'format' && call !== 'insert') return ` (${call} decodes Native or RowBinary itself: streamRaw(sql, { format }) gives the bytes of any format)`;
  return '';
}

