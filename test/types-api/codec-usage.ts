// How a user writes against `chwire/codec` (through package.json `exports`, i.e. the shipped
// .d.ts), in a program with no @types/node: the codec's declarations must not need it.
// Each `@ts-expect-error` line is misuse that must stay a compile error. Only type-checked.
import {
  decodeRowBinary, createRowBinaryDecoder, compileRowDecoder, parseType, printType, typeEquals,
  compileNativeEncoder, nativeBlocks, decodeNative, decodeNativeColumns, ChwireDecodeError,
  type ColumnInfo, type DecodedRows, type DecodeOptions, type NativeColumns, type Row, type RowBinaryOptions,
  type RowStreamDecoder, type TypeNode, type ValueOptions,
} from 'chwire/codec';
import { expectType, type Equal } from './expect.js';

export async function codecUsage(body: Uint8Array, chunks: Uint8Array[]): Promise<void> {
  const whole = decodeRowBinary(body, { rows: 'array', int64: 'string', binaryTypes: false, jsonAsString: true });
  expectType<Equal<typeof whole, DecodedRows>>();
  expectType<Equal<typeof whole.columns, ColumnInfo[]>>();
  expectType<Equal<typeof whole.rows, Row[]>>();
  // @ts-expect-error bytes, not text
  decodeRowBinary('body');
  // @ts-expect-error not a value of decimal
  decodeRowBinary(body, { decimal: 'bigint' });
  // @ts-expect-error binaryTypes is a boolean
  decodeRowBinary(body, { binaryTypes: 1 });

  const dec = createRowBinaryDecoder({ maps: 'Map', strings: 'bytes' });
  expectType<Equal<typeof dec, RowStreamDecoder>>();
  const out: Row[] = [];
  for (const c of chunks) out.push(...dec.push(c));
  dec.end();
  expectType<Equal<typeof dec.columns, readonly ColumnInfo[] | undefined>>();
  expectType<Equal<typeof dec.rowCount, number>>();

  // Decode options as literals: per-result and per-column.
  const value: ValueOptions = { date: 'string', time: 'number', uuid: 'bytes', int128: 'number' };
  const options: DecodeOptions = { rows: 'object', columns: { a: value, b: { datetime: 'Date' } } };
  const rb: RowBinaryOptions = { ...options, binaryTypes: true };
  decodeRowBinary(body, rb);
  // @ts-expect-error Date is spelt with a capital D
  const badDate: ValueOptions = { datetime: 'date' };
  void badDate;
  // @ts-expect-error rows are objects or arrays
  const badRows: DecodeOptions = { rows: 'map' };
  void badRows;

  // The type AST is a discriminated union.
  const t: TypeNode = parseType('Array(Nullable(Decimal(10, 2)))');
  if (t.kind === 'Array' && t.element.kind === 'Nullable' && t.element.inner.kind === 'Decimal') {
    expectType<Equal<typeof t.element.inner.scale, number>>();
  }
  // @ts-expect-error Array has an element, not an inner type
  if (t.kind === 'Array') void t.inner;
  const s: string = printType(t);
  const same: boolean = typeEquals(t, parseType(s));
  void same;
  const compiled = compileRowDecoder([{ name: 'a', type: t }], { rows: 'array' });
  expectType<Equal<typeof compiled.source, string>>();

  // Native: encoder, block stream, row decoder, columnar reader.
  const enc = compileNativeEncoder([{ name: 'a', type: 'UInt8' }], 'object');
  // @ts-expect-error rows are objects or arrays
  compileNativeEncoder([{ name: 'a', type: 'UInt8' }], 'map');
  for await (const block of nativeBlocks([{ a: 1 }], enc, 0)) expectType<Equal<typeof block, Uint8Array[]>>();
  const native = decodeNative(body, { rows: 'array' });
  expectType<Equal<typeof native.rows, Row[]>>();
  const columns = decodeNativeColumns(chunks);
  expectType<Equal<typeof columns, NativeColumns>>();

  try {
    decodeRowBinary(body);
  } catch (e) {
    if (e instanceof ChwireDecodeError) {
      const where: [string | undefined, number | undefined, number] = [e.column, e.row, e.offset];
      void where;
    }
  }
}
