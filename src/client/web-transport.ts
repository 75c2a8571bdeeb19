// The fetch transport as chwire/web's clients get it: chwire/web's options (chwire's, less the
// Node-only ones) split into the client's common options and a factory of FetchTransports.
// Runtime-neutral (shared by chwire/web and chwire/compat/web). Invariant: an option that only
// exists with node:http or the embedded engine is a ChwireConfigError naming it, never ignored.
import type { ClientOptions, TransportFactory, TransportTarget } from './options/config.js';
import type { TracingOptions, TracingTracer } from './observe/tracing.js';
import { ChwireConfigError } from '../errors.js';
import { FetchTransport, type FetchFunction } from '../transport/fetch.js';
import { requestStreamsSupported } from '../transport/request-streams.js';
import type { Transport } from '../transport/types.js';

/** The client options of chwire/web: those of `chwire` less the Node-only ones (NODE_ONLY below). */
export interface WebClientOptions extends Omit<ClientOptions, 'tls' | 'agent' | 'proxy' | 'maxOpenConnections' | 'keepAlive' | 'idleSocketTtl' | 'tracing'> {
  /**
   * OpenTelemetry spans with your tracer: `{ tracer: trace.getTracer('my-app'), includeQueryText? }`
   * (chwire/web imports no OpenTelemetry package itself, so there is no `tracing: true` here).
   */
  tracing?: false | (TracingOptions & { tracer: TracingTracer });
  /**
   * The fetch to use (default: `globalThis.fetch`), e.g. a Worker's service binding or a fetch
   * with a proxy of the runtime's own.
   */
  fetch?: FetchFunction;
  /**
   * Stream insert bodies (`duplex: 'half'`). Default: where the runtime can (Node, Deno, Bun,
   * workerd); browsers stream request bodies over HTTP/2 only, so there each insert block goes as
   * its own request. `true` in a browser needs the server (or a proxy before it) on HTTP/2.
   */
  requestStreams?: boolean;
}

/** Node-only options, and why each cannot exist here. */
const NODE_ONLY: Readonly<Record<string, string>> = {
  tls: 'TLS is the runtime\'s (its trust store and certificates); files and keys cannot be passed to fetch',
  agent: 'fetch has no http.Agent',
  proxy: 'proxies are the runtime\'s concern under fetch (pass option fetch to use your own)',
  maxOpenConnections: 'the runtime\'s fetch owns the connection pool',
  keepAlive: 'the runtime\'s fetch owns the connection pool',
  idleSocketTtl: 'the runtime\'s fetch owns the connection pool',
};

/** The options common to every entry, and the factory of fetch transports for them. */
export function onFetch(options: WebClientOptions): { common: ClientOptions; makeTransport: TransportFactory } {
  if (typeof options !== 'object' || options === null) throw new ChwireConfigError('createClient takes an options object');
  for (const [name, why] of Object.entries(NODE_ONLY)) {
    if ((options as Record<string, unknown>)[name] !== undefined) throw new ChwireConfigError(`option ${name} is not available in chwire/web: ${why}`);
  }
  const { fetch: customFetch, requestStreams, ...common } = options;
  if (customFetch !== undefined && typeof customFetch !== 'function') throw new ChwireConfigError('option fetch must be a function');
  if (requestStreams !== undefined && typeof requestStreams !== 'boolean') throw new ChwireConfigError('option requestStreams must be a boolean');
  const fetchFn: FetchFunction | undefined = customFetch ?? (typeof globalThis.fetch === 'function' ? (input, init) => globalThis.fetch(input, init) : undefined);
  if (fetchFn === undefined) throw new ChwireConfigError('chwire/web needs fetch: this runtime has no globalThis.fetch (pass option fetch)');
  const makeTransport = (target: TransportTarget): Transport => {
    if (target.kind === 'chdb') throw new ChwireConfigError('option url: chdb:// (the embedded engine) needs Node; chwire/web connects to http(s):// servers only');
    // The runtime's fetch chooses (and decodes) the response encoding; a browser forbids setting
    // Accept-Encoding. Request bodies: what CompressionStream makes.
    if (target.compression !== false && target.compression !== 'gzip') {
      throw new ChwireConfigError(`option compression: chwire/web cannot ask for ${target.compression} responses (the runtime's fetch chooses the encoding); use compression: true`);
    }
    const rc = target.requestCompression;
    if (rc !== undefined && rc !== 'gzip' && rc !== 'deflate') throw new ChwireConfigError(`option compression.request: chwire/web compresses request bodies with CompressionStream, which has gzip and deflate, not ${rc}`);
    return new FetchTransport({
      urls: target.urls, username: target.username, password: target.password, database: target.database,
      requestTimeout: target.requestTimeout, compression: target.compression !== false, requestCompression: rc,
      accessToken: target.accessToken, httpHeaders: target.httpHeaders,
      requestStreams: requestStreams ?? requestStreamsSupported(), fetch: fetchFn,
    });
  };
  return { common, makeTransport };
}
