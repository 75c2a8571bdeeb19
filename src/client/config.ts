// Client options: their types, defaults, validation, and the transport target they describe.
// Invariants: credentials given in the URL are moved out of it (into the X-ClickHouse-* headers)
// before the URL is stored anywhere, so no message or log can show them; the transport itself is
// built by the entry's factory (Node: node-transports.ts, web: web.ts), so nothing here imports
// `node:` modules.
import { ChwireConfigError } from '../errors.js';
import type { DecodeOptions } from '../plan/options.js';
import type { TlsOptions } from '../transport/tls-options.js';
import { LOAD_BALANCING, type LoadBalancing } from '../transport/hosts.js';
import { resolveRetry, type RetryOptions, type RetryPolicy } from '../transport/retry.js';
import type { Transport, TransportEvents } from '../transport/types.js';
import { resolveCodec, type Codec } from '../transport/codec-names.js';
import type { ProxyConfig } from '../transport/proxy-url.js';
import type { AccessToken } from '../transport/request-headers.js';
import { checkHttpOnly, resolveSurface, type CompressionOption, type HttpAgentLike } from './http-options.js';
import { resolveObserver, type Observer } from './observe/call.js';
import { optionHint } from './official-names.js';
import { checkSettingName } from './setting-name.js';
import type { Logger, LogLevel } from './observe/logger.js';
import type { TracingOptions } from './observe/tracing.js';

export type SettingValue = string | number | boolean | bigint;
export type Settings = Readonly<Record<string, SettingValue>>;

export interface ClientOptions extends DecodeOptions {
  /**
   * `http://host:8123`, `https://…`, `chdb://` (embedded, in memory) or `chdb:///abs/path`
   * (embedded, on disk). Several HTTP URLs (array or comma-separated): replicas, spread by
   * `loadBalancing`, with failover. Default `http://localhost:8123`.
   */
  url?: string | readonly string[];
  /** Default `default` (or the URL's user). */
  username?: string;
  /** Default empty (or the URL's password). */
  password?: string;
  /**
   * `Authorization: Bearer <token>` instead of a user and password (ClickHouse Cloud, JWT). A
   * function is called before every request. Exclusive with `password` and `username` (also in the URL).
   */
  accessToken?: AccessToken;
  /** Role(s) of every query, one `role` URL parameter each (servers 24.4+); a call's `role` replaces it. */
  role?: string | readonly string[];
  /** Extra headers of every request (a call's own are merged over them). Not the ones the client sets. */
  httpHeaders?: Readonly<Record<string, string>>;
  /** A forward proxy, `http://[user:pass@]host:port`: absolute-form requests, or CONNECT for https:// servers. */
  proxy?: string;
  /**
   * Your own `http.Agent` / `https.Agent` (Node): the client creates no pool, and refuses
   * maxOpenConnections, keepAlive, idleSocketTtl, tls and proxy given with it.
   */
  agent?: HttpAgentLike;
  database?: string;
  /** ClickHouse settings sent with every query. */
  settings?: Settings;
  /** Milliseconds without progress (no response head, no body byte) before ChwireTimeoutError. Default 300000; 0 disables. */
  requestTimeout?: number;
  /** Sockets per host. Default 10. */
  maxOpenConnections?: number;
  /** Reuse connections. Default true. */
  keepAlive?: boolean;
  /** Longest idle time of a pooled socket in ms (also kept below the server's Keep-Alive timeout). Default 2500. */
  idleSocketTtl?: number;
  /**
   * HTTP compression. `true`: gzip responses (`enable_http_compression=1`, `Accept-Encoding: gzip`),
   * decompressed as a stream. `{ response, request }`: each `true` (gzip), `'gzip'`, `'deflate'`,
   * `'br'` or `'zstd'` (Node 22.15+ / 23.8+); `request` compresses insert bodies as they stream
   * (fast settings). Default false; ignored by chdb:// (no wire).
   */
  compression?: CompressionOption;
  tls?: TlsOptions;
  /** Rows per Native block for insert(). Default 65536. */
  insertBlockSize?: number;
  /**
   * How requests are spread over several URLs: `'in-order'` (default: the first host that is up,
   * the others on failover), `'round-robin'` or `'random'`.
   */
  loadBalancing?: LoadBalancing;
  /** Milliseconds a host that refused or could not be reached is skipped while another is up. Default 10000. */
  hostCooldown?: number;
  /**
   * Sending a failed call again: attempts in all (default 3), exponential backoff with full jitter
   * from `baseDelay` (default 100 ms) capped at `maxDelay` (default 5000 ms), never past
   * requestTimeout in total. `false`: one attempt. See docs/client.md for what is retried.
   */
  retry?: RetryOptions | false;
  /** Where log lines go: `console`, a pino logger, or any object with debug/info/warn/error. Default none. */
  logger?: Logger;
  /** Least level written to `logger`. Default `'warn'`. */
  logLevel?: LogLevel;
  /** OpenTelemetry spans (needs `@opentelemetry/api`): `true` (the global tracer) or `{ tracer?, includeQueryText? }`. Default off. */
  tracing?: boolean | TracingOptions;
  /** Least time between two onProgress events of a call, ms. Default 500. */
  progressInterval?: number;
  /** A stream whose consumer leaves its response unread this long is logged at warn (once per call). Default 10000; 0 disables. */
  slowConsumerMs?: number;
}

const KNOWN = new Set(['url', 'username', 'password', 'accessToken', 'role', 'httpHeaders', 'proxy', 'agent', 'database', 'settings', 'requestTimeout', 'maxOpenConnections', 'keepAlive', 'idleSocketTtl', 'compression', 'tls', 'insertBlockSize', 'loadBalancing', 'hostCooldown', 'retry',
  'logger', 'logLevel', 'tracing', 'progressInterval', 'slowConsumerMs',
  'int64', 'int128', 'decimal', 'datetime', 'date', 'time', 'strings', 'uuid', 'maps', 'float32', 'rows', 'columns']);

/** Where and how to connect, validated; an entry's TransportFactory turns it into a Transport. */
export type TransportTarget =
  | { readonly kind: 'chdb'; readonly path: string; readonly requestTimeout: number; readonly database: string | undefined }
  | HttpTarget;

export interface HttpTarget {
  readonly kind: 'http';
  /** Base URLs, credentials removed. */
  readonly urls: URL[];
  readonly username: string;
  readonly password: string;
  readonly database: string | undefined;
  readonly requestTimeout: number;
  readonly maxOpenConnections: number;
  readonly keepAlive: boolean;
  readonly idleSocketTtl: number;
  /** Response codec (`Accept-Encoding`), or false. */
  readonly compression: Codec | false;
  /** Codec of streamed request bodies (inserts), if any. */
  readonly requestCompression: Codec | undefined;
  readonly tls: TlsOptions | undefined;
  /** Bearer token (or a function asked before every request) instead of username/password. */
  readonly accessToken: AccessToken | undefined;
  /** Headers of every request (validated: none the client owns). */
  readonly httpHeaders: Readonly<Record<string, string>> | undefined;
  readonly proxy: ProxyConfig | undefined;
  /** The user's own agent, not yet checked against the URLs (the transport does: it knows the agent class). */
  readonly agent: unknown;
  /** Host state changes, for the client's log (observe/). */
  readonly events?: TransportEvents | undefined;
  /** The options the caller actually gave (a transport that cannot honour one names it). */
  readonly given: ReadonlySet<string>;
  readonly loadBalancing: LoadBalancing;
  /** Milliseconds a refusing or unreachable host is skipped. */
  readonly hostCooldown: number;
  readonly retry: RetryPolicy;
}

/** Builds the transport for a target; throws ChwireConfigError for a target it cannot serve. */
export type TransportFactory = (target: TransportTarget) => Transport;

export interface ResolvedConfig {
  transport: Transport;
  database: string | undefined;
  settings: Settings;
  insertBlockSize: number;
  /** The requestTimeout option (ms; 0 = none): an insert's own input-stall limit. */
  requestTimeout: number;
  /** The client's default roles (a call's `role` replaces them). */
  roles: readonly string[] | undefined;
  /** Logs, diagnostics channel, spans and progress of each call. */
  observer: Observer;
}

function nonNegativeInteger(name: string, v: number | undefined, dflt: number): number {
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new ChwireConfigError(`option ${name} must be a non-negative integer, got ${String(v)}`);
  return v;
}

function positiveInteger(name: string, v: number | undefined, dflt: number): number {
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) throw new ChwireConfigError(`option ${name} must be a positive integer, got ${String(v)}`);
  return v;
}

function nonNegative(name: string, v: number | undefined, dflt: number): number {
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new ChwireConfigError(`option ${name} must be a non-negative number, got ${String(v)}`);
  return v;
}

export function resolveConfig(o: ClientOptions, makeTransport: TransportFactory): ResolvedConfig {
  for (const k of Object.keys(o)) {
    if (!KNOWN.has(k)) throw new ChwireConfigError(`unknown client option ${JSON.stringify(k)}${optionHint(k, 'createClient')}`);
  }
  const raw = o.url ?? 'http://localhost:8123';
  const list = (typeof raw === 'string' ? raw.split(',') : [...raw]).map((s) => s.trim()).filter((s) => s.length > 0);
  if (list.length === 0) throw new ChwireConfigError('option url is empty');
  const requestTimeout = nonNegative('requestTimeout', o.requestTimeout, 300_000);
  const insertBlockSize = nonNegativeInteger('insertBlockSize', o.insertBlockSize, 65_536);
  const settings = o.settings ?? {};
  if (typeof settings !== 'object' || settings === null) throw new ChwireConfigError('option settings must be an object of setting names and values');
  for (const k of Object.keys(settings)) checkSettingName(k);
  const compression = compressionOf(o.compression); // validated for every URL, used by HTTP only
  // Replica and retry options: validated for every URL, used by HTTP only.
  if (o.loadBalancing !== undefined && !LOAD_BALANCING.includes(o.loadBalancing)) {
    throw new ChwireConfigError(`option loadBalancing must be one of ${LOAD_BALANCING.map((p) => `'${p}'`).join(', ')}, got ${JSON.stringify(o.loadBalancing)}`);
  }
  const hostCooldown = nonNegative('hostCooldown', o.hostCooldown, 10_000);
  const retry = resolveRetry(o.retry);
  const surface = resolveSurface(o);
  const observer = resolveObserver(o, o.database);

  if (list[0]!.startsWith('chdb:')) {
    if (list.length > 1) throw new ChwireConfigError('chdb:// takes a single URL');
    const m = /^chdb:\/\/(\/.*)?$/.exec(list[0]!);
    if (m === null) throw new ChwireConfigError('embedded URL must be chdb:// (in memory) or chdb:///absolute/path');
    checkHttpOnly(o);
    const path = m[1] === undefined || m[1] === '/' ? '' : decodeURIComponent(m[1]);
    return { transport: makeTransport({ kind: 'chdb', path, requestTimeout, database: o.database }), database: o.database, settings, insertBlockSize, requestTimeout, roles: undefined, observer };
  }

  let username = o.username;
  let password = o.password;
  const urls = list.map((s) => {
    let u: URL;
    try {
      u = new URL(s);
    } catch {
      // Never echo the text: it may hold a password.
      throw new ChwireConfigError('option url is not a valid URL');
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ChwireConfigError(`unsupported URL scheme ${u.protocol} (use http:, https: or chdb:)`);
    if (u.username !== '') username ??= decodeURIComponent(u.username);
    if (u.password !== '') password ??= decodeURIComponent(u.password);
    u.username = '';
    u.password = '';
    return u;
  });
  const httpOnly = surface.forHttp(username !== undefined, password !== undefined);
  const transport = makeTransport({
    kind: 'http',
    urls,
    username: username ?? 'default',
    password: password ?? '',
    database: o.database,
    requestTimeout,
    maxOpenConnections: positiveInteger('maxOpenConnections', o.maxOpenConnections, 10),
    keepAlive: o.keepAlive ?? true,
    idleSocketTtl: nonNegative('idleSocketTtl', o.idleSocketTtl, 2500),
    ...compression,
    tls: o.tls,
    loadBalancing: o.loadBalancing ?? 'in-order',
    hostCooldown,
    retry,
    ...httpOnly,
    given: new Set(Object.keys(o).filter((k) => (o as Record<string, unknown>)[k] !== undefined)),
    events: observer.transportEvents(),
  });
  return { transport, database: o.database, settings, insertBlockSize, requestTimeout, roles: surface.roles, observer };
}

function compressionOf(c: ClientOptions['compression']): { compression: Codec | false; requestCompression: Codec | undefined } {
  if (c === undefined || typeof c === 'boolean') return { compression: c === true ? 'gzip' : false, requestCompression: undefined };
  if (typeof c !== 'object' || c === null) throw new ChwireConfigError('option compression must be a boolean or { response?, request? }');
  for (const k of Object.keys(c)) {
    if (k !== 'response' && k !== 'request') throw new ChwireConfigError(`unknown compression option ${JSON.stringify(k)}`);
  }
  return { compression: resolveCodec('compression.response', c.response) ?? false, requestCompression: resolveCodec('compression.request', c.request) };
}

/** A setting's value in the server's text form; its name is checked first (checkSettingName). */
export function renderSetting(name: string, v: SettingValue): string {
  checkSettingName(name);
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (typeof v === 'number' && !Number.isFinite(v)) throw new ChwireConfigError(`setting ${name} must be finite, got ${v}`);
  return String(v);
}
