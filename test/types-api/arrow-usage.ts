// How a user writes against `chwire/arrow` and the column helpers (through package.json `exports`,
// the shipped .d.ts, a strict project with exactOptionalPropertyTypes): fetchColumns results and
// streamColumns streams go in as they are. Only type-checked, never called.
import { createClient, epochMillis, decimalNumbers, columnTypes, type ColumnType } from 'chwire';
import { toArrow, arrowBatches } from 'chwire/arrow';
import { RecordBatchStreamWriter, type Table, type RecordBatch } from 'apache-arrow';
import { expectType, type Equal } from './expect.js';

export async function arrowUsage(): Promise<void> {
  const client = createClient({ url: 'http://localhost:8123' });
  const result = await client.fetchColumns('SELECT ts, price FROM trades');
  const table = toArrow(result);
  expectType<Equal<typeof table, Table>>();
  for await (const b of arrowBatches(client.streamColumns('SELECT 1'))) expectType<Equal<typeof b, RecordBatch>>();
  const writer = await RecordBatchStreamWriter.writeAll(arrowBatches(client.streamColumns('SELECT 1')));
  void writer;
  const types: ColumnType[] = columnTypes(result);
  const zone: string | undefined = types[0]?.timezone;
  const x: Float64Array = epochMillis(result.columns[0]!, result.types[0]!);
  const y: Float64Array = decimalNumbers(result.columns[1]!, result.types[1]!);
  void zone; void x; void y;
  // @ts-expect-error toArrow takes a columnar result, not rows
  toArrow(await client.fetch('SELECT 1'));
}
