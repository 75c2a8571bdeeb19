// JSON for HTTP responses of chwire's values: `JSON.stringify` throws on a bigint (UInt64 ids,
// Int64 counters) and writes a Map as `{}` and a typed array as an object of indices. `jsonReplacer`
// is a replacer that turns each into what a JSON reader expects, decided once when it is made:
// bigint as a string (lossless, the default) or as a number (refused, naming the key, when the
// value is not a safe integer: a RangeError, never a silently rounded id); Map as an object; typed arrays
// (fetchColumns' columns) as arrays. Dates are JSON's own (ISO text); everything else passes as is.
// Invariant: runtime-neutral (no `node:` import); a value is never changed without one of these rules.
import { ChwireConfigError } from '../errors.js';

export interface JsonReplacerOptions {
  /** 'string' (default): `"18446744073709551615"`; 'number': a JSON number, refused beyond ±(2^53 − 1). */
  bigint?: 'string' | 'number';
}

export type JsonReplacer = (this: unknown, key: string, value: unknown) => unknown;

const TYPED = Object.getPrototypeOf(Int8Array) as abstract new (...a: never[]) => ArrayLike<unknown>;

export function jsonReplacer(options: JsonReplacerOptions = {}): JsonReplacer {
  for (const k of Object.keys(options)) if (k !== 'bigint') throw new ChwireConfigError(`jsonReplacer: unknown option ${JSON.stringify(k)} (known: bigint)`);
  const mode = options.bigint ?? 'string';
  if (mode !== 'string' && mode !== 'number') throw new ChwireConfigError(`jsonReplacer: option bigint must be 'string' or 'number', not ${JSON.stringify(mode)}`);
  const asNumber = mode === 'number';
  return function replace(key: string, value: unknown): unknown {
    if (typeof value === 'bigint') {
      if (!asNumber) return value.toString();
      const n = Number(value);
      if (!Number.isSafeInteger(n)) {
        // The value itself stays out of the message (a result value may be a secret).
        throw new RangeError(`jsonReplacer: ${key === '' ? 'the value' : `key ${JSON.stringify(key)}`} holds an integer beyond ±(2^53 − 1), which a JSON number cannot hold exactly; use { bigint: 'string' }`);
      }
      return n;
    }
    if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [typeof k === 'string' ? k : typeof k === 'bigint' ? k.toString() : JSON.stringify(k, replace), v]));
    if (value instanceof TYPED) return Array.from(value);
    return value;
  };
}

/** `JSON.stringify(value, jsonReplacer(options))`: a response body from chwire's values. */
export function toJson(value: unknown, options?: JsonReplacerOptions): string {
  return JSON.stringify(value, jsonReplacer(options));
}
