// The body of a non-200 fetch() response, read as the error's text within bounds: at most
// ERROR_BODY_BYTES of text (as the runtime's fetch hands it over, decompressed), within a time
// bound from the response head. No `node:` module (part of chwire/web).
// Invariant: whatever the server sends (a decompression bomb, a body that never ends, one byte a
// second), this resolves within its time bound with what it kept, and a body not read to its end
// is cancelled (its connection is not reused).
import { ERROR_BODY_BYTES } from './server-error.js';

export interface FetchErrorBody {
  /** The text kept (the first ERROR_BODY_BYTES at most). */
  text: string;
  /** Why the body was not read to its end (for the error message), or undefined. */
  cut: string | undefined;
}

/** Reads `res`'s body as an error's text; `abort` ends the request when the body is cut. */
export async function readFetchErrorBody(res: Response, timeoutMs: number, abort: () => void): Promise<FetchErrorBody> {
  const reader = res.body?.getReader();
  if (reader === undefined) return { text: '', cut: undefined };
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cut: string | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => { timer = setTimeout(() => resolve('late'), timeoutMs); });
  try {
    for (;;) {
      const r = await Promise.race([reader.read(), late]);
      if (r === 'late') { cut = `not complete within ${timeoutMs} ms, cut`; break; }
      if (r.done) break;
      const c = r.value;
      if (size + c.byteLength > ERROR_BODY_BYTES) {
        chunks.push(c.subarray(0, ERROR_BODY_BYTES - size));
        size = ERROR_BODY_BYTES;
        cut = `over ${ERROR_BODY_BYTES} bytes of text, cut`;
        break;
      }
      chunks.push(c);
      size += c.byteLength;
    }
  } catch {
    // A body cut short still describes the error as far as it got.
  } finally {
    clearTimeout(timer);
  }
  if (cut !== undefined) {
    reader.cancel().catch(() => undefined);
    abort();
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) { all.set(c, at); at += c.byteLength; }
  return { text: new TextDecoder().decode(all), cut };
}
