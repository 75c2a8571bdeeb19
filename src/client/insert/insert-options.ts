// Per-call insert options: validated once, before anything is read or sent, and turned into the
// settings the client sends for them. Invariant: an option the server cannot honour (by its
// version) is a ChwireConfigError naming the option and the version it needs, never ignored.
import { ChwireConfigError } from '../../errors.js';
import type { ServerInfo } from '../../transport/types.js';
import type { Capabilities } from '../capabilities.js';
import type { InsertOptions } from './insert-types.js';

const KNOWN = new Set(['columns', 'settings', 'queryId', 'sessionId', 'signal', 'blockSize', 'format', 'async', 'deduplicationToken', 'onProgress', 'progressInterval', 'role', 'httpHeaders']);

export function checkInsertOptions(o: InsertOptions): void {
  if (typeof o !== 'object' || o === null) throw new ChwireConfigError('insert options must be an object');
  for (const k of Object.keys(o)) {
    if (!KNOWN.has(k)) throw new ChwireConfigError(`unknown insert option ${JSON.stringify(k)}`);
  }
  if (o.blockSize !== undefined && (!Number.isSafeInteger(o.blockSize) || o.blockSize < 0)) {
    throw new ChwireConfigError(`insert option blockSize must be a non-negative integer, got ${String(o.blockSize)}`);
  }
  if (o.columns !== undefined && (!Array.isArray(o.columns) || o.columns.some((c) => typeof c !== 'string'))) {
    throw new ChwireConfigError('insert option columns must be an array of column names');
  }
  if (o.format !== undefined && (typeof o.format !== 'string' || !/^[A-Za-z][A-Za-z0-9_]*$/.test(o.format))) {
    throw new ChwireConfigError(`insert option format must be a format name, got ${JSON.stringify(o.format)}`);
  }
  const a = o.async;
  if (a !== undefined && typeof a !== 'boolean') {
    if (typeof a !== 'object' || a === null) throw new ChwireConfigError('insert option async must be a boolean or { wait: boolean }');
    for (const [k, v] of Object.entries(a)) {
      if (k !== 'wait') throw new ChwireConfigError(`unknown insert option async.${k}`);
      if (v !== undefined && typeof v !== 'boolean') throw new ChwireConfigError('insert option async.wait must be a boolean');
    }
  }
  const t = o.deduplicationToken;
  // The token is the caller's (possibly derived from data): it is never echoed in a message.
  if (t !== undefined && (typeof t !== 'string' || t === '')) throw new ChwireConfigError('insert option deduplicationToken must be a non-empty string');
}

/** Largest UInt64: with it the server squashes the whole input into one block (blockSize 0). */
const WHOLE_INPUT = '18446744073709551615';

/**
 * With a deduplication token, the settings that make the server form exactly one block (part, per
 * partition) from each block of `blockSize` rows the client sends. The server numbers the blocks
 * it forms and dedupes each under the token plus its number; left to its own squashing (up to
 * ~1M rows or 256 MiB), a first attempt that stopped after k blocks formed other blocks than the
 * retry (k blocks in one part against all of them in one part), so nothing matched and the retry
 * inserted everything again. Formed one per client block, the retry's first k blocks are the
 * first attempt's, recognised and dropped, and the rest inserted. Asynchronous inserts are
 * deduplicated per insert by the server's queue: no settings.
 */
export function dedupBlockSettings(o: InsertOptions, blockSize: number): Record<string, string> {
  if (o.deduplicationToken === undefined || (o.async !== undefined && o.async !== false)) return {};
  return { min_insert_block_size_rows: blockSize === 0 ? WHOLE_INPUT : String(blockSize), min_insert_block_size_bytes: '0' };
}

/** The token of block `k` of an insert sent one block per request (each request is one insert to the server). */
export function blockToken(token: string, k: number): string {
  return `${token}:block-${k}`;
}

/** The settings the client sends for an insert with these options (the caller's own settings come after and win). */
export function insertSettings(o: InsertOptions, caps: Capabilities, info: ServerInfo): Record<string, string> {
  const out: Record<string, string> = {};
  const a = o.async;
  if (a !== undefined && a !== false) {
    if (!caps.asyncInsert) throw new ChwireConfigError(`insert option async needs ClickHouse 21.11 or later (async_insert); the server is ${info.version}`);
    out['async_insert'] = '1';
    out['wait_for_async_insert'] = a === true || a.wait !== false ? '1' : '0';
  } else if (caps.asyncInsert) {
    // Explicitly synchronous, whatever the user's profile says: one insert, one write.
    out['async_insert'] = '0';
  }
  if (o.deduplicationToken !== undefined) {
    if (!caps.deduplicationToken) throw new ChwireConfigError(`insert option deduplicationToken needs ClickHouse 22.2 or later (insert_deduplication_token); the server is ${info.version}`);
    out['insert_deduplication_token'] = o.deduplicationToken;
  }
  return out;
}
