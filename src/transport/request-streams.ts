// Whether this runtime's fetch can send a ReadableStream as a request body (`duplex: 'half'`),
// decided once per transport. Invariant: true only where such a body really goes out over an
// HTTP/1.1 connection to ClickHouse as it streams.
// Browsers are excluded although they accept the option: Chromium streams request bodies over
// HTTP/2 and QUIC only (an HTTP/1.1 request fails), and Firefox and Safari do not stream them.
// Node, Deno, Bun and workerd send them chunked.

/** Feature test: a runtime without request streams never reads `duplex`, or turns the stream into text. */
function fetchTakesStreams(): boolean {
  if (typeof Request !== 'function' || typeof ReadableStream !== 'function') return false;
  let duplexRead = false;
  try {
    const init = {
      method: 'POST',
      body: new ReadableStream(),
      get duplex(): string { duplexRead = true; return 'half'; },
    };
    const hasContentType = new Request('http://localhost/', init as RequestInit).headers.has('Content-Type');
    return duplexRead && !hasContentType;
  } catch {
    return false;
  }
}

/** A browser page or web worker (not a server-side runtime that merely has `navigator`). */
function inBrowser(): boolean {
  const g = globalThis as { document?: unknown; importScripts?: unknown; WorkerGlobalScope?: unknown };
  return typeof g.document === 'object' || typeof g.importScripts === 'function';
}

export function requestStreamsSupported(): boolean {
  return !inBrowser() && fetchTakesStreams();
}
