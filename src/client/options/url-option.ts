// The `url` option (with `username` / `password`): which engine or servers the client talks to,
// and as whom. Invariants: credentials given in a URL are taken out of it (an option given
// explicitly wins over the URL's) before the URL is returned, so no URL kept anywhere, shown in a
// message or logged can carry them; the URL's text is never echoed in a message (it may hold a
// password).
import { ChwireConfigError } from '../../errors.js';

export type UrlTarget =
  | { readonly kind: 'chdb'; readonly path: string }
  | {
    readonly kind: 'http';
    /** Base URLs, credentials removed. */
    readonly urls: URL[];
    /** The option, else the first URL's user; undefined when neither names one. */
    readonly username: string | undefined;
    readonly password: string | undefined;
  };

export function parseUrlOption(url: unknown, username: unknown, password: unknown): UrlTarget {
  for (const [name, v] of [['username', username], ['password', password]] as const) {
    if (v !== undefined && typeof v !== 'string') throw new ChwireConfigError(`option ${name} must be a string, got ${v === null ? 'null' : typeof v}`);
  }
  const raw = url ?? 'http://localhost:8123';
  if (typeof raw !== 'string' && !(Array.isArray(raw) && raw.every((s) => typeof s === 'string'))) throw new ChwireConfigError('option url must be a URL string or an array of them');
  const list = (typeof raw === 'string' ? raw.split(',') : [...(raw as string[])]).map((s) => s.trim()).filter((s) => s.length > 0);
  if (list.length === 0) throw new ChwireConfigError('option url is empty');

  if (list[0]!.startsWith('chdb:')) {
    if (list.length > 1) throw new ChwireConfigError('chdb:// takes a single URL');
    const m = /^chdb:\/\/(\/.*)?$/.exec(list[0]!);
    if (m === null) throw new ChwireConfigError('embedded URL must be chdb:// (in memory) or chdb:///absolute/path');
    return { kind: 'chdb', path: m[1] === undefined || m[1] === '/' ? '' : decodeURIComponent(m[1]) };
  }

  let user = username as string | undefined;
  let pass = password as string | undefined;
  const urls = list.map((s) => {
    let u: URL;
    try {
      u = new URL(s);
    } catch {
      // Never echo the text: it may hold a password.
      throw new ChwireConfigError('option url is not a valid URL');
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ChwireConfigError(`unsupported URL scheme ${u.protocol} (use http:, https: or chdb:)`);
    if (u.username !== '') user ??= decodeURIComponent(u.username);
    if (u.password !== '') pass ??= decodeURIComponent(u.password);
    u.username = '';
    u.password = '';
    return u;
  });
  checkCredential('username', user);
  checkCredential('password', pass);
  return { kind: 'http', urls, username: user, password: pass };
}

/**
 * A user name or password that HTTP headers carry faithfully: no control character (CR, LF and NUL
 * would end or split the header; a tab may be trimmed away by the server) and well-formed Unicode
 * (a lone surrogate would become U+FFFD). Any other character goes as UTF-8 (request-headers.ts).
 * The message names the option, never the value.
 */
function checkCredential(name: 'username' | 'password', v: string | undefined): void {
  if (v === undefined) return;
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(v)) throw new ChwireConfigError(`option ${name} contains a control character (CR, LF, NUL, tab or another; its value is not shown): an HTTP header cannot carry it`);
  if (/[\uD800-\uDFFF]/u.test(v)) throw new ChwireConfigError(`option ${name} is not well-formed Unicode (a lone surrogate; its value is not shown)`);
}
