// The converter-cache extremes of issue 2 §3: values that repeat (a cache's best case) against
// values that are all distinct (its worst case: every lookup misses and fills).
//
// Two views, both as harness cases:
//   converters-repeat / converters-distinct: the decoder on converter-heavy columns (DateTime64,
//     Date, Decimal, UUID, IPv4), with default options and with dates as strings (the decoder
//     memoises Date and DateTime text in a FillCache), on a payload of 16 distinct values per
//     column vs a payload where every value differs.
//   cache-repeat / cache-distinct: the bounded fill-then-clear cache of src/convert/cache.ts in
//     front of a real converter (seconds → ISO text), against the bare converter, on the same
//     keys: "a full miss must not cost meaningfully more than no cache" (the cache switches itself
//     off after a generation with fewer hits than entries).
// Invariant: every path is checked against the reference decoder (or the bare converter) first.
import { decodeRowBinary, decodeRowBinaryReference, clearCompiledCache, type RowBinaryOptions } from '../src/codec.js';
import { FillCache, secondsToIso } from '../src/convert/index.js';
import { engineBytes } from '../test/support/engine.js';
import type { BenchCase, BenchPath } from './harness.js';
import { assertEqual } from './equal.js';
import { plain } from './schemas.js';

function converterSelect(rows: number, distinct: boolean): string {
  const k = distinct ? 'number' : 'number % 16';
  return `SELECT fromUnixTimestamp64Milli(toInt64(1700000000000 + ${k} * 1001), 'UTC') AS dt64, toDate(18000 + ${k}) AS d, ` +
    `toDecimal64(${k}, 4) / 3 AS dec, reinterpretAsUUID(reverse(unhex(lpad(hex(${k} * 2654435761), 32, '0')))) AS id, ` +
    `toIPv4(${k} * 2654435761 % 4294967296) AS ip FROM numbers(${Math.trunc(rows)})`;
}

export async function converterCases(rows: number): Promise<BenchCase[]> {
  const repeat = plain(await engineBytes(converterSelect(rows, false), 'RowBinaryWithNamesAndTypes'));
  const distinct = plain(await engineBytes(converterSelect(rows, true), 'RowBinaryWithNamesAndTypes'));
  const strings: RowBinaryOptions = { datetime: 'string', date: 'string' };
  const path = (name: string, bin: Uint8Array, options: RowBinaryOptions | undefined): BenchPath => ({
    name,
    before: clearCompiledCache,
    run: () => decodeRowBinary(bin, options),
    check: (r) => assertEqual(r, decodeRowBinaryReference(bin, options), `${name} vs reference`),
  });
  const title = 'DateTime64(3), Date, Decimal(18,4), UUID, IPv4';
  const cases: BenchCase[] = [
    {
      name: 'converters-repeat', rows, baselines: ['default'],
      title: `${title}: 16 distinct values per column (a cache's best case)`,
      paths: [path('default', repeat, undefined), path('dates-as-strings', repeat, strings)],
    },
    {
      name: 'converters-distinct', rows, baselines: ['default'],
      title: `${title}: every value distinct (a cache's worst case)`,
      paths: [path('default', distinct, undefined), path('dates-as-strings', distinct, strings)],
    },
  ];
  // The cache itself, in front of a real converter: fresh per run, as it is fresh per query.
  const base = 1_700_000_000;
  for (const [name, keyOf] of [['cache-repeat', (i: number) => base + (i % 16)], ['cache-distinct', (i: number) => base + i]] as const) {
    const keys = Float64Array.from({ length: rows }, (_, i) => keyOf(i));
    const expected = Array.from(keys, secondsToIso);
    cases.push({
      name, rows, baselines: ['no-cache'], expected,
      title: `seconds → ISO text, ${name === 'cache-repeat' ? '16 distinct keys' : 'all keys distinct'}: bounded fill-then-clear cache vs none`,
      paths: [
        { name: 'no-cache', run: () => Array.from(keys, secondsToIso) },
        { name: 'fill-cache', run: () => { const c = new FillCache<number, string>(4096); return Array.from(keys, (k) => c.get(k, secondsToIso)); } },
      ],
    });
  }
  return cases;
}
