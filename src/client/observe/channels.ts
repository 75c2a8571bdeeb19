// The `chwire:query` tracing channel of node:diagnostics_channel (start / end / asyncStart /
// asyncEnd / error), published the way undici publishes its own: only when someone subscribes.
// Invariants: this module has no static `node:` import (the client core stays loadable where there
// is no diagnostics_channel: browsers, workers); the module is found synchronously through
// `process.getBuiltinModule` where it exists (Node 20.16+, 22.3+, Bun, Deno), with no import at
// all; checking for subscribers costs a few property reads.

/** The context object every event of one call carries (the same object from start to asyncEnd). */
export interface QueryChannelContext {
  queryId: string;
  /**
   * `fetch`, `fetchOne`, `fetchValue`, `stream`, `streamRaw`, `fetchColumns`, `streamColumns`, `execute`,
   * `insert`, `ping`: your calls; `describe`: the client's own table lookup for an insert (see `parentQueryId`).
   */
  kind: string;
  /** `host:port` the request went to (set once the transport picked it), or `chdb` for the embedded engine. */
  host: string | undefined;
  sql: string | undefined;
  database: string | undefined;
  /** Rows handed over (reads) or written (insert, when the server says); set before asyncStart. */
  rows: number | undefined;
  /** Result bytes received (reads) or body bytes sent (insert); set before asyncStart. */
  bytes: number | undefined;
  /** The call's error, set before the `error` event. */
  error: unknown;
  /**
   * Set on a query the client makes on its own for a call of yours (kind `describe`: the table
   * lookup of an insert): the query id of that call. Undefined for your calls.
   */
  parentQueryId?: string | undefined;
}

interface Channel { readonly hasSubscribers: boolean; publish(message: unknown): void }
export interface QueryTracingChannel {
  readonly start: Channel;
  readonly end: Channel;
  readonly asyncStart: Channel;
  readonly asyncEnd: Channel;
  readonly error: Channel;
}

interface DiagnosticsChannelModule { tracingChannel(name: string): QueryTracingChannel }

let channel: QueryTracingChannel | undefined;

function adopt(mod: DiagnosticsChannelModule | undefined): void {
  if (channel === undefined && mod !== undefined && typeof mod.tracingChannel === 'function') channel = mod.tracingChannel('chwire:query');
}

// process.getBuiltinModule: Node 20.16+ and 22.3+, Bun, Deno. Elsewhere (an older Node, browsers,
// workers) there is no channel and nothing is published.
try {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  adopt(proc?.getBuiltinModule?.('node:diagnostics_channel') as DiagnosticsChannelModule | undefined);
} catch {
  // not available here
}

/** The channel when at least one of its events has a subscriber, else undefined. */
export function subscribedChannel(): QueryTracingChannel | undefined {
  const c = channel;
  if (c === undefined) return undefined;
  return c.start.hasSubscribers || c.end.hasSubscribers || c.asyncStart.hasSubscribers || c.asyncEnd.hasSubscribers || c.error.hasSubscribers ? c : undefined;
}
