// The typed AST of ClickHouse type names, shared by the read and the write path.
//
// Invariant: a TypeNode is plain immutable data (no methods, no cycles), so it can be printed,
// compared structurally, hashed into cache keys and sent to a worker. Aliases are normalised at
// parse time to the canonical form the server prints (Decimal32(S) -> Decimal(9, S)), so that
// print(parse(x)) is canonical and parse(print(ast)) deep-equals ast.

export const INT_KINDS = [
  'UInt8', 'UInt16', 'UInt32', 'UInt64', 'UInt128', 'UInt256',
  'Int8', 'Int16', 'Int32', 'Int64', 'Int128', 'Int256',
] as const;
export type IntKind = (typeof INT_KINDS)[number];

/** Types with no parameters whose byte layout is fully known from the name. */
export const PLAIN_KINDS = [
  ...INT_KINDS,
  'Float32', 'Float64', 'BFloat16', 'Bool', 'String', 'UUID', 'IPv4', 'IPv6',
  'Date', 'Date32', 'Time', 'Nothing',
] as const;
export type PlainKind = (typeof PLAIN_KINDS)[number];

export const GEO_KINDS = ['Point', 'Ring', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon', 'Geometry'] as const;
export type GeoKind = (typeof GEO_KINDS)[number];

export const INTERVAL_UNITS = [
  'Nanosecond', 'Microsecond', 'Millisecond', 'Second', 'Minute', 'Hour',
  'Day', 'Week', 'Month', 'Quarter', 'Year',
] as const;
export type IntervalUnit = (typeof INTERVAL_UNITS)[number];

export interface PlainType { readonly kind: PlainKind }
export interface DecimalType { readonly kind: 'Decimal'; readonly precision: number; readonly scale: number }
export interface FixedStringType { readonly kind: 'FixedString'; readonly length: number }
/** `timezone` is absent when the type name has none (then the server/session zone applies). */
export interface DateTimeType { readonly kind: 'DateTime'; readonly timezone?: string }
export interface DateTime64Type { readonly kind: 'DateTime64'; readonly precision: number; readonly timezone?: string }
export interface Time64Type { readonly kind: 'Time64'; readonly precision: number }
export interface EnumEntry { readonly label: string; readonly value: number }
/** Entries in the order the name lists them (the server sorts them by value). */
export interface EnumType { readonly kind: 'Enum8' | 'Enum16'; readonly entries: readonly EnumEntry[] }
export interface NullableType { readonly kind: 'Nullable'; readonly inner: TypeNode }
export interface LowCardinalityType { readonly kind: 'LowCardinality'; readonly inner: TypeNode }
export interface ArrayType { readonly kind: 'Array'; readonly element: TypeNode }
/** `names` is present (same length as `elements`) only for named tuples. */
export interface TupleType { readonly kind: 'Tuple'; readonly elements: readonly TypeNode[]; readonly names?: readonly string[] }
export interface MapType { readonly kind: 'Map'; readonly key: TypeNode; readonly value: TypeNode }
/** Nested(a T1, b T2): encoded exactly as Array(Tuple(a T1, b T2)). */
export interface NestedType { readonly kind: 'Nested'; readonly names: readonly string[]; readonly elements: readonly TypeNode[] }
/** Members in header order, which the server sorts by name; the discriminator indexes this list. */
export interface VariantType { readonly kind: 'Variant'; readonly members: readonly TypeNode[] }
export interface DynamicType { readonly kind: 'Dynamic'; readonly maxTypes?: number }
export interface JsonTypedPath { readonly path: string; readonly type: TypeNode }
export interface JsonType {
  readonly kind: 'JSON';
  readonly maxDynamicPaths?: number;
  readonly maxDynamicTypes?: number;
  readonly typedPaths: readonly JsonTypedPath[];
  readonly skipPaths: readonly string[];
  readonly skipRegexps: readonly string[];
}
export interface GeoType { readonly kind: GeoKind }
export interface IntervalType { readonly kind: 'Interval'; readonly unit: IntervalUnit }
export interface SimpleAggregateFunctionType {
  readonly kind: 'SimpleAggregateFunction';
  /** The function as written, e.g. `sum` or `anyLast`; parameters included verbatim if any. */
  readonly func: string;
  readonly inner: TypeNode;
}
/** Recognised but not decodable: states are opaque and carry no length (rowbinary.md §5.10). */
export interface AggregateFunctionType {
  readonly kind: 'AggregateFunction';
  /** The text between the outer parentheses, verbatim. */
  readonly args: string;
}
/** QBit(T, N): RowBinary writes it as Array(T). */
export interface QBitType { readonly kind: 'QBit'; readonly element: TypeNode; readonly dimension: number }

export type TypeNode =
  | PlainType | DecimalType | FixedStringType | DateTimeType | DateTime64Type | Time64Type | EnumType
  | NullableType | LowCardinalityType | ArrayType | TupleType | MapType | NestedType | VariantType
  | DynamicType | JsonType | GeoType | IntervalType | SimpleAggregateFunctionType | AggregateFunctionType
  | QBitType;

export type TypeKind = TypeNode['kind'];

/** Byte width of a Decimal's unscaled integer, chosen by precision (rowbinary.md §4). */
export function decimalByteWidth(precision: number): 4 | 8 | 16 | 32 {
  if (precision <= 9) return 4;
  if (precision <= 18) return 8;
  if (precision <= 38) return 16;
  return 32;
}

const INT_WIDTH: Readonly<Record<IntKind, number>> = {
  UInt8: 1, UInt16: 2, UInt32: 4, UInt64: 8, UInt128: 16, UInt256: 32,
  Int8: 1, Int16: 2, Int32: 4, Int64: 8, Int128: 16, Int256: 32,
};

export function isIntKind(kind: string): kind is IntKind {
  return Object.prototype.hasOwnProperty.call(INT_WIDTH, kind);
}

/**
 * The number of bytes every value of `t` takes in RowBinary, or -1 when values vary in size.
 * The compiled decoder groups adjacent columns with a fixed width under one bounds check.
 */
export function fixedWidth(t: TypeNode): number {
  switch (t.kind) {
    case 'Float32': case 'Date32': case 'IPv4': case 'Time': return 4;
    case 'Float64': case 'Interval': case 'Time64': case 'DateTime64': return 8;
    case 'BFloat16': case 'Date': case 'Enum16': return 2;
    case 'Bool': case 'Enum8': return 1;
    case 'DateTime': return 4;
    case 'UUID': case 'IPv6': return 16;
    case 'Decimal': return decimalByteWidth(t.precision);
    case 'FixedString': return t.length;
    case 'Point': return 16;
    case 'Tuple': {
      let sum = 0;
      for (const e of t.elements) {
        const w = fixedWidth(e);
        if (w < 0) return -1;
        sum += w;
      }
      return sum;
    }
    case 'SimpleAggregateFunction': case 'LowCardinality': return fixedWidth(t.inner);
    default:
      return isIntKind(t.kind) ? INT_WIDTH[t.kind] : -1;
  }
}
