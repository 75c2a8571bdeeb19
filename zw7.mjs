import { decodeRowBinary, decodeRowBinaryReference, createRowBinaryDecoder } from './dist/src/codec.js';
const b = Buffer.from(process.argv[2], 'hex');
for (const [n, f] of [['compiled', () => decodeRowBinary(b)], ['ref', () => decodeRowBinaryReference(b)], ['stream6', () => { const d = createRowBinaryDecoder(); for (let i = 0; i < b.length; i += 6) d.push(b.subarray(i, i + 6)); d.end(); }]]) {
  const t0 = performance.now(); try { f(); console.log(n, 'ok'); } catch (e) { console.log(n, e.message.slice(0, 200)); } console.log(Math.round(performance.now() - t0), 'ms');
}
