import { decodeRowBinary, decodeRowBinaryReference } from './dist/src/codec.js';
function varUInt(n) { const out = []; while (n >= 0x80) { out.push((n % 0x80) | 0x80); n = Math.floor(n / 0x80); } out.push(n); return out; }
const text = (s) => [...varUInt(s.length), ...Buffer.from(s)];
for (const t of ['Array(Tuple())', 'Array(Tuple(Tuple()))']) for (const n of [131072, 1 << 20]) {
  const b = Uint8Array.from([1, ...text('a'), ...text(t), ...varUInt(n)]);
  for (const [name, f] of [['compiled', decodeRowBinary], ['ref', decodeRowBinaryReference]]) {
    const t0 = performance.now(); const r = f(b); console.log(t, n, name, Math.round(performance.now() - t0), 'ms', r.rows[0].a.length);
  }
}
