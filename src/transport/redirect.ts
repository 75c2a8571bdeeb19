// A redirect from a server, refused. Invariant: chwire never follows one (a redirect would carry
// the credentials, the SQL and the insert body to a host the user did not name), and the error
// names the target by origin and path only: its query string and any user:password in it may be
// secrets, so they never reach the message. No `node:` imports: the web transport uses it.
import { ChwireConnectionError } from '../errors.js';

/** Whether a status is a redirect (3xx with a target; 304 is a cache answer chwire never asks for). */
export function isRedirectStatus(status: number): boolean {
  return status >= 300 && status < 400;
}

/**
 * The error for a redirect answered by `where` (the host as the user named it). `location`: the
 * Location header (undefined when absent or hidden, as a browser's opaque redirect hides it);
 * `base`: the request's URL, against which a relative Location resolves.
 */
export function redirectError(status: number, location: string | undefined, base: string, where: string, opts: { queryId?: string | undefined; host?: string | undefined }): ChwireConnectionError {
  const target = location === undefined || location === '' ? undefined : safeTarget(location, base);
  const to = target === undefined
    ? (status === 0 ? 'a target the browser does not reveal (an opaque redirect)' : 'no Location header')
    : target;
  const answer = status === 0 ? 'answered with a redirect' : `answered ${status} (a redirect)`;
  return new ChwireConnectionError(
    `${where} ${answer} to ${to}; chwire does not follow redirects (a redirect would send the credentials and the query to another address): put the address that answers queries in the url option`,
    opts,
  );
}

/** `origin + path` of a Location, resolved against `base`; never its query, fragment or credentials. */
function safeTarget(location: string, base: string): string {
  let u: URL;
  try {
    u = new URL(location, base);
  } catch {
    return 'a Location that is not a URL';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `a ${u.protocol} URL`;
  return `${u.origin}${u.pathname}`;
}
