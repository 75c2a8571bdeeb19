// client.fetchColumns(sql): the result read as Native and returned column by column (typed
// arrays for numbers) through the Native column reader. Invariant: the body's chunks are handed
// over once, at the end, so multi-block results are concatenated once, not block by block.
import { newQueryId } from './query-id.js';
import type { NativeColumns, NativeColumnsOptions } from '../native/index.js';
import type { DecodeOptions } from '../plan/options.js';
import type { ClientCore, ExecOptions } from './client.js';
import { hasBinaryTypeHeaders, nativeReadSettings } from './capabilities.js';
import { ChwireAbortError, ChwireDecodeError } from '../errors.js';
import { appendedServerError } from '../transport/server-error.js';
import { heldBody } from './tail-hold.js';
import type { CallSurface } from './call-surface.js';
import { parseType, printType } from '../types/index.js';

export type ColumnsOptions = ExecOptions & DecodeOptions & {
  /**
   * Real column types by name, to restore what a text Native header loses (a top-level DateTime's
   * zone). Optional: servers from 24.7 on are asked for binary type headers, which keep the zone,
   * and on older ones the client describes the query itself; given types skip that request.
   */
  types?: Readonly<Record<string, string>>;
};

export type ColumnsResult = NativeColumns & { readonly queryId: string | undefined };

export async function fetchColumnsImpl(core: ClientCore, sql: string, opts: ColumnsOptions): Promise<ColumnsResult> {
  const queryId = opts.queryId ?? newQueryId();
  const { info, caps } = await core.capabilities(opts.signal);
  const params = await core.queryParams(opts, caps, info);
  const surface = core.surface(opts, caps, info);
  const release = await core.lock(opts.sessionId);
  try {
    const settings = core.settingsFor(opts, nativeReadSettings(caps));
    const response = await core.request({ sql, format: 'Native', params, settings, queryId, sessionId: opts.sessionId, signal: opts.signal, idempotent: true, ...surface });
    const chunks: Uint8Array[] = [];
    // An exception an older server appends after the data is raised, never decoded (tail-hold.ts).
    for await (const c of heldBody(response, queryId)) chunks.push(c);
    // Loaded on first use: the columnar reader is only needed by this call.
    const native = await import('../native/index.js');
    const { params: _p, settings: _s, queryId: _q, sessionId: _i, signal: _g, onProgress: _o, progressInterval: _v, role: _r, httpHeaders: _h, ...decode } = opts;
    const binaryTypes = hasBinaryTypeHeaders(settings);
    let result: NativeColumns;
    try {
      result = native.decodeNativeColumns(chunks, { ...decode, binaryTypes } as NativeColumnsOptions);
    } catch (e) {
      // A body cut by an exception in mid-block: the server's error, not a decode error.
      throw (e instanceof ChwireDecodeError ? appendedServerError(response.tailText(), queryId) : undefined) ?? e;
    }
    // A text Native header drops a top-level DateTime's zone (native.md §2). Where the server
    // cannot send binary type headers and the caller gave no `types`, the query's own schema
    // (DESCRIBE of it, analysed, not run) supplies it. Values are UTC instants either way.
    if (!binaryTypes && opts.types === undefined && result.types.includes('DateTime')) {
      const described = await describeQuery(core, sql, { params, settings, sessionId: opts.sessionId, signal: opts.signal, surface }, native);
      if (described !== undefined) result.types = withZones(result.names, result.types, described);
    }
    return Object.assign(result, { queryId: response.queryId ?? queryId });
  } finally {
    release();
  }
}

type NativeModule = typeof import('../native/index.js');

/**
 * The result columns of `sql` as the server's DESCRIBE of it gives them (name, type), or undefined
 * when it cannot be described (not a SELECT, a trailing FORMAT or `;`…): best effort, the header's
 * types then stand. An abort is still an abort.
 */
async function describeQuery(
  core: ClientCore, sql: string,
  req: { params: Record<string, string> | undefined; settings: Record<string, string>; sessionId: string | undefined; signal: AbortSignal | undefined; surface: CallSurface },
  native: NativeModule,
): Promise<{ name: string; type: string }[] | undefined> {
  try {
    // Newlines around the query: a trailing `-- comment` must not swallow the closing parenthesis.
    const response = await core.transport.request({
      sql: `DESCRIBE TABLE (\n${sql}\n)`, format: 'Native', params: req.params, settings: req.settings,
      queryId: newQueryId(), sessionId: req.sessionId, signal: req.signal, idempotent: true, ...req.surface,
    });
    const decoder = native.createNativeDecoder({ rows: 'object' });
    const out: { name: string; type: string }[] = [];
    for await (const c of response.body) {
      for (const r of decoder.push(c) as { name?: unknown; type?: unknown }[]) out.push({ name: String(r.name), type: String(r.type) });
    }
    decoder.end();
    return out;
  } catch (e) {
    if (e instanceof ChwireAbortError) throw e;
    return undefined;
  }
}

/** Header types with each top-level zone-less `DateTime` replaced by the described `DateTime('tz')`. */
function withZones(names: readonly string[], types: readonly string[], described: readonly { name: string; type: string }[]): string[] {
  if (described.length !== names.length) return [...types];
  return types.map((t, k) => {
    const d = described[k]!;
    if (t !== 'DateTime' || d.name !== names[k]) return t;
    try {
      const node = parseType(d.type);
      return node.kind === 'DateTime' && node.timezone !== undefined ? printType(node) : t;
    } catch {
      return t;
    }
  });
}
