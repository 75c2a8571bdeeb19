// The Native format codec: compiled block encoder, block stream, row decoder, columnar reader.
// No `node:` imports (part of `chwire/codec`).
export { compileNativeEncoder, type NativeEncoder, type NativeColumnSpec, type NativeEncoderOptions } from './encoder.js';
export { nativeBlocks } from './blocks.js';
export { createNativeDecoder, decodeNative } from './row-decoder.js';
export {
  decodeNativeColumns, type NativeColumns, type NativeColumn, type NativeColumnsOptions, type NumericArray,
  type NullableNumericColumn, type NullableStringsColumn, type RawStringsColumn, type EnumColumn, type LowCardinalityColumn,
} from './columns.js';
export { createNativeColumnsDecoder, NativeColumnsCollector, type NativeColumnsDecoder } from './column-decoder.js';
export type { ColumnValueOptions } from './column-plan.js';
export type { NativeDecodeOptions } from './options.js';
