// chwire/arrow: fetchColumns results and streamColumns batches as apache-arrow Tables and
// RecordBatches with ClickHouse's logical types (docs/arrow.md). The only module of chwire that
// imports apache-arrow (an optional peer dependency); the core never imports this folder.
//
// Invariants:
// - The converters (plan.ts) are built once per result schema, from the parsed column types;
//   every batch of a stream goes through the same ones, so all batches share one Schema and one
//   only-growing dictionary per dictionary column (sent by RecordBatchStreamWriter as deltas).
// - Fixed-width columns whose layout Arrow shares (integers, floats, Date32, DateTime64 with P of
//   0/3/6/9, raw strings) are vectors over the column's own memory: no copy.
import { makeData, RecordBatch, Schema, Struct, Table, type Data } from 'apache-arrow';
import { parseType } from '../types/parse.js';
import { ChwireConfigError } from '../errors.js';
import type { NativeColumns } from '../native/read/column-shapes.js';
import { converterFor, fieldOf, toData } from './plan.js';
import { ALL_VALID, type Converter } from './converter.js';

export { timestampUnitDigits, decimalBits } from './fixed.js';

/** Converts the batches of one result (one schema) into Arrow record batches. */
export class ArrowConverter {
  readonly schema: Schema;
  private readonly converters: Converter[];

  constructor(readonly names: readonly string[], readonly types: readonly string[]) {
    if (names.length !== types.length) throw new ChwireConfigError(`toArrow: ${names.length} names but ${types.length} types`);
    this.converters = types.map((type, k) => converterFor(parseType(type), { column: names[k]!, type }));
    this.schema = new Schema(this.converters.map((c, k) => fieldOf(names[k]!, c)));
  }

  /** One batch (a fetchColumns result or a streamColumns batch with these names and types). */
  batch(cols: NativeColumns): RecordBatch {
    if (cols.columns.length !== this.converters.length || cols.names.some((n, k) => n !== this.names[k] || cols.types[k] !== this.types[k])) {
      throw new ChwireConfigError('toArrow: a batch whose columns differ from the first batch of the result');
    }
    const rows = cols.rowCount;
    const children: Data[] = this.converters.map((c, k) => toData(c, cols.columns[k], rows));
    const struct = makeData({ type: new Struct(this.schema.fields), length: rows, children, nullCount: 0 });
    return new RecordBatch(this.schema, struct);
  }

  /** A batch of no rows (the schema alone). */
  empty(): RecordBatch {
    const children = this.converters.map((c) => c.values([], ALL_VALID));
    return new RecordBatch(this.schema, makeData({ type: new Struct(this.schema.fields), length: 0, children, nullCount: 0 }));
  }
}

/**
 * A fetchColumns result (or one streamColumns batch) as an Arrow Table with ClickHouse's logical
 * types. Throws ChwireTypeError for a column type with no mapping (naming the column and type),
 * ChwireConfigError for a column read with options whose values lost digits.
 */
export function toArrow(result: NativeColumns): Table {
  const conv = new ArrowConverter(result.names, result.types);
  return new Table(conv.schema, [conv.batch(result)]);
}

/** What arrowBatches reads: client.streamColumns(…) (or any async iterable of column batches). */
export type ColumnBatches = AsyncIterable<NativeColumns> & { readonly columns?: readonly { readonly name: string; readonly type: string }[] | undefined };

/**
 * A streamColumns stream as Arrow record batches with one schema, ready for
 * `RecordBatchStreamWriter` (e.g. `RecordBatchStreamWriter.writeAll(arrowBatches(s))`). A result
 * with no rows yields one empty batch when the stream knows its columns, so the writer still
 * sends the schema.
 */
export async function* arrowBatches(stream: ColumnBatches): AsyncGenerator<RecordBatch, void, undefined> {
  let conv: ArrowConverter | undefined;
  for await (const b of stream) {
    conv ??= new ArrowConverter(b.names, b.types);
    yield conv.batch(b);
  }
  if (conv === undefined && stream.columns !== undefined && stream.columns.length > 0) {
    const cols = stream.columns;
    yield new ArrowConverter(cols.map((c) => c.name), cols.map((c) => c.type)).empty();
  }
}
