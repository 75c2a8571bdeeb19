// The length of a request's URL against the server's limit: query parameters (`param_*`) travel in
// the URL, and servers cap its length (http_max_uri_size: 1 MiB by default since ClickHouse 21.5;
// 16 KiB before, where an 18.16 server answers a longer one with a bare 400 and no text).
//
// Invariant: a URL over MAX_URL_BYTES is refused before anything is sent, and an empty 400 to a URL
// over the old limit is explained; both errors name the parameters by name and size only (values
// are secrets: they never reach an error).
import { ChwireConfigError } from '../errors.js';

/** Modern servers' default http_max_uri_size (21.5+): the longest URL the client sends. */
export const MAX_URL_BYTES = 1 << 20;
/** The fixed limit of servers before 21.5 (measured on 18.16: 16 000 bytes pass, 17 000 do not). */
export const OLD_MAX_URL_BYTES = 16 * 1024;

function sizes(params: Readonly<Record<string, string>> | undefined): string {
  const list = Object.entries(params ?? {})
    .map(([k, v]) => [k, new URLSearchParams({ [`param_${k}`]: v }).toString().length] as const)
    .sort((a, b) => b[1] - a[1]);
  if (list.length === 0) return 'no query parameters';
  return `the largest query parameters: ${list.slice(0, 3).map(([k, n]) => `${k} (${n} bytes encoded)`).join(', ')}`;
}

const ADVICE = 'send large value sets another way: a temporary table filled with insert() in a session, or an IN list read from a table';

/** Throws before sending when the request's path (with its query string) is over MAX_URL_BYTES. */
export function checkUrlLength(path: string, params: Readonly<Record<string, string>> | undefined): void {
  if (path.length <= MAX_URL_BYTES) return;
  throw new ChwireConfigError(`the request URL would be ${path.length} bytes, over the ${MAX_URL_BYTES}-byte limit of ClickHouse servers (http_max_uri_size; proxies may allow less); ${sizes(params)}: ${ADVICE}`);
}

/** The error for a bare 400 (no text) to a URL over the old servers' limit, else undefined. */
export function oldUrlLimitError(status: number, text: string, path: string, params: Readonly<Record<string, string>> | undefined): ChwireConfigError | undefined {
  if (status !== 400 || text.trim() !== '' || path.length <= OLD_MAX_URL_BYTES) return undefined;
  return new ChwireConfigError(`the server refused a ${path.length}-byte request URL without a message: servers before ClickHouse 21.5 take at most ${OLD_MAX_URL_BYTES} bytes; ${sizes(params)}: ${ADVICE}`);
}
