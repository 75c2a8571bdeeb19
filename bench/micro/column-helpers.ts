// Micro-bench: what each column helper (src/columns/helpers.ts) and toArrow (chwire/arrow) cost
// per value, on 1M-row columns in fetchColumns' default forms made by the embedded engine.
// Reported as ns per value (medians of 7 runs after 2 warm-ups); the machine is shared, so compare
// helpers with each other and with `copy` (a Float64Array of 1M written once), not across runs.
// Run: node --expose-gc dist/bench/micro/column-helpers.js
import { loadavg } from 'node:os';
import { createClient } from '../../src/index.js';
import {
  epochMillis, decimalNumbers, decimalStrings, nullableNumbers, nullableValues, enumLabels, lowCardinalityValues,
} from '../../src/index.js';
import { toArrow } from '../../src/arrow/index.js';

const N = 1_000_000;
const client = createClient({ url: 'chdb://' });
const r = await client.fetchColumns(`SELECT toDateTime(1700000000 + number, 'UTC') AS dt, fromUnixTimestamp64Milli(toInt64(number) * 1001, 'UTC') AS t3,
  fromUnixTimestamp64Micro(toInt64(number) * 1000001, 'UTC') AS t6, toDate('2000-01-01') + number % 10000 AS d,
  toDecimal64(number / 7, 4) AS dec18, toDecimal128(number / 7, 6) AS dec38, CAST(if(number % 3 = 0, NULL, number / 3) AS Nullable(Float64)) AS nf,
  CAST(['a', 'b', 'c'][number % 3 + 1] AS Enum8('a' = 1, 'b' = 2, 'c' = 3)) AS e, toLowCardinality(toString(number % 100)) AS lc,
  toInt32(number) AS i32, number / 3 AS f64, toUInt64(number) AS u64
  FROM numbers(${N})`);
await client.close();
const col = (n: string) => r.columns[r.names.indexOf(n)]!;
const typ = (n: string) => r.types[r.names.indexOf(n)]!;

const cases: [string, () => unknown][] = [
  ['copy (Float64Array 1M, reference)', () => Float64Array.from(col('f64') as Float64Array)],
  ['epochMillis DateTime', () => epochMillis(col('dt'), typ('dt'))],
  ['epochMillis DateTime64(3)', () => epochMillis(col('t3'), typ('t3'))],
  ['epochMillis DateTime64(6)', () => epochMillis(col('t6'), typ('t6'))],
  ['epochMillis Date', () => epochMillis(col('d'), typ('d'))],
  ['decimalNumbers Decimal64', () => decimalNumbers(col('dec18'), typ('dec18'))],
  ['decimalNumbers Decimal128', () => decimalNumbers(col('dec38'), typ('dec38'))],
  ['decimalStrings Decimal64', () => decimalStrings(col('dec18'), typ('dec18'))],
  ['nullableNumbers Nullable(Float64)', () => nullableNumbers(col('nf'))],
  ['nullableValues Nullable(Float64)', () => nullableValues(col('nf'))],
  ['enumLabels Enum8', () => enumLabels(col('e'))],
  ['lowCardinalityValues LowCardinality(String)', () => lowCardinalityValues(col('lc'))],
  ['toArrow Int32+Float64+UInt64 (shared memory)', () => toArrow({ names: ['i32', 'f64', 'u64'], types: [typ('i32'), typ('f64'), typ('u64')], columns: [col('i32'), col('f64'), col('u64')], rowCount: N })],
  ['toArrow DateTime (widened)', () => toArrow({ names: ['dt'], types: [typ('dt')], columns: [col('dt')], rowCount: N })],
  ['toArrow Decimal64 (→128 bit)', () => toArrow({ names: ['d'], types: [typ('dec18')], columns: [col('dec18')], rowCount: N })],
  ['toArrow Decimal128 (text → 128 bit)', () => toArrow({ names: ['d'], types: [typ('dec38')], columns: [col('dec38')], rowCount: N })],
  ['toArrow Nullable(Float64) (bitmap)', () => toArrow({ names: ['n'], types: [typ('nf')], columns: [col('nf')], rowCount: N })],
  ['toArrow Enum8 (indices)', () => toArrow({ names: ['e'], types: [typ('e')], columns: [col('e')], rowCount: N })],
  ['toArrow LowCardinality(String)', () => toArrow({ names: ['lc'], types: [typ('lc')], columns: [col('lc')], rowCount: N })],
];
const gc = (globalThis as { gc?: () => void }).gc;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const times = new Map<string, number[]>(cases.map(([n]) => [n, []]));
for (let round = 0; round < 9; round++) {
  for (const [name, run] of cases) {
    gc?.();
    const t = performance.now();
    run();
    const ms = performance.now() - t;
    if (round >= 2) times.get(name)!.push(ms);
  }
}
console.log(`node ${process.version}, ${N} rows, load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
for (const [name, ts] of times) console.log(`${name.padEnd(48)} ${(median(ts) * 1e6 / N).toFixed(1).padStart(7)} ns/value  (median ${median(ts).toFixed(1)} ms)`);
