// The body of a fetch() response as an async iterable of chunks: read ahead of the consumer by at
// most READ_AHEAD_BYTES (so a cut connection cannot make fetch drop what it had received), cut by
// a no-progress timer, scanned for a mid-stream exception block, and cancelled when the consumer
// leaves early. Invariants (as for node:http): every way the body can end other than a complete,
// clean transfer raises a ChwireError; a clean end yields every data byte; every byte received
// before a read error goes through the exception framing before that error is raised (bytes the
// runtime's fetch had not decoded yet at the cut never reach it: the error then says so). No `node:`
// module (part of chwire/web).
import { ChwireAbortError, ChwireConnectionError, ChwireTimeoutError, isChwireError, type ChwireError } from '../errors.js';
import { ExceptionFramingScanner, TailKeeper } from './exception-framing.js';
import { codingsOf } from './fetch-encoding.js';
import { serverErrorFromText } from './server-error.js';

export interface FetchBodyContext {
  res: Response;
  /** Aborts the fetch (and with it the body) with the given reason. */
  abort(reason: ChwireError): void;
  queryId: string | undefined;
  /** Milliseconds without a byte before giving up (0: never). */
  timeoutMs: number;
  signal: AbortSignal | undefined;
  /** Where the request went, for messages (never with credentials). */
  where: string;
  /** The host's base URL without credentials, set as every error's `host`. */
  host?: string | undefined;
  /** Called once when the body is given up on by abort or timeout (the server may still be running the query). */
  onGiveUp(): void;
}

export interface FetchBody {
  body: AsyncIterable<Uint8Array>;
  tail: TailKeeper;
  exceptionsFramed: boolean;
  cancel(): void;
}

/**
 * How many received bytes may wait for the consumer before reading stops (backpressure). A
 * consumer further behind than this when the server cuts the connection can still lose the
 * server's last bytes with fetch's own buffers (docs/web.md).
 */
export const READ_AHEAD_BYTES = 1 << 20;

export function fetchBody(ctx: FetchBodyContext): FetchBody {
  const { res } = ctx;
  const tag = res.headers.get('x-clickhouse-exception-tag');
  // A browser shows a cross-origin response's X-ClickHouse-* headers only when the server exposes
  // them (Access-Control-Expose-Headers); every ClickHouse sends X-ClickHouse-Query-Id. Hidden
  // headers may hide an exception tag: then the tag-less start of an exception block
  // (`\r\n__exception__\r\n`) is held back too, and passed on as data if the body ends cleanly
  // (a server that writes such a block always cuts the transfer after it).
  const hidden = tag === null && res.headers.get('x-clickhouse-query-id') === null;
  const scanner = tag !== null && tag.length > 0 ? new ExceptionFramingScanner(tag) : hidden ? new ExceptionFramingScanner('') : undefined;
  const tagless = scanner !== undefined && tag === null;
  const tail = new TailKeeper();
  const reader = res.body?.getReader();
  let finished = false;
  let cancelled = false;
  /** Why the body was cut on purpose (abort, timeout), raised instead of the reader's own error. */
  let failure: ChwireError | undefined;
  let gaveUp = false;

  const cancel = (): void => {
    if (finished || cancelled) return;
    cancelled = true;
    // Cancelling the reader closes the connection: a half-read response is never reused.
    reader?.cancel().catch(() => undefined);
    ctx.abort(new ChwireAbortError('response cancelled', { queryId: ctx.queryId, host: ctx.host }));
  };

  // Read-ahead: a reader.read() is kept outstanding while fewer than READ_AHEAD_BYTES wait for the
  // consumer, so every chunk fetch receives is taken out of the stream at once. A cut connection
  // errors the stream, and a ReadableStream drops what it had queued when it errors: without the
  // read-ahead, a server's exception block (written just before it cuts the transfer) was lost
  // whenever the consumer was behind, and the caller got a ChwireConnectionError instead of the
  // server's error. What was read ahead is offered to the exception framing before the read error
  // is raised.
  const queue: Uint8Array[] = [];
  let queued = 0;
  let reading = false;
  let ended = false;
  let readFailed = false;
  let readError: unknown;
  let wake: (() => void) | undefined;
  const woken = (): void => { const w = wake; wake = undefined; w?.(); };
  const pump = (): void => {
    if (reader === undefined || reading || ended || readFailed || cancelled || failure !== undefined || queued >= READ_AHEAD_BYTES) return;
    reading = true;
    reader.read().then((r) => {
      reading = false;
      if (r.done) ended = true;
      else { queue.push(r.value); queued += r.value.byteLength; }
      woken();
      pump();
    }, (e: unknown) => {
      reading = false;
      readFailed = true;
      readError = e;
      woken();
    });
  };

  const giveUp = (e: ChwireError): void => {
    if (finished || failure !== undefined) return;
    failure = e;
    ctx.abort(e);
    reader?.cancel(e).catch(() => undefined);
    woken();
    if (!gaveUp) { gaveUp = true; ctx.onGiveUp(); }
  };

  async function* iterate(): AsyncGenerator<Uint8Array> {
    if (reader === undefined) { finished = true; return; }
    const onAbort = (): void => giveUp(new ChwireAbortError('query aborted by its AbortSignal', { queryId: ctx.queryId, cause: ctx.signal?.reason, host: ctx.host }));
    if (ctx.signal?.aborted) onAbort();
    ctx.signal?.addEventListener('abort', onAbort, { once: true });
    // One no-progress timer, armed only while the consumer waits for the network: time the
    // consumer spends between pulls never counts, even though the read-ahead goes on meanwhile.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = (): void => {
      if (ctx.timeoutMs > 0) timer = setTimeout(() => giveUp(new ChwireTimeoutError(`no data from ${ctx.where} for ${ctx.timeoutMs} ms (requestTimeout)`, { queryId: ctx.queryId, host: ctx.host })), ctx.timeoutMs);
    };
    try {
      for (;;) {
        if (failure !== undefined) throw failure;
        if (queue.length > 0) {
          const chunk = queue.shift()!;
          queued -= chunk.byteLength;
          pump();
          tail.add(chunk);
          if (scanner === undefined) yield chunk;
          else for (const part of scanner.push(chunk)) yield part;
          continue;
        }
        // Everything read so far went through the framing: now the read's own error, if any.
        if (readFailed) throw bodyError(readError, tagless ? undefined : scanner, tail, ctx);
        if (ended) break;
        pump();
        arm();
        try {
          await new Promise<void>((resolve) => { wake = resolve; if (queue.length > 0 || ended || readFailed || failure !== undefined) woken(); });
        } finally {
          if (timer !== undefined) { clearTimeout(timer); timer = undefined; }
        }
      }
      if (cancelled) throw new ChwireAbortError('response cancelled', { queryId: ctx.queryId, host: ctx.host });
      if (scanner !== undefined) {
        if (tagless) {
          for (const part of scanner.takeBlock()) yield part;
        } else {
          const msg = scanner.message();
          if (msg !== undefined) throw serverErrorFromText(msg, res.status, ctx.queryId, undefined, ctx.host);
        }
        for (const part of scanner.flush()) yield part;
      }
      finished = true;
    } finally {
      ctx.signal?.removeEventListener('abort', onAbort);
      if (!finished) cancel();
    }
  }

  return { body: iterate(), tail, exceptionsFramed: scanner !== undefined && !tagless, cancel };
}

/** Maps what went wrong while reading the body to the error the caller sees. */
function bodyError(e: unknown, scanner: ExceptionFramingScanner | undefined, tail: TailKeeper, ctx: FetchBodyContext): ChwireError {
  if (isChwireError(e)) return e;
  // 25.11+: the server aborts the transfer right after writing the exception block.
  const msg = scanner?.message();
  if (msg !== undefined) return serverErrorFromText(msg, ctx.res.status, ctx.queryId, undefined, ctx.host);
  // No tag to look for (24.x–25.10, or a browser not shown X-ClickHouse-Exception-Tag): the block's
  // `__exception__` marker in the last bytes still names the server's error.
  const t = tail.text();
  const code = t.lastIndexOf('Code: ');
  if (code >= 0 && t.lastIndexOf('__exception__', code) >= 0 && /^Code: \d+/.test(t.slice(code))) {
    const message = t.slice(code).replace(/\n\d+ [^\n]*\r\n__exception__\r\n$/, '');
    return serverErrorFromText(message, ctx.res.status, ctx.queryId, undefined, ctx.host);
  }
  // A body the runtime decoded: its fetch drops what it had not decoded yet when the connection is cut.
  const codings = codingsOf(ctx.res.headers.get('content-encoding'));
  const decoded = codings.length === 0 ? '' : `; the response was in Content-Encoding ${JSON.stringify(codings.join(', ').slice(0, 40))}, decoded by the runtime's fetch, which drops what it has not decoded yet when the connection is cut: an error the server wrote just before cutting it (a 25.11+ server cuts the transfer after one) may have been lost with it (settings: { enable_http_compression: 0 } has the server answer uncompressed)`;
  return new ChwireConnectionError(`connection to ${ctx.where} closed before the response ended: ${(e as Error)?.message ?? String(e)}${decoded}`, { queryId: ctx.queryId, cause: e, host: ctx.host });
}
