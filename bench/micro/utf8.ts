// Micro-bench: cheapest way to turn short ASCII/UTF-8 byte runs into strings, by length, to set
// the thresholds of src/io/utf8.ts. Run: node dist/bench/micro/utf8.js
const N = 200_000;
const dec = new TextDecoder('utf-8', { ignoreBOM: true });
type Slicer = (this: Uint8Array, s: number, e: number) => string;
const proto = (globalThis as unknown as { Buffer: { prototype: { utf8Slice: Slicer; latin1Slice: Slicer } } }).Buffer.prototype;

function loop(b: Uint8Array, s: number, e: number): string {
  let out = '';
  for (let i = s; i < e; i++) out += String.fromCharCode(b[i]!);
  return out;
}
function apply(b: Uint8Array, s: number, e: number): string {
  return String.fromCharCode.apply(null, b.subarray(s, e) as unknown as number[]);
}

for (const len of [4, 8, 12, 16, 24, 32, 64, 128, 256]) {
  const buf = new Uint8Array(N * len);
  for (let i = 0; i < buf.length; i++) buf[i] = 97 + (i % 26);
  const res: Record<string, number> = {};
  const run = (name: string, f: (b: Uint8Array, s: number, e: number) => string): void => {
    const ts: number[] = [];
    const out: string[] = new Array(N);
    for (let r = 0; r < 7; r++) {
      const t0 = performance.now();
      for (let i = 0; i < N; i++) out[i] = f(buf, i * len, i * len + len);
      ts.push(performance.now() - t0);
    }
    ts.sort((a, b) => a - b);
    res[name] = ts[3]! * 1e6 / N;
  };
  run('loop', loop);
  run('apply', apply);
  run('utf8Slice', (b, s, e) => proto.utf8Slice.call(b, s, e));
  run('latin1Slice', (b, s, e) => proto.latin1Slice.call(b, s, e));
  run('TextDecoder', (b, s, e) => dec.decode(b.subarray(s, e)));
  console.log(`len ${String(len).padStart(3)}: ` + Object.entries(res).map(([k, v]) => `${k} ${v.toFixed(0)}ns`).join('  '));
}
