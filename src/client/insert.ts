// client.insert(table, rows, opts): rows → the table's schema (learnt once, cached) → a Native
// encoder compiled per (schema, input shape) → blocks streamed as a chunked request body while
// later blocks are still being encoded. Also a pass-through for bytes already in some format.
// Invariants: a value that cannot be encoded stops the insert before its block is sent, and the
// blocks before it are committed (with blockSize 0 nothing is); the first block is encoded before
// the request starts, so an input that fails there sends nothing; at most one encoded block waits for
// the socket (the body is pulled, not pushed).
import { newQueryId } from './query-id.js';
import { ChwireConfigError, ChwireEncodeError } from '../errors.js';
import { compileNativeEncoder, nativeBlocks, type NativeEncoder } from '../native/index.js';
import type { QuerySummary } from '../transport/types.js';
import type { ClientCore } from './client.js';
import type { CallSurfaceOptions } from './call-surface.js';
import type { Settings } from './config.js';
import { quoteIdentifier, quoteString, splitTableName } from './identifiers.js';
import type { ProgressListener } from './observe/progress.js';

export type InsertInput =
  | readonly unknown[]
  | Iterable<unknown>
  | AsyncIterable<unknown>; // a Node Readable is an AsyncIterable (its byte or object chunks)

/** What tells a Node byte-mode Readable apart (without importing node:stream). */
interface ReadableLike { pipe?: unknown; readableObjectMode?: boolean }

const textEncoder = new TextEncoder();

export interface InsertOptions extends CallSurfaceOptions {
  /** Insert only these columns (the others take their defaults). Default: every insertable column. */
  columns?: readonly string[];
  settings?: Settings;
  queryId?: string;
  sessionId?: string;
  signal?: AbortSignal;
  /** Rows per Native block; 0 = the whole input as one block (all or nothing). Default: the client's insertBlockSize. */
  blockSize?: number;
  /**
   * Default `'Native'`: rows are objects or arrays, encoded here. Any other format name: `rows`
   * are bytes (Buffers, Uint8Arrays or strings, e.g. JSON lines for `'JSONEachRow'`) sent as is.
   */
  format?: string;
  /** Live progress of this insert (rows and bytes written so far); see docs/client.md "Progress". */
  onProgress?: ProgressListener;
  /** Least time between two onProgress events, ms (default: the client's progressInterval, 500). */
  progressInterval?: number;
}

export interface InsertResult {
  readonly queryId: string | undefined;
  readonly summary: QuerySummary | undefined;
}

export interface TableColumn { readonly name: string; readonly type: string }
export type TableSchemaCache = Map<string, Promise<TableColumn[]>>;

async function tableSchema(core: ClientCore, table: string): Promise<{ key: string; columns: TableColumn[] }> {
  const [db, name] = splitTableName(table);
  const key = `${db ?? core.database ?? ''}.${name}`;
  let p = core.schemas.get(key);
  if (p === undefined) {
    const dbExpr = db !== undefined ? quoteString(db) : core.database !== undefined ? quoteString(core.database) : 'currentDatabase()';
    // One-line type names, in table order (18.16 has no `position` column to sort by);
    // MATERIALIZED and ALIAS columns cannot be inserted into.
    const sql = `SELECT name, type FROM system.columns WHERE database = ${dbExpr} AND table = ${quoteString(name)} AND default_kind NOT IN ('MATERIALIZED', 'ALIAS')`;
    // The library's decode defaults: a client made with strings: 'bytes' still reads names as text.
    p = core.fetchPlain<{ name: string; type: string }>(sql).then((rows) => {
      if (rows.length === 0) throw new ChwireConfigError(`table ${table} not found (or has no insertable columns)`);
      return rows.map((r) => ({ name: r.name, type: r.type }));
    });
    core.schemas.set(key, p);
    p.catch(() => core.schemas.delete(key));
  }
  return { key, columns: await p };
}

/** The first element of any (async) iterable, and an iterable that yields it again then the rest. */
async function peek(rows: Iterable<unknown> | AsyncIterable<unknown>): Promise<{ first: unknown; empty: boolean; all: AsyncIterable<unknown> }> {
  const it = Symbol.asyncIterator in rows ? (rows as AsyncIterable<unknown>)[Symbol.asyncIterator]() : (rows as Iterable<unknown>)[Symbol.iterator]();
  const r = await it.next();
  const all = (async function* () {
    if (r.done === true) return;
    yield r.value;
    for (;;) {
      const n = await it.next();
      if (n.done === true) return;
      yield n.value;
    }
  })();
  return { first: r.value, empty: r.done === true, all };
}

const encoders = new WeakMap<TableColumn[], Map<string, NativeEncoder>>();

function encoderFor(schema: TableColumn[], cols: TableColumn[], shape: 'object' | 'array'): NativeEncoder {
  let m = encoders.get(schema);
  if (m === undefined) { m = new Map(); encoders.set(schema, m); }
  const k = `${shape}:${cols.map((c) => c.name).join('\u0000')}`;
  let e = m.get(k);
  if (e === undefined) { e = compileNativeEncoder(cols, shape); m.set(k, e); }
  return e;
}

export async function insertRows(core: ClientCore, table: string, rows: InsertInput, opts: InsertOptions): Promise<InsertResult> {
  const { caps } = await core.capabilities(opts.signal);
  const auto: Record<string, string> = {};
  if (caps.asyncInsert) auto['async_insert'] = '0';
  const format = opts.format ?? 'Native';
  const [db, name] = splitTableName(table);
  const target = db !== undefined ? `${quoteIdentifier(db)}.${quoteIdentifier(name)}` : quoteIdentifier(name);

  if (format !== 'Native') return sendBytes(core, target, format, rows, opts, auto);
  // Native takes rows to encode, or Native bytes made elsewhere (Buffers, or a byte-mode Readable).
  if (isByteStream(rows)) return sendBytes(core, target, format, rows, opts, auto);

  let source: Iterable<unknown> | AsyncIterable<unknown>;
  let first: unknown;
  if (Array.isArray(rows)) {
    if (rows.length === 0) return { queryId: opts.queryId, summary: undefined };
    source = rows;
    first = rows[0];
  } else {
    const p = await peek(rows as Iterable<unknown> | AsyncIterable<unknown>);
    if (p.empty) return { queryId: opts.queryId, summary: undefined };
    source = p.all;
    first = p.first;
  }
  if (first instanceof Uint8Array) return sendBytes(core, target, format, source, opts, auto);
  const { columns: schema } = await tableSchema(core, table);
  let cols = schema;
  if (opts.columns !== undefined) {
    const byName = new Map(schema.map((c) => [c.name, c]));
    cols = opts.columns.map((n) => {
      const c = byName.get(n);
      if (c === undefined) throw new ChwireConfigError(`table ${table} has no insertable column ${JSON.stringify(n)}`);
      return c;
    });
  }
  const shape = Array.isArray(first) ? 'array' : 'object';
  if (shape === 'object' && typeof first === 'object' && first !== null) {
    // (A first row that is no object is reported by the encoder, with its row and column.)
    // The engine silently ignores a Native column it does not know (the real column then takes its
    // default), so a key outside the chosen columns is an error here, before anything is sent.
    const known = new Set(cols.map((c) => c.name));
    for (const k of Object.keys(first as object)) {
      // A key whose value is undefined is ignored, as the encoder does in every other row.
      if (!known.has(k) && (first as Record<string, unknown>)[k] !== undefined) throw new ChwireEncodeError('unknown column', { column: k, row: 0, expected: `one of the columns of ${table}`, value: (first as Record<string, unknown>)[k] });
    }
  }
  const encoder = encoderFor(schema, cols, shape);
  const blockSize = opts.blockSize ?? core.insertBlockSize;
  const blocks = nativeBlocks(source, encoder, blockSize);
  // Encode the first block before opening the request: a bad value there sends nothing.
  const head = await blocks.next();
  if (head.done === true) return { queryId: opts.queryId, summary: undefined };
  // A block that fails to encode (or an input that throws) ends the body cleanly after the
  // blocks before it, so the server commits exactly those; the error is raised once it answered.
  // Cutting the connection instead would make the outcome depend on what the server had read.
  let inputError: unknown;
  const body = (async function* () {
    for (const part of head.value) yield part;
    try {
      for await (const block of blocks) for (const part of block) yield part;
    } catch (e) {
      inputError = e;
    }
  })();
  const list = cols.map((c) => quoteIdentifier(c.name)).join(', ');
  if (core.transport.streamsRequestBodies === false) {
    return sendBlockByBlock(core, `INSERT INTO ${target} (${list}) FORMAT Native`, head.value, blocks, opts, auto);
  }
  // The server's own squashing (min_insert_block_size_rows/bytes) is left on: it gathers the blocks
  // into parts of up to ~1M rows, as for any other client. Forcing one part per block (both at 0)
  // cost the server 1.5× the CPU at 65 536-row blocks and 5–8× at 16 384 (one MergeTree part per
  // block, then merges; small blocks reach "too many parts"). Atomicity does not depend on it: the
  // body always ends cleanly after the last good block, and the server writes what it squashed
  // when the body ends, so blocks 0..k-1 are committed either way.
  const result = await send(core, `INSERT INTO ${target} (${list}) FORMAT Native`, body, opts, auto);
  if (inputError !== undefined) throw inputError;
  return result;
}

/** A byte-mode (not object-mode) Readable: its chunks are a body to send as is. */
function isByteStream(rows: InsertInput): boolean {
  const r = rows as ReadableLike;
  return typeof r.pipe === 'function' && r.readableObjectMode === false;
}

/** Sends bytes already in `format` (Buffers, Uint8Arrays, or strings as UTF-8) as the body. */
function sendBytes(core: ClientCore, target: string, format: string, rows: InsertInput, opts: InsertOptions, auto: Record<string, string>): Promise<InsertResult> {
  const cols = opts.columns !== undefined ? ` (${opts.columns.map(quoteIdentifier).join(', ')})` : '';
  const body = (async function* () {
    for await (const c of rows as AsyncIterable<unknown>) {
      if (c instanceof Uint8Array) yield c;
      else if (typeof c === 'string' && format !== 'Native') yield textEncoder.encode(c);
      else throw new ChwireConfigError(`insert with format ${format} takes ${format === 'Native' ? 'rows, or Native bytes (Buffers or Uint8Arrays)' : 'bytes or strings'}, got ${c === null ? 'null' : typeof c}`);
    }
  })();
  return send(core, `INSERT INTO ${target}${cols} FORMAT ${format}`, body, opts, auto);
}

async function send(core: ClientCore, sql: string, body: AsyncIterable<Uint8Array>, opts: InsertOptions, auto: Record<string, string>): Promise<InsertResult> {
  const { info, caps } = await core.capabilities(opts.signal);
  const surface = core.surface(opts, caps, info);
  const release = await core.lock(opts.sessionId);
  const queryId = opts.queryId ?? newQueryId();
  try {
    const response = await core.request({
      sql, body, settings: core.settingsFor(opts, auto), queryId, sessionId: opts.sessionId, signal: opts.signal, idempotent: false, ...surface,
    });
    for await (const _ of response.body) { /* an INSERT answers with an empty body */ }
    return { queryId: response.queryId ?? queryId, summary: response.summary };
  } finally {
    release();
  }
}

/**
 * A transport that cannot stream a body (fetch in a browser) gets one INSERT per block, each
 * buffered (at most one block in memory). The same outcome as one streamed body: a block that
 * fails to encode stops the insert with the blocks before it committed. The summary adds up the
 * requests' counters.
 */
async function sendBlockByBlock(
  core: ClientCore, sql: string, first: Uint8Array[], rest: AsyncIterable<Uint8Array[]>,
  opts: InsertOptions, auto: Record<string, string>,
): Promise<InsertResult> {
  let result = await send(core, sql, (async function* () { yield* first; })(), opts, auto);
  let summary = result.summary;
  for await (const block of rest) {
    result = await send(core, sql, (async function* () { yield* block; })(), opts, auto);
    summary = addSummaries(summary, result.summary);
  }
  return { queryId: result.queryId, summary };
}

function addSummaries(a: QuerySummary | undefined, b: QuerySummary | undefined): QuerySummary | undefined {
  if (a === undefined || b === undefined) return b ?? a;
  const out: Record<string, string> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const x = out[k];
    out[k] = x !== undefined && /^\d+$/.test(x) && /^\d+$/.test(v) ? String(BigInt(x) + BigInt(v)) : v;
  }
  return out;
}
