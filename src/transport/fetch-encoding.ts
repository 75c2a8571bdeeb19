// The Content-Encoding of a fetch() response, as chwire/web reads it. A fetch runtime (Node's
// undici, Bun, Deno, workerd, browsers) sends its own Accept-Encoding (a browser forbids setting
// it) and decodes the body in every coding it asked for before any code sees it, yet leaves the
// Content-Encoding header as the server sent it: the header says what the server did, not what the
// body still is. ClickHouse from 25.10 compresses by default (enable_http_compression = 1), so does
// any compressing proxy, whatever the client asked for in the URL.
// Invariant: a response in codings a fetch decodes is read as decoded (every bound then applies to
// the decoded bytes); one in any other coding is refused, never read as data. No `node:` module.

/**
 * The codings a fetch runtime decodes: the Fetch standard's gzip (x-gzip), deflate and br, and
 * zstd (Chromium, Bun; Node's undici where its zlib has it). A runtime asks only for codings it
 * decodes, and a server chooses among those asked for.
 */
const FETCH_DECODES: ReadonlySet<string> = new Set(['gzip', 'x-gzip', 'deflate', 'br', 'zstd']);

/** The codings of a Content-Encoding header in the order applied, lower case, without `identity`. */
export function codingsOf(header: string | null): string[] {
  if (header === null) return [];
  return header.split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '' && c !== 'identity');
}

/** The first coding of `header` that no fetch decodes (its body reaches chwire still encoded), or undefined. */
export function undecodedCoding(header: string | null): string | undefined {
  return codingsOf(header).find((c) => !FETCH_DECODES.has(c));
}

/** Why a response in `coding` is not read, for error messages (the header's text cut to 40 characters). */
export function undecodedWhy(coding: string): string {
  return `in Content-Encoding ${JSON.stringify(coding.slice(0, 40))}, which no fetch decodes (a fetch runtime decodes gzip, deflate, br and zstd, the codings it asks for itself), not decoded`;
}
