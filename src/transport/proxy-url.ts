// The proxy option parsed: where the proxy is, and its credentials turned into the one header
// that carries them. No I/O and no `node:` import (the client core validates options with it).
// Invariant: the option's text is never echoed (it may hold a password); the credentials leave
// this module only as a `Basic …` Proxy-Authorization value.
import { ChwireConfigError } from '../errors.js';

export interface ProxyConfig {
  readonly hostname: string;
  readonly port: number;
  /** `host:port` of the proxy, for messages (never with credentials). */
  readonly where: string;
  /** `Basic …` when the proxy URL had credentials. */
  readonly authorization: string | undefined;
}

/** Validates the proxy option; the text is never echoed (it may hold a password). */
export function parseProxy(v: unknown): ProxyConfig | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new ChwireConfigError(`option proxy must be a string 'http://[user:pass@]host:port', got ${typeof v}`);
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new ChwireConfigError("option proxy is not a valid URL (expected 'http://[user:pass@]host:port')");
  }
  if (u.protocol !== 'http:') throw new ChwireConfigError(`option proxy: only http:// proxies are supported (https:// servers are reached through them by CONNECT), got ${u.protocol}`);
  if ((u.pathname !== '/' && u.pathname !== '') || u.search !== '' || u.hash !== '') throw new ChwireConfigError("option proxy takes no path, query or fragment ('http://[user:pass@]host:port')");
  let authorization: string | undefined;
  if (u.username !== '' || u.password !== '') {
    let user: string, pass: string;
    try {
      user = decodeURIComponent(u.username);
      pass = decodeURIComponent(u.password);
    } catch {
      throw new ChwireConfigError('option proxy: the credentials in the proxy URL are not valid percent-encoding');
    }
    authorization = `Basic ${base64(new TextEncoder().encode(`${user}:${pass}`))}`;
  }
  const hostname = u.hostname.replace(/^\[|\]$/g, '');
  const port = u.port === '' ? 80 : Number(u.port);
  return Object.freeze({ hostname, port, where: u.host, authorization });
}

function base64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
  return btoa(s);
}
