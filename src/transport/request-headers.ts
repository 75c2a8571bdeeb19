// The header set and the extra URL parameters of one HTTP request, built from the client's options
// (credentials or access token, its own httpHeaders, compression) and the call's (role,
// httpHeaders). Invariants: exactly one authentication method per request (X-ClickHouse-User/Key,
// or `Authorization: Bearer` alone: ClickHouse refuses a request that mixes them); a header the
// client owns can never be set or overridden by httpHeaders; no secret (password, token, header
// value) is ever put in a URL or quoted in a message, whatever was wrong with it.
import { ChwireConfigError } from '../errors.js';
import type { Codec } from './codec-names.js';

/** A token, or a function asked for one before every request (the caller caches and rotates). */
export type AccessToken = string | (() => string | Promise<string>);

/**
 * Headers the client sets itself (lower case): authentication, the body's framing and encoding,
 * the connection. httpHeaders naming any of them is a ChwireConfigError.
 */
export const OWNED_HEADERS: ReadonlySet<string> = new Set([
  'authorization', 'proxy-authorization', 'x-clickhouse-user', 'x-clickhouse-key', 'x-clickhouse-ssl-certificate-auth',
  'content-encoding', 'accept-encoding', 'content-type', 'content-length', 'transfer-encoding',
  'connection', 'keep-alive', 'host', 'te', 'upgrade', 'expect',
]);

// RFC 9110 token characters for a field name; a value is visible ASCII, Latin-1 and tabs/spaces
// (what node:http accepts), so never CR, LF or NUL.
const NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Validates an httpHeaders option (`where` names it); a frozen copy, or undefined when empty. */
export function validateHttpHeaders(where: string, h: unknown): Readonly<Record<string, string>> | undefined {
  if (h === undefined) return undefined;
  if (typeof h !== 'object' || h === null || Array.isArray(h)) throw new ChwireConfigError(`option ${where} must be an object of header names to string values`);
  const out: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(h as Record<string, unknown>)) {
    if (!NAME.test(name)) throw new ChwireConfigError(`option ${where}: ${JSON.stringify(name)} is not a valid header name`);
    const lower = name.toLowerCase();
    if (OWNED_HEADERS.has(lower)) throw new ChwireConfigError(`option ${where}: header ${JSON.stringify(name)} is set by the client and cannot be given (see the accessToken, username/password, proxy and compression options)`);
    if (seen.has(lower)) throw new ChwireConfigError(`option ${where}: header ${JSON.stringify(name)} is given twice (header names are case-insensitive)`);
    seen.add(lower);
    // The value is never quoted: it may be a secret.
    if (typeof value !== 'string') throw new ChwireConfigError(`option ${where}: the value of header ${JSON.stringify(name)} must be a string, got ${value === null ? 'null' : typeof value}`);
    if (!VALUE.test(value)) throw new ChwireConfigError(`option ${where}: the value of header ${JSON.stringify(name)} contains a character a header cannot carry (CR, LF, NUL, another control character, or one above U+00FF)`);
    out[name] = value;
  }
  return seen.size === 0 ? undefined : Object.freeze(out);
}

/** Validates a role option: one name or several; a list without duplicates (empty: no role parameter). */
export function validateRoles(where: string, r: unknown): readonly string[] | undefined {
  if (r === undefined) return undefined;
  const list = typeof r === 'string' ? [r] : Array.isArray(r) ? r as unknown[] : undefined;
  if (list === undefined) throw new ChwireConfigError(`option ${where} must be a role name or an array of role names`);
  for (const x of list) {
    if (typeof x !== 'string' || x.length === 0) throw new ChwireConfigError(`option ${where} must hold non-empty role names, got ${typeof x === 'string' ? 'an empty string' : typeof x}`);
  }
  return Object.freeze([...new Set(list as string[])]);
}

/** Per call httpHeaders over the client's, by case-insensitive name (per call wins). */
export function mergeHttpHeaders(client: Readonly<Record<string, string>> | undefined, call: Readonly<Record<string, string>> | undefined): Record<string, string> {
  if (call === undefined) return { ...client };
  const out: Record<string, string> = {};
  const overridden = new Set(Object.keys(call).map((k) => k.toLowerCase()));
  for (const [k, v] of Object.entries(client ?? {})) if (!overridden.has(k.toLowerCase())) out[k] = v;
  return Object.assign(out, call);
}

// A bearer token is base64url-ish text (RFC 6750 b64token); anything else (a newline, a space) is
// refused before it reaches a header, without echoing it.
const TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** The current access token, asked for once per request; never quoted in an error. */
export async function currentToken(token: AccessToken): Promise<string> {
  let t: unknown;
  if (typeof token === 'string') t = token;
  else {
    try {
      t = await token();
    } catch (e) {
      throw new ChwireConfigError('the accessToken function failed; the request was not sent', { cause: e });
    }
  }
  if (typeof t !== 'string') throw new ChwireConfigError(`the accessToken function must return a string (or a promise of one), got ${t === null ? 'null' : typeof t}`);
  checkToken(t);
  return t;
}

/** Throws when a token cannot go in a Bearer header; the message never shows it. */
export function checkToken(t: string): void {
  if (!TOKEN.test(t)) throw new ChwireConfigError(t.length === 0 ? 'the access token is empty' : 'the access token is not a valid bearer token (RFC 6750 b64token characters only; its value is not shown)');
}

export interface AuthOptions {
  username: string;
  password: string;
  accessToken?: AccessToken | undefined;
}

/** The authentication headers of one request: the token's, or the user's name and key. */
export async function authHeaders(a: AuthOptions): Promise<Record<string, string>> {
  if (a.accessToken !== undefined) return { Authorization: `Bearer ${await currentToken(a.accessToken)}` };
  return { 'X-ClickHouse-User': headerUtf8(a.username), 'X-ClickHouse-Key': headerUtf8(a.password) };
}

/**
 * A credential as header text whose bytes on the wire are its UTF-8 (the server compares bytes
 * with the UTF-8 of its configuration): ASCII as is; otherwise each UTF-8 byte as the character of
 * that code (Node and fetch write a header's characters up to U+00FF as single bytes). Without
 * this, é went as the one byte E9 (a wrong password) and пароль failed with ERR_INVALID_CHAR.
 */
export function headerUtf8(s: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(s)) return s;
  const bytes = new TextEncoder().encode(s);
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += String.fromCharCode(bytes[i]!);
  return out;
}

export interface HeaderInputs {
  auth: Record<string, string>;
  clientHeaders: Readonly<Record<string, string>> | undefined;
  callHeaders: Readonly<Record<string, string>> | undefined;
  /** The codec responses are asked in, if any. */
  accept: Codec | undefined;
}

/** User headers first, then the client's own (which validation guarantees they never collide with). */
export function requestHeaders(i: HeaderInputs): Record<string, string> {
  const h = mergeHttpHeaders(i.clientHeaders, i.callHeaders);
  Object.assign(h, i.auth);
  // Exactly the one codec we decode: ClickHouse picks by substring with its own priority (http.md §8.1).
  if (i.accept !== undefined) h['Accept-Encoding'] = i.accept;
  return h;
}

/**
 * The query string: `query` parameters, then one `role` parameter per role (`role=a&role=b`).
 * Byte for byte what URLSearchParams writes (application/x-www-form-urlencoded): every name and
 * value is escaped, so none can add a parameter or change another's meaning. A text made only of
 * the characters that encoding leaves as they are (letters, digits, `*-._`: setting names, query
 * ids, numbers, format names) is written as is, without building a URLSearchParams per request.
 */
export function queryString(query: Readonly<Record<string, string>>, roles: readonly string[] | undefined): string {
  let out = '';
  for (const k in query) {
    if (!Object.prototype.hasOwnProperty.call(query, k)) continue;
    out += (out === '' ? '' : '&') + formEncode(k) + '=' + formEncode(query[k]!);
  }
  if (roles !== undefined) for (const r of roles) out += (out === '' ? 'role=' : '&role=') + formEncode(r);
  return out;
}

/** The characters application/x-www-form-urlencoded leaves unescaped (the URL Standard's set). */
const FORM_PLAIN = /^[A-Za-z0-9*\-._]*$/;

/** `s` as URLSearchParams writes a name or a value (the same function for every other text). */
export function formEncode(s: string): string {
  return FORM_PLAIN.test(s) ? s : new URLSearchParams([['', s]]).toString().slice(1);
}
