// The type → JavaScript value mapping as data: one table that is the documentation of what the
// decoders produce (docs/types.md is rendered from it and a test keeps the two identical).
//
// Invariant: every ClickHouse type family the parser accepts has a row, and every option of
// options.ts that affects a type is listed with all its values; defaults come first.

export interface MappingRow {
  /** Type families, as written in type names. */
  readonly types: string;
  /** The option that chooses the JS form, if any. */
  readonly option?: string;
  /** Option value (or '' when there is no option) → what the decoder returns. Default first. */
  readonly values: readonly (readonly [string, string])[];
}

export const TYPE_MAPPING: readonly MappingRow[] = [
  { types: 'UInt8, UInt16, UInt32, Int8, Int16, Int32', values: [['', '`number`']] },
  {
    types: 'UInt64, Int64, Interval*', option: 'int64',
    values: [['bigint', '`bigint`'], ['number', '`number`, the nearest double (inexact beyond ±2^53)'], ['string', 'decimal text, e.g. `"18446744073709551615"`']],
  },
  {
    types: 'UInt128, Int128, UInt256, Int256', option: 'int128',
    values: [['bigint', '`bigint`'], ['number', '`number`, the nearest double (inexact beyond ±2^53)'], ['string', 'decimal text']],
  },
  {
    types: 'Float32', option: 'float32',
    values: [['exact', '`number`: the Float32\'s exact value (`toFloat32(0.1)` → `0.10000000149011612`); NaN, ±Infinity and -0 kept'], ['shortest', '`number`: the shortest decimal that reads back as the same Float32, as the server prints it (`0.1`)']],
  },
  { types: 'Float64, BFloat16', values: [['', '`number` (NaN, ±Infinity and -0 kept)']] },
  { types: 'Bool', values: [['', '`boolean` (a byte other than 0/1 is a ChwireDecodeError)']] },
  {
    types: 'Decimal(P, S), Decimal32/64/128/256(S)', option: 'decimal',
    values: [['string', 'exact text as ClickHouse prints it, trailing zeros trimmed: `"-1.5"`, `"100"`'], ['number', '`number`, the nearest double']],
  },
  {
    types: 'String, FixedString(N)', option: 'strings',
    values: [['string', 'UTF-8 text; invalid bytes become U+FFFD (no throw); FixedString keeps its NUL padding'], ['bytes', '`Uint8Array`: a fresh copy of the exact bytes']],
  },
  { types: 'Date, Date32', option: 'date', values: [['Date', 'a new `Date` at 00:00 UTC of that day'], ['string', '`"YYYY-MM-DD"`, as the server prints it']] },
  {
    types: 'DateTime, DateTime(tz)', option: 'datetime',
    values: [['Date', 'a new `Date` (the instant; the zone only affects how ClickHouse prints it)'], ['string', 'ISO-8601 UTC: `"2024-01-02T03:04:05Z"`'], ['number', 'milliseconds since the epoch (on insert a number means Unix seconds for DateTime, days for Date, ticks for DateTime64, as the server reads JSON: see native.md "Accepted JavaScript values")'],
      ['text', 'as the server prints it, in the type\'s zone: `"2023-11-14 17:13:20"` (a type without a zone: in the query\'s session_timezone when the client sends one, else in UTC, where the server would use its own zone)']],
  },
  {
    types: 'DateTime64(P), DateTime64(P, tz)', option: 'datetime',
    values: [
      ['Date', 'a new `Date`, floored to the millisecond (**lossy for P > 3**)'],
      ['string', 'ISO-8601 UTC with exactly P fractional digits: `"1969-12-31T23:59:59.123456789Z"`'],
      ['number', 'milliseconds since the epoch, the nearest double (fractional for P > 3)'],
      ['text', 'as the server prints it, in the type\'s zone, exactly P fractional digits: `"2023-11-14 17:13:20.123"`'],
    ],
  },
  { types: 'Time', option: 'time', values: [['string', 'as ClickHouse prints it: `"-01:00:00"`, `"999:59:59"`'], ['number', 'seconds']] },
  { types: 'Time64(P)', option: 'time', values: [['string', '`"12:34:56.789"` (P digits)'], ['number', 'seconds, the nearest double']] },
  { types: 'UUID', option: 'uuid', values: [['string', 'lower-case canonical text'], ['bytes', '`Uint8Array(16)` in RFC 4122 order']] },
  { types: 'IPv4, IPv6', values: [['', 'text as ClickHouse prints it: `"1.2.3.4"`, `"2001:db8::1"`, `"::ffff:1.2.3.4"`']] },
  { types: 'Enum8, Enum16', values: [['', 'the label (a value not in the type is a ChwireDecodeError)']] },
  { types: 'Nullable(T)', values: [['', '`null`, or what T gives']] },
  { types: 'LowCardinality(T), SimpleAggregateFunction(f, T)', values: [['', 'what T gives']] },
  { types: 'Array(T), QBit(T, N)', values: [['', 'an array of what T gives']] },
  { types: 'Tuple(T1, T2, …)', values: [['', 'an array; `Tuple()` is `[]` (a result whose every column is `Tuple()` reads only with `format: \'Native\'`: RowBinary cannot count its rows)']] },
  { types: 'Tuple(a T1, b T2, …)', values: [['', 'a plain object, element names as own properties in order (also `__proto__`)']] },
  { types: 'Nested(a T1, …)', values: [['', 'an array of plain objects (as Array(Tuple(a T1, …)))']] },
  {
    types: 'Map(K, V)', option: 'maps',
    values: [
      ['object', "a plain object; keys are the key as ClickHouse writes it in text (its `toString`) whatever the value options: String keys stay strings, UUID text, Date `\"2024-01-02\"`, DateTime `\"2024-01-02 03:04:05\"` in the type's zone (UTC when it names none), floats `\"nan\"`/`\"-inf\"`/`\"1e21\"`, Array/Tuple/Map keys with quoted strings inside (`\"['a,b']\"`, `\"('a',1)\"`); a repeated key keeps the last value"],
      ['Map', 'a JS `Map` in wire order; keys are K decoded under the column\'s options'],
    ],
  },
  { types: 'Variant(T1, …)', values: [['', 'what the member present gives; `null` for NULL']] },
  { types: 'Dynamic', values: [['', 'what the type it holds gives (under the column\'s options); `null` for NULL']] },
  {
    types: 'JSON', values: [['', 'a nested plain object: dotted paths become nested objects, typed paths are always present (`null` when NULL), dynamic paths holding NULL are absent; keys in the engine order on every read path (paths sorted by their UTF-8 bytes, as its JSON output lists them; integer-like keys still come first, as in any JS object). With the decoder option `jsonAsString` (query sent with output_format_binary_write_json_as_string=1): the JSON text']],
  },
  { types: 'Point', values: [['', '`[x, y]`']] },
  { types: 'Ring, LineString / Polygon, MultiLineString / MultiPolygon', values: [['', 'arrays of points / of rings / of polygons']] },
  { types: 'Geometry', values: [['', 'what the geo member present gives']] },
  { types: 'Nothing', values: [['', 'only inside `Nullable(Nothing)` (`null`) and `Array(Nothing)` (`[]`)']] },
  { types: 'AggregateFunction(…)', values: [['', 'refused: ChwireTypeError naming the column when the decoder is built (states have no length prefix); select `finalizeAggregation(x)` or `hex(x)`']] },
];

/**
 * What `fetch` returns under the default options and does not insert back as the same value
 * (fetch → insert into the same column type → fetch is the identity for every other type; tested
 * by test/insert.roundtrip.property.test.ts), with the option that keeps it.
 */
export interface LossyDefault {
  /** A stable name (the round-trip test refers to rows by it). */
  readonly key: string;
  readonly types: string;
  readonly loses: string;
  readonly lossless: string;
  /** The decode options of `lossless` (the test reads with them and expects the identity). */
  readonly options: Readonly<Record<string, string>>;
}

export const LOSSY_DEFAULTS: readonly LossyDefault[] = [
  { key: 'datetime64', types: 'DateTime64(P) with P > 3', loses: 'the digits below the millisecond (a `Date` holds milliseconds)', lossless: "`datetime: 'string'` (ISO text with P digits; also `'text'`)", options: { datetime: 'string' } },
  { key: 'strings', types: 'String, FixedString(N) holding bytes that are no UTF-8', loses: 'the invalid bytes (each becomes U+FFFD)', lossless: "`strings: 'bytes'`", options: { strings: 'bytes' } },
  { key: 'string-keys', types: 'Map(String, V) whose keys are bytes that are no UTF-8', loses: 'the invalid bytes of the keys (property names are text)', lossless: "`maps: 'Map'` with `strings: 'bytes'`", options: { maps: 'Map', strings: 'bytes' } },
  { key: 'float-keys', types: "Map(Float32/Float64, V) read with `maps: 'Map'` (not the default)", loses: 'the sign of a `-0` key (a JS Map key -0 is 0), and two keys `0` and `-0` become one', lossless: "the default `maps: 'object'` (the key `\"-0\"`)", options: {} },
  { key: 'variant', types: 'Variant(…) whose value another member reads first', loses: "the member: a value is inserted into the member the server reads it into from JSON (a String member's `'5'` into a UInt64 member listed with it)", lossless: 'none: insert such values as the member type through SQL (`CAST`)', options: {} },
];

/** docs/types.md. */
export function renderTypeMapping(): string {
  const lines = [
    '# ClickHouse types → JavaScript values',
    '',
    '<!-- Generated from src/plan/mapping.ts (test/rowbinary.docs.test.ts keeps it in sync). -->',
    '',
    'Options are set for the whole result (`decodeRowBinary(bytes, { int64: \'number\' })`) or per column',
    '(`{ columns: { id: { int64: \'string\' } } }`); the first value listed is the default. Every',
    'default is lossless (what `fetch` returns inserts back as the same value) except the cases in',
    '[Lossy defaults](#lossy-defaults).',
    '',
    '| ClickHouse type | Option | JavaScript value |',
    '|---|---|---|',
  ];
  const esc = (s: string): string => s.replace(/\|/g, '\\|');
  for (const row of TYPE_MAPPING) {
    row.values.forEach(([value, what], i) => {
      const opt = row.option === undefined ? '' : `\`${row.option}: '${value}'\`${i === 0 ? ' (default)' : ''}`;
      lines.push(`| ${i === 0 ? esc(row.types) : ''} | ${opt} | ${esc(what)} |`);
    });
  }
  lines.push(
    '',
    '## Lossy defaults',
    '',
    'What `fetch` returns under the default options inserts back (Native, the default insert format)',
    'into the same column type as the same value, except here:',
    '',
    '| ClickHouse type | The default loses | Lossless option |',
    '|---|---|---|',
    ...LOSSY_DEFAULTS.map((r) => `| ${esc(r.types)} | ${esc(r.loses)} | ${esc(r.lossless)} |`),
    '',
    'Map keys read with `maps: \'object\'` insert back as they are printed: Bool keys `"true"`/`"false"`,',
    'Array, Tuple and Map keys as their text (`"[1,2]"`, `"(1,\'x\')"`), read back into the key type.',
    '',
    '**Rows.** `rows: \'object\'` (default): one plain object per row, column names as own properties in',
    'column order, built by one object literal so every row shares one hidden class (`__proto__`,',
    '`constructor`, `prototype`, `""` are ordinary own properties; a repeated column name keeps the',
    'first position and the last value). `rows: \'array\'`: an array per row in column order.',
    '',
    '**Mutable values are never shared.** Every `Date` and every `Uint8Array` is a new object per value,',
    'so mutating one row never changes another. Only immutable values (strings, numbers, bigints) may',
    'come from per-query caches.',
    '',
    '**Decoder construction options** (RowBinary only): `binaryTypes: true` when the query was sent with',
    '`output_format_binary_encode_types_in_binary_format=1` (the bytes cannot tell text types from binary',
    'ones); `jsonAsString: true` with `output_format_binary_write_json_as_string=1`. Both decoders:',
    '`sessionTimezone: zone` when the query was sent with `session_timezone` (zone-less DateTime types are',
    'then printed in it by `datetime: \'text\'` and as Map keys). The client sets all three from its settings.',
    '',
    '**Limits.** Types nested up to 1000 levels decode (`MAX_TYPE_DEPTH`: the engine\'s own parser stops at',
    '`max_parser_depth` = 1000, so whatever it returns by default decodes); a deeper type is a',
    '`ChwireTypeError` that names the limit, however deep (no stack overflow). A String value longer than',
    'the longest JavaScript string (V8: 2^29 - 24 = 536 870 888 UTF-16 units) is a `ChwireDecodeError` naming',
    'the column: read such a column with `strings: \'bytes\'`. Lengths beyond the engine\'s 1 GiB limit are',
    'corrupt data.',
    '',
  );
  return lines.join('\n');
}
