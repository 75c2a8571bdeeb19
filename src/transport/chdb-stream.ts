// A streamed read from the embedded engine (chdb's queryStream) as a transport response. chdb's
// stream yields each chunk as a complete document: with RowBinaryWithNamesAndTypes every chunk
// repeats the header, which is kept from the first chunk and stripped from the others, so the
// body is one continuous document, as over HTTP. Invariants: the first chunk is fetched before the
// response is handed over (so an engine that refuses to stream the statement fails the request,
// which then runs single-shot); each chunk comes within requestTimeout and an abort ends the
// wait at once; the connection is handed back only after the engine's fetch in flight settled.
import { ChwireConnectionError } from '../errors.js';
import type { TransportResponse } from './types.js';
import type { ChdbSession } from './chdb-engine.js';
import type { Lease } from './chdb-connections.js';
import { chdbError } from './chdb-errors.js';
import { within } from './chdb-wait.js';

type ChdbStream = ReturnType<ChdbSession['queryStream']>;
type ChdbChunk = ChdbStream extends AsyncIterable<infer C> ? C : never;

export interface StreamLimits {
  signal: AbortSignal | undefined;
  /** requestTimeout: the longest wait for one chunk; 0: none. */
  timeoutMs: number;
  queryId: string | undefined;
}

/** Opens the response: resolves once the first chunk is there, rejects with chdb's own error (unmapped) if it fails. */
export async function openStream(stream: ChdbStream, lease: Lease, format: string, limits: StreamLimits): Promise<TransportResponse> {
  const { queryId, timeoutMs } = limits;
  const chunks = stream[Symbol.asyncIterator]();
  /** The engine's fetch in flight, settled or not (an abort or a timeout stops waiting for it). */
  let pending: Promise<void> | undefined;
  let finished = false;
  const finish = (clean: boolean): void => {
    if (finished) return;
    finished = true;
    stream.cancel();
    // chdb destroys the stream behind the fetch in flight; the connection is free after that.
    const wait = pending;
    if (wait === undefined) lease.done(clean);
    else void wait.then(() => setImmediate(() => lease.done(clean)));
  };
  const next = (): Promise<IteratorResult<ChdbChunk>> => {
    const p = chunks.next();
    const settled = p.then(() => undefined, () => undefined);
    pending = settled;
    void settled.then(() => { if (pending === settled) pending = undefined; });
    return within(p, {
      signal: limits.signal, deadline: timeoutMs > 0 ? performance.now() + timeoutMs : 0, queryId, what: 'query',
      timeoutMessage: () => `no result chunk from the embedded engine within ${timeoutMs} ms (requestTimeout); the engine stops the query at its next chunk`,
    });
  };
  let first: IteratorResult<ChdbChunk>;
  try {
    first = await next();
  } catch (e) {
    finish(false);
    throw e;
  }
  let last: Uint8Array = new Uint8Array(0);
  async function* body(): AsyncGenerator<Uint8Array> {
    let header: Uint8Array | undefined;
    try {
      for (let n = first; n.done !== true; n = await next()) {
        let b = n.value.raw();
        if (format === 'RowBinaryWithNamesAndTypes') {
          if (header === undefined) {
            header = b.slice(0, Math.max(0, rbHeaderLength(b)));
          } else if (b.length >= header.length && header.every((x, i) => b[i] === x)) {
            b = b.subarray(header.length);
          }
        }
        last = b;
        if (b.length > 0) yield b;
      }
      // chdb ends a stream whose connection was closed (the client closed) as if it were done.
      if (!lease.session.open) throw new ChwireConnectionError('the client was closed while this result was being read', { queryId });
    } catch (e) {
      finish(false);
      throw chdbError(e, queryId);
    } finally {
      finish(true);
    }
  }
  return {
    queryId, summary: undefined, timezone: undefined, body: body(),
    tailText: () => new TextDecoder().decode(last.subarray(Math.max(0, last.length - 16384))),
    cancel: () => finish(true),
    exceptionsFramed: true, // the engine raises errors apart from the result bytes
  };
}

/** RowBinaryWithNamesAndTypes header length (count, names, types), or -1 if `b` is too short. */
function rbHeaderLength(b: Uint8Array): number {
  let pos = 0;
  const leb = (): number => {
    let v = 0;
    for (let shift = 0; ; shift += 7) {
      if (pos >= b.length) return -1;
      const x = b[pos++]!;
      v += (x & 0x7f) * 2 ** shift;
      if (x < 0x80) return v;
    }
  };
  const n = leb();
  if (n < 0) return -1;
  for (let i = 0; i < 2 * n; i++) {
    const len = leb();
    if (len < 0 || pos + len > b.length) return -1;
    pos += len;
  }
  return pos;
}
