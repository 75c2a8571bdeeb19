// chwire/arrow against the embedded engine (chdb://, ClickHouse 26.7): toArrow of every mapped
// type equals the engine's own Arrow output (FORMAT Arrow read by apache-arrow) where the engine
// has the same type, and the engine's values otherwise; fixed-width columns are shared, not
// copied; arrowBatches of a multi-block stream, written by RecordBatchStreamWriter and read back,
// equals toArrow(fetchColumns); types with no mapping are refused naming the column.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { tableFromIPC, RecordBatchStreamWriter, type Table } from 'apache-arrow';
import { createClient, ChwireTypeError, ChwireConfigError } from '../src/index.js';
import { toArrow, arrowBatches } from '../src/arrow/index.js';
import { columnCells, columnFetchLike } from './support/arrow-values.js';

const client = createClient({ url: 'chdb://' });
after(() => client.close());

const N = 1000;
/** Every mapped type, with NULLs, negatives, pre-1970 instants; four blocks. */
const SQL = `SELECT
  toInt8(number % 256 - 128) AS i8, toUInt8(number % 256) AS u8, toInt16(number * 7 - 3000) AS i16, toUInt16(number * 13) AS u16,
  toInt32(number * 100003) - 50000000 AS i32, toUInt32(number * 4000007) AS u32,
  toInt64(number) * 9000000000000000 - 4000000000000000000 AS i64, toUInt64(number) * 18000000000000000 AS u64,
  toFloat32(number / 7) AS f32, number / 3 - 100 AS f64, toBool(number % 3 = 0) AS bo,
  toDate('2000-01-01') + number * 10 AS d, toDate32('1900-01-01') + number * 100 AS d32,
  toDateTime(1700000000 + number * 3601, 'Asia/Tokyo') AS dt,
  fromUnixTimestamp64Milli(toInt64(number) * 86400123 - 2000000000000, 'UTC') AS t3,
  fromUnixTimestamp64Micro(toInt64(number) * 86400000123 - 2000000000000000, 'Europe/Berlin') AS t6,
  fromUnixTimestamp64Nano(toInt64(number) * 86400000000123 - 2000000000000000000, 'UTC') AS t9,
  CAST(fromUnixTimestamp64Milli(toInt64(number) * 86400120 - 2000000000000, 'UTC') AS DateTime64(2, 'UTC')) AS t2,
  CAST(fromUnixTimestamp64Nano(toInt64(number) * 86400000000100 - 2000000000000000000, 'UTC') AS DateTime64(7, 'UTC')) AS t7,
  toDecimal32(number / 7 - 50, 2) AS dec9, toDecimal64(number * 1234567.891 - 500000000, 6) AS dec18,
  toDecimal128(concat(if(number % 2 = 0, '-', ''), toString(number * 1234567890123), '.', toString(number * 7 % 10000000000)), 10) AS dec38,
  toDecimal256(concat(if(number % 2 = 1, '-', ''), toString(number * 1234567890123), '98765432109876543210.', toString(number * 13)), 20) AS dec76,
  concat(toString(number * 3), if(number % 2 = 0, 'é', '')) AS s, toFixedString(toString(number % 1000), 3) AS fs,
  toUUID(concat(leftPad(lower(hex(toUInt32(number))), 8, '0'), '-1111-2222-3333-', leftPad(lower(hex(number * 7919)), 12, '0'))) AS uuid,
  toIPv4(toUInt32(number * 4294967 + 1)) AS ip4, toIPv6(concat('2001:db8::', lower(hex(number)))) AS ip6,
  CAST(['neg', 'zero', 'pos'][number % 3 + 1] AS Enum8('neg' = -5, 'zero' = 0, 'pos' = 7)) AS e8,
  CAST(['a', 'b'][number % 2 + 1] AS Enum16('a' = -1000, 'b' = 1000)) AS e16,
  toLowCardinality(toString(number % 17)) AS lc,
  CAST(if(number % 5 = 0, NULL, toString(number % 11)) AS LowCardinality(Nullable(String))) AS lcn,
  CAST(if(number % 4 = 0, NULL, number) AS Nullable(Int32)) AS ni,
  CAST(if(number % 3 = 0, NULL, toDateTime(1700000000 + number, 'UTC')) AS Nullable(DateTime('UTC'))) AS nd,
  if(number % 6 = 0, NULL, toString(number)) AS ns,
  CAST(if(number % 7 = 0, NULL, toDecimal128(number / 3, 3)) AS Nullable(Decimal(38, 3))) AS ndec,
  CAST(if(number % 2 = 0, NULL, number % 3 - 1) AS Nullable(Enum8('m' = -1, 'z' = 0, 'p' = 1))) AS ne,
  range(number % 4) AS arr,
  [if(number % 2 = 0, NULL, toString(number)), 'x'] AS arrn,
  [[toInt32(number)], [], [toInt32(number) - 1, 5]] AS arrarr,
  [fromUnixTimestamp64Milli(toInt64(number) * 1000003, 'UTC')] AS arrdt,
  [toDecimal64(number / 9, 4), toDecimal64(-1.5, 4)] AS arrdec,
  [toLowCardinality(toString(number % 3))] AS arrlc,
  [CAST(['neg', 'pos'][number % 2 + 1] AS Enum8('neg' = -5, 'pos' = 7))] AS arre
FROM numbers(${N}) SETTINGS max_block_size = 300`;

async function engineArrow(sql: string): Promise<Table> {
  const chunks: Uint8Array[] = [];
  for await (const c of client.streamRaw(sql, { format: 'Arrow', settings: { output_format_arrow_compression_method: 'none', output_format_arrow_low_cardinality_as_dictionary: 1 } })) chunks.push(c);
  return tableFromIPC(Buffer.concat(chunks));
}

// Columns where the engine's Arrow type differs from chwire/arrow's (docs/arrow.md): compared by value.
const ENGINE_TYPE_DIFFERS = new Set(['dt', 'nd', 'ip4', 'e8', 'e16', 'ne', 'arre', 'dec76']);

test('toArrow of every mapped type equals the engine\'s own Arrow output', async () => {
  const cols = await client.fetchColumns(SQL);
  const ours = toArrow(cols);
  const engine = await engineArrow(SQL);
  assert.equal(ours.numRows, N);
  assert.deepEqual(ours.schema.fields.map((f) => f.name), engine.schema.fields.map((f) => f.name));
  const rows = await client.fetch<Record<string, unknown>>(SQL);
  for (const f of ours.schema.fields) {
    const e = engine.schema.fields.find((x) => x.name === f.name)!;
    if (!ENGINE_TYPE_DIFFERS.has(f.name)) {
      assert.equal(String(f.type), String(e.type), `type of ${f.name}`);
      assert.deepEqual(columnCells(ours, f.name), columnCells(engine, f.name), `values of ${f.name}`);
    }
    assert.equal(f.nullable, /^(Nullable|LowCardinality\(Nullable)/.test(cols.types[cols.names.indexOf(f.name)]!), `nullable ${f.name}`);
    // Every column, also those: the values fetch() reads.
    const ch = cols.types[cols.names.indexOf(f.name)]!;
    assert.deepEqual(columnFetchLike(ours, f.name, ch), rows.map((r) => r[f.name]), `fetch values of ${f.name}`);
  }
  // Where the types differ, the engine's cells still match: DateTime as UInt32 seconds, IPv4 as a
  // UInt32, Enum as its code, Decimal256 as 256 bits.
  const seconds = columnCells(engine, 'dt');
  assert.deepEqual(columnCells(ours, 'dt'), seconds.map(String));
  assert.equal(String(ours.schema.fields.find((f) => f.name === 'dt')!.type), 'Timestamp<SECOND, Asia/Tokyo>');
  assert.deepEqual(columnCells(ours, 'ip4'), (columnCells(engine, 'ip4') as number[]).map((u) => [u >>> 24, (u >>> 16) & 255, (u >>> 8) & 255, u & 255]));
  const labels = new Map([[-5, 'neg'], [0, 'zero'], [7, 'pos']]);
  assert.deepEqual(columnCells(ours, 'e8'), (columnCells(engine, 'e8') as number[]).map((c) => labels.get(c)));
  assert.equal(String(ours.schema.fields.find((f) => f.name === 'e8')!.type), 'Dictionary<Int8, Utf8>');
  assert.deepEqual(columnCells(ours, 'dec76'), columnCells(engine, 'dec76'));
  assert.equal(String(ours.schema.fields.find((f) => f.name === 'dec76')!.type), String(engine.schema.fields.find((f) => f.name === 'dec76')!.type));
  assert.equal(ours.schema.fields.find((f) => f.name === 'uuid')!.metadata.get('ARROW:extension:name'), 'arrow.uuid');
  const t7 = ours.schema.fields.find((f) => f.name === 't7')!;
  assert.equal(String(t7.type), 'Timestamp<NANOSECOND, UTC>');
});

test('fixed-width columns without NULLs are views of the fetchColumns column memory', async () => {
  const cols = await client.fetchColumns(`SELECT toInt32(number) AS a, toUInt64(number) AS b, number / 2 AS c, toDate32('2000-01-01') + number AS d,
    fromUnixTimestamp64Micro(toInt64(number), 'UTC') AS t, CAST(if(number % 2 = 0, NULL, number) AS Nullable(Float64)) AS n, toString(number) AS s
    FROM numbers(5000) SETTINGS max_block_size = 1000`, { strings: 'raw' });
  const t = toArrow(cols);
  for (const name of ['a', 'b', 'c', 'd', 't', 'n']) {
    const col = cols.columns[cols.names.indexOf(name)]!;
    const arr = (name === 'n' ? (col as { values: ArrayBufferView }).values : col) as ArrayBufferView;
    const data = t.getChild(name)!.data;
    assert.equal(data.length, 1);
    assert.equal(data[0]!.values.buffer, arr.buffer, `${name} shares the column's ArrayBuffer`);
    assert.equal(data[0]!.values.byteOffset, arr.byteOffset, `${name} at the same offset`);
  }
  const s = cols.columns[cols.names.indexOf('s')] as { data: Uint8Array; offsets: Uint32Array };
  const sd = t.getChild('s')!.data[0]!;
  assert.equal(sd.values.buffer, s.data.buffer);
  assert.equal(sd.valueOffsets.buffer, s.offsets.buffer);
  assert.equal(t.getChild('s')!.get(4321), '4321');
  assert.equal(t.getChild('n')!.nullCount, 2500);
  assert.equal(t.getChild('n')!.get(3), 3 / 1);
});

test('arrowBatches: a multi-block stream written by RecordBatchStreamWriter reads back as toArrow(fetchColumns)', async () => {
  const expected = toArrow(await client.fetchColumns(SQL));
  const stream = client.streamColumns(SQL);
  const bytes = await (await RecordBatchStreamWriter.writeAll(arrowBatches(stream))).toUint8Array();
  const back = tableFromIPC(bytes);
  assert.equal(back.batches.length, 4, 'one record batch per Native block');
  assert.equal(back.numRows, N);
  assert.deepEqual(back.schema.fields.map((f) => `${f.name}: ${String(f.type)} ${f.nullable}`), expected.schema.fields.map((f) => `${f.name}: ${String(f.type)} ${f.nullable}`));
  for (const f of expected.schema.fields) assert.deepEqual(columnCells(back, f.name), columnCells(expected, f.name), f.name);
});

test('arrowBatches: LowCardinality dictionaries grow by deltas across blocks; an empty result gives no batch', async () => {
  // Each block brings new strings: the second block's dictionary is a delta of the first.
  const sql = 'SELECT toLowCardinality(toString(intDiv(number, 10))) AS k FROM numbers(100) SETTINGS max_block_size = 30';
  const batches = [];
  for await (const b of arrowBatches(client.streamColumns(sql))) batches.push(b);
  assert.ok(batches.length >= 3);
  const dicts = batches.map((b) => b.getChild('k')!.data[0]!.dictionary!);
  for (let k = 1; k < dicts.length; k++) {
    assert.equal(dicts[k]!.data[0], dicts[0]!.data[0], 'the first chunk is kept: later ones are deltas');
    assert.ok(dicts[k]!.length > dicts[k - 1]!.length);
  }
  const back = tableFromIPC(await (await RecordBatchStreamWriter.writeAll(arrowBatches(client.streamColumns(sql)))).toUint8Array());
  assert.deepEqual(columnCells(back, 'k'), Array.from({ length: 100 }, (_, i) => String(Math.floor(i / 10))));

  // An empty result: a Native body without rows has no block at all, hence no schema to send.
  const none = [];
  for await (const b of arrowBatches(client.streamColumns('SELECT toInt32(number) AS x FROM numbers(10) WHERE number > 100'))) none.push(b);
  assert.equal(none.length, 0);
});

test('DateTime64(P > 3) values that lost digits are refused; exact text converts; unmapped types name the column', async () => {
  const sql = "SELECT [toDateTime64('2024-01-02 03:04:05.123456', 6, 'UTC'), toDateTime64('1969-12-31 23:59:59.999999', 6, 'UTC')] AS a";
  await assert.rejects(async () => toArrow(await client.fetchColumns(sql)), (e: unknown) => e instanceof ChwireConfigError && /column "a".*datetime: 'string'/.test(e.message));
  const t = toArrow(await client.fetchColumns(sql, { datetime: 'string' }));
  assert.deepEqual(columnCells(t, 'a'), [['1704164645123456', '-1']]);
  for (const [expr, type] of [['toInt128(1)', 'Int128'], ["map('a', 1)", 'Map(String, UInt8)'], ['tuple(1, 2)', 'Tuple(UInt8, UInt8)'], ["[toInt256(1)]", 'Int256']] as const) {
    await assert.rejects(async () => toArrow(await client.fetchColumns(`SELECT 1 AS ok, ${expr} AS bad`)),
      (e: unknown) => e instanceof ChwireTypeError && e.message.includes('column "bad"') && e.message.includes(type), expr);
  }
  // Decimals read as numbers (rounded) are refused; the default (text / wire integers) converts.
  await assert.rejects(async () => toArrow(await client.fetchColumns('SELECT toDecimal128(1.5, 3) AS d', { decimal: 'number' })), ChwireConfigError);
});

test('values read with wire: false convert to the same table', async () => {
  const sql = `SELECT toDate('2020-02-03') + number AS d, toDateTime(1700000000 + number, 'UTC') AS t, toDecimal64(number / 4, 3) AS x,
    toIPv4(toUInt32(number + 167772161)) AS ip, CAST(number % 2 AS Enum8('a' = 0, 'b' = 1)) AS e, fromUnixTimestamp64Milli(toInt64(number) * 1001, 'UTC') AS t3
    FROM numbers(50)`;
  const wire = toArrow(await client.fetchColumns(sql));
  const values = toArrow(await client.fetchColumns(sql, { wire: false }));
  for (const f of wire.schema.fields) {
    assert.equal(String(values.schema.fields.find((x) => x.name === f.name)!.type), String(f.type));
    assert.deepEqual(columnCells(values, f.name), columnCells(wire, f.name), f.name);
  }
});
