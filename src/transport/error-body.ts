// The body of a non-200 HTTP response (node:http), read as the error's text within bounds: at most
// ERROR_BODY_BYTES of text (after decompression, and as many compressed bytes), within
// errorBodyMs(requestTimeout) of the response head, and decompressed only in the Content-Encoding
// the request asked for. Invariant: whatever the server sends (a decompression bomb, a body that
// never ends, one byte a second, an encoding not asked for), this resolves within its time bound
// with what it kept, and a body not read to its end closes its connection (never reused).
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { decompressorFor, type Codec } from './codecs.js';
import { ERROR_BODY_BYTES } from './server-error.js';

export interface ErrorBody {
  /** The text kept (the first ERROR_BODY_BYTES at most; a cut UTF-8 sequence shows as U+FFFD). */
  text: string;
  /** Why the body was not read to its end (for the error message), or undefined. */
  cut: string | undefined;
  /** The decompressor's error (its `code` is zlib's, `Z_DATA_ERROR` …) when the body was not decompressible. */
  cause?: Error | undefined;
}

/**
 * Reads `res` as an error's text. `asked`: the Content-Encoding the request asked for (undefined:
 * none); `timeoutMs`: the longest the body may take from now.
 */
export async function readErrorBody(res: IncomingMessage, asked: Codec | undefined, timeoutMs: number): Promise<ErrorBody> {
  const encoding = String(res.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity' && encoding !== asked) {
    res.destroy();
    return { text: '', cut: `in Content-Encoding ${JSON.stringify(encoding.slice(0, 40))}, which the request did not ask for (${asked === undefined ? 'it asked for none' : `it asked for ${asked}`}), not decoded` };
  }
  const z = encoding === '' || encoding === 'identity' ? undefined : decompressorFor(encoding);
  const source: Readable = z === undefined ? res : pipeline(res, z, () => undefined);
  let cut: string | undefined;
  let cause: Error | undefined;
  let raw = 0;
  const stop = (why: string): void => {
    cut ??= why;
    res.destroy();
    if (source !== res) source.destroy();
  };
  // Compressed bytes are bounded too: a body of empty gzip members yields no text at all.
  if (source !== res) res.on('data', (c: Buffer) => { raw += c.length; if (raw > ERROR_BODY_BYTES) stop(`over ${ERROR_BODY_BYTES} compressed bytes, cut`); });
  const timer = setTimeout(() => stop(`not complete within ${timeoutMs} ms, cut`), timeoutMs);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const c of source as AsyncIterable<Buffer>) {
      if (size + c.length > ERROR_BODY_BYTES) {
        chunks.push(c.subarray(0, ERROR_BODY_BYTES - size));
        size = ERROR_BODY_BYTES;
        stop(`over ${ERROR_BODY_BYTES} bytes of text, cut`);
        break;
      }
      chunks.push(c);
      size += c.length;
    }
  } catch (e) {
    // A body cut short (or not decompressible) still describes the error as far as it got.
    const zlibCode = (e as { code?: unknown }).code;
    if (cut === undefined && z !== undefined && typeof zlibCode === 'string' && zlibCode.startsWith('Z_')) {
      cut = `not decompressible as ${encoding}${size === 0 ? '' : ` after ${size} bytes of text`} (${(e as Error).message})`;
      cause = e as Error;
    } else if (cut === undefined && z !== undefined && size === 0) {
      cut = `not decompressible as ${encoding} (${(e as Error).message})`;
    }
  } finally {
    clearTimeout(timer);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), cut, cause };
}
