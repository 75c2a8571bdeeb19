// The parts of the client loaded on first use, each by a dynamic `import()` of a `chunk-*.ts`
// entry that exports only what is taken from it: a bundler that splits code (esbuild
// `--splitting`, Rollup, webpack, Vite) puts each in a chunk of its own, which a page or a Worker
// fetches only when a call first needs it. In Node (the ES and CommonJS builds) it is a module load.
// - the Native reader: on the first result set read in Native (servers older than 20.1, or
//   `format: 'Native'`); the RowBinary reader: on the first in RowBinaryWithNamesAndTypes;
// - the query-parameter formatting (value checks, text forms): on the first call with `params`;
// - the insert path (Native encoders, table schema, JSON-typed rows): on the first insert.
// Invariants: a part is loaded before its call sends its query (a part that cannot load sends no
// query of the call and takes no row); once loaded it is held for the process (as the module cache
// would) and later calls take it without an `await`, so nothing is added per row or per value; a
// part that fails to load is a ChwireConnectionError naming it, and is not remembered as failed
// (the next call imports again).
import { ChwireConnectionError } from '../errors.js';
import type { RowStreamDecoder } from '../stream-decoder.js';
import type { RowBinaryOptions } from '../rowbinary/decode.js';
import type { NativeDecodeOptions } from '../native/read/options.js';
import type { formatQueryParam } from './sql/params.js';
import type { insertRows } from './insert/insert.js';

/** A row reader of one wire format: makes the stream decoder of one result set. */
export type RowReader = (options: RowBinaryOptions & NativeDecodeOptions) => RowStreamDecoder;
export type WireFormat = 'Native' | 'RowBinaryWithNamesAndTypes';
type FormatParam = typeof formatQueryParam;
type InsertRows = typeof insertRows;

let native: RowReader | undefined;
let rowBinary: RowReader | undefined;
let params: FormatParam | undefined;
let insert: InsertRows | undefined;

/** The reader of `format` when it is loaded already, else undefined (then `loadRowReader`). */
export function loadedRowReader(format: WireFormat): RowReader | undefined {
  return format === 'Native' ? native : rowBinary;
}

/** Loads (once) the reader of `format`. */
export async function loadRowReader(format: WireFormat): Promise<RowReader> {
  if (format === 'Native') return native ??= await chunk('the Native reader (chunk-native-reader)', () => import('./read/chunk-native-reader.js'), (m) => m.createNativeDecoder);
  return rowBinary ??= await chunk('the RowBinary reader (chunk-rowbinary-reader)', () => import('./read/chunk-rowbinary-reader.js'), (m) => m.createRowBinaryDecoder);
}

/** formatQueryParam when loaded already, else undefined (then `loadParams`). */
export function loadedParams(): FormatParam | undefined {
  return params;
}

/** Loads (once) the query-parameter formatting. */
export async function loadParams(): Promise<FormatParam> {
  return params ??= await chunk('the query-parameter formatting (chunk-params)', () => import('./sql/chunk-params.js'), (m) => m.formatQueryParam);
}

/** insertRows when loaded already, else undefined (then `loadInsert`). */
export function loadedInsert(): InsertRows | undefined {
  return insert;
}

/** Loads (once) the insert path. */
export async function loadInsert(): Promise<InsertRows> {
  return insert ??= await chunk('the insert encoders (chunk-insert)', () => import('./insert/chunk-insert.js'), (m) => m.insertRows);
}

/** A part of chwire loaded on first use, or a ChwireConnectionError that names it. */
async function chunk<M, T>(name: string, load: () => Promise<M>, pick: (m: M) => T): Promise<T> {
  let m: M;
  try {
    m = await load();
  } catch (e) {
    throw new ChwireConnectionError(`could not load ${name}, a part of chwire loaded on first use: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  return pick(m);
}
