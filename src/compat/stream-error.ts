// `extractErrorAtTheEndOfChunk` of @clickhouse/client 1.x: the exception 25.11+ servers append to a
// streamed body (`…\n<text><len> __exception__\r\n<tag>\r\n`, the length counting the newline
// before the text) → the error the official client would raise from it.
// Invariant: reads only inside the chunk and in time linear in its length: a chunk with no newline
// before the length, or a length longer than the bytes before it, answers with the official
// "failed to parse the message length" error (the official function loops forever on the first
// and reads from the chunk's end on the second).
import { parseError } from './errors.js';

const MARKER = ' __exception__\r\n';
const NEWLINE = 0x0a;
const utf8 = new TextDecoder('utf-8');

export function extractErrorAtTheEndOfChunk(chunk: Uint8Array, exceptionTag: string): Error {
  const trailer = MARKER.length + exceptionTag.length + 2;
  const lengthEnd = chunk.length - trailer;
  if (lengthEnd < 1) return new Error('there was an error in the stream, but the last chunk is malformed');
  let newline = lengthEnd - 1;
  while (newline >= 0 && chunk[newline] !== NEWLINE) newline--;
  const unparsable = new Error('there was an error in the stream; failed to parse the message length');
  if (newline < 0) return unparsable;
  const length = Number.parseInt(utf8.decode(chunk.subarray(newline, lengthEnd)), 10);
  if (Number.isNaN(length) || length <= 0 || length - 1 > newline) return unparsable;
  return parseError(utf8.decode(chunk.subarray(newline - length + 1, newline)));
}
