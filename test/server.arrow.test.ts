// chwire/arrow against the real ClickHouse 18.16 server (CHWIRE_TEST_HTTP_URL), which has no Arrow
// output formats: toArrow converts chwire's own columns, so it works there too. Every type 18.16
// has equals, row by row, what fetch() reads from the same query; arrowBatches over its blocks,
// written and read back, equals toArrow(fetchColumns).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tableFromIPC, RecordBatchStreamWriter } from 'apache-arrow';
import { SKIP_REAL as skip, realClient } from './support/ch-server.js';
import { toArrow, arrowBatches } from '../src/arrow/index.js';
import { columnCells, columnFetchLike } from './support/arrow-values.js';

const SQL = `SELECT
  toInt8(number % 256 - 128) AS i8, toUInt16(number * 13) AS u16, toInt32(number * 100003) - 50000000 AS i32,
  toInt64(number) * 9000000000000 - 4000000000000000 AS i64, toUInt64(number) * 18000000000000 AS u64,
  toFloat32(number / 7) AS f32, number / 3 - 100 AS f64,
  toDate('2000-01-01') + number * 10 AS d, toDateTime(1500000000 + number * 3601, 'Asia/Tokyo') AS dt,
  toDecimal32(number / 7 - 50, 2) AS dec9, toDecimal64(number * 1234567.891 - 500000000, 6) AS dec18,
  toDecimal128(concat(if(number % 2 = 0, '-', ''), toString(number * 1234567890123), '.', toString(number * 7 % 10000000000)), 10) AS dec38,
  concat(toString(number * 3), if(number % 2 = 0, 'é', '')) AS s, toFixedString(toString(number % 1000), 3) AS fs,
  toUUID(concat(leftPad(lower(hex(toUInt32(number))), 8, '0'), '-1111-2222-3333-', leftPad(lower(hex(number * 7919)), 12, '0'))) AS uuid,
  CAST(['neg', 'zero', 'pos'][number % 3 + 1] AS Enum8('neg' = -5, 'zero' = 0, 'pos' = 7)) AS e8,
  toLowCardinality(toString(number % 17)) AS lc,
  CAST(if(number % 5 = 0, NULL, toString(number % 11)) AS LowCardinality(Nullable(String))) AS lcn,
  CAST(if(number % 4 = 0, NULL, number) AS Nullable(Int32)) AS ni,
  if(number % 6 = 0, NULL, toString(number)) AS ns,
  CAST(if(number % 7 = 0, NULL, toDecimal64(number / 3, 3)) AS Nullable(Decimal(18, 3))) AS ndec,
  range(number % 4) AS arr, [if(number % 2 = 0, NULL, toString(number)), 'x'] AS arrn,
  [toDateTime(1500000000 + number, 'UTC')] AS arrdt, [toDecimal64(number / 9, 4), toDecimal64(-1.5, 4)] AS arrdec
FROM system.numbers LIMIT 3000`;

const SETTINGS = { max_block_size: 1000 };

// leftPad is newer than 18.16: pad with its own functions.
const SQL_1816 = SQL.replace(/leftPad\(lower\(hex\(([^)]*(?:\([^)]*\))?)\)\), (\d+), '0'\)/g,
  (_m, e: string, n: string) => `substring(concat('${'0'.repeat(Number(n))}', lower(hex(${e}))), -${n})`);

test('real server (no Arrow formats): toArrow of every type it has equals fetch()', { skip }, async () => {
  const c = realClient();
  try {
    const cols = await c.fetchColumns(SQL_1816, { settings: SETTINGS });
    const t = toArrow(cols);
    assert.equal(t.numRows, 3000);
    const rows = await c.fetch<Record<string, unknown>>(SQL_1816, { settings: SETTINGS });
    for (let k = 0; k < cols.names.length; k++) {
      const name = cols.names[k]!;
      assert.deepEqual(columnFetchLike(t, name, cols.types[k]!), rows.map((r) => r[name]), `${name} ${cols.types[k]}`);
    }
    assert.equal(String(t.schema.fields.find((f) => f.name === 'dt')!.type), 'Timestamp<SECOND, Asia/Tokyo>', 'the zone restored by DESCRIBE');
    assert.equal(String(t.schema.fields.find((f) => f.name === 'dec38')!.type), 'Decimal[38e+10]');
    assert.equal(String(t.schema.fields.find((f) => f.name === 'lcn')!.type), 'Dictionary<Int32, Utf8>');

    const back = tableFromIPC(await (await RecordBatchStreamWriter.writeAll(arrowBatches(c.streamColumns(SQL_1816, { settings: SETTINGS })))).toUint8Array());
    assert.equal(back.batches.length, 3);
    for (const f of t.schema.fields) {
      assert.equal(String(back.schema.fields.find((x) => x.name === f.name)!.type), String(f.type), f.name);
      assert.deepEqual(columnCells(back, f.name), columnCells(t, f.name), f.name);
    }
  } finally {
    await c.close();
  }
});
