'use strict';
return function encodeBlock(rows, start, end, rowBase) {
  const n = end - start;
  if (!(n > 0)) return [];
  const a0 = new Uint8Array(n);
  const c1 = new Array(n);
  const a2 = new BigInt64Array(n), u2 = new Uint32Array(a2.buffer);
  const a3 = new Uint8Array(n);
  let j = 0, col = -1, v, t, r;
  try {
    for (let i = start; i < end; i++, j++) {
      r = rows[i]; col = -1;
      if (!Array.isArray(r) || r.length !== 4) H.badRow(r, true);
      col = 0; v = r[0];
      if (typeof v === 'number' && (v & 255) === v) a0[j] = v; else a0[j] = S[0](v);
      col = 1; v = r[1];
      c1[j] = v;
      col = 2; v = r[2];
      if (typeof v === 'number' ? Number.isSafeInteger(t = v) : v instanceof Date && Number.isSafeInteger(t = v.getTime())) { u2[2 * j] = t >>> 0; u2[2 * j + 1] = Math.floor(t / 4294967296) >>> 0; } else a2[j] = S[2](v);
      col = 3; v = r[3];
      a3[j] = v === true ? 1 : v === false ? 0 : S[3](v);
    }
  } catch (e) { throw H.rowError(e, col, rowBase + j); }
  const s = new H.ByteSink(H.sizeHint(n));
  s.varUInt(4); s.varUInt(n);
  s.bytes(HEAD[0]);
  s.view(a0);
  s.bytes(HEAD[1]);
  try { W[1].prefix(s); W[1].data(c1, s); }
  catch (e) { throw H.dataError(e, 1, rowBase); }
  s.bytes(HEAD[2]);
  s.view(a2);
  s.bytes(HEAD[3]);
  s.view(a3);
  return s.chunks();
};
//# sourceURL=chwire/native-encoder/618329c04fa98be3.js
