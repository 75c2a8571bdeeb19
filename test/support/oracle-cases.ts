// The engine-oracle type corpus (issue 2 §5): one query per group of types, covering NULLs, empty
// and nested arrays, the extremes of every width, dates at their bounds, non-UTF-8 strings, hostile
// enum labels and names, Variant/Dynamic/JSON, Nested, geo, Interval, Time, BFloat16. Data only;
// test/engine.types.test.ts runs it. Invariant: every query is deterministic (ORDER BY, no now()).

/** Rows 0..n-1 with `n` as the first column; `pick(values)` selects the n-th SQL literal. */
const rowsOf = (n: number, cols: string): string => `SELECT n, ${cols} FROM (SELECT number AS n FROM numbers(${n})) ORDER BY n`;
const pick = (values: readonly string[]): string => `arrayElement([${values.join(', ')}], n + 1)`;
const sq = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function intBounds(kind: string): [string, string] {
  const bits = BigInt(/\d+/.exec(kind)![0]);
  return kind.startsWith('U') ? ['0', (2n ** bits - 1n).toString()] : [(-(2n ** (bits - 1n))).toString(), (2n ** (bits - 1n) - 1n).toString()];
}
const INTS = ['UInt8', 'UInt16', 'UInt32', 'UInt64', 'UInt128', 'UInt256', 'Int8', 'Int16', 'Int32', 'Int64', 'Int128', 'Int256'];

const HOSTILE = ['it\'s', 'back\\slash', 'new\nline', 'tab\there', '${x}', '*/', '__proto__', 'constructor', '\u2028', 'a = 1', ',)', 'hé 😀', '"dq"'];

export interface EngineCase {
  name: string; sql: string; setup?: string[]; settings?: Record<string, string | number>;
  /** Big body: checked under two option sets only, to keep the suite fast. */
  heavy?: boolean;
}

export const ENGINE_CASES: EngineCase[] = [
  { name: 'integers at min, max, 0, -1', sql: rowsOf(4, INTS.map((k) => {
    const [min, max] = intBounds(k);
    return `CAST(${pick([sq(min), sq(max), "'0'", k.startsWith('U') ? "'1'" : "'-1'"])} AS ${k}) AS ${k.toLowerCase()}`;
  }).join(', ')) },
  { name: 'floats and BFloat16', sql: rowsOf(10, [
    `CAST(${pick(['0', '-0', '1.5', '-0.1', 'inf', '-inf', 'nan', '1.401298464324817e-45', '3.4028234663852886e38', '16777217'].map(sq))} AS Float32) AS f32`,
    `CAST(${pick(['0', '-0', '1.5', '-0.1', 'inf', '-inf', 'nan', '5e-324', '1.7976931348623157e308', '9007199254740993'].map(sq))} AS Float64) AS f64`,
    `CAST(${pick(['0', '-0', '1.5', '-0.1', 'inf', '-inf', 'nan', '1e-40', '3.3895313892515355e38', '257'].map(sq))} AS BFloat16) AS bf16`,
  ].join(', ')) },
  { name: 'decimals incl. negative Decimal256 extremes', sql: rowsOf(5, [
    `CAST(${pick(["'0'", "'-1.5'", "'9999999.99'", "'-9999999.99'", "'0.01'"])} AS Decimal(9, 2)) AS d9`,
    `CAST(${pick(["'0'", "'-1'", "'999999999999999999'", "'-999999999999999999'", "'10'"])} AS Decimal(18, 0)) AS d18`,
    `CAST(${pick(["'0'", "'-1.5'", "'99999999999999999999.999999999999999999'", "'-0.000000000000000001'", "'1.1'"])} AS Decimal(38, 18)) AS d38`,
    `CAST(${pick(["'0'", `'-${'9'.repeat(56)}.${'9'.repeat(20)}'`, `'${'9'.repeat(56)}.${'9'.repeat(20)}'`, "'-0.00000000000000000001'", "'-1'"])} AS Decimal(76, 20)) AS d76`,
    `CAST(${pick(["'0'", `'-0.${'9'.repeat(76)}'`, `'0.${'9'.repeat(76)}'`, `'-0.${'0'.repeat(75)}1'`, "'0.5'"])} AS Decimal(76, 76)) AS d76_76`,
    `CAST(${pick(["'0'", "'-9'", "'9'", "'1'", "'-1'"])} AS Decimal(1, 0)) AS d1`,
  ].join(', ')) },
  { name: 'strings: empty, UTF-8, non-UTF-8, NUL, BOM, long', sql: rowsOf(9, [
    `${pick(["''", "'ascii'", "'h\\xC3\\xA9llo \\xE2\\x9C\\x93'", "unhex('FF00FE80C0')", "unhex('EFBBBF41')", "'nul\\0in'", "repeat('x', 70000)", "unhex('C3')", "'\\xF0\\x9F\\x98\\x80'"])} AS s`,
    `toFixedString(${pick(["''", "'ab'", "'abcd'", "unhex('FF00FE80')", "unhex('EFBBBF')", "'\\0'", "'xyzw'", "unhex('C3A9')", "'é'"])}, 4) AS f4`,
    `toFixedString(left(${pick(["''", "'a'", "unhex('80')", "'z'", "'y'", "'x'", "'w'", "'v'", "'u'"])}, 1), 1) AS f1`,
  ].join(', ')) },
  { name: 'dates at their bounds', sql: rowsOf(4, [
    `${pick(["toDate('1970-01-01')", "toDate('2149-06-06')", "toDate('2000-02-29')", "toDate('2024-01-02')"])} AS d`,
    `${pick(["toDate32('1900-01-01')", "toDate32('2299-12-31')", "toDate32('1969-12-31')", "toDate32('1970-01-01')"])} AS d32`,
  ].join(', ')) },
  { name: 'DateTime in several zones', sql: rowsOf(4, [
    `${pick(["toDateTime(0, 'UTC')", "toDateTime(4294967295, 'UTC')", "toDateTime('2024-01-02 03:04:05', 'UTC')", "toDateTime(1700000000, 'UTC')"])} AS dt_utc`,
    "toDateTime(dt_utc, 'Asia/Kolkata') AS dt_kolkata",
    "toDateTime(dt_utc, 'America/New_York') AS dt_ny",
    "toDateTime(dt_utc, 'Australia/Lord_Howe') AS dt_lh",
    'CAST(toUnixTimestamp(dt_utc) AS DateTime) AS dt_server',
  ].join(', ')) },
  { name: 'DateTime64 of every precision, before 1970 and at the bounds', sql: rowsOf(5, [
    `${pick(["toDateTime64('1969-12-31 23:59:59.999999999', 9, 'UTC')", "toDateTime64('1900-01-01 00:00:00.000000001', 9, 'UTC')", "toDateTime64('2262-04-11 23:47:16.854775807', 9, 'UTC')", "toDateTime64('1970-01-01 00:00:00', 9, 'UTC')", "toDateTime64('1960-06-15 12:00:00.5', 9, 'UTC')"])} AS t9`,
    `${pick(["toDateTime64('1900-01-01 00:00:00', 3, 'UTC')", "toDateTime64('2299-12-31 23:59:59.999', 3, 'UTC')", "toDateTime64('1969-12-31 23:59:59.999', 3, 'UTC')", "toDateTime64('2024-01-02 03:04:05.678', 3, 'UTC')", "toDateTime64('1969-12-31 23:59:59.001', 3, 'UTC')"])} AS t3`,
    ...[0, 1, 2, 4, 5, 6, 7, 8].map((p) => `CAST(t9 AS DateTime64(${p}, 'UTC')) AS t${p}`),
    "CAST(t9 AS DateTime64(6, 'America/New_York')) AS t6_ny",
    "CAST(t3 AS DateTime64(3, 'Asia/Kolkata')) AS t3_kolkata",
    'CAST(t3 AS DateTime64(3)) AS t3_server',
  ].join(', ')) },
  { name: 'Time and Time64', sql: rowsOf(5, [
    `CAST(${pick(["'00:00:00'", "'12:34:56'", "'-01:00:00'", "'999:59:59'", "'-999:59:59'"])} AS Time) AS t`,
    `CAST(${pick(["'00:00:00'", "'12:34:56.789'", "'-00:00:00.001'", "'999:59:59.999'", "'-12:00:00.5'"])} AS Time64(3)) AS t3`,
    `CAST(${pick(["'00:00:00'", "'00:00:01.000001'", "'-01:02:03.456789'", "'23:59:59.999999'", "'100:00:00'"])} AS Time64(6)) AS t6`,
    `CAST(${pick(["'00:00:00'", "'00:00:00.000000001'", "'-00:00:00.123456789'", "'23:59:59.999999999'", "'1:00:00'"])} AS Time64(9)) AS t9`,
  ].join(', ')) },
  { name: 'UUID, IPv4, IPv6', sql: rowsOf(4, [
    `toUUID(${pick(["'00000000-0000-0000-0000-000000000000'", "'00112233-4455-6677-8899-aabbccddeeff'", "'ffffffff-ffff-ffff-ffff-ffffffffffff'", "'61f0c404-5cb3-11e7-907b-a6006ad3dba0'"])}) AS u`,
    `toIPv4(${pick(["'0.0.0.0'", "'1.2.3.4'", "'255.255.255.255'", "'10.0.0.255'"])}) AS v4`,
    `toIPv6(${pick(["'::'", "'::ffff:1.2.3.4'", "'2001:db8::ff00:42:8329'", "'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'"])}) AS v6`,
  ].join(', ')) },
  { name: 'Enum8/Enum16 with hostile labels', sql: rowsOf(HOSTILE.length, [
    `CAST(${pick(HOSTILE.map(sq))} AS Enum8(${HOSTILE.map((l, i) => `${sq(l)} = ${i * 19 - 128}`).join(', ')})) AS e8`,
    `CAST(${pick(HOSTILE.map(sq))} AS Enum16(${HOSTILE.map((l, i) => `${sq(l)} = ${i === 0 ? -32768 : i === 1 ? 32767 : i * 1000}`).join(', ')})) AS e16`,
  ].join(', ')) },
  { name: 'Nullable of every scalar kind, with NULLs', sql: rowsOf(3, [
    'if(n = 1, NULL, toInt64(-n)) AS ni64', 'if(n = 0, NULL, toUInt128(n)) AS nu128', "if(n = 2, NULL, concat('s', toString(n))) AS ns",
    'if(n = 1, NULL, n / 3) AS nf64', 'if(n = 0, NULL, toFloat32(n) / 3) AS nf32', 'if(n = 1, NULL, toDecimal64(n, 3) - 1) AS ndec',
    "if(n = 0, NULL, toDateTime64(n, 6, 'UTC')) AS ndt64", "if(n = 2, NULL, toDateTime(n, 'UTC')) AS ndt", 'if(n = 1, NULL, toDate(n)) AS nd',
    'if(n = 1, NULL, toDate32(n)) AS nd32', "if(n = 2, NULL, toUUID('00112233-4455-6677-8899-aabbccddeeff')) AS nuuid",
    "if(n = 0, NULL, toIPv4('1.2.3.4')) AS nip4", "if(n = 0, NULL, toIPv6('::1')) AS nip6", 'if(n = 0, NULL, n = 1) AS nbool',
    "if(n = 1, NULL, CAST('a' AS Enum8('a' = 1))) AS nenum", "if(n = 1, NULL, toFixedString('ab', 2)) AS nfs",
    "if(n = 0, NULL, CAST('01:00:00' AS Time)) AS ntime", 'if(n = 0, NULL, toBFloat16(1.5)) AS nbf16',
    'CAST(NULL AS Nullable(String)) AS always_null',
  ].join(', ')) },
  { name: 'LowCardinality', settings: { allow_suspicious_low_cardinality_types: 1 }, sql: rowsOf(5, [
    `CAST(${pick(["'x'", 'NULL', "''", "'x'", "unhex('FF')"])} AS LowCardinality(Nullable(String))) AS lcn`,
    `toLowCardinality(${pick(["'b'", "'a'", "'b'", "''", "'a'"])}) AS lc`,
    `CAST(${pick(["'ab'", "'cd'", "'ab'", "'ab'", "'cd'"])} AS LowCardinality(FixedString(2))) AS lcf`,
    `CAST(${pick(['1', 'NULL', '3', '1', 'NULL'])} AS LowCardinality(Nullable(UInt64))) AS lcu64`,
    `CAST(${pick(["'2024-01-01'", "'2024-01-02'", "'2024-01-01'", "'2024-01-01'", "'1970-01-01'"])} AS LowCardinality(Date)) AS lcd`,
  ].join(', ')) },
  { name: 'arrays: empty, nested, nullable', sql: rowsOf(3, [
    `${pick(['[]', '[1]', '[1, 2, 3]'])}::Array(UInt8) AS au8`,
    `${pick(['[]', "['a', '', NULL]", '[NULL]'])}::Array(Nullable(String)) AS ans`,
    `${pick(['[[], [1]]', '[[]]', '[]'])}::Array(Array(Int64)) AS aai64`,
    `${pick(["[[['deep']]]", "[[[], ['x', 'y']]]", '[[]]'])}::Array(Array(Array(String))) AS aaa`,
    `${pick(["[toDateTime64('1969-12-31 23:59:59.5', 1, 'UTC')]", '[]', "[toDateTime64(0, 1, 'UTC'), toDateTime64(1, 1, 'UTC')]"])} AS adt`,
    `${pick(['[(1, \'a\')]', '[]', '[(2, \'b\'), (3, \'\')]'])}::Array(Tuple(UInt8, String)) AS atup`,
  ].join(', ')) },
  { name: 'tuples named with hostile names, unnamed, nested', sql: rowsOf(2, [
    `CAST((n, 'v', n * 2, -n, toString(n), n = 1, [n]), ${sq(`Tuple(${['__proto__', 'constructor', 'prototype', 'it\'s', 'a b', 'with`tick', 'hé'].map((k, i) => `\`${k.replace(/`/g, '\\`')}\` ${['UInt8', 'String', 'UInt16', 'Int64', 'String', 'Bool', 'Array(UInt64)'][i]}`).join(', ')})`)}) AS named`,
    "(CAST(n AS UInt8), toString(n), if(n = 1, NULL, n * 1.5), (n, [n])) AS unnamed",
    "CAST(((n, 'in'), [n]), 'Tuple(outer Tuple(`a.b` UInt8, inner String), arr Array(UInt8))') AS nested_named",
  ].join(', ')) },
  { name: 'deep nesting beyond any inline depth', sql: rowsOf(3, [
    `CAST(${pick(["'[]'", "'[[[[[]]]]]'", "'[[[[[(1, {\\'k\\': [1, NULL]}, [[[\\'x\\']]])]]], [[[]]]]]'"])} AS Array(Array(Array(Array(Array(Tuple(a UInt8, m Map(String, Array(Nullable(UInt8))), s Array(Array(Array(String)))))))))) AS deep`,
    "[[[[[[[[toInt64(n)]]]]]]]] AS a8",
  ].join(', ')) },
  { name: 'maps incl. Map(String, Array(Tuple(a UInt8, b Nullable(String))))', sql: rowsOf(3, [
    `${pick(["map()", "map('k', [(1, 'x'), (2, NULL)])", "map('a', [], 'b', [(255, '')])"])}::Map(String, Array(Tuple(a UInt8, b Nullable(String)))) AS deep`,
    `${pick(["map()", "map(1, 'a')", "map(18446744073709551615, 'max', 0, 'zero')"])}::Map(UInt64, String) AS mu64`,
    `${pick(["map('k', [NULL, 'v'])", "map()", "map('k', [], 'l', ['w'])"])}::Map(LowCardinality(String), Array(Nullable(String))) AS mlc`,
    `${pick(["map(1, map('x', 'y'))", "map(-2, map())", "map()"])}::Map(Int8, Map(String, String)) AS mm`,
    `${pick(["map('__proto__', 1, 'constructor', 2)", "map('', 3)", "map()"])}::Map(String, UInt8) AS mproto`,
    `${pick(["map(toUUID('00112233-4455-6677-8899-aabbccddeeff'), 1)", 'map()', "map(toUUID('00000000-0000-0000-0000-000000000001'), 2)"])}::Map(UUID, UInt8) AS muuid`,
  ].join(', ')) },
  { name: 'map keys of many types (object keys are their text, F1)', sql: rowsOf(2, [
    "map(toDate('2024-01-02') + n, 1) AS mdate", "map(toDate32('1900-01-01') + n, 1) AS mdate32",
    "map(toDateTime('2024-01-02 03:04:05', 'Asia/Kolkata') + n, 1) AS mdt",
    "map(toUUID('00112233-4455-6677-8899-aabbccddeeff'), n) AS muuid", "map(toInt128(-170141183460469231731687303715884105728) + n, 1) AS mi128",
    "map(toUInt64(18446744073709551615) - n, 1) AS mu64", "map(toInt8(-1) - n, 1) AS mi8", "map(toFixedString('ab', 3), n) AS mfs",
    "map(CAST('b' AS Enum8('a' = 1, 'b' = 2)), n) AS menum", "map(toIPv4('1.2.3.4'), n) AS mip4", "map(toIPv6('::1'), n) AS mip6",
    "map(unhex('FF00'), n) AS mbadutf8", "map(toLowCardinality('lc'), n) AS mlc", "map(true, n) AS mbool",
  ].join(', ')) },
  { name: 'Variant with NULL', sql: rowsOf(7, [
    `CAST(${pick(["CAST(toUInt64(42), 'Variant(String, UInt64, Array(UInt8), Float64)')", "CAST('42', 'Variant(String, UInt64, Array(UInt8), Float64)')", 'NULL', "CAST([1, 2]::Array(UInt8), 'Variant(String, UInt64, Array(UInt8), Float64)')", "CAST(1.5, 'Variant(String, UInt64, Array(UInt8), Float64)')", "CAST('', 'Variant(String, UInt64, Array(UInt8), Float64)')", "CAST(18446744073709551615, 'Variant(String, UInt64, Array(UInt8), Float64)')"])}, 'Variant(String, UInt64, Array(UInt8), Float64)') AS v`,
  ].join(', ')) },
  { name: 'Dynamic holding several types', sql: `SELECT n, d FROM (SELECT number AS n, ${pick([
    "CAST(toUInt8(1), 'Dynamic')", "CAST('x', 'Dynamic')", "CAST(NULL, 'Dynamic')", "CAST(toInt64(-5), 'Dynamic')",
    "CAST([1, 2]::Array(Int64), 'Dynamic')", "CAST(toDecimal128(-1.25, 2), 'Dynamic')", "CAST(toDateTime64('1969-12-31 23:59:59.999', 3, 'UTC'), 'Dynamic')",
    "CAST(map('k', toUInt16(9)), 'Dynamic')", "CAST(tuple(toUInt8(1), 's'), 'Dynamic')", "CAST(toUUID('00112233-4455-6677-8899-aabbccddeeff'), 'Dynamic')",
    "CAST(toDate('2024-01-02'), 'Dynamic')", "CAST(toNullable(toInt8(-1)), 'Dynamic')", "CAST(toLowCardinality('lc'), 'Dynamic')",
    "CAST(toFloat32(0.1), 'Dynamic')", "CAST(toInt256(-1), 'Dynamic')", "CAST(CAST('b', 'Enum8(\\'a\\' = 1, \\'b\\' = 2)'), 'Dynamic')",
    "CAST('{\"a\": {\"b\": 1}}'::JSON, 'Dynamic')", "CAST(CAST([1, NULL], 'Array(Nullable(UInt8))'), 'Dynamic')", "CAST(unhex('FF'), 'Dynamic')",
    "CAST(toIPv6('::1'), 'Dynamic')", "CAST(true, 'Dynamic')", "CAST(CAST((1.5, 2.5), 'Point'), 'Dynamic')",
  ])} AS d FROM numbers(22)) ORDER BY n` },
  { name: 'Dynamic(max_types=2) spilling into the shared variant', sql: `SELECT n, CAST(${pick(["CAST(toUInt8(1), 'Dynamic')", "CAST('x', 'Dynamic')", 'NULL', "CAST(toInt32(-5), 'Dynamic')", "CAST(2.5, 'Dynamic')", "CAST([1], 'Dynamic')"])}, 'Dynamic(max_types=2)') AS d2 FROM (SELECT number AS n FROM numbers(6)) ORDER BY n` },
  { name: 'JSON with nested paths, arrays of objects, big ints and dates', sql: rowsOf(5, [
    `CAST(${pick([
      '\'{"a": 1, "b": {"c": "x", "d": [1, 2], "e": {"f": -1.5}}, "z": null}\'',
      '\'{"a": -2, "g": true, "h": "2024-01-02", "arr": [{"x": 1}, {"y": "s"}], "big": 18446744073709551615}\'',
      "'{}'",
      '\'{"k.dot": "v", "u": "\\\\u00e9", "n": [[1], []], "s": ["a", null]}\'',
      '\'{"t": "2024-01-02 03:04:05", "neg": -9223372036854775808, "f": 1e300}\'',
    ])} AS JSON) AS j`,
  ].join(', ')) },
  { name: 'JSON with typed paths, SKIP and max_dynamic_paths', sql: rowsOf(3, [
    `CAST(${pick([
      '\'{"id": 1, "name": "a", "skip_me": 1, "tmp_x": 2, "other": [1], "t": {"u": "2024-01-02 03:04:05.5"}}\'',
      '\'{"id": 2, "name": null, "other": "s"}\'',
      '\'{"extra": {"deep": {"er": 1}}, "p1": 1, "p2": "two"}\'',
    ])} AS JSON(id UInt32, name Nullable(String), \`t.u\` DateTime64(1, 'UTC'), SKIP skip_me, SKIP REGEXP '^tmp_', max_dynamic_paths = 1)) AS j`,
  ].join(', ')) },
  { name: 'Nested (unflattened) and its subcolumns', setup: [
    'DROP TABLE IF EXISTS oracle_nested', 'SET flatten_nested = 0',
    'CREATE TABLE oracle_nested (id UInt8, n Nested(a UInt8, b String, `__proto__` Nullable(Int64))) ENGINE = Memory', 'SET flatten_nested = 1',
    "INSERT INTO oracle_nested VALUES (1, [(1, 'x', NULL), (2, 'y', -1)]), (2, [])",
  ], sql: 'SELECT id, n, n.a, n.b FROM oracle_nested ORDER BY id' },
  { name: 'geo types and Geometry', sql: rowsOf(3, [
    "CAST((n * 1.5, -n), 'Point') AS p", "CAST([(0, 0), (n, 0), (0, n)], 'Ring') AS r", "CAST([(0, 0), (1, n)], 'LineString') AS ls",
    "CAST([[(0, 0), (1, 1)], [(2, 2)]], 'MultiLineString') AS mls", "CAST([[(0, 0), (10, 0), (0, 10)], [(1, 1), (2, 1), (1, 2)]], 'Polygon') AS pg",
    "CAST(if(n = 0, [], [[[(0, 0), (1, 0), (0, 1)]]]), 'MultiPolygon') AS mpg",
    `${pick(["CAST(CAST((1.5, 2.5), 'Point'), 'Geometry')", "CAST(CAST([[(0, 0), (1, 0), (0, 1)]], 'Polygon'), 'Geometry')", 'NULL'])} AS g`,
  ].join(', ')) },
  { name: 'Interval of every unit', sql: `SELECT ${['Nanosecond', 'Microsecond', 'Millisecond', 'Second', 'Minute', 'Hour', 'Day', 'Week', 'Month', 'Quarter', 'Year']
    .map((u, i) => `toInterval${u}(${i % 2 === 0 ? -i - 1 : (2n ** 63n - 1n).toString()}) AS i_${u.toLowerCase()}`).join(', ')}` },
  { name: 'SimpleAggregateFunction, Nothing, QBit, Bool', sql: rowsOf(2, [
    "CAST(n * 10, 'SimpleAggregateFunction(sum, UInt64)') AS s", "CAST(if(n = 0, NULL, 'last'), 'SimpleAggregateFunction(anyLast, Nullable(String))') AS al",
    'NULL AS null_nothing', '[] AS empty_array', '[NULL] AS array_of_null', 'map() AS empty_map',
    `CAST(${pick(['[1.0, 2.0, -3.5]', '[0.1, 0, 0]'])} AS QBit(Float32, 3)) AS q`, 'n = 1 AS b',
  ].join(', ')) },
  { name: 'large values: long arrays and strings, many nested elements', heavy: true, sql: rowsOf(2, [
    'arrayMap(x -> toUInt32(x * 7 + n), range(30000)) AS a30k',
    "repeat('é', 40000 + n) AS s80k",
    "arrayMap(x -> (toString(x), x % 3 = 0 ? NULL : toInt64(-x)), range(2000)) AS tuples",
    "mapFromArrays(arrayMap(x -> toString(x), range(1000)), arrayMap(x -> [x, x + 1], range(1000))) AS m1k",
  ].join(', ')) },
  { name: 'many rows of a mixed schema', heavy: true, sql: `SELECT number AS n, toString(number) AS s, toInt32(number) - 10000 AS i32, number / 7 AS f64,
    toDateTime(1700000000 + number * 3601, 'America/New_York') AS dt, if(number % 5 = 0, NULL, toDecimal64(number, 4) / 3) AS nd,
    toLowCardinality(concat('k', toString(number % 17))) AS lc, [number, number * 2] AS arr FROM numbers(5000) ORDER BY n` },
  { name: 'hostile column names', sql: "SELECT toInt64(-1) AS `__proto__`, toDate('2024-01-02') AS `constructor`, toUUID('00112233-4455-6677-8899-aabbccddeeff') AS `prototype`, "
    + "'é' AS `a\"b`, toUInt64(5) AS `1`, 6 AS `with space`, toDecimal32(-1.5, 2) AS `*/`, toDateTime64(0, 3, 'UTC') AS `${x}`, 9 AS `\xE2\x80\xA8`, map('k', 1) AS `toString`" },
];

