// The entry of the lazily loaded insert path (lazy.ts): only what insert() takes from it,
// so a bundler keeps no other export of insert.ts in that chunk or beside it.
export { insertRows } from './insert.js';
