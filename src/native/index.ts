// The Native format codec: compiled block encoder, block stream, row decoder, columnar reader.
// No `node:` imports (part of `chwire/codec`).
export { compileNativeEncoder, type NativeEncoder, type NativeColumnSpec, type NativeEncoderOptions } from './write/encoder.js';
export { nativeBlocks } from './write/blocks.js';
export { createNativeDecoder, decodeNative } from './read/row-decoder.js';
export {
  decodeNativeColumns, type NativeColumns, type NativeColumn, type NativeColumnsOptions, type NumericArray,
  type NullableNumericColumn, type NullableStringsColumn, type RawStringsColumn, type EnumColumn, type LowCardinalityColumn,
} from './read/columns.js';
export { createNativeColumnsDecoder, NativeColumnsCollector, type NativeColumnsDecoder } from './read/column-decoder.js';
export type { ColumnValueOptions } from './read/column-plan.js';
export type { NativeDecodeOptions } from './read/options.js';
