// Per-call option names, checked once per call: an unknown key is refused with ChwireConfigError
// (as an unknown client option is), naming chwire's option when the key is an @clickhouse/client
// one (`abort_signal` → `signal`), so a half-migrated call never silently ignores what it was given.
//
// Invariant: each call's list of known keys is built from its option type (KeyList below: a key
// missing from a list or not in the type is a compile error), so an option added to a type is
// one edit here and can never be refused at run time. The check is one Set lookup per given key.
import { ChwireConfigError } from '../errors.js';
import { checkSettingName } from './setting-name.js';
import type { Client } from './client.js';

/** Every key of T, each listed once: a missing or an extra key fails to compile. */
type KeyList<T> = { readonly [K in keyof Required<T>]: true };

/** The options argument (at `i`) of a Client method (its last overload's). */
type Opts<M extends keyof Client, I extends number> = Client[M] extends (...a: infer A) => unknown ? NonNullable<A[I]> : never;

// Keys shared by the row queries (fetch, fetchOne, fetchValue, stream).
const QUERY: KeyList<Opts<'fetch', 1>> = {
  params: true, settings: true, queryId: true, sessionId: true, signal: true, format: true, onProgress: true, progressInterval: true,
  role: true, httpHeaders: true,
  int64: true, int128: true, decimal: true, datetime: true, date: true, time: true, strings: true, uuid: true, maps: true, float32: true, rows: true, columns: true,
};
const EXEC: KeyList<Opts<'execute', 1>> = {
  params: true, settings: true, queryId: true, sessionId: true, signal: true, onProgress: true, progressInterval: true, role: true, httpHeaders: true,
  idempotent: true,
};
const COLUMNS: KeyList<Opts<'fetchColumns', 1>> = {
  ...EXEC,
  int64: true, int128: true, decimal: true, datetime: true, date: true, time: true, uuid: true, maps: true, float32: true,
  strings: true, columns: true, wire: true, types: true,
};
const RAW: KeyList<Opts<'streamRaw', 1>> = {
  format: true, params: true, settings: true, queryId: true, sessionId: true, signal: true, appendedExceptions: true, onProgress: true, progressInterval: true,
  role: true, httpHeaders: true,
};
const INSERT: KeyList<Opts<'insert', 2>> = {
  columns: true, settings: true, queryId: true, sessionId: true, signal: true, blockSize: true, format: true, async: true, deduplicationToken: true,
  onProgress: true, progressInterval: true, role: true, httpHeaders: true,
};
const PING: KeyList<Opts<'ping', 0>> = { signal: true };

function set(list: object): ReadonlySet<string> {
  return new Set(Object.keys(list));
}

const KNOWN = {
  fetch: set(QUERY), fetchOne: set(QUERY), fetchValue: set(QUERY), stream: set(QUERY),
  execute: set(EXEC), fetchColumns: set(COLUMNS), streamColumns: set(COLUMNS), streamRaw: set(RAW), insert: set(INSERT), ping: set(PING),
} as const;

export type CheckedCall = keyof typeof KNOWN;

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
function hint(key: string, call: string): string {
  const official = OFFICIAL[key];
  if (official !== undefined) {
    return /^[a-z][A-Za-z]*$/.test(official) ? ` (@clickhouse/client's name: chwire's is ${JSON.stringify(official)})` : ` (@clickhouse/client's option: in chwire, ${official})`;
  }
  if (key === 'format' && call !== 'insert') return ` (${call} decodes Native or RowBinary itself: streamRaw(sql, { format }) gives the bytes of any format)`;
  return '';
}

/** Refuse option keys `call` does not know (ChwireConfigError). `opts` undefined is no options. */
export function checkCallOptions(call: CheckedCall, opts: unknown): void {
  if (opts === undefined) return;
  if (typeof opts !== 'object' || opts === null || Array.isArray(opts)) {
    throw new ChwireConfigError(`the options of ${call} must be an object, got ${opts === null ? 'null' : Array.isArray(opts) ? 'an array' : typeof opts}`);
  }
  const known = KNOWN[call];
  for (const k of Object.keys(opts)) {
    if (!known.has(k)) throw new ChwireConfigError(`unknown option ${JSON.stringify(k)} of ${call}${hint(k, call)}`);
  }
  // Setting names reach a SETTINGS clause (chdb://) or URL parameters: identifiers only, checked
  // before anything (a DESCRIBE, a probe) is sent.
  const settings = (opts as { settings?: unknown }).settings;
  if (settings !== undefined) {
    if (typeof settings !== 'object' || settings === null) throw new ChwireConfigError(`option settings of ${call} must be an object of setting names and values`);
    for (const k of Object.keys(settings)) checkSettingName(k);
  }
}

/** The hint for an unknown client option (config.ts): chwire's name for an @clickhouse/client one. */
export function clientOptionHint(key: string): string {
  return hint(key, 'createClient');
}
