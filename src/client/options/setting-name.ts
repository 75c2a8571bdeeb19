// A setting's name as the client accepts it. Invariants: only identifiers pass, so a name can be
// written into a SETTINGS clause (chdb://) or a URL parameter (HTTP) without quoting; and no name
// that the HTTP interface reads as its own request parameter passes, so a setting can never change
// the query text, the database, the format, the user, the session or the body's encoding. This is
// the one guard: client-level settings, per-call settings (every call, inserts too), chwire/compat's
// clickhouse_settings and the CLI all reach it (config.ts, call-options.ts, renderSetting), on every
// transport.
import { ChwireConfigError } from '../../errors.js';

/** A setting's name: an identifier, as every ClickHouse setting is (`custom_` ones too). */
const SETTING_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The names ClickHouse's HTTP handler takes as its own parameters rather than settings, each with
 * the chwire option that does the job (or why there is none). Taken from the server's source:
 * 18.x-20.x dbms/programs/server/HTTPHandler.cpp (`query`, the `reserved_param_names` set
 * {compress, decompress, user, password, quota_key, query_id, stacktrace, buffer_size,
 * wait_end_of_query, session_id, session_timeout, session_check}, `database`, `default_format`,
 * the `param_` prefix) and today's src/Server/HTTPHandler.cpp with authenticateUserByHTTP.cpp
 * (adding `role`, `client_protocol_version`, `close_session`).
 *
 * One name of that set passes on purpose: `wait_end_of_query` only makes the server finish the
 * query before it sends the response (kept in its `buffer_size` bytes of memory, then a temporary
 * file); nothing about what runs, where or as whom changes (the official client's docs recommend
 * `wait_end_of_query: 1`). `buffer_size` is refused: it chooses how much server memory one
 * request holds, which a caller's value must not decide in a multi-tenant service. The `_format`/`_types`/`_structure` suffixes are reserved
 * only for multipart requests with external tables, which chwire never sends.
 */
const RESERVED: Readonly<Record<string, string>> = {
  query: 'the SQL text is the first argument of the call; pass values with the option params',
  database: 'use the option database (createClient) or qualify the table name',
  default_format: "use the option format (e.g. { format: 'Native' }), or streamRaw for another output format",
  user: 'use the option username',
  password: 'use the option password',
  quota_key: 'pass it with the option httpHeaders as X-ClickHouse-Quota',
  query_id: 'use the option queryId',
  session_id: 'use the option sessionId',
  session_timeout: 'chwire sends no session_timeout: the server default (default_session_timeout) applies',
  session_check: 'chwire sends no session_check',
  close_session: 'chwire sends no close_session',
  compress: 'use the option compression',
  decompress: 'use the option compression',
  stacktrace: 'chwire does not ask for server stack traces',
  role: 'use the option role',
  client_protocol_version: 'chwire chooses the protocol version itself',
  buffer_size: "it sets how much server memory one request's response may take; leave the server's default (wait_end_of_query: 1 buffers beyond it in a temporary file)",
};

/**
 * Refuse a setting name that is not an identifier (chdb:// writes names into a SETTINGS clause and
 * HTTP into URL parameters, so a name like 'max_threads=1&readonly' must never reach either), or
 * that the HTTP interface reads as its own parameter (`query`, `database`, `param_x`, … above, in
 * any case): such a name would change the query, its database, its format or its user, not a setting.
 */
export function checkSettingName(name: string): void {
  if (!SETTING_NAME.test(name)) throw new ChwireConfigError(`setting name ${JSON.stringify(name)} is not an identifier (letters, digits and _, not starting with a digit)`);
  // Case-insensitively: the server looks these up in Poco's HTMLForm, whose keys ignore case
  // (a `QUERY` parameter is read as `query` too); no real setting differs from them by case only.
  const lower = name.toLowerCase();
  const hint = Object.hasOwn(RESERVED, lower) ? RESERVED[lower] : lower.startsWith('param_') ? 'use the option params (a {name:Type} placeholder gets params.name)' : undefined;
  if (hint !== undefined) {
    throw new ChwireConfigError(`setting name ${JSON.stringify(name)} is not a setting: the ClickHouse HTTP interface reads it as its own request parameter, so chwire refuses it on every transport; ${hint}`);
  }
}

/** The names checkSettingName refuses as the HTTP interface's own (the `param_` prefix apart). */
export const RESERVED_SETTING_NAMES: readonly string[] = Object.freeze(Object.keys(RESERVED));
