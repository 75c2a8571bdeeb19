// Micro-bench: what writing a columnar result into new memory costs on this machine, apart from
// any decoding. fetchColumns of five numeric columns × 1M rows must put 28 MB somewhere new (the
// caller keeps the typed arrays); this writes the same sizes, 64 KiB at a time as a stream would,
// into new typed arrays, and the same bytes into one array already written once.
// On a VM whose memory is handed to the guest on first touch, the first write of each page costs
// far more than the copy (measured 2026-12-04 on this 2-core Firecracker VM: ~3 ms per MiB).
// Run: node dist/bench/micro/fresh-memory.js
const SIZES = [8e6, 4e6, 4e6, 8e6, 4e6]; // UInt64, Int32, UInt32, Float64, Float32 × 1M rows
const STEP = 64 * 1024;
const src = new Uint8Array(STEP).fill(7);
const total = SIZES.reduce((a, b) => a + b, 0);

function fill(d: Uint8Array): void {
  for (let o = 0; o < d.length; o += STEP) d.set(src.subarray(0, Math.min(STEP, d.length - o)), o);
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fresh: number[] = [];
const warm: number[] = [];
const reused = SIZES.map((s) => new Uint8Array(s));
for (const d of reused) fill(d);
let keep: Uint8Array[] = [];
for (let r = 0; r < 9; r++) {
  let t = performance.now();
  keep = SIZES.map((s) => { const d = new Uint8Array(s); fill(d); return d; });
  fresh.push(performance.now() - t);
  t = performance.now();
  for (const d of reused) fill(d);
  warm.push(performance.now() - t);
}
const mib = total / 2 ** 20;
console.log(`node ${process.version}: ${mib.toFixed(1)} MiB in 64 KiB writes`);
console.log(`  into new typed arrays:     median ${median(fresh).toFixed(1)} ms (${(median(fresh) / mib).toFixed(2)} ms/MiB), runs ${fresh.map((x) => x.toFixed(0)).join(' ')}`);
console.log(`  into arrays written before: median ${median(warm).toFixed(1)} ms (${(median(warm) / mib).toFixed(2)} ms/MiB)`);
console.log(`  (${keep.length} arrays kept until the end, as a caller keeps its columns)`);
