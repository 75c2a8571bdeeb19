// Columnar read options → the form of each column, decided once per column from its type
// (ColumnarPlan.collector). Columnar reads differ from row reads in two documented ways:
// - `wire` (default true): the fixed-width types whose wire integer is a lossless columnar value
//   come as typed arrays of those integers: Date → Uint16Array (days), Date32 → Int32Array (days),
//   DateTime → Uint32Array (seconds), DateTime64(P) → BigInt64Array (ticks of 10^-P s), Time →
//   Int32Array (seconds), Time64(P) → BigInt64Array (ticks), Decimal32/64 → Int32Array/BigInt64Array
//   (scaled by 10^S), IPv4 → Uint32Array, Enum8/16 → codes + labels (and Nullable of the typed
//   ones with a null mask). An explicit value option for the type's family (`date`, `datetime`,
//   `time`, `decimal`; per call, per client or per column) gives arrays of JS values for it
//   instead, and `wire: false` does so for all of them.
// - `strings: 'raw'`: top-level String/FixedString columns (and Nullable of them) as offsets + bytes,
//   strings nested in other types as Uint8Array (the `'bytes'` form): no JS string is made.
// Invariant: every option is validated here (ChwireConfigError naming it) before a byte is read.
import { ChwireConfigError } from '../../errors.js';
import type { TypeNode } from '../../types/ast.js';
import { decimalByteWidth } from '../../types/ast.js';
import { assertDecodable } from '../../rowbinary/readers.js';
import { withSessionZone } from '../../plan/session-zone.js';
import type { ResolvedValueOptions, ValueOptions } from '../../plan/options.js';
import { columnReader, type ReaderContext } from './column-readers.js';
import { specialReader } from './column-dynamic.js';
import { resolveNativeOptions, type NativeDecodeOptions, type ResolvedNativeOptions } from './options.js';
import {
  typedCollector, enumCollector, nullableCollector, rawStringsCollector, lowCardinalityCollector, valuesCollector,
  type Collector, type TypedCtor,
} from './column-parts.js';

/** Value options of columnar reads: `strings` may also be `'raw'`. */
export type ColumnValueOptions = Omit<ValueOptions, 'strings'> & { strings?: ValueOptions['strings'] | 'raw' };

export interface NativeColumnsOptions extends Omit<NativeDecodeOptions, 'strings' | 'columns'> {
  /** `'raw'`: String columns as `{ kind: 'strings', offsets, data }` (no JS strings). */
  strings?: ColumnValueOptions['strings'];
  /** Per-column overrides, by column name (own properties only). */
  columns?: Readonly<Record<string, ColumnValueOptions>>;
  /**
   * Typed arrays of wire integers for dates, times, Decimal32/64, IPv4 and Enum codes (default
   * true); false: arrays of JS values for all of them, as the row decoders give.
   */
  wire?: boolean;
  /** Real column types by name (e.g. from DESCRIBE), to restore what the Native header loses (DateTime zones). */
  types?: Readonly<Record<string, string>>;
}

type Family = 'date' | 'datetime' | 'time' | 'decimal';

const NUMERIC: Partial<Record<TypeNode['kind'], TypedCtor>> = {
  Int8: Int8Array, UInt8: Uint8Array, Int16: Int16Array, UInt16: Uint16Array, Int32: Int32Array, UInt32: Uint32Array,
  Float32: Float32Array, Float64: Float64Array, Int64: BigInt64Array, UInt64: BigUint64Array,
} as Partial<Record<TypeNode['kind'], TypedCtor>>;

const own = (o: object | undefined, k: string): boolean => o !== undefined && o !== null && Object.prototype.hasOwnProperty.call(o, k);

export class ColumnarPlan {
  readonly native: ResolvedNativeOptions;
  readonly types: NativeColumnsOptions['types'];
  private readonly wire: boolean;

  constructor(private readonly options: NativeColumnsOptions | undefined) {
    const o = options ?? {};
    const wire = o.wire ?? true;
    if (typeof wire !== 'boolean') throw new ChwireConfigError(`option wire must be a boolean, got ${JSON.stringify(wire)}`);
    this.wire = wire;
    if (o.types !== undefined && (typeof o.types !== 'object' || o.types === null)) throw new ChwireConfigError('option types must be an object of type names by column name');
    this.types = o.types;
    // 'raw' is columnar only: the shared value options see 'bytes' (what nested strings become).
    const cols: Record<string, ValueOptions> = {};
    if (o.columns !== undefined && o.columns !== null && typeof o.columns === 'object') {
      for (const k of Object.keys(o.columns)) cols[k] = withoutRaw(o.columns[k]) as ValueOptions;
    }
    this.native = resolveNativeOptions({ ...withoutRaw(o), columns: o.columns === undefined ? undefined : cols } as NativeDecodeOptions);
  }

  /** Whether `key` was given for this column, per column or for the whole call. */
  private explicit(name: string, key: Family | 'strings'): unknown {
    const per = own(this.options?.columns, name) ? this.options!.columns![name] : undefined;
    if (per !== undefined && per !== null && per[key] !== undefined) return per[key];
    return this.options?.[key];
  }

  private wired(name: string, family: Family | undefined): boolean {
    return this.wire && (family === undefined || this.explicit(name, family) === undefined);
  }

  /** The typed array of a fixed-width type read as its wire integers, when that is its form here. */
  private typedFor(t: TypeNode, name: string): TypedCtor | undefined {
    // Float32 as its shortest decimal is a value per row (numbers in an array), not the wire's Float32Array.
    if (t.kind === 'Float32' && this.native.forColumn(name).float32 === 'shortest') return undefined;
    const n = NUMERIC[t.kind];
    if (n !== undefined) return n;
    const W = (C: unknown, family: Family | undefined): TypedCtor | undefined => (this.wired(name, family) ? C as TypedCtor : undefined);
    switch (t.kind) {
      case 'Date': return W(Uint16Array, 'date');
      case 'Date32': return W(Int32Array, 'date');
      case 'DateTime': return W(Uint32Array, 'datetime');
      case 'DateTime64': return W(BigInt64Array, 'datetime');
      case 'Time': return W(Int32Array, 'time');
      case 'Time64': return W(BigInt64Array, 'time');
      case 'Decimal': {
        const w = decimalByteWidth(t.precision);
        return w === 4 ? W(Int32Array, 'decimal') : w === 8 ? W(BigInt64Array, 'decimal') : undefined;
      }
      case 'IPv4': return W(Uint32Array, undefined);
      default: return undefined;
    }
  }

  private raw(name: string): boolean {
    return this.explicit(name, 'strings') === 'raw';
  }

  /** The collector of one result column (its form decided here, once). */
  collector(wire: TypeNode, name: string, type: string, views: boolean): Collector {
    // Refused by column name, as the row decoders do (a state has no length prefix).
    assertDecodable(wire, name, type);
    const node = withSessionZone(wire, this.native.zone);
    const o: ResolvedValueOptions = this.native.forColumn(name);
    const t = node.kind === 'SimpleAggregateFunction' ? node.inner : node;
    const C = this.typedFor(t, name);
    if (C !== undefined) return typedCollector(C, views);
    const raw = this.raw(name);
    if (raw && (t.kind === 'String' || t.kind === 'FixedString')) return rawStringsCollector(t.kind === 'FixedString' ? t.length : 0);
    if ((t.kind === 'Enum8' || t.kind === 'Enum16') && this.wired(name, undefined)) {
      return enumCollector(t.kind === 'Enum8' ? Int8Array : Int16Array, t.entries, t.kind, views);
    }
    const ctx: ReaderContext = { o, views, special: specialReader, binaryTypes: this.native.binaryTypes };
    if (t.kind === 'Nullable') {
      const inner = t.inner;
      // `wire: false`: every Nullable column is an array of values with null, numbers included
      // (a plain number column is a typed array either way: its values are numbers).
      const CN = this.typedFor(inner, name);
      if (CN !== undefined && (this.wire || NUMERIC[inner.kind] === undefined)) return nullableCollector(typedCollector(CN, views), views);
      if (raw && (inner.kind === 'String' || inner.kind === 'FixedString')) {
        return nullableCollector(rawStringsCollector(inner.kind === 'FixedString' ? inner.length : 0), views);
      }
    }
    if (t.kind === 'LowCardinality') {
      const nullable = t.inner.kind === 'Nullable';
      const inner = t.inner.kind === 'Nullable' ? t.inner.inner : t.inner;
      return lowCardinalityCollector(columnReader(inner, ctx, type), nullable);
    }
    return valuesCollector(columnReader(node, ctx, type));
  }
  /**
   * Whether the column's form holds one JS value per row (an array of values), not typed arrays
   * or raw bytes: what a buffered result's memory estimate charges per value (client/read/held-cost.ts).
   * Mirrors collector(); a form made typed later only makes the estimate high, never low.
   */
  heldAsValues(wire: TypeNode, name: string): boolean {
    const t = wire.kind === 'SimpleAggregateFunction' ? wire.inner : wire;
    if (this.typedFor(t, name) !== undefined) return false;
    const raw = this.raw(name);
    if (raw && (t.kind === 'String' || t.kind === 'FixedString')) return false;
    if ((t.kind === 'Enum8' || t.kind === 'Enum16') && this.wired(name, undefined)) return false;
    if (t.kind === 'Nullable') {
      if (this.typedFor(t.inner, name) !== undefined && (this.wire || NUMERIC[t.inner.kind] === undefined)) return false;
      if (raw && (t.inner.kind === 'String' || t.inner.kind === 'FixedString')) return false;
    }
    // LowCardinality: keys are a typed array; each part's dictionary is counted by its bytes.
    return t.kind !== 'LowCardinality';
  }
}

/** Value options with `strings: 'raw'` read as `'bytes'`; anything else passes on for validation. */
function withoutRaw<T extends { strings?: unknown } | undefined>(o: T): T {
  if (o === undefined || o === null || typeof o !== 'object' || o.strings !== 'raw') return o;
  return { ...o, strings: 'bytes' };
}
