// @clickhouse/client 1.x client options → chwire's ClientOptions, plus what chwire/compat keeps
// for itself (the default session, JSON handling). Runtime-neutral.
// Invariants: every official option is either mapped onto chwire's own, accepted because it
// changes nothing chwire does, or refused with a ChwireConfigError that says why: never ignored
// when it would change a result; no message quotes a URL, a password or a token.
import { ChwireConfigError } from '../errors.js';
import type { ClientOptions, Settings } from '../client/options/config.js';
import { ClickHouseLogLevel, loggerOf, type LogOption, type OfficialLogger } from './log.js';

/** ClickHouse settings as the official client takes them (a value undefined is not sent). */
export type ClickHouseSettings = Record<string, string | number | boolean | bigint | { toString(): string } | undefined>;

export interface JSONHandling {
  parse(text: string): unknown;
  stringify(value: unknown): string;
}

export { ClickHouseLogLevel };
export type { LogParams, OfficialLogger } from './log.js';

type CodecOption = boolean | { codec: 'gzip' | 'deflate' | 'br' | 'zstd' };

export interface ClickHouseClientConfigOptions {
  url?: string | URL;
  /** @deprecated in the official client: use url. */
  host?: string;
  pathname?: string;
  request_timeout?: number;
  max_open_connections?: number;
  compression?: { response?: CodecOption; request?: CodecOption };
  username?: string;
  password?: string;
  access_token?: string;
  application?: string;
  database?: string;
  clickhouse_settings?: ClickHouseSettings;
  log?: LogOption;
  session_id?: string;
  role?: string | string[];
  /** @deprecated in the official client: use http_headers. */
  additional_headers?: Record<string, string>;
  http_headers?: Record<string, string>;
  keep_alive?: { enabled?: boolean; idle_socket_ttl?: number; eagerly_destroy_stale_sockets?: boolean };
  json?: Partial<JSONHandling>;
  tls?: { ca_cert: Uint8Array | string; cert?: Uint8Array | string; key?: Uint8Array | string };
  http_agent?: { destroy(): void };
  set_basic_auth_header?: boolean;
  capture_enhanced_stack_trace?: boolean;
  /**
   * chwire's own (the official client has no bound): most bytes of a response body that text() and
   * json() read before they fail with ChwireLimitError. Default 268435456 (256 MiB); 0: no bound.
   * stream() is not bounded (it holds no result).
   */
  max_result_bytes?: number;
  /** node:http's limit on response header bytes. */
  max_response_headers_size?: number;
  /** Accepted: chwire sends parameters in the URL (a URL too long for the server fails with an error saying so). */
  use_multipart_params_auto?: boolean;
  /**
   * chwire's own: json() of JSONEachRow read through chwire's binary decoders where the result is
   * sure to be deep-equal to the server's JSON parsed (docs/migrating.md, "The JSON fast path").
   * Default false (every query sent as the official client sends it); true opts in, with the requests it adds
   * (a probe per client; a fast query read with text()/stream() sent again as JSON).
   */
  json_fast_path?: boolean;
  /**
   * chwire's own: the guarded settings (replace_running_query, profile, readonly, allow_ddl,
   * log_queries) a call's clickhouse_settings may set, a list of names or `'any'` (chwire's
   * perCallSettings). Default none: the official client lets a call set them; chwire/compat refuses
   * such a call with ChwireConfigError before anything is sent (docs/migrating.md). The client's
   * own clickhouse_settings may set them.
   */
  per_call_settings?: readonly string[] | 'any';
}

/** Official options chwire cannot honour, and why. */
const REFUSED: Readonly<Record<string, string>> = {
  tracer: 'chwire traces with OpenTelemetry itself: use chwire\'s createClient({ tracing }) instead',
  use_multipart_params: 'chwire sends query parameters in the URL only',
  connection: 'chwire/compat runs on chwire\'s own transport',
  impl: 'chwire/compat runs on chwire\'s own transport',
};

const KNOWN = new Set(['url', 'host', 'pathname', 'request_timeout', 'max_open_connections', 'compression', 'username', 'password', 'access_token',
  'application', 'database', 'clickhouse_settings', 'log', 'session_id', 'role', 'additional_headers', 'http_headers', 'keep_alive', 'json', 'tls',
  'http_agent', 'set_basic_auth_header', 'capture_enhanced_stack_trace', 'max_result_bytes',
  // Parameters go in the URL, as this option has them while the URL is short; a URL the server
  // refuses as too long fails with an error that says so (chwire sends no multipart body).
  'use_multipart_params_auto', 'max_response_headers_size', 'json_fast_path', 'per_call_settings']);

export interface CompatConfig {
  /** Options for chwire's createClientWith. */
  chwire: ClientOptions;
  /** The client's session (each call's session_id replaces it). */
  sessionId: string | undefined;
  json: JSONHandling;
  /** Whether responses come compressed (exec's decompress_response_stream: false then hands the body over still compressed). */
  responseCompression: boolean;
  /** node:http's maxHeaderSize for responses (max_response_headers_size), or undefined for node's default. */
  maxHeaderSize: number | undefined;
  /** Where failed calls are written (the official logger at level ERROR or below), or undefined. */
  errorLog: OfficialLogger | undefined;
  /** json_fast_path (default false: opt-in). */
  jsonFastPath: boolean;
}

/** Turns the official options into chwire's; `userAgent` is the header value to send (the entry knows the runtime; undefined: none). */
export function compatConfig(o: ClickHouseClientConfigOptions, userAgent: (application: string | undefined) => string | undefined): CompatConfig {
  if (typeof o !== 'object' || o === null) throw new ChwireConfigError('createClient takes an options object');
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined) continue;
    const why = REFUSED[k];
    if (why !== undefined) throw new ChwireConfigError(`chwire/compat cannot honour option ${k}: ${why}`);
    if (!KNOWN.has(k)) throw new ChwireConfigError(`unknown client option ${JSON.stringify(k)} (chwire/compat takes the options of @clickhouse/client 1.x)`);
  }
  if (o.set_basic_auth_header === false) {
    throw new ChwireConfigError('chwire/compat cannot honour set_basic_auth_header: false: it always authenticates each request (X-ClickHouse-User/Key, or access_token as Bearer), and refuses an Authorization header of yours');
  }
  const out: ClientOptions & { url?: string } = {};
  out.url = baseUrl(o.url ?? o.host, o.pathname);
  if (o.username !== undefined) out.username = o.username;
  if (o.password !== undefined) out.password = o.password;
  if (o.access_token !== undefined) {
    if (o.username !== undefined || o.password !== undefined) throw new ChwireConfigError('options access_token and username/password are exclusive: use one authentication method');
    out.accessToken = o.access_token;
  }
  // The official client sends no database parameter for 'default' (the user's own default applies).
  if (o.database !== undefined && o.database !== 'default') out.database = o.database;
  out.requestTimeout = o.request_timeout ?? 30_000;
  if (o.max_result_bytes !== undefined) {
    if (typeof o.max_result_bytes !== 'number' || !Number.isSafeInteger(o.max_result_bytes) || o.max_result_bytes < 0) throw new ChwireConfigError(`option max_result_bytes must be a non-negative integer (0: no bound), got ${String(o.max_result_bytes)}`);
    out.maxResultBytes = o.max_result_bytes;
  }
  // With an agent of the user's, connections are its business (the official client then ignores
  // max_open_connections, keep_alive and tls too; PostHog passes keep_alive.enabled: false with one).
  const agent = o.http_agent !== undefined;
  if (o.max_open_connections !== undefined && !agent) {
    if (!Number.isSafeInteger(o.max_open_connections)) throw new ChwireConfigError(`chwire/compat needs max_open_connections as a whole number of sockets, got ${String(o.max_open_connections)}`);
    out.maxOpenConnections = o.max_open_connections;
  }
  const ka = o.keep_alive;
  if (ka !== undefined && !agent) {
    if (ka.enabled !== undefined) out.keepAlive = ka.enabled;
    if (ka.idle_socket_ttl !== undefined) out.idleSocketTtl = ka.idle_socket_ttl;
    // eagerly_destroy_stale_sockets: chwire always drops a socket idle past its limit before using it.
  }
  const c = o.compression;
  let responseCompression = false;
  if (c !== undefined) {
    const resp = codecOf('compression.response', c.response);
    const req = codecOf('compression.request', c.request);
    responseCompression = resp !== undefined;
    out.compression = { ...(resp !== undefined ? { response: resp } : {}), ...(req !== undefined ? { request: req } : {}) };
  }
  if (o.clickhouse_settings !== undefined) out.settings = settingsOf(o.clickhouse_settings);
  if (o.per_call_settings !== undefined) out.perCallSettings = o.per_call_settings;
  if (o.role !== undefined) out.role = o.role;
  const headers = { ...(o.additional_headers ?? {}), ...(o.http_headers ?? {}) };
  // As in the official client, its User-Agent wins over one given in http_headers (the web
  // client sets none: the browser's own goes).
  const ua = userAgent(o.application);
  if (ua !== undefined) {
    for (const k of Object.keys(headers)) if (k.toLowerCase() === 'user-agent') delete headers[k];
    headers['User-Agent'] = ua;
  }
  out.httpHeaders = headers;
  if (o.tls !== undefined && !agent) out.tls = { ca: o.tls.ca_cert, ...(o.tls.cert !== undefined ? { cert: o.tls.cert } : {}), ...(o.tls.key !== undefined ? { key: o.tls.key } : {}) };
  if (o.http_agent !== undefined) out.agent = o.http_agent;
  // Without a LoggerClass, failed calls go to the console, as with the official client.
  const logged = loggerOf(o.log);
  out.logger = logged.logger;
  out.logLevel = logged.level;
  const errorLog = (o.log?.level ?? ClickHouseLogLevel.WARN) <= ClickHouseLogLevel.ERROR ? logged.target : undefined;
  return {
    chwire: out,
    sessionId: o.session_id,
    json: { parse: o.json?.parse ?? JSON.parse, stringify: o.json?.stringify ?? JSON.stringify },
    responseCompression,
    errorLog,
    maxHeaderSize: positiveIntegerOf('max_response_headers_size', o.max_response_headers_size),
    jsonFastPath: booleanOf('json_fast_path', o.json_fast_path) ?? false,
  };
}

function booleanOf(name: string, v: boolean | undefined): boolean | undefined {
  if (v !== undefined && typeof v !== 'boolean') throw new ChwireConfigError(`option ${name} must be true or false, got ${typeof v}`);
  return v;
}

function positiveIntegerOf(name: string, v: number | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!Number.isSafeInteger(v) || v <= 0) throw new ChwireConfigError(`option ${name} must be a positive whole number of bytes, got ${String(v)}`);
  return v;
}

function baseUrl(url: string | URL | undefined, pathname: string | undefined): string {
  if (url === undefined) {
    if (pathname === undefined) return 'http://localhost:8123';
    url = 'http://localhost:8123';
  }
  let u: URL;
  try {
    u = new URL(String(url));
  } catch {
    throw new ChwireConfigError('option url is not a valid URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new ChwireConfigError(`chwire/compat connects to http:// and https:// servers, as the official client does (got ${u.protocol}); the embedded engine (chdb://) is chwire's own createClient's`);
  }
  if (u.search !== '') {
    throw new ChwireConfigError('chwire/compat does not read options from the URL\'s query string (the official client does): pass them as options');
  }
  if (pathname !== undefined) u.pathname = pathname;
  return u.toString();
}

function codecOf(name: string, v: CodecOption | undefined): true | 'gzip' | 'deflate' | 'br' | 'zstd' | undefined {
  if (v === undefined || v === false) return undefined;
  if (v === true) return true;
  if (typeof v === 'object' && v !== null && typeof v.codec === 'string') return v.codec;
  throw new ChwireConfigError(`option ${name} must be a boolean or { codec }`);
}

/** Settings as chwire renders them; undefined values are left out (the official client sends none for them). */
export function settingsOf(s: ClickHouseSettings | undefined): Settings {
  const out: Record<string, string | number | boolean | bigint> = {};
  for (const [k, v] of Object.entries(s ?? {})) {
    if (v === undefined) continue;
    // SettingsMap (and any object) is sent as its toString(), as the official client does.
    out[k] = typeof v === 'object' ? String(v) : v;
  }
  return out;
}

/**
 * The call's settings apart from `default_format`, which the HTTP interface reads as its own
 * parameter (chwire refuses it as a setting name): the official client sends it as that parameter,
 * and so does compat, as the request's format (`format`). Only that spelling: another case stays refused by chwire (18.16 reads it as an
 * unknown setting, newer servers as the parameter).
 */
export function withoutDefaultFormat(s: Settings): { settings: Settings; format: string | undefined } {
  const all = s as Record<string, string | number | boolean | bigint>;
  if (!Object.prototype.hasOwnProperty.call(all, 'default_format')) return { settings: s, format: undefined };
  const { default_format: format, ...rest } = all;
  return { settings: rest, format: String(format) };
}
