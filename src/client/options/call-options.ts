// Per-call option names, checked once per call: an unknown key is refused with ChwireConfigError
// (as an unknown client option is), naming chwire's option when the key is an @clickhouse/client
// one (`abort_signal` → `signal`), so a half-migrated call never silently ignores what it was given.
//
// Invariant: each call's list of known keys is built from its option type (the types the Client methods take; KeyList below: a key
// missing from a list or not in the type is a compile error), so an option added to a type is
// one edit here and can never be refused at run time. The check is one Set lookup per given key.
import { ChwireConfigError } from '../../errors.js';
import { checkSettingName } from './setting-name.js';
import { optionHint } from './official-names.js';
import { checkPerCallSettings, type PerCallSettings } from './per-call-settings.js';
import type { ExecOptions, QueryOptions } from '../core.js';
import type { ColumnsOptions } from '../read/columns.js';
import type { RawOptions } from '../read/raw-stream.js';
import type { InsertOptions } from '../insert/insert-types.js';

/** Every key of T, each listed once: a missing or an extra key fails to compile. */
type KeyList<T> = { readonly [K in keyof Required<T>]: true };


// Keys shared by the row queries (fetch, fetchOne, fetchValue, stream).
const QUERY: KeyList<QueryOptions> = {
  params: true, settings: true, queryId: true, sessionId: true, signal: true, format: true, onProgress: true, progressInterval: true,
  role: true, httpHeaders: true,
  int64: true, int128: true, decimal: true, datetime: true, date: true, time: true, strings: true, uuid: true, maps: true, float32: true, rows: true, columns: true,
  maxResultBytes: true, maxResultRows: true, callTimeout: true,
};
const EXEC: KeyList<ExecOptions> = {
  params: true, settings: true, queryId: true, sessionId: true, signal: true, onProgress: true, progressInterval: true, role: true, httpHeaders: true,
  idempotent: true, callTimeout: true,
};
const COLUMNS: KeyList<ColumnsOptions> = {
  ...EXEC,
  int64: true, int128: true, decimal: true, datetime: true, date: true, time: true, uuid: true, maps: true, float32: true,
  strings: true, columns: true, wire: true, types: true, maxResultBytes: true, maxResultRows: true,
};
const RAW: KeyList<RawOptions> = {
  format: true, params: true, settings: true, queryId: true, sessionId: true, signal: true, appendedExceptions: true, onProgress: true, progressInterval: true,
  role: true, httpHeaders: true, maxResultBytes: true, maxResultRows: true,
};
const INSERT: KeyList<InsertOptions> = {
  columns: true, settings: true, queryId: true, sessionId: true, signal: true, blockSize: true, format: true, async: true, deduplicationToken: true,
  onProgress: true, progressInterval: true, role: true, httpHeaders: true,
};
const PING: KeyList<{ signal?: AbortSignal }> = { signal: true };

function set(list: object): ReadonlySet<string> {
  return new Set(Object.keys(list));
}

const KNOWN = {
  fetch: set(QUERY), fetchOne: set(QUERY), fetchValue: set(QUERY), stream: set(QUERY),
  execute: set(EXEC), fetchColumns: set(COLUMNS), streamColumns: set(COLUMNS), streamRaw: set(RAW), insert: set(INSERT), ping: set(PING),
} as const;

export type CheckedCall = keyof typeof KNOWN;

/**
 * Refuse option keys `call` does not know (ChwireConfigError). `opts` undefined is no options.
 * `allowed`: the guarded settings the client lets a call set (per-call-settings.ts); undefined: none.
 */
export function checkCallOptions(call: CheckedCall, opts: unknown, allowed: PerCallSettings = NONE): void {
  if (opts === undefined) return;
  if (typeof opts !== 'object' || opts === null || Array.isArray(opts)) {
    throw new ChwireConfigError(`the options of ${call} must be an object, got ${opts === null ? 'null' : Array.isArray(opts) ? 'an array' : typeof opts}`);
  }
  const known = KNOWN[call];
  const streamed = call === 'stream' || call === 'streamColumns';
  for (const k of Object.keys(opts)) {
    if (!known.has(k)) throw new ChwireConfigError(`unknown option ${JSON.stringify(k)} of ${call}${optionHint(k, call)}`);
    // A stream holds no result: a bound of one would never be reached, so it is refused, not ignored.
    if (streamed && (k === 'maxResultBytes' || k === 'maxResultRows') && (opts as Record<string, unknown>)[k] !== undefined) {
      throw new ChwireConfigError(`option ${k} bounds a buffered result (fetch, fetchOne, fetchValue, fetchColumns); ${call} holds no result (its memory is bounded by reading as it goes), so it does not take ${k}`);
    }
    if (streamed && k === 'callTimeout' && (opts as Record<string, unknown>)[k] !== undefined) {
      throw new ChwireConfigError(`option callTimeout bounds a buffered call; ${call} lasts as long as its consumer reads, so it does not take callTimeout: pass signal: AbortSignal.timeout(ms) to bound it`);
    }
  }
  // Setting names reach a SETTINGS clause (chdb://) or URL parameters: identifiers only, checked
  // before anything (a DESCRIBE, a probe) is sent.
  const settings = (opts as { settings?: unknown }).settings;
  if (settings !== undefined) {
    if (typeof settings !== 'object' || settings === null) throw new ChwireConfigError(`option settings of ${call} must be an object of setting names and values`);
    for (const k of Object.keys(settings)) checkSettingName(k);
    checkPerCallSettings(call, settings, allowed);
  }
}

const NONE: PerCallSettings = new Set();
