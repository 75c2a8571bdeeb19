// The per-call parts of a request's shape (role, httpHeaders), validated when the call is made and
// checked against what the server can take. Invariant: a call's role list replaces the client's
// (it is the set of roles the query runs with, not an addition); a role the server cannot take
// fails before anything is sent, like query parameters on a server without them.
import { ChwireConfigError } from '../../errors.js';
import type { ServerInfo } from '../../transport/types.js';
import { validateHttpHeaders, validateRoles } from '../../transport/request-headers.js';
import type { Capabilities } from '../capabilities.js';

export interface CallSurfaceOptions {
  /** Role(s) for this call, replacing the client's `role` (`[]`: none). */
  role?: string | readonly string[] | undefined;
  /** Headers for this call, merged over the client's `httpHeaders` (this call's win). */
  httpHeaders?: Readonly<Record<string, string>> | undefined;
}

export interface CallSurface {
  role?: readonly string[] | undefined;
  httpHeaders?: Readonly<Record<string, string>> | undefined;
}

export function callSurface(clientRoles: readonly string[] | undefined, opts: CallSurfaceOptions, caps: Capabilities, info: ServerInfo): CallSurface {
  const own = validateRoles('role', opts.role);
  const role = own ?? clientRoles;
  if (role !== undefined && role.length > 0 && !caps.roles) {
    throw new ChwireConfigError(`server ${info.version} is too old for the role option (the role URL parameter needs ClickHouse 24.4 or later; use SET ROLE in a session instead)`);
  }
  const out: CallSurface = {};
  if (role !== undefined && role.length > 0) out.role = role;
  const httpHeaders = validateHttpHeaders('httpHeaders', opts.httpHeaders);
  if (httpHeaders !== undefined) out.httpHeaders = httpHeaders;
  return out;
}
