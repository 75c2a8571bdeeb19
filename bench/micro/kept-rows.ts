// Micro-bench: the floor under `fetch` on schema (b) (UInt64, String, DateTime, Float64, Int32):
// what keeping 200 000 rows with chwire's default (lossless) values costs when nothing is read
// from any bytes — the values come from ready typed arrays and a string table, one object literal
// per row, every row kept in one array. Each path leaves out one kind of value, to show what each
// kind costs kept (its allocation, and the young-generation GC copying it until it is promoted).
// Compare the `literal` path with the time of a drain of the same Native bytes (bench:client's
// figures in docs/figures.md): fetch cannot be faster than the drain plus this.
// Measured 2026-12-06 (Node 26, 2 shared cores at load ~11, process CPU time, medians of 10
// alternated rounds): literal 74 ms, without the Date 37 ms, without the string 60 ms, numbers
// only 8 ms; the HTTP drain of the same rows' Native bytes took 37 ms of CPU in the same hour.
// Run: node --expose-gc dist/bench/micro/kept-rows.js
const N = 200_000;
const ids = new BigUint64Array(N).map((_, i) => BigInt(i));
const secs = new Uint32Array(N).map((_, i) => 1_700_000_000 + i);
const score = new Float64Array(N).map((_, i) => i / 7);
const delta = new Int32Array(N).map((_, i) => (i % 100_000) - 50_000);
const text = Array.from({ length: N }, (_, i) => `user_${i % 1000}_${i}`);
const bytes = Buffer.from(text.join(''), 'latin1');
const starts = new Uint32Array(N);
const ends = new Uint32Array(N);
for (let i = 0, p = 0; i < N; i++) { starts[i] = p; p += text[i]!.length; ends[i] = p; }
// Buffer#utf8Slice: a native string per value (chwire's short ASCII path is no slower).
const utf8Slice = (Buffer.prototype as unknown as { utf8Slice: (this: Buffer, s: number, e: number) => string }).utf8Slice;
const str = (i: number): string => utf8Slice.call(bytes, starts[i]!, ends[i]!);

const paths: Record<string, () => unknown[]> = {
  literal: () => { const out = new Array(N); for (let i = 0; i < N; i++) out[i] = { id: ids[i], name: str(i), ts: new Date(secs[i]! * 1000), score: score[i], delta: delta[i] }; return out; },
  'no-date': () => { const out = new Array(N); for (let i = 0; i < N; i++) out[i] = { id: ids[i], name: str(i), ts: secs[i]! * 1000, score: score[i], delta: delta[i] }; return out; },
  'no-string': () => { const out = new Array(N); for (let i = 0; i < N; i++) out[i] = { id: ids[i], name: 'x', ts: new Date(secs[i]! * 1000), score: score[i], delta: delta[i] }; return out; },
  'no-bigint': () => { const out = new Array(N); for (let i = 0; i < N; i++) out[i] = { id: 1, name: str(i), ts: new Date(secs[i]! * 1000), score: score[i], delta: delta[i] }; return out; },
  'numbers-only': () => { const out = new Array(N); for (let i = 0; i < N; i++) out[i] = { id: 1, name: 'x', ts: 1, score: score[i], delta: delta[i] }; return out; },
};

const gc = (globalThis as { gc?: () => void }).gc;
const names = Object.keys(paths);
const cpu: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
for (let r = 0; r < 12; r++) {
  for (let k = 0; k < names.length; k++) {
    const name = names[(k + r) % names.length]!;
    gc?.();
    const c0 = process.cpuUsage();
    let kept: unknown[] | undefined = paths[name]!();
    const c = process.cpuUsage(c0);
    if (kept.length !== N) throw new Error('rows');
    kept = undefined;
    if (r >= 2) cpu[name]!.push((c.user + c.system) / 1000);
  }
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`${N} kept rows of (b), process CPU ms (median of 10 alternated rounds)${gc === undefined ? '; run with --expose-gc' : ''}`);
for (const n of names) console.log(`  ${n.padEnd(13)} ${median(cpu[n]!).toFixed(1)}`);
