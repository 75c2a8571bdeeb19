// The result schemas of the issues' benchmarks, as SQL that fills a table, so every format of a
// case (RowBinary, Native, JSON lines) is the same rows: random columns are drawn once, when the
// table is filled, and every read is `SELECT * FROM <table>` on one thread (Memory tables keep
// their insertion order when read by one thread).
//
// (a) UInt64, UInt32, Float64, Int16, DateTime('UTC')
// (b) UInt64, String, DateTime('UTC'), Float64, Int32
// (c) 5×UInt64 + 5×Float64
// (d) logs: DateTime, 2×LowCardinality(String), 2×String of 20–200 bytes
// (e) 30 mixed columns with Nullable, Array, Map, Decimal, DateTime64, UUID, ...
// The SQL of (b) and the table of (b) also work on the old 18.16 server (bench/client.ts).

export const SCHEMA_TITLES: Record<string, string> = {
  a: '(a) UInt64, UInt32, Float64, Int16, DateTime',
  b: '(b) UInt64, String, DateTime, Float64, Int32',
  c: '(c) 5×UInt64 + 5×Float64',
  d: '(d) logs: DateTime, 2×LowCardinality(String), 2×String 20–200 B',
  e: '(e) 30 mixed columns (Nullable, Array, Map, Decimal, DateTime64, UUID, ...)',
};

/** SELECT producing `rows` rows of the schema (engine 26.x; (b) also runs on 18.16). */
export function schemaSelect(schema: string, rows: number): string {
  const n = `numbers(${Math.trunc(rows)})`;
  switch (schema) {
    case 'a':
      return `SELECT number AS a, toUInt32(number * 7) AS b, number / 3 AS c, toInt16(number % 30000 - 15000) AS d, toDateTime(1700000000 + number, 'UTC') AS e FROM ${n}`;
    case 'b':
      return `SELECT number AS id, concat('user_', toString(number % 1000), '_', toString(number)) AS name, toDateTime(1700000000 + number, 'UTC') AS ts, number / 7 AS score, toInt32(number % 100000 - 50000) AS delta FROM ${n}`;
    case 'c':
      return `SELECT number AS u1, number * 3 AS u2, number * 5 + 1 AS u3, number + 7 AS u4, number * 1000003 AS u5, number / 3 AS f1, number / 5 AS f2, number / 7 AS f3, number * 1.5 AS f4, number / 11 AS f5 FROM ${n}`;
    case 'd':
      return `SELECT toDateTime(1700000000 + intDiv(number, 3), 'UTC') AS ts, toLowCardinality(['info','warn','error','debug'][number % 4 + 1]) AS level, toLowCardinality(concat('svc-', toString(number % 10))) AS service, randomPrintableASCII(20 + number % 181) AS message, randomPrintableASCII(20 + (number * 7) % 181) AS context FROM ${n}`;
    case 'e':
      return `SELECT ${WIDE.join(', ')} FROM ${n}`;
    default:
      throw new Error(`unknown schema ${schema}`);
  }
}

/** Schema (e): 30 columns, one expression each. */
const WIDE = [
  'number AS id',
  "if(number % 5 = 0, NULL, toInt32(number) - 100000) AS n_i32",
  "if(number % 7 = 0, NULL, concat('v', toString(number))) AS n_str",
  'number / 3 AS f64',
  'toFloat32(number / 11) AS f32',
  'toDecimal64(number % 1000000, 4) / 7 AS dec64',
  'toDecimal128(number, 10) * -3 AS dec128',
  "fromUnixTimestamp64Milli(toInt64(1700000000000 + number * 17), 'UTC') AS dt64_3",
  "fromUnixTimestamp64Micro(toInt64(1700000000000000 + number * 37), 'UTC') AS dt64_6",
  "toDateTime(1700000000 + number, 'UTC') AS dt",
  'toDate(19000 + number % 1000) AS d',
  'generateUUIDv4(number) AS uuid',
  'range(number % 5) AS arr_u64',
  'arrayMap(x -> toString(x * number), range(number % 4)) AS arr_str',
  "map('a', number, 'b', number * 2) AS m",
  "toLowCardinality(['alpha','beta','gamma'][number % 3 + 1]) AS lc",
  'if(number % 3 = 0, NULL, number / 9) AS n_f64',
  'toInt8(number % 256 - 128) AS i8',
  'toUInt16(number % 65536) AS u16',
  'toInt64(number) * -1000003 AS i64',
  'number % 2 = 1 AS flag',
  "randomPrintableASCII(5 + number % 40) AS s",
  "toFixedString(substring(hex(number), 1, 8), 8) AS fs",
  'toIPv4(number * 2654435761 % 4294967296) AS ip',
  "CAST(['a','b','c'][number % 3 + 1], 'Enum8(\\'a\\' = 1, \\'b\\' = 2, \\'c\\' = 3)') AS e8",
  'arrayMap(x -> if(x % 2 = 0, NULL, toInt32(x)), range(number % 3)) AS arr_n',
  "tuple(toUInt8(number % 200), concat('t', toString(number % 50)))::Tuple(a UInt8, b String) AS tup",
  "if(number % 4 = 0, NULL, toDateTime(1600000000 + number, 'UTC')) AS n_dt",
  'toInt32(number % 1000) AS i32',
  'toDate32(-1000 + number % 50000) AS d32',
];

/** Fill engine table `table` with the schema's rows (drops it first). */
export async function fillEngineTable(exec: (sql: string) => Promise<void>, table: string, schema: string, rows: number): Promise<void> {
  await exec(`DROP TABLE IF EXISTS ${table}`);
  await exec(`CREATE TABLE ${table} ENGINE = Memory AS ${schemaSelect(schema, rows)}`);
}

/** Read every row in insertion order (one thread, so a Memory table keeps block order). */
export function selectAll(table: string, settings = ''): string {
  return `SELECT * FROM ${table} SETTINGS max_threads = 1${settings === '' ? '' : `, ${settings}`}`;
}

/**
 * The engine's bytes as a plain Uint8Array that owns its memory: chdb hands out Buffers, whose
 * `slice` is a view, not a copy (it would make the "plain copy" baseline free).
 */
export function plain(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes);
}
