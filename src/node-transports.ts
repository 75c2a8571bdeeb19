// The transports of the Node entry: node:http(s) with a keep-alive pool for http(s):// URLs, and
// the embedded engine (chdb, loaded on first use) for chdb://. Invariant: the only module through
// which the `chwire` entry reaches Node-only transports; the client core never imports them.
import type { TransportTarget } from './client/options/config.js';
import { ChdbTransport } from './transport/chdb.js';
import { HttpTransport } from './transport/http.js';
import type { Transport } from './transport/types.js';

export function nodeTransport(target: TransportTarget): Transport {
  if (target.kind === 'chdb') return new ChdbTransport({ path: target.path, requestTimeout: target.requestTimeout, database: target.database });
  return new HttpTransport(target);
}
