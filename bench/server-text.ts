// npm run bench:server-text — what the decode options for values as the server prints them cost
// against the defaults (issue 18 §3): `datetime: 'text'` (wall-clock text in the column's zone)
// against `'Date'` (default) and `'string'` (ISO UTC), and `float32: 'shortest'` against
// `'exact'` (default). Rows from the embedded engine, every value distinct (no converter cache
// helps), decoded by the compiled RowBinary decoder and by the Native row decoder.
// Invariant: paths alternated, checked against the reference decoder (or the other Native path
// the same options) before timing, medians after warm-up (bench/harness.ts).
import { decodeRowBinary, decodeRowBinaryReference, clearCompiledCache, type RowBinaryOptions } from '../src/codec.js';
import { decodeNative } from '../src/native/read/row-decoder.js';
import { engineBytes } from '../test/support/engine.js';
import { Bench, type BenchPath } from './harness.js';
import { assertEqual } from './equal.js';
import { plain } from './schemas.js';

const bench = new Bench('server-text');
const ROWS = bench.config.rows;

// Zoned columns nested: a Native header keeps a DateTime's zone only there (docs/client.md).
// `step` seconds apart: 1 (a log's timestamps, the zone's offset memo hits) or 7919 (every value in
// its own 15-minute span: each misses the memo and asks Intl, the worst case).
const dtSql = (step: number): string => `SELECT [toDateTime(1600000000 + number * ${step}, 'Europe/Berlin')] AS berlin, toDateTime(1600000000 + number * ${step}, 'UTC') AS utc, ` +
  `[toDateTime64(1600000000 + number * ${step} + (number % 1000) / 1000, 3, 'America/New_York')] AS ny FROM numbers(${ROWS})`;
const F32_SQL = `SELECT reinterpretAsFloat32(toUInt32(cityHash64(number) % 2139095040)) AS a, toFloat32(number / 7) AS b FROM numbers(${ROWS})`;

function paths(bin: Uint8Array, nat: Uint8Array, variants: [string, RowBinaryOptions][]): BenchPath[] {
  const out: BenchPath[] = [];
  for (const [name, o] of variants) {
    out.push({ name: `rowbinary-${name}`, before: clearCompiledCache, run: () => decodeRowBinary(bin, o), check: (r) => assertEqual(r, decodeRowBinaryReference(bin, o), `${name} vs reference`) });
  }
  for (const [name, o] of variants) {
    out.push({ name: `native-${name}`, run: () => decodeNative(nat, o), check: (r) => assertEqual((r as { rows: unknown }).rows, decodeRowBinary(bin, o).rows, `native ${name} vs RowBinary`) });
  }
  return out;
}

for (const [name, step] of [['datetime-clustered', 1], ['datetime-spread', 7919]] as const) {
  const sql = dtSql(step);
  const dtBin = plain(await engineBytes(sql, 'RowBinaryWithNamesAndTypes'));
  const dtNat = plain(await engineBytes(sql, 'Native'));
  await bench.run({
    name, rows: ROWS, baselines: ['rowbinary-Date', 'native-Date'],
    title: `Array(DateTime('Europe/Berlin')), DateTime('UTC'), Array(DateTime64(3, 'America/New_York')), ${step} s apart: datetime 'Date' (default) / 'string' / 'text'`,
    paths: paths(dtBin, dtNat, [['Date', {}], ['string', { datetime: 'string' }], ['text', { datetime: 'text' }]]),
  });
}

const fBin = plain(await engineBytes(F32_SQL, 'RowBinaryWithNamesAndTypes'));
const fNat = plain(await engineBytes(F32_SQL, 'Native'));
await bench.run({
  name: 'float32', rows: ROWS, baselines: ['rowbinary-exact', 'native-exact'],
  title: "two Float32 columns (random bit patterns; number / 7): float32 'exact' (default) / 'shortest'",
  paths: paths(fBin, fNat, [['exact', {}], ['shortest', { float32: 'shortest' }]]),
});
bench.finish();
