// The body of an HTTP response as an async iterable of chunks: decompressed as a stream, read no
// faster than the consumer pulls, cut by a no-progress timer, scanned for a mid-stream exception
// block, and cancelled when the consumer leaves early. Invariant: every way the body can end
// other than a complete, clean transfer raises a ChwireError; a clean end yields every data byte.
import type { IncomingMessage, ClientRequest } from 'node:http';
import { decompressorFor } from './codecs.js';
import { pipeline, type Readable } from 'node:stream';
import { ChwireAbortError, ChwireConnectionError, ChwireTimeoutError, isChwireError, type ChwireError } from '../errors.js';
import { ExceptionFramingScanner, TailKeeper } from './exception-framing.js';
import { serverErrorFromText } from './server-error.js';
import type { OpenResponse } from './held-responses.js';

export interface BodyContext {
  req: ClientRequest;
  res: IncomingMessage;
  queryId: string | undefined;
  /** Milliseconds without a byte before giving up (0: never). */
  timeoutMs: number;
  signal: AbortSignal | undefined;
  /** Where the request went, for messages (never with credentials). */
  where: string;
  /** The host's base URL without credentials, set as every error's `host`. */
  host?: string | undefined;
  /** Called once when the body is given up on by abort or timeout (the server may still be running the query). */
  onGiveUp?: () => void;
  /** The host's record of this unfinished response: when its consumer last pulled, whether it is pulling. */
  open?: OpenResponse;
  /** Called once when the body ends in any way (read to the end, cancelled, broken, closed). */
  onEnd?: () => void;
  /** Hand the bytes over in their Content-Encoding, undecoded (TransportRequest.encodedBody). */
  encoded?: boolean;
}

export interface HttpBody {
  body: AsyncIterable<Uint8Array>;
  /** Whether the body is scanned for the server's tagged exception block (its bytes are plain text to the scanner). */
  framed: boolean;
  tail: TailKeeper;
  cancel(): void;
}

export function responseBody(ctx: BodyContext): HttpBody {
  const { req, res } = ctx;
  const encoding = String(res.headers['content-encoding'] ?? '').trim().toLowerCase();
  let source: Readable = res;
  const z = ctx.encoded === true ? undefined : decompressorFor(encoding);
  if (z !== undefined) {
    // pipeline propagates a premature end of `res` into `z` as an error.
    source = pipeline(res, z, () => undefined);
  }
  // Bytes handed over still compressed cannot be scanned (nor their tail read as text).
  const plain = z !== undefined || encoding === '' || encoding === 'identity';
  const tag = res.headers['x-clickhouse-exception-tag'];
  const scanner = plain && typeof tag === 'string' && tag.length > 0 ? new ExceptionFramingScanner(tag) : undefined;
  const tail = new TailKeeper();
  let finished = false;
  let cancelled = false;
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    ctx.onEnd?.();
  };
  if (ctx.onEnd !== undefined) res.once('close', end);
  const open = ctx.open;

  const cancel = (): void => {
    if (finished || cancelled) return;
    cancelled = true;
    // Destroying the request frees the pooled slot; a half-read socket is never reused.
    req.destroy();
    res.destroy();
    if (source !== res) source.destroy();
    end();
  };

  let gaveUp = false;
  const giveUp = (e: ChwireError): void => {
    if (finished) return;
    fail(e);
    if (!gaveUp) { gaveUp = true; ctx.onGiveUp?.(); }
  };

  const fail = (e: ChwireError): void => {
    if (finished) return;
    req.destroy(e);
    res.destroy(e);
    if (source !== res) source.destroy(e);
  };

  async function* iterate(): AsyncGenerator<Uint8Array> {
    const it = source[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
    const onAbort = (): void => giveUp(new ChwireAbortError('query aborted by its AbortSignal', { queryId: ctx.queryId, cause: ctx.signal?.reason, host: ctx.host }));
    if (ctx.signal?.aborted) onAbort();
    ctx.signal?.addEventListener('abort', onAbort, { once: true });
    // One no-progress timer for the whole body, re-armed (refresh) before each wait and disarmed
    // after it: a new timer per chunk cost more than the rest of the per-chunk work. It counts only
    // time spent waiting for the network, never time the consumer spends between pulls.
    let waiting = false;
    const timer = ctx.timeoutMs > 0
      ? setTimeout(() => {
        if (waiting) giveUp(new ChwireTimeoutError(`no data from ${ctx.where} for ${ctx.timeoutMs} ms (requestTimeout)`, { queryId: ctx.queryId, host: ctx.host }));
      }, ctx.timeoutMs)
      : undefined;
    // The socket keeps the process alive while a read is pending; an abandoned body must not.
    timer?.unref();
    try {
      for (;;) {
        let r: IteratorResult<Uint8Array>;
        waiting = true;
        timer?.refresh();
        if (open !== undefined) open.pulling = true;
        let failure: unknown;
        try {
          r = await it.next();
        } catch (e) {
          failure = e;
          r = { done: true, value: undefined };
        } finally {
          waiting = false;
          if (open !== undefined) { open.pulling = false; open.lastPull = Date.now(); }
        }
        if (failure !== undefined) {
          // Node's iterator drops what is still buffered once the stream is destroyed (a server
          // that aborts right after its last bytes, read by a consumer that was busy or gave the
          // loop a turn): those bytes are handed over first, they may carry the exception block.
          for (let c = source.read() as Uint8Array | null; c !== null; c = source.read() as Uint8Array | null) {
            tail.add(c);
            if (scanner === undefined) yield c;
            else for (const part of scanner.push(c)) yield part;
          }
          throw bodyError(failure, scanner, tail, ctx);
        }
        if (r.done) break;
        const chunk = r.value;
        tail.add(chunk);
        if (scanner === undefined) {
          yield chunk;
        } else {
          for (const part of scanner.push(chunk)) yield part;
        }
      }
      if (cancelled) throw new ChwireAbortError('response cancelled', { queryId: ctx.queryId, host: ctx.host });
      if (scanner !== undefined) {
        const msg = scanner.message();
        if (msg !== undefined) throw serverErrorFromText(msg, res.statusCode, ctx.queryId, undefined, ctx.host);
        for (const part of scanner.flush()) yield part;
      }
      finished = true;
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      ctx.signal?.removeEventListener('abort', onAbort);
      if (!finished) cancel();
      end();
    }
  }

  return { body: iterate(), framed: scanner !== undefined, tail, cancel };
}

/** Maps what went wrong while reading the body to the error the caller sees. */
function bodyError(e: unknown, scanner: ExceptionFramingScanner | undefined, tail: TailKeeper, ctx: BodyContext): ChwireError {
  if (isChwireError(e)) return e;
  // 25.11+: the server aborts the transfer right after writing the exception block.
  const msg = scanner?.message();
  if (msg !== undefined) return serverErrorFromText(msg, ctx.res.statusCode, ctx.queryId, undefined, ctx.host);
  // Servers between 24.x and 25.10 wrote `__exception__` without a tag before aborting.
  const t = tail.text();
  const at = t.lastIndexOf('__exception__');
  if (at >= 0 && /Code: \d+/.test(t.slice(at))) return serverErrorFromText(t.slice(t.indexOf('Code: ', at)), ctx.res.statusCode, ctx.queryId, undefined, ctx.host);
  const code = (e as { code?: string }).code;
  return new ChwireConnectionError(`connection to ${ctx.where} closed before the response ended${code ? ` (${code})` : ''}`, { queryId: ctx.queryId, cause: e, host: ctx.host });
}
