// Native body → rows: the streaming decoder (RowStreamDecoder, fed chunk by chunk) and the
// whole-buffer `decodeNative`. Each block is read column by column (column-readers.ts), then
// turned into rows by a row builder compiled once per column list.
//
// Invariants:
// - Rows hold exactly the JS values the RowBinary decoder gives for the same types and options.
// - Between chunks only unread bytes are kept (block-feed.ts); a block that spans chunks resumes
//   where it stopped: inside a numeric, date or String column, else at the column's start, and
//   no attempt is made before the reader's exact lower bound of bytes (`need`) has arrived.
// - A body that ends inside a block is a ChwireDecodeError at end() naming the column being read,
//   the block's first row and the body offset where the bytes ran out.
// - Row builders: column names reach generated source only as quoted keys of an object literal
//   (codegen/literal.ts: one line, U+2028/U+2029 escaped); `__proto__` uses a computed key so it becomes an own property.
// - `pushSources` (streams): a completed block becomes a RowSource whose `row(i)` builds row i on
//   demand; columns with a lazy form (lazy-columns.ts) keep raw data until then, the others their
//   eager values. Rows equal those of `push`. The mode is fixed by the first call: `push` on a
//   lazy decoder builds every row of its sources, `pushSources` on an eager one wraps its rows.
//   `pushBuilt` (fetch) is pushSources with a row function of its own (rows that are kept).
import { ChwireDecodeError } from '../../errors.js';
import type { ColumnInfo, Row, RowSource, RowStreamDecoder } from '../../stream-decoder.js';
import type { TypeNode } from '../../types/ast.js';
import { createCursor, type Cursor, type NativeCursor } from '../../io/cursor.js';
import { NEED_MORE } from '../../io/need-more.js';
import { plainBytes } from '../../io/bytes.js';
import { columnReader, type ColumnReader, type ReaderContext, type Values } from './column-readers.js';
import { BlockFeeder, type BlockTarget } from './block-feed.js';
import { readBlock, newProgress, dropSpent, SlotCache, type BlockProgress } from './block-reader.js';
import { resolveNativeOptions, type ResolvedNativeOptions, type NativeDecodeOptions } from './options.js';
import { specialReader } from './column-dynamic.js';
import { lazyColumn, type LazyColumn } from './lazy-columns.js';
import { BoundedCache, compiled, hashKey } from '../../codegen/compile.js';
import { jsString } from '../../codegen/literal.js';
import { lookupPrecompiled } from '../../codegen/precompiled.js';
import { interpretedRowBuilder, interpretedSourceFactory } from './interpreted-rows.js';
import { parseType } from '../../types/parse.js';
import { assertDecodable } from '../../rowbinary/readers.js';
import { withSessionZone } from '../../plan/session-zone.js';

type RowBuilder = (cols: readonly Values[], i: number) => Row;

/**
 * The source of one row: an array literal, or an object literal whose keys are the column names
 * JSON-quoted (the only server text in generated code) with `valueOf(k)` as values. A literal
 * `"__proto__": v` would set the prototype; a computed key defines an own property.
 */
function rowLiteral(names: readonly string[], shape: 'object' | 'array', valueOf: (k: number) => string): string {
  if (shape === 'array') return `[${names.map((_, k) => valueOf(k)).join(', ')}]`;
  const parts = names.map((name, k) => `${name === '__proto__' ? '["__proto__"]' : jsString(name)}: ${valueOf(k)}`);
  return `{ ${parts.join(', ')} }`;
}

const builders = new BoundedCache<RowBuilder>(256);

/** The cache key of the row builder for these names and shape (also its key in precompiled modules). */
export function rowBuilderKey(names: readonly string[], shape: 'object' | 'array'): string {
  return shape + '\u0000' + JSON.stringify(names);
}

/** The generated source of that row builder: a function body returning `buildRow(c, i)`. */
export function rowBuilderSource(names: readonly string[], shape: 'object' | 'array'): string {
  const body = rowLiteral(names, shape, (k) => `c[${k}][i]`);
  const source = `'use strict';\nreturn function buildRow(c, i) { return ${body}; };\n`;
  return `${source}//# sourceURL=chwire/native-rows/${hashKey(source)}.js\n`;
}

/** A row builder for these names and shape, compiled once and cached (bounded). */
function rowBuilder(names: readonly string[], shape: 'object' | 'array'): RowBuilder {
  const key = rowBuilderKey(names, shape);
  let b = builders.get(key);
  if (b !== undefined) return b;
  const source = rowBuilderSource(names, shape);
  // Where code generation is refused and nothing was precompiled: the same rows from a loop (interpreted-rows.ts).
  b = (lookupPrecompiled<() => RowBuilder>('native-rows', key, source) ?? compiled<() => RowBuilder>([], source))?.() ?? interpretedRowBuilder(names, shape);
  builders.set(key, b);
  return b;
}

type SourceFactory = (cols: readonly unknown[], ats: readonly (((d: unknown, i: number) => unknown) | undefined)[]) => (i: number) => Row;
const factories = new BoundedCache<SourceFactory>(256);

/** The cache key of a source factory (also its key in precompiled modules, kind `native-sources`). */
export function sourceFactoryKey(names: readonly string[], shape: 'object' | 'array', lazy: readonly boolean[], kept: boolean): string {
  return shape + '\u0000' + lazy.map((l) => (l ? 1 : 0)).join('') + (kept ? '\u0000kept' : '') + '\u0000' + JSON.stringify(names);
}

/** The generated source of that factory: a function body returning `make(c, g)`. */
export function sourceFactorySource(names: readonly string[], shape: 'object' | 'array', lazy: readonly boolean[], kept: boolean): string {
  const hoist = names.map((_, k) => `const c${k} = c[${k}]${lazy[k] ? `, g${k} = g[${k}]` : ''};`);
  const body = rowLiteral(names, shape, (k) => (lazy[k] ? `g${k}(c${k}, i)` : `c${k}[i]`));
  // Rows that are kept (fetch) come from a function of their own: V8 decides per allocation site
  // whether to allocate a literal's objects straight in old space, and fetch's survivors must not
  // make a stream's short-lived rows be allocated there (see row-stream.ts rowsOf).
  const source = `'use strict';${kept ? ' // rows kept' : ''}\nreturn function make(c, g) {\n  ${hoist.join('\n  ')}\n  return function row(i) { return ${body}; };\n};\n`;
  return `${source}//# sourceURL=chwire/native-rows/${hashKey(source)}.js\n`;
}

/**
 * A factory of per-block `row(i)` functions for these names, shape and lazy columns (compiled once
 * per column list and cached, bounded): column k is read as `c<k>[i]` (eager values) or
 * `g<k>(c<k>, i)` (lazy data and its converter), both hoisted into the closure of the block.
 * A precompiled one (a `chwire gen` module) is looked up first, as for the eager builder.
 */
function sourceFactory(names: readonly string[], shape: 'object' | 'array', lazy: readonly boolean[], kept: boolean): SourceFactory {
  const key = sourceFactoryKey(names, shape, lazy, kept);
  let f = factories.get(key);
  if (f !== undefined) return f;
  const source = sourceFactorySource(names, shape, lazy, kept);
  f = (lookupPrecompiled<() => SourceFactory>('native-sources', key, source) ?? compiled<() => SourceFactory>([], source))?.() ?? interpretedSourceFactory(names, shape, lazy);
  factories.set(key, f);
  return f;
}

/** One piece of Native row code a `chwire gen` module can carry precompiled (a body of no parameters). */
export interface NativeRowCode {
  readonly kind: 'native-rows' | 'native-sources';
  readonly key: string;
  readonly source: string;
}

/**
 * Every Native row function the client builds for a result with these columns under `options`:
 * the eager builder (decodeNative, push) and the per-block source factories of streams and of
 * fetch (pushSources, pushBuilt). Which columns are lazy is decided here exactly as a decoder
 * decides it (lazyColumn of the column's type under its resolved options).
 */
export function nativeRowCode(columns: readonly { name: string; type: string }[], options: NativeDecodeOptions | undefined): NativeRowCode[] {
  const opts = resolveNativeOptions(options);
  const names = columns.map((c) => c.name);
  const lazy = columns.map((c) => lazyColumn(parseType(c.type), opts.forColumn(c.name)) !== undefined);
  const out: NativeRowCode[] = [{ kind: 'native-rows', key: rowBuilderKey(names, opts.rows), source: rowBuilderSource(names, opts.rows) }];
  for (const kept of [false, true]) {
    out.push({ kind: 'native-sources', key: sourceFactoryKey(names, opts.rows, lazy, kept), source: sourceFactorySource(names, opts.rows, lazy, kept) });
  }
  return out;
}

/** A column's eager reader and, for a lazy decoder, its lazy form (when its type has one). */
interface SlotReaders { readonly eager: ColumnReader; readonly lazy: LazyColumn | undefined }

function readerFactory(opts: ResolvedNativeOptions, views: boolean, lazy: () => boolean): (name: string, type: string, node: TypeNode) => SlotReaders {
  return (name, type, wire) => {
    assertDecodable(wire, name, type);
    const node = withSessionZone(wire, opts.zone);
    const o = opts.forColumn(name);
    const ctx: ReaderContext = { o, views, special: specialReader, binaryTypes: opts.binaryTypes };
    return { eager: columnReader(node, ctx, type), lazy: lazy() ? lazyColumn(node, o) : undefined };
  };
}

/** Reads blocks from one buffer (or a queue's buffer) and appends their rows to `out`. */
class BlockRows {
  readonly cache: SlotCache<SlotReaders>;
  readonly progress: BlockProgress<SlotReaders> = newProgress();
  private values: unknown[] = [];
  columns: ColumnInfo[] | undefined;
  private signature = '';
  private build: RowBuilder | undefined;
  private make: SourceFactory | undefined;
  private ats: (((d: unknown, i: number) => unknown) | undefined)[] = [];
  rowCount = 0;
  /** Whether completed blocks become RowSources (set before the first block is read). */
  lazy = false;
  /** Whether those rows are kept by the caller (fetch): their own row function (sourceFactory). */
  kept = false;

  /** Columns are read as their bytes arrive (a stream, whose readers copy: never views). */
  private readonly resumable: boolean;

  constructor(private readonly opts: ResolvedNativeOptions, views: boolean) {
    this.cache = new SlotCache(readerFactory(opts, views, () => this.lazy), opts.binaryTypes);
    this.resumable = !views;
  }

  /**
   * Read the block at `start`; returns false (keeping progress) when the bytes end inside it.
   * Its rows go to `out`, or (lazy) one RowSource for the block goes to `sources`.
   */
  block(c: Cursor, start: number, origin: number, out: Row[], sources?: RowSource<Row>[]): boolean {
    try {
      readBlock(c, start, this.progress, this.cache, origin, this.rowCount, (slot, k, rows, fresh) => {
        const r = slot.reader;
        if (r.lazy !== undefined) {
          this.values[k] = this.resumable ? r.lazy.resume(c, rows, fresh) : r.lazy.read(c, rows);
        } else if (this.resumable && r.eager.resume !== undefined) {
          // The column's state prefixes come before its data (a NEED_MORE there restarts the column).
          if (fresh) r.eager.prefix(c);
          this.values[k] = r.eager.resume(c, rows, fresh);
        } else {
          r.eager.prefix(c);
          this.values[k] = r.eager.read(c, rows);
        }
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
      const names = p.slots.map((s) => s.name);
      if (this.lazy) {
        this.ats = p.slots.map((s) => s.reader.lazy?.at);
        this.make = sourceFactory(names, this.opts.rows, this.ats.map((a) => a !== undefined), this.kept);
      } else {
        this.build = rowBuilder(names, this.opts.rows);
      }
    }
    const cols = this.values.slice(0, p.ncols);
    if (this.lazy) {
      if (rows > 0) sources!.push({ length: rows, row: this.make!(cols, this.ats) });
    } else {
      const build = this.build!;
      for (let i = 0; i < rows; i++) out.push(build(cols as Values[], i));
    }
    this.rowCount += rows;
    this.values = [];
    return true;
  }
}

function sameNames(a: readonly ColumnInfo[], b: readonly { name: string }[]): boolean {
  return a.length === b.length && a.every((x, k) => x.name === b[k]!.name);
}

class NativeRowDecoder implements RowStreamDecoder, BlockTarget {
  private readonly feeder = new BlockFeeder();
  private readonly rows: BlockRows;
  /** Where the blocks completed by the current feed go (set for the call). */
  private out: Row[] = [];
  private sources: RowSource<Row>[] | undefined;

  constructor(options: NativeDecodeOptions | undefined) {
    // Streams reuse their buffer: typed arrays must be copies, never views.
    this.rows = new BlockRows(resolveNativeOptions(options), false);
  }

  get columns(): readonly ColumnInfo[] | undefined { return this.rows.columns; }
  get rowCount(): number { return this.rows.rowCount; }
  get bytesIn(): number { return this.feeder.bytesIn; }
  get inBlock(): boolean { return this.rows.progress.active; }
  get column(): string | undefined { return this.rows.progress.column; }
  dropSpent(): number { return dropSpent(this.rows.progress); }

  block(c: NativeCursor, start: number, origin: number): boolean {
    return this.rows.block(c, start, origin, this.out, this.sources);
  }

  /** Whether the first call was pushSources (undefined before any call). */
  private lazy: boolean | undefined;

  push(chunk: Uint8Array): Row[] {
    this.lazy ??= false;
    if (!this.lazy) {
      const out: Row[] = [];
      this.feed(chunk, out, undefined);
      return out;
    }
    const out: Row[] = [];
    for (const s of this.pushSources(chunk)) for (let i = 0; i < s.length; i++) out.push(s.row(i));
    return out;
  }

  pushBuilt(chunk: Uint8Array): RowSource<Row>[] {
    if (this.lazy === undefined) this.rows.kept = true;
    return this.pushSources(chunk);
  }

  pushSources(chunk: Uint8Array): RowSource<Row>[] {
    if (this.lazy === undefined) {
      this.lazy = true;
      this.rows.lazy = true;
    }
    if (!this.lazy) {
      const rows = this.push(chunk);
      return rows.length === 0 ? [] : [{ length: rows.length, row: (i) => rows[i]! }];
    }
    const sources: RowSource<Row>[] = [];
    this.feed(chunk, [], sources);
    return sources;
  }

  private feed(chunk: Uint8Array, out: Row[], sources: RowSource<Row>[] | undefined): void {
    this.out = out;
    this.sources = sources;
    try {
      this.feeder.feed(chunk, this);
    } finally {
      this.out = [];
      this.sources = undefined;
    }
  }

  end(): void { this.feeder.end(this); }
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
