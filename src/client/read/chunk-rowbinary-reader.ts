// The entry of the lazily loaded RowBinary reader (lazy.ts): only what the client takes
// from it, so a bundler keeps no other export of rowbinary/decode in that chunk or beside it.
export { createRowBinaryDecoder } from '../../rowbinary/decode.js';
