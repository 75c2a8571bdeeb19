// Native body → columns (decodeNativeColumns; the streaming form is column-decoder.ts): numeric
// columns and the fixed-width types whose wire integer is a lossless value (dates, times,
// Decimal32/64, IPv4) as typed arrays, Nullable of those with a null mask, Enum as codes plus the
// label table, LowCardinality as dictionary + keys, String optionally raw (offsets + bytes), and
// everything else as an array of the same JS values the row decoders give.
//
// Invariants:
// - The form of each column is decided once, from its type and the options, when its first block
//   is read (column-plan: ColumnarPlan.collector), never per value or per block.
// - Fixed-width data is never converted value by value (column-parts.ts); a single aligned block
//   of a caller's buffer is handed out as a zero-copy view (which then must not change).
// - Every block must have the first block's columns (names and types), else ChwireDecodeError.
// - A top-level DateTime('tz') arrives as plain DateTime (native.md §2): `options.types` lets
//   the caller supply the real type text, checked to differ from the header only by that zone.
import { ChwireConfigError, ChwireDecodeError } from '../../errors.js';
import type { TypeNode } from '../../types/ast.js';
import { parseType } from '../../types/parse.js';
import { typeEquals } from '../../types/equals.js';
import { createCursor, type Cursor } from '../../io/cursor.js';
import { plainBytes } from '../../io/bytes.js';
import { NEED_MORE } from '../../io/need-more.js';
import { readBlock, newProgress, dropSpent, SlotCache } from './block-reader.js';
import { joinNow, type Collector, type JoinSteps } from './column-parts.js';
import { ColumnarPlan, type NativeColumnsOptions } from './column-plan.js';
import type { NativeColumns } from './column-shapes.js';

export type {
  NumericArray, NullableNumericColumn, NullableStringsColumn, RawStringsColumn, EnumColumn, LowCardinalityColumn,
  NativeColumn, NativeColumns,
} from './column-shapes.js';
export type { NativeColumnsOptions } from './column-plan.js';

/**
 * Reads the blocks of one result into per-column collectors. `views`: whether the bytes read
 * outlive the result (a caller's complete buffer), so typed arrays may be views of them.
 */
export class ColumnBlocks {
  private readonly plan: ColumnarPlan;
  private readonly cache: SlotCache<true>;
  private readonly progress = newProgress<true>();
  private collectors: Collector[] = [];
  private names: string[] | undefined;
  private types: string[] = [];
  private reported: string[] = [];
  rowCount = 0;
  /** Blocks read (each holds one part per column until the join). */
  blockCount = 0;
  /** Columns whose form holds a JS value per row (column-plan.ts heldAsValues), once the header is read. */
  valueColumns = 0;

  constructor(options: NativeColumnsOptions | undefined, private readonly views: boolean) {
    this.plan = new ColumnarPlan(options);
    this.cache = new SlotCache<true>(() => true, this.plan.native.binaryTypes);
  }

  /** Column names and (reported) types, once the first block's header has been read. */
  get header(): { names: string[]; types: string[] } | undefined {
    return this.names === undefined ? undefined : { names: this.names, types: this.reported };
  }

  /** The column being read when the bytes ran out (for truncation errors). */
  get column(): string | undefined { return this.progress.column; }

  /** Whether a block was left unfinished by the last call. */
  get inBlock(): boolean { return this.progress.active; }

  /** A stream's spent bytes of the unfinished block (block-reader.ts `dropSpent`); never with views. */
  dropSpent(): number { return this.views ? 0 : dropSpent(this.progress); }

  /**
   * Read (the rest of) the block at `start`; false when the bytes end inside it (progress is
   * kept, call again from the same `start` with more bytes). `origin`: body offset of c.u8[0].
   * Returns the block's row count otherwise.
   */
  block(c: Cursor, start: number, origin: number): number | false {
    const names = this.names;
    try {
      readBlock(c, start, this.progress, this.cache, origin, this.rowCount, (slot, k, rows, fresh) => {
        if (names === undefined) {
          if (this.collectors.length === k) this.collectors.push(this.plan.collector(slot.node, slot.name, slot.type, this.views));
        } else if (names[k] !== slot.name || this.types[k] !== slot.type) {
          throw new ChwireDecodeError(`block column ${k} is ${JSON.stringify(slot.name)} ${slot.type}, the first block had ${JSON.stringify(names[k])} ${this.types[k]}`, { offset: origin + c.pos });
        }
        const col = this.collectors[k]!;
        if (!this.views && col.resume !== undefined) col.resume(c, rows, fresh);
        else col.read(c, rows);
      });
    } catch (e) {
      if (e === NEED_MORE) return false;
      throw e;
    }
    const p = this.progress;
    if (names === undefined) {
      this.names = p.slots.map((s) => s.name);
      this.types = p.slots.map((s) => s.type);
      const nodes = p.slots.map((s) => s.node);
      // A first block with 0 rows read no data: build the collectors now.
      for (let k = this.collectors.length; k < this.names.length; k++) this.collectors.push(this.plan.collector(nodes[k]!, this.names[k]!, this.types[k]!, this.views));
      this.reported = this.types.map((type, k) => overrideType(this.names![k]!, type, nodes[k]!, this.plan.types));
      this.valueColumns = nodes.filter((n, k) => this.plan.heldAsValues(n, this.names![k]!)).length;
    } else if (p.slots.length !== names.length) {
      throw new ChwireDecodeError(`a block has ${p.slots.length} columns, the first had ${names.length}`, { offset: origin + start });
    }
    this.rowCount += p.rows;
    this.blockCount++;
    return p.rows;
  }

  /** The block just read, as columns of its own (the collectors then hold nothing). */
  takeBlock(rows: number): NativeColumns {
    const h = this.header!;
    return { names: h.names, types: h.types, columns: this.collectors.map((col) => col.takeBlock()), rowCount: rows };
  }

  /** Every block read, joined column by column. */
  finish(): NativeColumns {
    return joinNow(this.join());
  }

  /** As finish(), in steps (column-parts.ts): a pause after each bounded piece of a column's join. */
  *join(): JoinSteps<NativeColumns> {
    const h = this.header;
    if (h === undefined) return { names: [], types: [], columns: [], rowCount: 0 };
    const columns: NativeColumns['columns'] = [];
    for (const col of this.collectors) {
      columns.push(yield* col.join(this.rowCount));
      yield;
    }
    return { names: h.names, types: h.types, columns, rowCount: this.rowCount };
  }
}

function withoutZone(t: TypeNode): TypeNode {
  return t.kind === 'DateTime' ? { kind: 'DateTime' } : t;
}

function overrideType(name: string, type: string, node: TypeNode, types: NativeColumnsOptions['types']): string {
  if (types === undefined || !Object.prototype.hasOwnProperty.call(types, name)) return type;
  const real = types[name]!;
  if (!typeEquals(withoutZone(parseType(real)), withoutZone(node))) {
    throw new ChwireConfigError(`options.types[${JSON.stringify(name)}] is ${real}, but the result's column is ${type}`);
  }
  return real;
}

function joinChunks(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return plainBytes(chunks[0]!);
  let n = 0;
  for (const c of chunks) n += c.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** Decode a complete Native body (one buffer or its chunks, in order) into columns. */
export function decodeNativeColumns(input: Uint8Array | readonly Uint8Array[], options?: NativeColumnsOptions): NativeColumns {
  const bytes = input instanceof Uint8Array ? plainBytes(input) : joinChunks(input);
  const blocks = new ColumnBlocks(options, true);
  const c = createCursor(bytes);
  let pos = 0;
  while (pos < bytes.length) {
    if (blocks.block(c, pos, 0) === false) {
      const column = blocks.column;
      throw new ChwireDecodeError('the body ends inside a Native block', { column, row: column === undefined ? undefined : blocks.rowCount, offset: bytes.length });
    }
    pos = c.pos;
  }
  return blocks.finish();
}
