// Hand-written type names for the type-layer tests, shared by the offline and the engine tests.
//
// Invariant: every entry is exactly what the 26.7 engine prints for that type (checked by
// test/types.engine.test.ts), so print(parse(x)) === x must hold for each.

/** Canonical names (as the server prints them) with hostile labels, names and zones. */
export const CANONICAL_CORPUS: readonly string[] = [
  "Enum8('a' = 1)",
  "Enum8('min' = -128, '' = 0, 'it\\'s' = 2, 'back\\\\slash' = 3, 'hé' = 127)",
  "Enum8('a = 1, \\'b\\' = 2' = 1, ')' = 2, ',' = 3, '=' = 4)",
  "Enum16('nl\\n' = -32768, 'tab\\t' = 0, 'nul\\0' = 1, 'cr\\r' = 2, 'bs\\b' = 3, 'ff\\f' = 4, 'x\u0001y' = 5, '\"dq\"' = 6, '`bt`' = 7, '😀' = 32767)",
  'Tuple(plain UInt8, `a b` String, `it\'s` UInt16, `with\\`tick` UInt32, `1x` UInt64, `select` Int8, `hé` Int16)',
  'Tuple(`all` UInt8, `DISTINCT` UInt8, `From` UInt8, `values` UInt8, `table` UInt8, `Null` UInt8, key UInt8, value UInt8, as UInt8, _ UInt8, _1 UInt8)',
  'Tuple(`x\\ny` UInt8, `a\\\\b` String, `t\\tz` Nullable(String))',
  'Tuple()',
  'Tuple(String String, Array Array(UInt8))',
  "DateTime('Etc/GMT+3')",
  "DateTime('it\\'s\\\\odd')",
  "DateTime64(9, 'America/New_York')",
  'DateTime64(0)',
  'Nested(a UInt8, `b c` Array(String))',
  'Map(LowCardinality(String), Array(Tuple(a Nullable(String), b LowCardinality(String))))',
  'Variant(Array(UInt8), String, UInt64)',
  'Dynamic(max_types=0)',
  'Dynamic(max_types=254)',
  "JSON(max_dynamic_types=2, max_dynamic_paths=3, `a.b` UInt8, `select` UInt8, `x y` String, SKIP c, SKIP `c.d`, SKIP REGEXP 'x\\'.*')",
  "JSON(max_dynamic_paths=8, id UInt32, name Nullable(String), SKIP skip_me, SKIP REGEXP '^tmp_')",
  'JSON(`a.b` Array(JSON(max_dynamic_paths=0)))',
  'SimpleAggregateFunction(anyLast, Nullable(String))',
  'AggregateFunction(quantiles(0.5, 0.9), Float64)',
  "AggregateFunction(1, sumMapFiltered([1, 2]), Array(UInt8), Array(UInt64))",
  "AggregateFunction(topKWeighted(10, 3, 'counts'), UInt8, UInt8)",
  'AggregateFunction(count)',
  'QBit(BFloat16, 9)',
  'Decimal(76, 76)',
  'Decimal(1, 0)',
  'FixedString(1)',
  'Time64(0)',
  'IntervalNanosecond',
  'IntervalYear',
  'Array(Nullable(Nothing))',
  'Map(Nothing, Nothing)',
  'LowCardinality(Nullable(FixedString(16)))',
  'Geometry',
  'Array(MultiPolygon)',
];


/** Corpus entries the engine will not create (kept for the offline round trip only). */
export const ENGINE_REFUSES: ReadonlySet<string> = new Set([
  "DateTime('it\\'s\\\\odd')", // not a time zone
]);
