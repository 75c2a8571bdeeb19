// Micro-bench: is a per-query fill-then-clear cache worth it for the text converters? Measures
// the converter alone, a cache hit (few distinct inputs) and a full miss (all inputs distinct).
// Run: node dist/bench/micro/convert-cache.js
import { FillCache, secondsToIso, daysToString, decimalToString } from '../../src/convert/index.js';

const N = 500_000;
type Conv = (x: number) => string;
const convs: [string, Conv][] = [['secondsToIso', secondsToIso], ['daysToString', daysToString], ['decimalToString(x, 2)', (x) => decimalToString(x, 2)]];

function bench(fn: () => void): number {
  const ts: number[] = [];
  for (let r = 0; r < 7; r++) { const s = performance.now(); fn(); ts.push(performance.now() - s); }
  ts.sort((a, b) => a - b);
  return (ts[3]! * 1e6) / N;
}

const out: string[] = new Array(N);
for (const [name, conv] of convs) {
  const distinct = Array.from({ length: N }, (_, i) => 1_700_000_000 % 60000 + i);
  const repeated = Array.from({ length: N }, (_, i) => 19000 + (i % 64));
  const plain = (xs: number[]): number => bench(() => { for (let i = 0; i < N; i++) out[i] = conv(xs[i]!); });
  const cached = (xs: number[]): number => bench(() => { const c = new FillCache<number, string>(4096); for (let i = 0; i < N; i++) out[i] = c.get(xs[i]!, conv); });
  // 'distinct' runs 500k values: the cache switches itself off after the first 4096 misses.
  console.log(`${name.padEnd(24)} repeated: plain ${plain(repeated).toFixed(0)} ns, cached ${cached(repeated).toFixed(0)} ns | distinct: plain ${plain(distinct).toFixed(0)} ns, cached ${cached(distinct).toFixed(0)} ns`);
}
