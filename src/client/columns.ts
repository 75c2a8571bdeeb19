// client.fetchColumns(sql): the result read as Native and returned column by column (typed
// arrays for numbers) through the Native column reader. Invariant: the body's chunks are handed
// over once, at the end, so multi-block results are concatenated once, not block by block.
import { randomUUID } from 'node:crypto';
import type { NativeColumns, NativeColumnsOptions } from '../native/index.js';
import type { DecodeOptions } from '../plan/options.js';
import type { ClientCore, ExecOptions } from './client.js';
import { hasBinaryTypeHeaders, nativeReadSettings } from './capabilities.js';

export type ColumnsOptions = ExecOptions & DecodeOptions & {
  /**
   * Real column types by name, to restore what a text Native header loses (a top-level DateTime's
   * zone). Needed only before ClickHouse 24.7: later servers are asked for binary type headers,
   * which keep the zone.
   */
  types?: Readonly<Record<string, string>>;
};

export type ColumnsResult = NativeColumns & { readonly queryId: string | undefined };

export async function fetchColumnsImpl(core: ClientCore, sql: string, opts: ColumnsOptions): Promise<ColumnsResult> {
  const queryId = opts.queryId ?? randomUUID();
  const { info, caps } = await core.capabilities(opts.signal);
  const params = await core.queryParams(opts, caps, info);
  const release = await core.lock(opts.sessionId);
  try {
    const settings = core.settingsFor(opts, nativeReadSettings(caps));
    const response = await core.transport.request({ sql, format: 'Native', params, settings, queryId, sessionId: opts.sessionId, signal: opts.signal, idempotent: true });
    const chunks: Uint8Array[] = [];
    for await (const c of response.body) chunks.push(c);
    // Loaded on first use: the columnar reader is only needed by this call.
    const native = await import('../native/index.js');
    const { params: _p, settings: _s, queryId: _q, sessionId: _i, signal: _g, ...decode } = opts;
    const result = native.decodeNativeColumns(chunks, { ...decode, binaryTypes: hasBinaryTypeHeaders(settings) } as NativeColumnsOptions);
    return Object.assign(result, { queryId: response.queryId ?? queryId });
  } finally {
    release();
  }
}
