// Query ids the client generates when the caller gives none: random UUIDs (v4) from the runtime's
// Web Crypto, so the client core needs no `node:` module. Invariant: every id is a fresh v4 UUID.
import { ChwireConfigError } from '../errors.js';

// `crypto.randomUUID` exists only in secure contexts (HTTPS pages, localhost) in browsers; an
// http:// page still has `crypto.getRandomValues`, which makes the same UUID by hand.

const cryptoApi = (globalThis as { crypto?: { randomUUID?: () => string; getRandomValues<T extends ArrayBufferView>(a: T): T } }).crypto;

/** A new random (v4) UUID. */
export function newQueryId(): string {
  if (typeof cryptoApi?.randomUUID === 'function') return cryptoApi.randomUUID();
  if (cryptoApi === undefined) throw new ChwireConfigError('chwire needs the Web Crypto API (globalThis.crypto) to generate query ids');
  const b = cryptoApi.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  let h = '';
  for (let i = 0; i < 16; i++) {
    h += (b[i]! + 0x100).toString(16).slice(1);
    if (i === 3 || i === 5 || i === 7 || i === 9) h += '-';
  }
  return h;
}
