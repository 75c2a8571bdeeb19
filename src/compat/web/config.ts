// @clickhouse/client-web 1.x client options → chwire/web's (the fetch transport's) options, through
// the Node compat's mapping (../options.ts) for everything the two clients share. Runtime-neutral.
// Invariants: an option the web client has is mapped, accepted because it changes no result
// (connection pooling and keep-alive, which the runtime's fetch owns), or refused with a
// ChwireConfigError saying why; Node-only options of @clickhouse/client are refused by name.
import { ChwireConfigError } from '../../errors.js';
import type { WebClientOptions } from '../../client/web-transport.js';
import type { FetchFunction } from '../../transport/fetch.js';
import { compatConfig, type ClickHouseClientConfigOptions, type CompatConfig } from '../options.js';

/** The official web client's options: the common ones (no tls, http_agent, …) and `fetch`. */
export type WebClickHouseClientConfigOptions = Omit<ClickHouseClientConfigOptions, 'tls' | 'http_agent' | 'max_response_headers_size'> & {
  /** The fetch to use (default: globalThis.fetch). */
  fetch?: FetchFunction;
};

/** Options of @clickhouse/client (Node) that the web client does not have. */
const NODE_ONLY = ['tls', 'http_agent', 'max_response_headers_size'];

export interface WebCompatConfig extends Omit<CompatConfig, 'chwire' | 'maxHeaderSize'> {
  /** Options for chwire/web's fetch transport (client/web-transport.ts). */
  chwire: WebClientOptions;
}

export function webCompatConfig(o: WebClickHouseClientConfigOptions): WebCompatConfig {
  if (typeof o !== 'object' || o === null) throw new ChwireConfigError('createClient takes an options object');
  const { fetch, ...common } = o;
  for (const k of NODE_ONLY) {
    if ((common as Record<string, unknown>)[k] !== undefined) throw new ChwireConfigError(`chwire/compat/web has no option ${k}: it is @clickhouse/client's (Node); the web client's fetch owns TLS and connections`);
  }
  const codec = (d: 'request' | 'response'): unknown => { const v = o.compression?.[d]; return typeof v === 'object' && v !== null ? (v as { codec?: unknown }).codec : undefined; };
  for (const d of ['request', 'response'] as const) {
    // The official web client refuses zstd in both directions at createClient too.
    if (codec(d) === 'zstd') throw new ChwireConfigError(`chwire/compat/web cannot use zstd ${d} compression (neither can @clickhouse/client-web): use gzip`);
  }
  // No User-Agent of the client's own: the browser sends its own, as with the official web client.
  const cfg = compatConfig(common, () => undefined);
  const { maxOpenConnections: _m, keepAlive: _k, idleSocketTtl: _i, compression, ...chwire } = cfg.chwire;
  // compatConfig sets no tracing (the official tracer option is refused there).
  const out = chwire as WebClientOptions;
  // Responses: the runtime's fetch negotiates the encoding and decodes it (the official web client's
  // Accept-Encoding is a forbidden header in browsers); requests go uncompressed, as the official
  // web client sends them.
  if (typeof compression === 'object' && compression.response !== undefined) out.compression = true;
  if (fetch !== undefined) out.fetch = fetch;
  const { chwire: _c, maxHeaderSize: _h, ...rest } = cfg;
  return { ...rest, chwire: out };
}
