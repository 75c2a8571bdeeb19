// The client options of the HTTP transport (HTTP_OPTION_KEYS), checked in one place: their
// values when the client is created, for every URL; then either what they make of an HTTP target
// (with the exclusivity rules between them and the credentials), or their refusal by the embedded
// engine. No I/O and no `node:` import (chwire/web uses it too): whether the running platform can
// honour a value (a codec, an agent's class) is the transport's own check when it is built.
// Invariants: each option is read once, here (the client layer hands the options over and reads
// none of these); an option that a URL cannot honour fails with a ChwireConfigError naming it,
// never silently; no message quotes a token, a proxy URL or a header value.
import { ChwireConfigError } from '../errors.js';
import { resolveCodec, type Codec, type CompressionChoice } from './codec-names.js';
import { LOAD_BALANCING, type LoadBalancing } from './hosts.js';
import { nonNegative, positiveInteger } from './option-numbers.js';
import { parseProxy, type ProxyConfig } from './proxy-url.js';
import { checkToken, validateHttpHeaders, validateRoles, type AccessToken } from './request-headers.js';
import { resolveRetry, type RetryOptions, type RetryPolicy } from './retry.js';
import type { TlsOptions } from './tls-options.js';

export type { AccessToken };
export type CompressionOption = boolean | { response?: CompressionChoice; request?: CompressionChoice };

/**
 * An `http.Agent` / `https.Agent` as the options see it (structurally: the client core imports no
 * `node:` module); the Node transport checks it is a real one whose protocol fits the URLs.
 */
export interface HttpAgentLike {
  destroy(): void;
}

/** The client options this module checks (and the only ones it reads). */
export const HTTP_OPTION_KEYS = [
  'accessToken', 'role', 'httpHeaders', 'proxy', 'agent', 'maxOpenConnections', 'keepAlive', 'idleSocketTtl',
  'compression', 'tls', 'loadBalancing', 'hostCooldown', 'retry',
] as const;

type HttpOptionKey = (typeof HTTP_OPTION_KEYS)[number];
export type HttpOptionsInput = { readonly [K in HttpOptionKey]?: unknown };

/** What the HTTP options make of a target: every field checked. */
export interface HttpTargetOptions {
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
  readonly loadBalancing: LoadBalancing;
  /** Milliseconds a refusing or unreachable host is skipped. */
  readonly hostCooldown: number;
  readonly retry: RetryPolicy;
}

export interface HttpOptions {
  /** The client's default roles (a call's `role` replaces them); undefined for none. */
  readonly roles: readonly string[] | undefined;
  /** The target's options for HTTP URLs; `hasUser` / `hasPassword`: given as options or in the URL. */
  forHttp(hasUser: boolean, hasPassword: boolean, anyHttps?: boolean): HttpTargetOptions;
  /**
   * chdb:// has no HTTP: an option that only means something on the wire and would change what a
   * query does or who runs it is refused (it cannot be honoured); `compression`, the retry and
   * replica options are ignored (there are no bytes in transit, the result is the same).
   */
  forEngine(): void;
}

/** The pool options an agent of the user's own makes meaningless. */
const POOL_OPTIONS = ['maxOpenConnections', 'keepAlive', 'idleSocketTtl', 'tls', 'proxy'] as const;

/** The options refused by the embedded engine. */
const HTTP_ONLY = ['accessToken', 'role', 'httpHeaders', 'proxy', 'agent'] as const;

/** Checks the values that must be sound whatever the URL; the rest when the URL's kind is known. */
export function resolveHttpOptions(o: HttpOptionsInput): HttpOptions {
  const given = Object.fromEntries(HTTP_OPTION_KEYS.map((k) => [k, o[k]])) as Record<HttpOptionKey, unknown>;
  const compression = compressionOf(given.compression);
  if (given.loadBalancing !== undefined && !(LOAD_BALANCING as readonly unknown[]).includes(given.loadBalancing)) {
    throw new ChwireConfigError(`option loadBalancing must be one of ${LOAD_BALANCING.map((p) => `'${p}'`).join(', ')}, got ${JSON.stringify(given.loadBalancing)}`);
  }
  const hostCooldown = nonNegative('hostCooldown', given.hostCooldown, 10_000);
  const retry = resolveRetry(given.retry as RetryOptions | false | undefined);
  const token = given.accessToken;
  if (token !== undefined) {
    if (typeof token === 'string') checkToken(token);
    else if (typeof token !== 'function') throw new ChwireConfigError(`option accessToken must be a string or a function returning one, got ${token === null ? 'null' : typeof token}`);
  }
  const roles = validateRoles('role', given.role);
  const httpHeaders = validateHttpHeaders('httpHeaders', given.httpHeaders);
  const proxy = parseProxy(given.proxy);
  return {
    roles: roles !== undefined && roles.length > 0 ? roles : undefined,
    forHttp(hasUser, hasPassword, anyHttps = true) {
      if (token !== undefined && hasPassword) throw new ChwireConfigError('options accessToken and password are exclusive (a password in the URL counts too): the token authenticates the request');
      if (token !== undefined && hasUser) throw new ChwireConfigError('options accessToken and username are exclusive (a user in the URL counts too): ClickHouse takes the user from the token and refuses a request that also names one');
      const agent = given.agent;
      if (agent !== undefined) {
        if (typeof agent !== 'object' || agent === null) throw new ChwireConfigError('option agent must be an http.Agent or https.Agent');
        for (const k of POOL_OPTIONS) {
          if (given[k] !== undefined) throw new ChwireConfigError(`options agent and ${k} are exclusive: with your own agent, connections are its business`);
        }
      }
      const keepAlive = given.keepAlive ?? true;
      if (typeof keepAlive !== 'boolean') throw new ChwireConfigError(`option keepAlive must be a boolean, got ${typeof keepAlive}`);
      const tls = given.tls;
      if (tls !== undefined && (typeof tls !== 'object' || tls === null || Array.isArray(tls))) {
        throw new ChwireConfigError(`option tls must be an object { ca?, cert?, key?, rejectUnauthorized?, servername? }, got ${tls === null ? 'null' : Array.isArray(tls) ? 'an array' : typeof tls}`);
      }
      if (tls !== undefined) checkTls(tls as Record<string, unknown>, anyHttps);
      return {
        maxOpenConnections: positiveInteger('maxOpenConnections', given.maxOpenConnections, 10),
        keepAlive,
        idleSocketTtl: nonNegative('idleSocketTtl', given.idleSocketTtl, 2500),
        ...compression,
        tls: tls as TlsOptions | undefined,
        accessToken: token as AccessToken | undefined,
        httpHeaders,
        proxy,
        agent,
        loadBalancing: (given.loadBalancing ?? 'in-order') as LoadBalancing,
        hostCooldown,
        retry,
      };
    },
    forEngine() {
      for (const k of HTTP_ONLY) {
        if (given[k] !== undefined) throw new ChwireConfigError(`option ${k} is for HTTP servers; the embedded engine (chdb://) cannot honour it`);
      }
    },
  };
}

function compressionOf(c: unknown): { compression: Codec | false; requestCompression: Codec | undefined } {
  if (c === undefined || typeof c === 'boolean') return { compression: c === true ? 'gzip' : false, requestCompression: undefined };
  if (typeof c !== 'object' || c === null) throw new ChwireConfigError('option compression must be a boolean or { response?, request? }');
  for (const k of Object.keys(c)) {
    if (k !== 'response' && k !== 'request') throw new ChwireConfigError(`unknown compression option ${JSON.stringify(k)}`);
  }
  const { response, request } = c as { response?: unknown; request?: unknown };
  return { compression: resolveCodec('compression.response', response) ?? false, requestCompression: resolveCodec('compression.request', request) };
}

/**
 * The tls option's values where a wrong type would be read otherwise than meant (Node takes any
 * value but `false` as rejectUnauthorized: true, so 'false' or 0 still verify, silently), and the
 * option itself where no URL is https (it would be ignored).
 */
function checkTls(tls: Record<string, unknown>, anyHttps: boolean): void {
  const r = tls['rejectUnauthorized'];
  if (r !== undefined && typeof r !== 'boolean') throw new ChwireConfigError(`option tls.rejectUnauthorized must be a boolean, got ${r === null ? 'null' : typeof r} (certificates are verified unless it is false)`);
  const n = tls['servername'];
  if (n !== undefined && typeof n !== 'string') throw new ChwireConfigError(`option tls.servername must be a string, got ${n === null ? 'null' : typeof n}`);
  if (!anyHttps) throw new ChwireConfigError('option tls applies to https:// URLs only, and every URL of this client is http://: use https:// (TLS options are not applied to plain HTTP)');
}
