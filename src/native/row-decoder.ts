// Native body → rows: the streaming decoder (RowStreamDecoder, fed chunk by chunk) and the
// whole-buffer `decodeNative`. Each block is read column by column (column-readers.ts), then
// turned into rows by a row builder compiled once per column list.
//
// Invariants:
// - Rows hold exactly the JS values the RowBinary decoder gives for the same types and options.
// - Between chunks only the unread tail is kept (ByteQueue: amortised O(1) copies per byte); a
//   block that spans chunks is resumed at the column where it stopped, and no attempt is made
//   before the reader's exact lower bound of bytes (`need`) has arrived.
// - A body that ends inside a block is a ChwireDecodeError at end() naming the column being read,
//   the block's first row and the body offset where the bytes ran out.
// - Row builders: column names reach generated source only as JSON.stringify-quoted keys of an
//   object literal; `__proto__` uses a computed key so it becomes an own property.
import { ChwireDecodeError } from '../errors.js';
import type { ColumnInfo, Row, RowStreamDecoder } from '../stream-decoder.js';
import type { TypeNode } from '../types/ast.js';
import { createCursor, resetCursor, type Cursor } from '../io/cursor.js';
import { NEED_MORE } from '../io/need-more.js';
import { ByteQueue } from '../io/chunks.js';
import { plainBytes } from '../io/bytes.js';
import { columnReader, type ColumnReader, type ReaderContext, type Values, type NativeCursor } from './column-readers.js';
import { readBlock, newProgress, SlotCache, type BlockProgress } from './block-reader.js';
import { resolveNativeOptions, type ResolvedNativeOptions, type NativeDecodeOptions } from './options.js';
import { specialReader } from './column-dynamic.js';

type RowBuilder = (cols: readonly Values[], i: number) => Row;

const builders = new Map<string, RowBuilder>();

/** A row builder for these names and shape, compiled once and cached (bounded). */
function rowBuilder(names: readonly string[], shape: 'object' | 'array'): RowBuilder {
  const key = shape + '\u0000' + JSON.stringify(names);
  let b = builders.get(key);
  if (b !== undefined) return b;
  const parts = names.map((name, k) => {
    const value = `c[${k}][i]`;
    if (shape === 'array') return value;
    // A literal `"__proto__": v` would set the prototype; a computed key defines an own property.
    return name === '__proto__' ? `["__proto__"]: ${value}` : `${JSON.stringify(name)}: ${value}`;
  });
  const body = shape === 'array' ? `[${parts.join(', ')}]` : `{ ${parts.join(', ')} }`;
  const source = `'use strict';\nreturn function buildRow(c, i) { return ${body}; };\n`;
  b = new Function(`${source}//# sourceURL=chwire/native-rows/${hash(source)}.js\n`)() as RowBuilder;
  if (builders.size >= 256) builders.delete(builders.keys().next().value!);
  builders.set(key, b);
  return b;
}

function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

function readerFactory(opts: ResolvedNativeOptions, views: boolean): (name: string, type: string, node: TypeNode) => ColumnReader {
  return (name, type, node) => {
    const ctx: ReaderContext = { o: opts.forColumn(name), views, special: specialReader, binaryTypes: opts.binaryTypes };
    return columnReader(node, ctx, type);
  };
}

/** Reads blocks from one buffer (or a queue's buffer) and appends their rows to `out`. */
class BlockRows {
  readonly cache: SlotCache<ColumnReader>;
  readonly progress: BlockProgress<ColumnReader> = newProgress();
  private values: Values[] = [];
  columns: ColumnInfo[] | undefined;
  private signature = '';
  private build: RowBuilder | undefined;
  rowCount = 0;

  constructor(private readonly opts: ResolvedNativeOptions, views: boolean) {
    this.cache = new SlotCache(readerFactory(opts, views), opts.binaryTypes);
  }

  /** Read the block at `start`; returns false (keeping progress) when the bytes end inside it. */
  block(c: Cursor, start: number, origin: number, out: Row[]): boolean {
    try {
      readBlock(c, start, this.progress, this.cache, origin, this.rowCount, (slot, k, rows) => {
        slot.reader.prefix(c);
        this.values[k] = slot.reader.read(c, rows);
      });
    } catch (e) {
      if (e === NEED_MORE) return false;
      throw e;
    }
    const p = this.progress;
    const rows = p.rows;
    if (p.ncols === 0) return true;
    const sig = p.slots.map((s) => s.name + '\u0000' + s.type).join('\u0001');
    if (sig !== this.signature) {
      if (this.columns !== undefined && this.columns.length > 0 && this.rowCount > 0 && !sameNames(this.columns, p.slots)) {
        throw new ChwireDecodeError('a later block has different columns than the first', { offset: origin + start });
      }
      this.signature = sig;
      this.columns = p.slots.map((s) => ({ name: s.name, type: s.type }));
      this.build = rowBuilder(p.slots.map((s) => s.name), this.opts.rows);
    }
    const cols = this.values.slice(0, p.ncols);
    const build = this.build!;
    for (let i = 0; i < rows; i++) out.push(build(cols, i));
    this.rowCount += rows;
    this.values = [];
    return true;
  }
}

function sameNames(a: readonly ColumnInfo[], b: readonly { name: string }[]): boolean {
  return a.length === b.length && a.every((x, k) => x.name === b[k]!.name);
}

class NativeRowDecoder implements RowStreamDecoder {
  private readonly queue = new ByteQueue();
  private readonly rows: BlockRows;
  private readonly cursor: NativeCursor = Object.assign(createCursor(new Uint8Array(0)), { origin: 0 });
  /** Body offset of queue.start. */
  private consumed = 0;
  /** Do not retry before the queue holds this many bytes (an exact lower bound from the readers). */
  private waitFor = 0;
  bytesIn = 0;

  constructor(options: NativeDecodeOptions | undefined) {
    // Streams reuse their buffer: typed arrays must be copies, never views.
    this.rows = new BlockRows(resolveNativeOptions(options), false);
  }

  get columns(): readonly ColumnInfo[] | undefined { return this.rows.columns; }
  get rowCount(): number { return this.rows.rowCount; }

  push(chunk: Uint8Array): Row[] {
    this.bytesIn += chunk.length;
    this.queue.append(chunk);
    if (this.queue.length < this.waitFor) return [];
    const out: Row[] = [];
    const q = this.queue;
    const c = this.cursor;
    while (q.length > 0) {
      resetCursor(c, q.buf, q.start, q.end);
      c.origin = this.consumed - q.start;
      if (!this.rows.block(c, q.start, this.consumed - q.start, out)) {
        this.waitFor = Math.max(c.need - q.start, q.length + 1);
        break;
      }
      const used = c.pos - q.start;
      this.consumed += used;
      q.consume(used);
      this.waitFor = 0;
    }
    return out;
  }

  end(): void {
    if (this.queue.length === 0) return;
    const p = this.rows.progress;
    throw new ChwireDecodeError(`the body ends inside a Native block (${this.queue.length} bytes of it received)`, {
      column: p.column, row: p.column === undefined ? undefined : this.rows.rowCount, offset: this.bytesIn,
    });
  }
}

/** A streaming decoder of a Native body into rows. */
export function createNativeDecoder(options?: NativeDecodeOptions): RowStreamDecoder {
  return new NativeRowDecoder(options);
}

/** Decode a complete Native body into rows (an empty body is an empty result with no columns). */
export function decodeNative(input: Uint8Array, options?: NativeDecodeOptions): { columns: ColumnInfo[]; rows: Row[] } {
  const bytes = plainBytes(input);
  const br = new BlockRows(resolveNativeOptions(options), true);
  const c = createCursor(bytes);
  const rows: Row[] = [];
  let pos = 0;
  while (pos < bytes.length) {
    if (!br.block(c, pos, 0, rows)) {
      const p = br.progress;
      throw new ChwireDecodeError('the body ends inside a Native block', { column: p.column, row: p.column === undefined ? undefined : br.rowCount, offset: bytes.length });
    }
    pos = c.pos;
  }
  return { columns: br.columns ?? [], rows };
}
