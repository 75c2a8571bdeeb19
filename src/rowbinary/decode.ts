// Entry points of RowBinaryWithNamesAndTypes decoding: a whole body, a chunked body, and the
// reference path over a whole body.
//
// Invariant: every way a body can be wrong ends in a ChwireDecodeError naming the absolute byte
// offset (and the column and row when inside a row), or a ChwireTypeError for a header type that
// cannot be decoded. A truncated body is never a short result. Stream decoders keep only the
// unconsumed tail and never keep a view of a caller's chunk.
import { ChwireDecodeError, ChwireConfigError } from '../errors.js';
import type { DecodeOptions } from '../plan/options.js';
import type { TypeNode } from '../types/ast.js';
import { mapChildren } from '../types/map-children.js';
import { resolvePlan } from '../plan/resolve.js';
import { checkSessionZone, withSessionZone } from '../plan/session-zone.js';
import { NEED_MORE } from '../io/need-more.js';
import { DecodeFault } from '../io/fault.js';
import { ByteQueue } from '../io/chunks.js';
import { plainBytes } from '../io/bytes.js';
import type { ColumnInfo, Row, RowStreamDecoder } from '../stream-decoder.js';
import { readHeader, type HeaderColumn } from './header.js';
import { compilePlan, type CompiledRowDecoder } from './compiled.js';
import { decodeReferenceRows } from './reference.js';
import { RowScanner, SCAN_MORE } from './skipper.js';

/** DecodeOptions plus what only the RowBinary reader needs to know. */
export interface RowBinaryOptions extends DecodeOptions {
  /**
   * The header's types are in the binary type encoding: set this when the query was sent with
   * output_format_binary_encode_types_in_binary_format=1 (the bytes alone cannot tell). Default false.
   */
  binaryTypes?: boolean;
  /**
   * JSON values are sent as one String of JSON text: set this when the query was sent with
   * output_format_binary_write_json_as_string=1 (the header still says `JSON`, so the bytes cannot
   * tell). Such values decode to that text (a string; a Uint8Array under strings: 'bytes'),
   * not parsed, so no 64-bit integer is rounded. Applies to JSON columns and JSON nested in
   * Array/Tuple/Map/Nullable/Variant. Default false.
   */
  jsonAsString?: boolean;
  /**
   * The zone DateTime/DateTime64 columns without their own zone are shown in by `datetime: 'text'`
   * and Map keys: set this to the query's `session_timezone` (the server prints them in it). The
   * reported column types are unchanged. Default: none (UTC).
   */
  sessionTimezone?: string;
}

export interface DecodedRows {
  columns: ColumnInfo[];
  rows: Row[];
}

interface SplitOptions { binaryTypes: boolean; jsonAsString: boolean; zone: string | undefined; decode: DecodeOptions | undefined }

function split(options: RowBinaryOptions | undefined): SplitOptions {
  if (options === undefined) return { binaryTypes: false, jsonAsString: false, zone: undefined, decode: undefined };
  const { binaryTypes, jsonAsString, sessionTimezone, ...decode } = options;
  if (binaryTypes !== undefined && typeof binaryTypes !== 'boolean') throw new ChwireConfigError('option binaryTypes must be a boolean');
  if (jsonAsString !== undefined && typeof jsonAsString !== 'boolean') throw new ChwireConfigError('option jsonAsString must be a boolean');
  return { binaryTypes: binaryTypes === true, jsonAsString: jsonAsString === true, zone: checkSessionZone(sessionTimezone), decode };
}

/** The header's columns as the body encodes them (JSON → String under jsonAsString), zone-less date-times in the session's zone. */
function wireColumns(columns: HeaderColumn[], o: SplitOptions): HeaderColumn[] {
  const json = o.jsonAsString ? columns.map((c) => ({ ...c, type: jsonToString(c.type) })) : columns;
  return o.zone === undefined ? json : json.map((c) => ({ ...c, type: withSessionZone(c.type, o.zone) }));
}

function jsonToString(t: TypeNode): TypeNode {
  switch (t.kind) {
    case 'JSON': return { kind: 'String' };
    default: return mapChildren(t, jsonToString);
  }
}

/** Header of a whole body, or a ChwireDecodeError. */
function wholeHeader(bytes: Uint8Array, binaryTypes: boolean): { columns: HeaderColumn[]; offset: number } {
  try {
    return readHeader(bytes, 0, bytes.length, binaryTypes);
  } catch (e) {
    throw headerError(e, bytes.length);
  }
}

function headerError(e: unknown, length: number, base = 0): unknown {
  if (e === NEED_MORE) return new ChwireDecodeError(`truncated header: the body ends at byte ${base + length} inside the column names and types`, { offset: base + length });
  if (e instanceof DecodeFault) return new ChwireDecodeError(`corrupt header: ${e.message}`, { offset: base + e.offset });
  return e;
}

/** Decode a complete RowBinaryWithNamesAndTypes body with the compiled decoder of its schema. */
export function decodeRowBinary(bytes: Uint8Array, options?: RowBinaryOptions): DecodedRows {
  bytes = plainBytes(bytes);
  const o = split(options);
  const header = wholeHeader(bytes, o.binaryTypes);
  const decoder = compilePlan(resolvePlan(wireColumns(header.columns, o), o.decode));
  const rows: Row[] = [];
  decoder.decode(bytes, header.offset, bytes.length, rows, true);
  return { columns: decoder.columns.slice(), rows };
}

/** The same through the reference (per-field, switch-per-value) decoder. */
export function decodeRowBinaryReference(bytes: Uint8Array, options?: RowBinaryOptions): DecodedRows {
  bytes = plainBytes(bytes);
  const o = split(options);
  const header = wholeHeader(bytes, o.binaryTypes);
  const plan = resolvePlan(wireColumns(header.columns, o), o.decode);
  // Refuse undecodable columns exactly like the compiled path does.
  compilePlan(plan);
  const rows: Row[] = [];
  decodeReferenceRows(plan, bytes, header.offset, bytes.length, rows, true);
  return { columns: plan.columns.map((c) => ({ name: c.name, type: c.typeText })), rows };
}

/** A resumable decoder for a body that arrives in chunks. */
export function createRowBinaryDecoder(options?: RowBinaryOptions): RowStreamDecoder {
  return new RowBinaryStream(options);
}

class RowBinaryStream implements RowStreamDecoder {
  private readonly options: SplitOptions;
  private decoder: CompiledRowDecoder | undefined;
  private readonly queue = new ByteQueue();
  /** Absolute body offset of the queue's first live byte. */
  private consumed = 0;
  /** Do not try again before the queue holds this many bytes (an exact lower bound). */
  private need = 0;
  private ended = false;
  /** Measures the incomplete row at the queue's head across pushes (see skipper.ts). */
  private scanner: RowScanner | undefined;
  /** The scanner is following the row at the queue's head. */
  private scanning = false;
  bytesIn = 0;
  rowCount = 0;
  /** Diagnostic: how many times the compiled decoder ran (tests check it stays O(rows + 1)). */
  decodeAttempts = 0;

  constructor(options: RowBinaryOptions | undefined) {
    this.options = split(options);
  }

  get columns(): readonly ColumnInfo[] | undefined {
    return this.decoder?.columns;
  }

  push(chunk: Uint8Array): Row[] {
    if (this.ended) throw new ChwireConfigError('push() after end()');
    chunk = plainBytes(chunk);
    this.bytesIn += chunk.length;
    const q = this.queue;
    const out: Row[] = [];
    if (q.length === 0 && this.decoder !== undefined) {
      // Fast path: decode straight from the caller's chunk; copy only an incomplete tail.
      const stop = this.run(chunk, 0, chunk.length, out, false);
      if (stop < chunk.length) {
        q.append(chunk.subarray(stop));
        this.scanner!.reset();
        this.scanning = this.scanner!.scan(q.buf, q.start, q.end) === SCAN_MORE;
      }
      return out;
    }
    q.append(chunk);
    if (q.length < this.need) return out;
    if (this.scanning) {
      // Only decode once the scanner has seen the row's last byte (or finds it corrupt).
      const r = this.scanner!.scan(q.buf, q.start, q.end);
      if (r === SCAN_MORE) return out;
      this.scanning = false;
    }
    this.step(out, false);
    return out;
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    const q = this.queue;
    if (this.decoder === undefined) {
      throw headerError(NEED_MORE, q.length, this.consumed);
    }
    if (q.length === 0) return;
    const out: Row[] = [];
    this.step(out, true);
    if (out.length > 0) {
      // Unreachable: every push retries once the exact lower bound of needed bytes is present.
      throw new ChwireDecodeError('internal: complete rows were held back until end()', { offset: this.consumed });
    }
  }

  /** Decode what the queue holds: the header first if needed, then rows. */
  private step(out: Row[], final: boolean): void {
    const q = this.queue;
    if (this.decoder === undefined) {
      let header: { columns: HeaderColumn[]; offset: number };
      try {
        header = readHeader(q.buf, q.start, q.end, this.options.binaryTypes);
      } catch (e) {
        if (e === NEED_MORE && !final) { this.need = 0; return; }
        throw headerError(e, q.length, this.consumed);
      }
      this.decoder = compilePlan(resolvePlan(wireColumns(header.columns, this.options), this.options.decode));
      this.scanner = new RowScanner(this.decoder.plan.columns.map((c) => c.type));
      const used = header.offset - q.start;
      q.consume(used);
      this.consumed += used;
    }
    const stop = this.run(q.buf, q.start, q.end, out, final);
    q.consume(stop - q.start);
    if (q.length > 0 && !final) {
      // An incomplete row is left: follow it with the scanner instead of re-decoding it from its
      // first byte on every push (quadratic for a row spanning many chunks).
      this.scanner!.reset();
      this.scanning = this.scanner!.scan(q.buf, q.start, q.end) === SCAN_MORE;
    }
  }

  /** Run the compiled decoder on bytes[start, end); returns the stop offset. */
  private run(bytes: Uint8Array, start: number, end: number, out: Row[], final: boolean): number {
    const d = this.decoder!;
    this.decodeAttempts++;
    const before = out.length;
    const stop = d.decode(bytes, start, end, out, final, this.consumed - start, this.rowCount);
    this.rowCount += out.length - before;
    this.consumed += stop - start;
    this.need = d.lastNeed > 0 ? d.lastNeed - stop : 0;
    return stop;
  }
}
