// The entry of the lazily loaded Native reader (lazy.ts): only what the client takes from
// it, so a bundler keeps no other export of native/read in that chunk or beside it.
export { createNativeDecoder } from '../../native/read/row-decoder.js';
