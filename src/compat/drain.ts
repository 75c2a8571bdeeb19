// The official drainStream over a Node stream (an exec() result's body, say). Node-only by its
// type: kept out of rows.ts so that chwire/compat/web's declarations need no @types/node.
// Invariant: resolves when the stream ends, rejects with its error, as @clickhouse/client 1.x's.
import type { Readable } from 'node:stream';

/** Reads a stream to its end, discarding its data; rejects with its error. */
export function drainStream(stream: Readable): Promise<void> {
  return new Promise((resolve, reject) => {
    if (stream.errored) { reject(stream.errored); return; }
    if (stream.readableEnded || stream.closed) { resolve(); return; }
    stream.on('data', () => { /* discarded */ });
    stream.once('end', () => resolve());
    stream.once('error', reject);
  });
}
