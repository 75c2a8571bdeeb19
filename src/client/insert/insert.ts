// client.insert(table, rows, opts): rows → the table's schema (cached, see schema-cache.ts) → a
// Native encoder compiled per (columns, input shape) → blocks streamed as a chunked request body
// while later blocks are still being encoded. Also a pass-through for bytes already in some format.
// Invariants:
// - Never a block whose column types are not the table's current ones: servers that can verify
//   the block's types are told to (and refuse a mismatch instead of converting); older servers
//   (which would store the block's types as they are) get the schema read again for every insert.
//   A schema served from the cache that may be out of date (a validation error, an unknown
//   column, a server type error) is read again once; when it changed, the insert is encoded again
//   if nothing was sent yet and the input can be replayed, else reported as a changed table.
// - A value that cannot be encoded stops the insert before its block is sent, and the blocks
//   before it are committed (with blockSize 0 nothing is); the first block is encoded before the
//   request starts, so an input that fails there sends nothing; at most one encoded block waits
//   for the socket (the body is pulled, not pushed).
// - The event loop gets a turn between blocks (and while a source fills one, every SLICE_MS of all
//   inserts together), so a CPU-bound source and the encoder never hold it for a whole insert.
// - An iterable input is read through a gate (insert-source.ts): once the insert settled, it is
//   read no more, its iterator is returned, and an error says how many rows were taken.
import { newQueryId } from '../query-id.js';
import { isJsonRowFormat, jsonRowBytes } from './insert-json.js';
import { jsonRowShape, typedJsonRows } from './insert-json-rows.js';
import { ChwireConfigError, ChwireEncodeError, ChwireServerError, ChwireTimeoutError } from '../../errors.js';
import { compileNativeEncoder } from '../../native/write/encoder.js';
import { nativeBlocks } from '../../native/write/blocks.js';
import { NATIVE_TYPES_CONVERSION, serverTextZone, type Capabilities } from '../capabilities.js';
import { checkInsertSettings } from '../options/wire-settings.js';
import type { ClientCore } from '../core.js';
import type { QuerySummary, ServerInfo } from '../../transport/types.js';
import { quoteIdentifier, splitTableName } from '../sql/identifiers.js';
import { blockToken, checkInsertOptions, dedupBlockSettings, insertSettings } from './insert-options.js';
import type { InsertBytes, InsertInput, InsertOptions, InsertResult, TableColumn } from './insert-types.js';
import { InputStop } from './insert-stop.js';
import { SentCount, withSent } from './insert-sent.js';
import { AsyncGate, SyncGate, gateOf, withTaken } from './insert-source.js';
import { tableSchema, type TableSchema } from './table-schema.js';
import { chooseInsertColumns, explainLeftOut, guardNullableDefaults, namedInsertColumns } from './insert-columns.js';
import { serverTextZones, textZonesOf } from './server-text-zones.js';
import type { ServerTextZones } from '../../convert/encode-values.js';

/** What tells a Node byte-mode Readable apart (without importing node:stream). */
interface ReadableLike { pipe?: unknown; readableObjectMode?: boolean }

const textEncoder = new TextEncoder();

/**
 * A turn of the event loop: setImmediate where the runtime has it (Node, Bun, Deno), else a
 * zero-delay timer (reached through globalThis: the client core uses no Node global by name).
 */
const immediate = (globalThis as { setImmediate?: (f: () => void) => unknown }).setImmediate;
function turn(): Promise<void> {
  return new Promise((resolve) => { if (immediate !== undefined) immediate(resolve); else setTimeout(resolve, 0); });
}

export type { InsertBytes, InsertInput, InsertOptions, InsertResult, InsertRow, TableColumn } from './insert-types.js';

/** How long a cached schema is trusted on servers that verify the block's types (older ones: not at all). */
export const SCHEMA_TTL_MS = 10_000;

/** Longest stretch (ms) a source may fill a block before the event loop gets a turn. */
const SLICE_MS = 10;

/**
 * When an insert last gave the event loop a turn, shared by every insert of the process: N
 * concurrent inserts pulling from their sources in the same turn hold the loop SLICE_MS in all,
 * not SLICE_MS each (with a clock per insert, each resumed insert ran its own 10 ms before the
 * next one's resumption: 20 inserts held the loop ~200 ms at a time; bench:ingest).
 */
const slices: { start: number; turn: Promise<void> | undefined } = { start: 0, turn: undefined };

/**
 * One turn of the event loop that every insert pausing before it comes shares: they all resume
 * together after it, and the clock restarts once. (A turn each made the resumptions follow one
 * another in the same check phase, each with its own fresh 10 ms.)
 */
function sharedTurn(): Promise<void> {
  if (slices.turn === undefined) slices.turn = turn().then(() => { slices.turn = undefined; slices.start = performance.now(); });
  return slices.turn;
}

/** Server errors that mean the INSERT's columns or types no longer match the table. */
const STALE_CODES = new Set([
  16, // NO_SUCH_COLUMN_IN_TABLE
  47, // UNKNOWN_IDENTIFIER
  53, // TYPE_MISMATCH (a Native column type the table no longer has)
]);

type Source = { kind: 'array'; rows: readonly unknown[] } | { kind: 'sync'; rows: Iterable<unknown> } | { kind: 'async'; rows: AsyncIterable<unknown> };

/** What an insert of empty input returns: nothing was sent, so no query id (even one given in the options). */
const EMPTY: InsertResult = Object.freeze({ queryId: undefined, summary: undefined });

/** What one attempt did before it failed. */
interface Attempt { sent: boolean; waitingForInput: boolean }

export async function insertRows(core: ClientCore, table: string, rows: InsertInput | InsertBytes, opts: InsertOptions): Promise<InsertResult> {
  const since = performance.now();
  checkInsertOptions(opts);
  const { info, caps } = await core.capabilities(opts.signal);
  const auto = insertSettings(opts, caps, info);
  const format = opts.format ?? 'Native';
  const [db, name] = splitTableName(table);
  const target = db !== undefined ? `${quoteIdentifier(db)}.${quoteIdentifier(name)}` : quoteIdentifier(name);

  // Objects (arrays) in a JSON row format are written by the table's column types (insert-json-rows.ts).
  if (format !== 'Native') return jsonRowShape(format) !== undefined && !isByteStream(rows) ? sendJsonRows(core, table, target, format, rows, opts, auto, caps.nativeTypeCheck ? SCHEMA_TTL_MS : 0, info) : sendBytes(core, target, format, rows, opts, auto);
  // Native takes rows to encode, or Native bytes made elsewhere (Buffers, or a byte-mode Readable).
  if (isByteStream(rows)) return sendBytes(core, target, format, rows, opts, auto);
  if (Array.isArray(rows)) {
    if (rows.length === 0) return EMPTY;
    if (rows[0] instanceof Uint8Array) return sendBytes(core, target, format, rows, opts, auto);
    return insertSource(core, table, target, { kind: 'array', rows }, rows[0], opts, auto, info, caps, since);
  }
  // An iterable is read through a gate: once the insert settles, its source is read no more and
  // its iterator is returned; an error says how many rows were taken from it.
  const gate = gateOf(rows as Iterable<unknown> | AsyncIterable<unknown>);
  let bytes = false;
  try {
    const p = await gate.peek();
    if (p.empty) return EMPTY;
    if (p.first instanceof Uint8Array) { bytes = true; return await sendBytes(core, target, format, gate as InsertBytes, opts, auto); }
    const source: Source = gate instanceof SyncGate ? { kind: 'sync', rows: gate } : { kind: 'async', rows: gate };
    return await insertSource(core, table, target, source, p.first, opts, auto, info, caps, since);
  } catch (e) {
    await gate.close();
    throw bytes ? e : withTaken(e, gate);
  } finally {
    await gate.close();
  }
}

async function insertSource(
  core: ClientCore, table: string, target: string, source: Source, first: unknown, opts: InsertOptions, auto: Record<string, string>,
  info: ServerInfo, caps: Capabilities, since: number,
): Promise<InsertResult> {
  if (caps.nativeTypeCheck) auto[NATIVE_TYPES_CONVERSION] = '0';
  checkInsertSettings(core.settingsFor(opts, auto));
  // Servers that cannot verify the block's types: the schema is read again for every insert.
  const maxAge = caps.nativeTypeCheck ? SCHEMA_TTL_MS : 0;
  let schema = await tableSchema(core, table, opts, maxAge, since);
  for (let retried = false; ; retried = true) {
    const attempt: Attempt = { sent: false, waitingForInput: false };
    try {
      const timezone = serverTextZone(core.settingsFor(opts, auto), info);
      // The server's own offsets for the zones zone-less text is read in (learnt once per host and zone).
      const server = await serverTextZones(core, info, textZonesOf(schema.columns, timezone), opts);
      return await encodeAndSend(core, table, target, schema.columns, source, first, opts, auto, attempt, { timezone, server });
    } catch (e) {
      if (e instanceof ChwireTimeoutError && attempt.waitingForInput) {
        const out = new ChwireTimeoutError(`the insert's input stalled: it produced no data within the requestTimeout, so the request was ended (${e.message})`, { queryId: e.queryId, cause: e });
        if (e.insertSent !== undefined) Object.defineProperty(out, 'insertSent', { value: e.insertSent, enumerable: false });
        throw out;
      }
      if (schema.fresh || retried || !mayBeStale(e)) throw decorate(e, table, schema);
      // The cached schema may be out of date: read it once more.
      core.schemas.delete(schema.key);
      const now = await tableSchema(core, table, opts, 0, performance.now());
      if (sameColumns(now.columns, schema.columns)) throw decorate(e, table, now);
      // Nothing was inserted when the error came before the request, or when the server refused
      // the columns (a server type error comes at the first block: every block has its header).
      const nothing = !attempt.sent || (e instanceof ChwireServerError && (e as { [EARLIER_COMMITTED]?: boolean })[EARLIER_COMMITTED] !== true);
      // The whole input is still there if it is an array or if only its first (peeked) row was
      // looked at; otherwise the caller must insert again.
      const replayable = nothing && (source.kind === 'array' || preChecked(e));
      if (!replayable) throw staleError(table, schema.columns, now.columns, !nothing, e);
      schema = now;
    }
  }
}

const PRECHECK = Symbol('chwire.insert.precheck');
/** On an error of an insert sent as several statements: an earlier statement was answered (committed). */
const EARLIER_COMMITTED = Symbol('chwire.insert.earlierCommitted');
function preChecked(e: unknown): boolean {
  return (e as { [PRECHECK]?: boolean })[PRECHECK] === true;
}

function mayBeStale(e: unknown): boolean {
  if (e instanceof ChwireEncodeError) return true;
  return e instanceof ChwireServerError && STALE_CODES.has(e.serverCode);
}

function sameColumns(a: readonly TableColumn[], b: readonly TableColumn[]): boolean {
  return a.length === b.length && a.every((c, i) => c.name === b[i]!.name && c.type === b[i]!.type);
}

/** The table's columns changed since the schema was cached and the input cannot be encoded again. */
function staleError(table: string, was: readonly TableColumn[], now: readonly TableColumn[], sent: boolean, cause: unknown): ChwireConfigError {
  const before = new Map(was.map((c) => [c.name, c.type]));
  const after = new Map(now.map((c) => [c.name, c.type]));
  const changes: string[] = [];
  for (const c of now) {
    const t = before.get(c.name);
    if (t === undefined) changes.push(`column ${JSON.stringify(c.name)} (${c.type}) was added`);
    else if (t !== c.type) changes.push(`column ${JSON.stringify(c.name)} is now ${c.type} (was ${t})`);
  }
  for (const c of was) if (!after.has(c.name)) changes.push(`column ${JSON.stringify(c.name)} was dropped`);
  return new ChwireConfigError(
    `table ${table} changed since its schema was cached: ${changes.join(', ')}; ${sent ? 'the blocks sent before the error were inserted' : 'nothing was inserted'}; the cached schema is refreshed: insert again`,
    { cause },
  );
}

/** Unknown-column errors read the same for every row and say how to refresh a cached schema. */
function decorate(e: unknown, table: string, schema: TableSchema): unknown {
  if (!(e instanceof ChwireEncodeError) || !e.message.startsWith('unknown column')) return e;
  return unknownColumn(e.column, e.row, { like: e }, table, schema.columns, e);
}

/** `given`: the value under the unknown key, or the error that already described it. */
function unknownColumn(column: string, row: number, given: { value: unknown } | { like: ChwireEncodeError }, table: string, cols: readonly TableColumn[], cause?: unknown): ChwireEncodeError {
  const names = cols.map((c) => JSON.stringify(c.name)).join(', ');
  return new ChwireEncodeError('unknown column', {
    column, row, ...given,
    expected: `one of the insertable columns of ${table} (${names}), as read from the server for this insert (client.refreshSchema() forgets cached schemas)`,
  }, cause === undefined ? undefined : { cause });
}

/** How zone-less date-time text is read: the server's zone for zone-less columns, and the server's offsets per zone. */
interface TextZones { readonly timezone: string | undefined; readonly server: ServerTextZones }

/** Body bytes per INSERT statement on the embedded engine (its memory grows with one statement's input). */
const CHDB_GROUP_BYTES = 32 * 1024 * 1024;

async function encodeAndSend(
  core: ClientCore, table: string, target: string, schema: TableColumn[], source: Source, first: unknown,
  opts: InsertOptions, auto: Record<string, string>, attempt: Attempt, zones: TextZones,
): Promise<InsertResult> {
  // Object rows: columns with a default that the first row leaves out are left to the server (insert-columns.ts).
  const choice = opts.columns === undefined && typeof first === 'object' && first !== null && !Array.isArray(first) ? chooseInsertColumns(schema, first) : undefined;
  try {
    return await encodeAndSendColumns(core, table, target, choice?.columns ?? schema, choice === undefined ? source : guardNullableDefaults(source, choice.guarded), first, opts, auto, attempt, zones);
  } catch (e) {
    throw explainLeftOut(e, choice);
  }
}

async function encodeAndSendColumns(
  core: ClientCore, table: string, target: string, schema: TableColumn[], source: Source, first: unknown,
  opts: InsertOptions, auto: Record<string, string>, attempt: Attempt, zones: TextZones,
): Promise<InsertResult> {
  let cols = schema;
  if (opts.columns !== undefined) {
    cols = namedInsertColumns(table, schema, opts.columns);
  }
  const shape = Array.isArray(first) ? 'array' : 'object';
  if (shape === 'object' && typeof first === 'object' && first !== null) {
    // (A first row that is no object is reported by the encoder, with its row.)
    // The engine silently ignores a Native column it does not know (the real column then takes its
    // default), so a key outside the chosen columns is an error here, before anything is sent.
    const known = new Set(cols.map((c) => c.name));
    for (const k of Object.keys(first as object)) {
      // A key whose value is undefined is ignored, as the encoder does in every other row.
      const v = (first as Record<string, unknown>)[k];
      if (!known.has(k) && v !== undefined) {
        const err = unknownColumn(k, 0, { value: v }, table, cols);
        Object.defineProperty(err, PRECHECK, { value: true });
        throw err;
      }
    }
  }
  // Encoders live only in the encoder's bounded cache (keyed by names, types, shape and the zone
  // zone-less date-time text is read in: decided once per insert).
  const encoder = compileNativeEncoder(cols, shape, { timezone: zones.timezone, serverZones: zones.server });
  const blockSize = opts.blockSize ?? core.insertBlockSize;
  const pause = (): Promise<void> | undefined => {
    if (performance.now() - slices.start < SLICE_MS) return undefined;
    return sharedTurn();
  };
  const stop = new InputStop(opts.signal, core.requestTimeout);
  const blocksOf = () => nativeBlocks(source.rows as Iterable<unknown> | AsyncIterable<unknown>, encoder, blockSize, pause, stop.progress, opts.deduplicationToken !== undefined);
  const blocks = blocksOf();
  // Encode the first block before opening the request: a bad value there sends nothing (nor does
  // an abort or a stall of the source before it).
  const head = await stop.race(blocks.next());
  if (head === undefined) { stop.dispose(); void blocks.return(undefined).catch(() => undefined); throw stop.error!; }
  if (head.done === true) { stop.dispose(); return EMPTY; }
  // A block that fails to encode (or an input that throws) ends the body cleanly after the
  // blocks before it, so the server commits exactly those; the error is raised once it answered.
  // Cutting the connection instead would make the outcome depend on what the server had read.
  // An abort, or requestTimeout without a row from the source, while the source is being waited
  // for ends the body the same way (a stop); while the server is what is waited for, the abort
  // reaches the transport, which cuts the request.
  let inputError: unknown;
  // Blocks handed to the transport (counted as it pulls each one's first bytes), for the errors.
  const sent = new SentCount();
  // Rows in the blocks handed over so far, once one more block is: for an iterable, the rows the
  // encoder has read (it stops at each block's end until the next is asked for, so these are
  // exactly the rows of the blocks it gave); for an array, blockSize more (blocks are cut exactly).
  const through = (before: number): number => {
    if (source.kind !== 'array') return stop.progress.rows;
    const n = source.rows.length;
    return blockSize === 0 ? n : Math.min(n, before + blockSize);
  };
  const count = (): void => {
    sent.rows = through(sent.rows);
    sent.blocks++;
  };
  // Each block's parts are taken out of its array as they are handed over (handOver): a suspended
  // generator keeps its parameters and stale registers alive, so the first block (`h`) and the
  // block sent last would otherwise stay reachable while the next one fills, for the whole insert.
  const stream = async function* (bl: AsyncGenerator<Uint8Array[]>, h: Uint8Array[]): AsyncGenerator<Uint8Array> {
    count();
    yield* handOver(h);
    try {
      for (;;) {
        // A turn of the event loop between blocks: timers and I/O run while an insert encodes.
        await sharedTurn();
        attempt.waitingForInput = true;
        const n = await stop.race(bl.next());
        attempt.waitingForInput = false;
        if (n === undefined) { inputError = stop.error; void bl.return(undefined).catch(() => undefined); return; }
        if (n.done === true) return;
        count();
        yield* handOver(n.value);
      }
    } catch (e) {
      attempt.waitingForInput = false;
      inputError = e;
    }
  };
  let body: AsyncIterable<Uint8Array> | (() => AsyncIterable<Uint8Array>);
  const replay = opts.deduplicationToken !== undefined && source.kind === 'array';
  if (replay) {
    // Retryable: the transport calls this once per attempt; later attempts encode the array again.
    let calls = 0;
    body = () => {
      if (calls++ === 0) return stream(blocks, head.value);
      inputError = undefined;
      sent.blocks = 0;
      sent.rows = 0;
      const again = blocksOf();
      return (async function* () {
        const h = await again.next();
        if (h.done !== true) yield* stream(again, h.value);
      })();
    };
  } else {
    body = stream(blocks, head.value);
  }
  const list = cols.map((c) => quoteIdentifier(c.name)).join(', ');
  // The embedded engine reads a body from a file in one statement whose memory grows with the
  // whole input (mapped file plus the engine's own buffers: ~1 GB for 5M rows), so there, as for a
  // transport that cannot stream, each block is its own INSERT: memory stays bounded by a block.
  if (core.transport.streamsRequestBodies === false || core.transport.kind === 'chdb') {
    // The source is waited for as the streamed body does: an abort or a stall ends the insert
    // after the blocks already sent (committed), saying so.
    const rest = (async function* (): AsyncGenerator<Uint8Array[]> {
      for (;;) {
        await sharedTurn();
        attempt.waitingForInput = true;
        let n: IteratorResult<Uint8Array[]> | undefined;
        try { n = await stop.race(blocks.next()); } finally { attempt.waitingForInput = false; }
        if (n === undefined) { void blocks.return(undefined).catch(() => undefined); throw stop.error; }
        if (n.done === true) return;
        yield n.value;
      }
    })();
    attempt.sent = true;
    try {
      // Embedded, without a token: up to CHDB_GROUP_BYTES of blocks per INSERT (the engine squashes
      // them into parts as for one body); with a token, one block per INSERT (its own token).
      const groupBytes = core.transport.kind === 'chdb' && opts.deduplicationToken === undefined ? CHDB_GROUP_BYTES : 0;
      // While a request waits for the input, the input's own stop decides (as for a streamed body).
      const o = groupBytes === 0 ? opts : { ...opts, signal: stop.transportSignal() };
      return await sendBlockByBlock(core, `INSERT INTO ${target} (${list}) FORMAT Native`, head.value, rest, o, auto, through, groupBytes, groupBytes === 0 ? undefined : () => stop.pending());
    } finally {
      stop.dispose();
    }
  }
  // The server's own squashing (min_insert_block_size_rows/bytes) is left on: it gathers the blocks
  // into parts of up to ~1M rows, as for any other client. Forcing one part per block (both at 0)
  // cost the server 1.5× the CPU at 65 536-row blocks and 5–8× at 16 384 (one MergeTree part per
  // block, then merges; small blocks reach "too many parts"). Atomicity does not depend on it: the
  // body always ends cleanly after the last good block, and the server writes what it squashed
  // when the body ends, so blocks 0..k-1 are committed either way. Only with a deduplication
  // token is each block made one part (dedupBlockSettings): what makes a retry exactly-once.
  attempt.sent = true;
  try {
    const settings = { ...auto, ...dedupBlockSettings(opts, blockSize) };
    let result: InsertResult;
    try {
      result = await send(core, `INSERT INTO ${target} (${list}) FORMAT Native`, body, { ...opts, signal: stop.transportSignal() }, settings, replay, () => stop.pending());
    } catch (e) {
      throw withSent(e, sent);
    }
    if (inputError !== undefined) throw withSent(inputError, sent, true);
    return result;
  } finally {
    stop.dispose();
  }
}

/**
 * A block's parts, oldest first, each taken out of `parts` before it is yielded: once handed to the
 * body, a part is reachable from the block's array no more (that array is the encoder's own).
 */
function* handOver(parts: Uint8Array[]): Generator<Uint8Array> {
  // Reversed once, then popped: O(1) per part (a block of an array input has ~150 parts).
  parts.reverse();
  for (let p = parts.pop(); p !== undefined; p = parts.pop()) yield p;
}

/** A byte-mode (not object-mode) Readable: its chunks are a body to send as is. */
function isByteStream(rows: unknown): boolean {
  const r = rows as ReadableLike;
  return typeof r.pipe === 'function' && r.readableObjectMode === false;
}

/**
 * Rows in a JSON row format typed by the table's columns, or (bytes or strings first) sent as given.
 * A source that is not an array is read through a gate (insert-source.ts), as on the Native path:
 * read no more once the insert settles, and an error says how many rows were taken.
 */
async function sendJsonRows(core: ClientCore, table: string, target: string, format: string, rows: InsertInput | InsertBytes, opts: InsertOptions, auto: Record<string, string>, maxAge: number, info: ServerInfo): Promise<InsertResult> {
  const gate = Array.isArray(rows) ? undefined : gateOf(rows as Iterable<unknown> | AsyncIterable<unknown>);
  let objects = false;
  try {
    const typed = await typedJsonRows(core, table, format, gate ?? (rows as Iterable<unknown>), opts, info, core.settingsFor(opts, auto), maxAge);
    if (!('rowText' in typed)) return await sendBytes(core, target, format, typed.rows as InsertInput, opts, auto);
    objects = true;
    const body = () => jsonRowBytes(typed.rows, typed.rowText);
    const replay = opts.deduplicationToken !== undefined && Array.isArray(rows);
    return await send(core, `INSERT INTO ${target} (${typed.columns.map(quoteIdentifier).join(', ')}) FORMAT ${format}`, replay ? body : body(), opts, auto, replay);
  } catch (e) {
    if (gate === undefined) throw e;
    await gate.close();
    throw objects ? withTaken(e, gate) : e;
  } finally {
    await gate?.close();
  }
}

/**
 * Sends bytes already in `format` (Buffers, Uint8Arrays, or strings as UTF-8) as the body, or
 * objects a JSON row format serialises. A source that is not an array is read through a gate
 * (insert-source.ts): read no more once the insert settles; objects it gave are counted in the
 * error (`rowsTaken`), byte chunks are not rows and are not.
 */
async function sendBytes(core: ClientCore, target: string, format: string, rows: InsertInput | InsertBytes, opts: InsertOptions, auto: Record<string, string>): Promise<InsertResult> {
  const cols = opts.columns !== undefined ? ` (${opts.columns.map(quoteIdentifier).join(', ')})` : '';
  const gate = Array.isArray(rows) || rows instanceof AsyncGate || rows instanceof SyncGate ? undefined : gateOf(rows as Iterable<unknown> | AsyncIterable<unknown>);
  const input = (gate ?? rows) as AsyncIterable<unknown>;
  let objects = false;
  const bytes = () => (async function* () {
    // Objects in a JSON row format are serialised by insert-json.ts; bytes and strings pass as they are.
    for await (const c of isJsonRowFormat(format) ? jsonRowBytes(input) : input) {
      if (c instanceof Uint8Array) yield c;
      else if (typeof c === 'string' && format !== 'Native') yield textEncoder.encode(c);
      else throw new ChwireConfigError(`insert with format ${format} takes ${format === 'Native' ? 'rows, or Native bytes (Buffers or Uint8Arrays)' : 'bytes or strings'}, got ${c === null ? 'null' : typeof c}`);
    }
  })();
  // An array of chunks can be sent again: with a deduplication token, the request is retryable.
  const replay = opts.deduplicationToken !== undefined && Array.isArray(rows);
  if (gate === undefined) return send(core, `INSERT INTO ${target}${cols} FORMAT ${format}`, replay ? bytes : bytes(), opts, auto, replay);
  try {
    // (An empty source still sends its INSERT, as it always did: the server checks the table.)
    const p = await gate.peek();
    objects = typeof p.first === 'object' && p.first !== null && !(p.first instanceof Uint8Array);
    return await send(core, `INSERT INTO ${target}${cols} FORMAT ${format}`, bytes(), opts, auto, false);
  } catch (e) {
    await gate.close();
    throw objects ? withTaken(e, gate) : e;
  } finally {
    await gate.close();
  }
}

async function send(core: ClientCore, sql: string, body: AsyncIterable<Uint8Array> | (() => AsyncIterable<Uint8Array>), opts: InsertOptions, auto: Record<string, string>, idempotent: boolean, inputPending?: () => boolean): Promise<InsertResult> {
  const { info, caps } = await core.capabilities(opts.signal);
  const surface = core.surface(opts, caps, info);
  const release = await core.lock(opts.sessionId);
  const queryId = opts.queryId ?? newQueryId();
  try {
    const response = await core.request({
      sql, body, settings: core.settingsFor(opts, auto), queryId, sessionId: opts.sessionId, signal: opts.signal, idempotent, inputPending, ...surface,
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
 * requests' counters. With a deduplication token, block k is sent under the token plus its
 * number (blockToken): under one token for all, the server took block 1 for a repeat of block 0.
 */
async function sendBlockByBlock(
  core: ClientCore, sql: string, first: Uint8Array[], rest: AsyncIterable<Uint8Array[]>,
  opts: InsertOptions, auto: Record<string, string>, through: (before: number) => number, groupBytes = 0,
  inputPending?: () => boolean,
): Promise<InsertResult> {
  const token = opts.deduplicationToken;
  const settingsOf = (k: number): Record<string, string> => token === undefined ? auto : { ...auto, insert_deduplication_token: blockToken(token, k) };
  const sent = new SentCount();
  const it = rest[Symbol.asyncIterator]();
  let inputError: unknown;
  let ended = false;
  // One request: `block`, then (up to groupBytes of body) the blocks after it. The input's own
  // stop ends the body cleanly after the blocks before it, as a streamed body does.
  const group = async function* (block: Uint8Array[]): AsyncGenerator<Uint8Array> {
    let bytes = 0;
    for (;;) {
      sent.rows = through(sent.rows);
      sent.blocks++;
      // Taken out as handed over (handOver): `first` and a stale `block` would keep them reachable.
      for (const part of handOver(block)) { bytes += part.length; yield part; }
      if (bytes >= groupBytes) return;
      let n: IteratorResult<Uint8Array[]>;
      try { n = await it.next(); } catch (e) { inputError = e; return; }
      if (n.done === true) { ended = true; return; }
      block = n.value;
    }
  };
  let result: InsertResult | undefined;
  let summary: QuerySummary | undefined;
  let block = first;
  for (;;) {
    const k = sent.blocks;
    try {
      result = await send(core, sql, group(block), opts, settingsOf(k), false, inputPending);
    } catch (e) {
      // Statements before this one were answered: their blocks are in the table, so even a server
      // error (a changed table) is not "nothing inserted" for the schema retry in insertRows.
      if (k > 0 && typeof e === 'object' && e !== null) Object.defineProperty(e, EARLIER_COMMITTED, { value: true });
      throw withSent(e, sent);
    }
    summary = result.summary === undefined || summary === undefined ? result.summary ?? summary : addSummaries(summary, result.summary);
    // The input's own stop (a bad value, a throwing source, an abort while it is waited for)
    // comes after the requests before it were answered: those blocks are committed.
    if (inputError !== undefined) throw withSent(inputError, sent, true);
    if (ended) break;
    let n: IteratorResult<Uint8Array[]>;
    try { n = await it.next(); } catch (e) { throw withSent(e, sent, true); }
    if (n.done === true) break;
    block = n.value;
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
