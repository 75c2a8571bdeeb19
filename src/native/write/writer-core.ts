// The contract of the Native column writers and the error-position helpers they share.
//
// Invariant: a writer's data() failure is an EncodeFail whose `index` is a position in the array
// it was given; composite writers map nested positions back with `remap`.
import type { ByteSink } from './sink.js';
import { EncodeFail } from '../../convert/encode-values.js';

export interface ColumnWriter {
  /** A valid input value, used as the (ignored) value under NULL and as a LowCardinality placeholder. */
  readonly zero: unknown;
  /** Whether `null`/`undefined` are valid values (Nullable, LowCardinality(Nullable)). */
  readonly nullable: boolean;
  prefix(sink: ByteSink): void;
  data(values: readonly unknown[], sink: ByteSink): void;
  /** Whether `v` has the right JS shape for this column (used to pick a Variant member). */
  accepts(v: unknown): boolean;
}

/** Attach the failing position to an EncodeFail (other errors pass through unchanged). */
export function failedAt(e: unknown, index: number): unknown {
  if (e instanceof EncodeFail && e.index < 0) e.index = index;
  return e;
}

/** Translate a nested failure's index through `toParent`. */
export function remap(e: unknown, toParent: (i: number) => number): unknown {
  if (e instanceof EncodeFail && e.index >= 0) e.index = toParent(e.index);
  return e;
}

/** An array or a typed array (accepted for Array columns). */
export function isList(v: unknown): v is ArrayLike<unknown> {
  return Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView));
}
