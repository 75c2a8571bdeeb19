// The transport contract: one small, dispatch-like call that turns a request (SQL, params,
// settings, optional streamed body) into a response whose body is a backpressured async iterable
// of byte chunks. Invariant: transports move bytes and report errors; they never decode rows, so
// HTTP and the embedded engine feed the very same decoders.

import type { HostStatus } from './hosts.js';

export interface TransportRequest {
  /** The statement. For requests with a `body`, the statement travels apart from the data. */
  sql: string;
  /** Output format name (sent as `default_format` / the engine's format); undefined: server default. */
  format?: string | undefined;
  /** Query parameters, already in the server's text form (see client/sql/params.ts), by name. */
  params?: Readonly<Record<string, string>> | undefined;
  /** ClickHouse settings, already rendered as text. */
  settings?: Readonly<Record<string, string>> | undefined;
  queryId?: string | undefined;
  sessionId?: string | undefined;
  signal?: AbortSignal | undefined;
  /**
   * Data for INSERT, streamed as the request body (chunked). A function means the body can be
   * produced again: the transport calls it once per attempt. A plain iterable can be sent once
   * only, so such a request is sent again only when no byte of it was taken.
   */
  body?: AsyncIterable<Uint8Array> | (() => AsyncIterable<Uint8Array>) | undefined;
  /**
   * True while the body's producer is waiting for its own input (an insert's source): the
   * caller times that out itself (ending the body cleanly), so it is no transport timeout.
   */
  inputPending?: (() => boolean) | undefined;
  /**
   * Safe to send again (reads, ping, the version probe, execute with `idempotent`, an insert with
   * a deduplication token and a function body): retried under the client's retry policy.
   * Otherwise a request is sent again only when its connection was refused (nothing was sent).
   */
  idempotent?: boolean | undefined;
  /** Roles for this request, one `role` URL parameter each (already checked against the server's version). */
  role?: readonly string[] | undefined;
  /** Headers of this call, over the client's (validated: none the client owns). HTTP only. */
  httpHeaders?: Readonly<Record<string, string>> | undefined;
  /**
   * The result must arrive as one document of `format` (a raw export): the embedded engine then
   * runs the query single-shot, since its streamed chunks are each a document of their own
   * (a header per chunk, a Parquet file per chunk). HTTP streams either way.
   */
  whole?: boolean | undefined;
  /**
   * The caller reads the whole result before handing any of it out (`fetch`): the embedded engine
   * then answers single-shot on a worker thread, which keeps the event loop free under many
   * concurrent small reads. HTTP streams either way.
   */
  buffered?: boolean | undefined;
  /** Send to this host only (`host:port`, as RequestEvents.attempt reports it): a progress poll goes where its query runs. */
  host?: string | undefined;
  /** W3C trace context of the call's span, sent as the `traceparent` header. */
  traceparent?: string | undefined;
  /** Hooks of the call's observer (client/observe/): what happens to this request, as it happens. */
  events?: RequestEvents | undefined;
  /**
   * Hand the body back as the server sent it, still in its Content-Encoding (compat's exec with
   * `decompress_response_stream: false`): not decompressed, not scanned for exceptions (the caller
   * reads bytes it cannot decode). Only an encoding the request asked for is accepted, every other
   * bound stays; an error answer thrown as an error is still decompressed to be read. A transport
   * whose runtime decodes every body (fetch, with compression on) refuses it. Default false.
   */
  encodedBody?: boolean | undefined;
  /**
   * `'return'`: an error answer (an HTTP status other than 200; never a redirect or a proxy's
   * refusal) is handed back as the response, its status in `status` and its body as a body
   * (compat's `ignore_error_response`), and is never retried. Default `'throw'`: a typed error.
   */
  errorAnswers?: 'throw' | 'return' | undefined;
}

/**
 * What a transport reports about one request, synchronously, to whoever observes the call (logs,
 * spans, progress). Every hook is optional and must not throw; a transport calls what it can.
 */
export interface RequestEvents {
  /** An attempt of the request goes to `host` (`host:port`; `chdb` for the embedded engine). 0 for the first. */
  attempt?(host: string, attempt: number): void;
  /** The attempt to `host` failed with `error` and the request will be sent again in `delayMs` ms. */
  retry?(info: { attempt: number; host: string; error: unknown; delayMs: number }): void;
}

/** What a transport reports about its hosts, for the client's log (set once, in the transport's options). */
export interface TransportEvents {
  /** A host was marked down (`up: false`, with the error that did it) or is back up. */
  hostState?(info: { host: string; up: boolean; error?: unknown }): void;
}

/** The server's X-ClickHouse-Summary: every value as the server wrote it (strings). */
export type QuerySummary = Readonly<Record<string, string>>;

export interface TransportResponse {
  /** The query id the server used (the one sent, or its own), when it says. */
  readonly queryId: string | undefined;
  readonly summary: QuerySummary | undefined;
  /** Server time zone (X-ClickHouse-Timezone), when sent. */
  readonly timezone: string | undefined;
  /** The format the server says it wrote the body in (X-ClickHouse-Format; 19.x and later send it), when sent. */
  readonly format?: string | undefined;
  /** The host that answered (`host:port`; `chdb` for the embedded engine), when the transport says. */
  readonly host?: string | undefined;
  /** The base URL of the host that answered, without credentials (errors name it as their `host`), when the transport says. */
  readonly url?: string | undefined;
  /** The HTTP status, when not 200 (a request with `errorAnswers: 'return'` only). */
  readonly status?: number | undefined;
  /** The response's HTTP headers as node:http gives them (names in lower case); HTTP (node:http) only. */
  readonly headers?: Readonly<Record<string, string | string[] | undefined>> | undefined;
  /**
   * The body. Iterating it reads from the network no faster than the consumer; leaving the loop
   * early cancels the request. Errors: ChwireServerError (exception written mid-body),
   * ChwireConnectionError, ChwireTimeoutError, ChwireAbortError.
   */
  readonly body: AsyncIterable<Uint8Array>;
  /**
   * The last bytes of the body as text (up to 16 KiB): lets the caller recognise an old server's
   * exception appended as plain text after the data when the decoder rejects the end of the body.
   */
  tailText(): string;
  /** Stop reading and release the connection (idempotent). */
  cancel(): void;
  /**
   * True when an exception raised after the body started can never appear among the data (the
   * 25.11+ tagged framing, which the transport cuts out; the embedded engine, which raises it
   * apart). Otherwise an older server may append it as text after the data, at the very end.
   */
  readonly exceptionsFramed?: boolean;
}

/** What the client needs to know about the server behind a transport (learnt once per host). */
export interface ServerInfo {
  /** `SELECT version()`, e.g. `26.7.2.1` or `18.16.1`. */
  readonly version: string;
  readonly major: number;
  readonly minor: number;
  /**
   * `timezone()`: the zone the server reads zone-less date-time text in for a column without its
   * own (undefined when the probe did not say).
   */
  readonly timezone?: string | undefined;
}

/** The probe that fills ServerInfo (TabSeparated: version, tab, zone). */
export const SERVER_INFO_SQL = 'SELECT version(), timezone()';

export interface Transport {
  readonly kind: 'http' | 'chdb';
  /**
   * False when a request body cannot be streamed (fetch in a browser): each body is buffered, so
   * the client sends an insert one block per request. Undefined: bodies stream.
   */
  readonly streamsRequestBodies?: boolean;
  /** Version of the server that the next request will go to (probed once per host, cached). */
  server(signal?: AbortSignal, traceparent?: string): Promise<ServerInfo>;
  request(req: TransportRequest): Promise<TransportResponse>;
  /** Liveness check; throws ChwireConnectionError (or a server error) when the server is not usable. */
  ping(signal?: AbortSignal): Promise<void>;
  /** Each host's state (HTTP: one per URL; the embedded engine has none). */
  hosts?(): HostStatus[];
  close(): Promise<void>;
}

/** ServerInfo from SERVER_INFO_SQL's answer (or a bare version). */
export function parseVersion(text: string): ServerInfo {
  const [v = '', tz] = text.trim().split('\t');
  const version = v.trim();
  const m = /^(\d+)\.(\d+)/.exec(version);
  const timezone = tz === undefined || tz.trim() === '' ? undefined : tz.trim();
  return { version, major: m ? Number(m[1]) : 0, minor: m ? Number(m[2]) : 0, timezone };
}
