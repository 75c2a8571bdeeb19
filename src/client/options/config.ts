// Client options: their types, and the one place createClient's options are checked. This module
// checks the unknown ones (against one list made of each layer's own: CLIENT_OPTION_KEYS here,
// HTTP_OPTION_KEYS of the transport, OBSERVE_OPTION_KEYS of observe/, DECODE_OPTION_KEYS of plan/),
// its own (url, username, password, database, settings, requestTimeout, insertBlockSize, and the
// result bounds maxResultBytes and maxResultRows and their ceilings through result-limits.ts, callTimeout,
// perCallSettings through per-call-settings.ts), then
// hands each layer its slice, which that layer checks once.
// Invariants: an option is declared in the list of the layer that checks it, so a new option cannot
// be accepted unchecked; every bad value fails here, at createClient, as a ChwireConfigError naming
// the option; credentials given in the URL are moved out of it (url-option.ts) before the URL is
// stored anywhere, so no message or log can show them; the transport itself is built by the
// entry's factory (Node: node-transports.ts, web: web.ts), so nothing here imports `node:` modules.
import { ChwireConfigError } from '../../errors.js';
import { DECODE_OPTION_KEYS, type DecodeOptions } from '../../plan/options.js';
import { checkDecodeOptions } from '../../plan/resolve.js';
import type { TlsOptions } from '../../transport/tls-options.js';
import type { LoadBalancing } from '../../transport/hosts.js';
import type { RetryOptions } from '../../transport/retry.js';
import type { Transport, TransportEvents } from '../../transport/types.js';
import { HTTP_OPTION_KEYS, resolveHttpOptions, type AccessToken, type CompressionOption, type HttpAgentLike, type HttpTargetOptions } from '../../transport/http-options.js';
import { nonNegative, nonNegativeInteger } from '../../transport/option-numbers.js';
import type { Observer } from '../observe/call.js';
import { OBSERVE_OPTION_KEYS, resolveObserver } from '../observe/options.js';
import { optionHint } from './official-names.js';
import { checkSettingName } from './setting-name.js';
import { parseUrlOption } from './url-option.js';
import { resolveResultLimits, type ResultCeilingOptions, type ResultLimitOptions, type ResultLimits } from '../read/result-limits.js';
import { resolvePerCallSettings, type PerCallSettings } from './per-call-settings.js';
import type { Logger, LogLevel } from '../observe/logger.js';
import type { TracingOptions } from '../observe/tracing.js';

export type SettingValue = string | number | boolean | bigint;
export type Settings = Readonly<Record<string, SettingValue>>;

export interface ClientOptions extends DecodeOptions, ResultLimitOptions, ResultCeilingOptions {
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
  /**
   * The guarded settings (replace_running_query, profile, readonly, allow_ddl, log_queries) a
   * call's own `settings` may set: a list of those names, or `'any'`. Default none: a call that
   * sets one is refused with ChwireConfigError before anything is sent. The client's `settings`
   * may always set them.
   */
  perCallSettings?: readonly string[] | 'any';
  /** Milliseconds without progress (no response head, no body byte) before ChwireTimeoutError. Default 300000; 0 disables. */
  requestTimeout?: number;
  /**
   * Milliseconds a whole buffered call (fetch, fetchOne, fetchValue, fetchColumns, execute, ping)
   * may take, from the call to its result, before ChwireTimeoutError (its query is stopped): unlike
   * requestTimeout, a body that keeps arriving slowly does not extend it. Default 0 (none); a
   * call's own `callTimeout` replaces it. Streams and inserts take `signal: AbortSignal.timeout(ms)`.
   */
  callTimeout?: number;
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

/** The options this module checks itself. */
export const CLIENT_OPTION_KEYS = ['url', 'username', 'password', 'database', 'settings', 'requestTimeout', 'insertBlockSize', 'maxResultBytes', 'maxResultRows', 'maxResultBytesCeiling', 'maxResultRowsCeiling', 'callTimeout', 'perCallSettings'] as const;

/** Every option createClient takes: each layer's list (the test config.layers checks it is ClientOptions' keys). */
const KNOWN: ReadonlySet<string> = new Set([...CLIENT_OPTION_KEYS, ...HTTP_OPTION_KEYS, ...OBSERVE_OPTION_KEYS, ...DECODE_OPTION_KEYS]);

/** Where and how to connect, validated; an entry's TransportFactory turns it into a Transport. */
export type TransportTarget =
  | { readonly kind: 'chdb'; readonly path: string; readonly requestTimeout: number; readonly database: string | undefined }
  | HttpTarget;

export interface HttpTarget extends HttpTargetOptions {
  readonly kind: 'http';
  /** Base URLs, credentials removed. */
  readonly urls: URL[];
  readonly username: string;
  readonly password: string;
  readonly database: string | undefined;
  readonly requestTimeout: number;
  /** Host state changes, for the client's log (observe/). */
  readonly events?: TransportEvents | undefined;
  /** The options the caller actually gave (a transport that cannot honour one names it). */
  readonly given: ReadonlySet<string>;
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
  /** The bounds of buffered results (maxResultBytes, maxResultRows) as given; a call's own replace them. */
  resultLimits: ResultLimits;
  /** The callTimeout option (ms; 0: none). */
  callTimeout: number;
  /** The guarded settings a call may set (perCallSettings). */
  perCallSettings: PerCallSettings;
  /** Logs, diagnostics channel, spans and progress of each call. */
  observer: Observer;
}

export function resolveConfig(o: ClientOptions, makeTransport: TransportFactory): ResolvedConfig {
  for (const k of Object.keys(o)) {
    if (!KNOWN.has(k)) throw new ChwireConfigError(`unknown client option ${JSON.stringify(k)}${optionHint(k, 'createClient')}`);
  }
  const { url, username, password, database, settings: givenSettings, requestTimeout: givenTimeout, insertBlockSize: givenBlockSize } = o;
  const target = parseUrlOption(url, username, password);
  if (database !== undefined && typeof database !== 'string') throw new ChwireConfigError(`option database must be a string, got ${database === null ? 'null' : typeof database}`);
  const requestTimeout = nonNegative('requestTimeout', givenTimeout, 300_000);
  const insertBlockSize = nonNegativeInteger('insertBlockSize', givenBlockSize, 65_536);
  const resultLimits = resolveResultLimits(o);
  const callTimeout = nonNegative('callTimeout', o.callTimeout, 0);
  const perCallSettings = resolvePerCallSettings(o.perCallSettings);
  const settings = givenSettings ?? {};
  if (typeof settings !== 'object' || settings === null) throw new ChwireConfigError('option settings must be an object of setting names and values');
  for (const k of Object.keys(settings)) checkSettingName(k);
  // Each layer's options, checked by the layer (HTTP ones for every URL, used by HTTP only).
  const http = resolveHttpOptions(o);
  const observer = resolveObserver(o, database);
  checkDecodeOptions(o); // the client keeps them as given (client.ts); each call merges its own over them

  if (target.kind === 'chdb') {
    http.forEngine();
    return { transport: makeTransport({ kind: 'chdb', path: target.path, requestTimeout, database }), database, settings, insertBlockSize, requestTimeout, roles: undefined, observer, resultLimits, callTimeout, perCallSettings };
  }
  const transport = makeTransport({
    kind: 'http',
    urls: target.urls,
    username: target.username ?? 'default',
    password: target.password ?? '',
    database,
    requestTimeout,
    ...http.forHttp(target.username !== undefined, target.password !== undefined, target.urls.some((u) => u.protocol === 'https:')),
    given: new Set(Object.keys(o).filter((k) => (o as Record<string, unknown>)[k] !== undefined)),
    events: observer.transportEvents(),
  });
  return { transport, database, settings, insertBlockSize, requestTimeout, roles: http.roles, observer, resultLimits, callTimeout, perCallSettings };
}

/** A setting's value in the server's text form; its name is checked first (checkSettingName). */
export function renderSetting(name: string, v: SettingValue): string {
  checkSettingName(name);
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (typeof v === 'number' && !Number.isFinite(v)) throw new ChwireConfigError(`setting ${name} must be finite, got ${v}`);
  return String(v);
}
