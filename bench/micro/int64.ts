// Micro-bench: fastest exact way to turn 8 little-endian bytes into a bigint (and the cost of
// the alternatives), for the default int64: 'bigint'. Run: node dist/bench/micro/int64.js
const N = 1_000_000;
const buf = new Uint8Array(N * 8);
const dv = new DataView(buf.buffer);
for (let i = 0; i < N; i++) dv.setBigUint64(i * 8, BigInt(i * 3), true);

function bench(name: string, fn: () => unknown): void {
  const ts: number[] = [];
  for (let r = 0; r < 9; r++) { const s = performance.now(); fn(); ts.push(performance.now() - s); }
  ts.sort((a, b) => a - b);
  console.log(`${name.padEnd(34)} ${(ts[4]! * 1e6 / N).toFixed(1)} ns/value`);
}

const out: unknown[] = new Array(N);
bench('getBigUint64', () => { for (let i = 0; i < N; i++) out[i] = dv.getBigUint64(i * 8, true); });
bench('BigInt(hi*2^32+lo) when hi small', () => {
  for (let i = 0; i < N; i++) {
    const p = i * 8;
    const hi = dv.getUint32(p + 4, true);
    out[i] = hi < 0x200000 ? BigInt(hi * 4294967296 + dv.getUint32(p, true)) : dv.getBigUint64(p, true);
  }
});
bench('BigInt(lo) when hi == 0', () => {
  for (let i = 0; i < N; i++) {
    const p = i * 8;
    out[i] = dv.getUint32(p + 4, true) === 0 ? BigInt(dv.getUint32(p, true)) : dv.getBigUint64(p, true);
  }
});
bench('BigInt(lo|0) smi when < 2^30', () => {
  for (let i = 0; i < N; i++) {
    const p = i * 8;
    const lo = dv.getUint32(p, true);
    out[i] = dv.getUint32(p + 4, true) === 0 && lo < 0x40000000 ? BigInt(lo | 0) : dv.getBigUint64(p, true);
  }
});
bench('BigInt.asUintN(64, ...)', () => { for (let i = 0; i < N; i++) out[i] = BigInt.asUintN(64, dv.getBigInt64(i * 8, true)); });
bench('number (baseline)', () => { for (let i = 0; i < N; i++) { const p = i * 8; out[i] = dv.getUint32(p + 4, true) * 4294967296 + dv.getUint32(p, true); } });
const big64 = new BigUint64Array(buf.buffer);
bench('BigUint64Array[i] (aligned only)', () => { for (let i = 0; i < N; i++) out[i] = big64[i]; });
