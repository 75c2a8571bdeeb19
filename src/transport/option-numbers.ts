// The number-valued client options (requestTimeout, insertBlockSize, maxOpenConnections,
// idleSocketTtl, hostCooldown): one check per kind of number and one wording of its error, for the
// layer that owns each option (client/options/config.ts and transport/http-options.ts).
// Invariant: undefined is the default; any other value that is not a number of the kind asked for
// is a ChwireConfigError naming the option, never clamped or coerced.
import { ChwireConfigError } from '../errors.js';

export function nonNegativeInteger(name: string, v: unknown, dflt: number): number {
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new ChwireConfigError(`option ${name} must be a non-negative integer, got ${String(v)}`);
  return v;
}

export function positiveInteger(name: string, v: unknown, dflt: number): number {
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) throw new ChwireConfigError(`option ${name} must be a positive integer, got ${String(v)}`);
  return v;
}

export function nonNegative(name: string, v: unknown, dflt: number): number {
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new ChwireConfigError(`option ${name} must be a non-negative number, got ${String(v)}`);
  return v;
}
