// chwire/codec: the wire codecs with no I/O at all (no `node:` imports anywhere below), usable in
// a worker or a browser bundle.
export {
  decodeRowBinary, decodeRowBinaryReference, createRowBinaryDecoder,
  type RowBinaryOptions, type DecodedRows,
} from './rowbinary/decode.js';
export { compileRowDecoder, compiledCacheSize, clearCompiledCache, type CompiledRowDecoder, type CompileColumn } from './rowbinary/compiled.js';
export type { DecodeOptions, ValueOptions, ResolvedValueOptions } from './plan/options.js';
export type { ColumnInfo, Row, RowStreamDecoder } from './stream-decoder.js';
export * from './errors.js';
export { registerPrecompiled, type PrecompiledEntry } from './codegen/precompiled.js';
export { parseType, printType, readBinaryType, encodeBinaryType, typeEquals } from './types/index.js';
export type { TypeNode } from './types/ast.js';
// Native format (H5): compiled block encoder, block stream, row decoder, columnar reader.
export * from './native/index.js';
export {
  columnType, columnTypes, epochMillis, decimalNumbers, decimalStrings, nullableNumbers, nullableValues, enumLabels, lowCardinalityValues,
  type ColumnType,
} from './columns/helpers.js';
