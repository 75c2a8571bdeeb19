// The client options that shape HTTP requests (accessToken, role, httpHeaders, proxy, agent),
// validated once when the client is created, and what each one means for the embedded engine.
// Invariants: an option that a URL cannot honour fails here with a ChwireConfigError naming it,
// never silently; no message quotes a token, a proxy URL or a header value.
import { ChwireConfigError } from '../errors.js';
import type { CompressionChoice } from '../transport/codec-names.js';
import { checkToken, validateHttpHeaders, validateRoles, type AccessToken } from '../transport/request-headers.js';
import { parseProxy, type ProxyConfig } from '../transport/proxy-url.js';

export type { AccessToken };
export type CompressionOption = boolean | { response?: CompressionChoice; request?: CompressionChoice };

/**
 * An `http.Agent` / `https.Agent` as the options see it (structurally: the client core imports no
 * `node:` module); the Node transport checks it is a real one whose protocol fits the URLs.
 */
export interface HttpAgentLike {
  destroy(): void;
}

export interface HttpSurfaceInput {
  accessToken?: unknown;
  role?: unknown;
  httpHeaders?: unknown;
  proxy?: unknown;
  agent?: unknown;
  maxOpenConnections?: unknown;
  keepAlive?: unknown;
  idleSocketTtl?: unknown;
  tls?: unknown;
}

export interface HttpSurface {
  accessToken: AccessToken | undefined;
  httpHeaders: Readonly<Record<string, string>> | undefined;
  proxy: ProxyConfig | undefined;
  agent: unknown;
}

/** The pool options an agent of the user's own makes meaningless. */
const POOL_OPTIONS = ['maxOpenConnections', 'keepAlive', 'idleSocketTtl', 'tls', 'proxy'] as const;

export function resolveSurface(o: HttpSurfaceInput): { roles: readonly string[] | undefined; forHttp(hasUser: boolean, hasPassword: boolean): HttpSurface } {
  const token = o.accessToken;
  if (token !== undefined) {
    if (typeof token === 'string') checkToken(token);
    else if (typeof token !== 'function') throw new ChwireConfigError(`option accessToken must be a string or a function returning one, got ${token === null ? 'null' : typeof token}`);
  }
  const roles = validateRoles('role', o.role);
  const httpHeaders = validateHttpHeaders('httpHeaders', o.httpHeaders);
  const proxy = parseProxy(o.proxy);
  return {
    roles: roles !== undefined && roles.length > 0 ? roles : undefined,
    forHttp(hasUser, hasPassword) {
      if (token !== undefined && hasPassword) throw new ChwireConfigError('options accessToken and password are exclusive (a password in the URL counts too): the token authenticates the request');
      if (token !== undefined && hasUser) throw new ChwireConfigError('options accessToken and username are exclusive (a user in the URL counts too): ClickHouse takes the user from the token and refuses a request that also names one');
      const agent = o.agent;
      if (agent !== undefined) {
        if (typeof agent !== 'object' || agent === null) throw new ChwireConfigError('option agent must be an http.Agent or https.Agent');
        for (const k of POOL_OPTIONS) {
          if (o[k] !== undefined) throw new ChwireConfigError(`options agent and ${k} are exclusive: with your own agent, connections are its business`);
        }
      }
      return { accessToken: token as AccessToken | undefined, httpHeaders, proxy, agent };
    },
  };
}

/**
 * chdb:// has no HTTP: an option that only means something on the wire and would change what a
 * query does or who runs it is refused (it cannot be honoured); `compression` is ignored (there
 * are no bytes in transit, the result is the same).
 */
export function checkHttpOnly(o: HttpSurfaceInput): void {
  for (const k of ['accessToken', 'role', 'httpHeaders', 'proxy', 'agent'] as const) {
    if (o[k] !== undefined) throw new ChwireConfigError(`option ${k} is for HTTP servers; the embedded engine (chdb://) cannot honour it`);
  }
}
