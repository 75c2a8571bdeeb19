// The type layer's public surface: the AST, the text parser/printer, the binary type encoding.
// No `node:` imports anywhere below this folder (it ships in `chwire/codec`).
export * from './ast.js';
export { parseType, MAX_TYPE_DEPTH } from './parse.js';
export { printType } from './print.js';
export { typeEquals } from './equals.js';
export { quoteIdentifier, quoteString, isPlainIdentifier } from './quote.js';
export { readBinaryType, encodeBinaryType } from './binary.js';
