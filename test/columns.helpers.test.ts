// Column helpers (src/columns/helpers.ts) against the embedded engine: each helper's output
// equals, value for value, what fetch() reads from the same query with the matching option.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  createClient, columnTypes, epochMillis, decimalNumbers, decimalStrings, nullableNumbers, nullableValues, enumLabels, lowCardinalityValues,
} from '../src/index.js';

const client = createClient({ url: 'chdb://' });
after(() => client.close());

const SQL = `SELECT
  toDateTime(1700000000 + number * 3601, 'Asia/Tokyo') AS dt, toDate('2000-01-01') + number AS d, toDate32('1900-01-01') + number * 100 AS d32,
  fromUnixTimestamp64Milli(toInt64(number) * 86400123 - 2000000000000, 'UTC') AS t3,
  fromUnixTimestamp64Micro(toInt64(number) * 86400000123 - 2000000000000000) AS t6,
  fromUnixTimestamp64Nano(toInt64(number) * 86400000000123 - 4000000000000000000, 'UTC') AS t9,
  CAST(if(number % 3 = 0, NULL, toDateTime(1700000000 + number, 'UTC')) AS Nullable(DateTime('UTC'))) AS ndt,
  toDecimal32(number / 7 - 50, 4) AS dec9, toDecimal64(number * 1234567.891 - 500000000, 9) AS dec18,
  toDecimal64(concat(if(number % 2 = 0, '-', ''), '999999999.', toString(number)), 9) AS dec18big,
  toDecimal128(concat(if(number % 2 = 0, '-', ''), toString(number * 1234567890123), '.', toString(number * 7 % 10000000000)), 10) AS dec38,
  CAST(if(number % 4 = 0, NULL, toDecimal64(number / 3, 3)) AS Nullable(Decimal(18, 3))) AS ndec,
  CAST(if(number % 4 = 1, NULL, number * 1000000000000) AS Nullable(Int64)) AS ni64, CAST(if(number % 5 = 1, NULL, number / 3) AS Nullable(Float32)) AS nf,
  CAST(['neg', 'zero', 'pos'][number % 3 + 1] AS Enum8('neg' = -5, 'zero' = 0, 'pos' = 7)) AS e8,
  toLowCardinality(toString(number % 17)) AS lc, CAST(if(number % 5 = 0, NULL, toString(number % 11)) AS LowCardinality(Nullable(String))) AS lcn
FROM numbers(2000) SETTINGS max_block_size = 700`;

test('helpers equal fetch() with the matching option', async () => {
  const cols = await client.fetchColumns(SQL);
  const col = (n: string) => cols.columns[cols.names.indexOf(n)]!;
  const typ = (n: string) => cols.types[cols.names.indexOf(n)]!;
  const ms = await client.fetch<Record<string, unknown>>(SQL, { datetime: 'number', date: 'Date', decimal: 'number' });
  const rows = await client.fetch<Record<string, unknown>>(SQL);
  const pick = (r: readonly Record<string, unknown>[], n: string) => r.map((x) => x[n]);
  for (const n of ['dt', 't3', 't6', 't9']) assert.deepEqual(Array.from(epochMillis(col(n), typ(n))), pick(ms, n), n);
  for (const n of ['d', 'd32']) assert.deepEqual(Array.from(epochMillis(col(n), typ(n))), pick(rows, n).map((d) => (d as Date).getTime()), n);
  assert.deepEqual(Array.from(epochMillis(col('ndt'), typ('ndt'))), pick(ms, 'ndt').map((x) => (x === null ? NaN : x)));
  for (const n of ['dec9', 'dec18', 'dec18big', 'dec38', 'ndec']) {
    assert.deepEqual(Array.from(decimalNumbers(col(n), typ(n))), pick(ms, n).map((x) => (x === null ? NaN : x)), n);
    assert.deepEqual(decimalStrings(col(n), typ(n)), pick(rows, n), n);
  }
  assert.deepEqual(nullableValues(col('ni64')), pick(rows, 'ni64'));
  assert.deepEqual(Array.from(nullableNumbers(col('nf'))), pick(rows, 'nf').map((x) => (x === null ? NaN : x)));
  assert.deepEqual(enumLabels(col('e8')), pick(rows, 'e8'));
  assert.deepEqual(lowCardinalityValues(col('lc')), pick(rows, 'lc'));
  assert.deepEqual(lowCardinalityValues(col('lcn')), pick(rows, 'lcn'));
});

test('columnTypes: zone, precision, scale, nullability from the parsed types', async () => {
  const cols = await client.fetchColumns(SQL.replace('SETTINGS max_block_size = 700', 'LIMIT 1'));
  const t = Object.fromEntries(columnTypes(cols).map((c) => [c.name, c]));
  assert.equal(t.dt!.timezone, 'Asia/Tokyo');
  assert.equal(t.t6!.timezone, undefined);
  assert.equal(t.t9!.precision, 9);
  assert.deepEqual([t.dec38!.precision, t.dec38!.scale], [38, 10]);
  assert.deepEqual([t.ndec!.nullable, t.ndec!.scale, t.ndec!.base.kind], [true, 3, 'Decimal']);
  assert.deepEqual([t.lcn!.lowCardinality, t.lcn!.nullable, t.lcn!.base.kind], [true, true, 'String']);
  assert.equal(t.ndt!.timezone, 'UTC');
});

test('a helper given a column of another form names it', async () => {
  const cols = await client.fetchColumns("SELECT toDateTime(1, 'UTC') AS t, toDecimal64(1.5, 2) AS d", { wire: false });
  assert.throws(() => epochMillis(cols.columns[0]!, cols.types[0]!), /epochMillis: a DateTime\('UTC'\) column read as an array of values/);
  const wire = await client.fetchColumns("SELECT toDateTime(1, 'UTC') AS t, toDecimal64(1.5, 2) AS d");
  assert.throws(() => decimalNumbers(wire.columns[0]!, wire.types[0]!), /decimalNumbers/);
  assert.deepEqual(decimalStrings(wire.columns[1]!, wire.types[1]!), ['1.5']);
});
