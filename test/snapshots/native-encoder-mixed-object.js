'use strict';
return function encodeBlock(rows, start, end, rowBase) {
  const n = end - start;
  if (!(n > 0)) return [];
  const a0 = new BigUint64Array(n), u0 = new Uint32Array(a0.buffer);
  const c1 = new Array(n);
  const a2 = new Uint32Array(n);
  const a3 = new Float64Array(n);
  const a4 = new Int32Array(n);
  const c5 = new Array(n);
  let j = 0, col = -1, v, t, r;
  try {
    for (let i = start; i < end; i++, j++) {
      r = rows[i]; col = -1;
      if (typeof r !== 'object' || r === null || Array.isArray(r)) H.badRow(r, false);
      let keys = 0, present = 0;
      for (const _ in r) keys++;
      col = 0; v = r["id"]; if (v !== undefined) present++;
      if (typeof v === 'number') { if ((v >>> 0) === v) u0[2 * j] = v; else if (Number.isSafeInteger(v) && v >= 0) { u0[2 * j] = v >>> 0; u0[2 * j + 1] = Math.floor(v / 4294967296) >>> 0; } else a0[j] = S[0](v); } else a0[j] = S[0](v);
      col = 1; v = r["s"]; if (v !== undefined) present++;
      c1[j] = v;
      col = 2; v = r["t"]; if (v !== undefined) present++;
      if (typeof v === 'number' ? (v >>> 0) === v && (t = v, true) : v instanceof Date ? (t = Math.floor(v.getTime() / 1000)) >= 0 : typeof v === 'string' && (t = H.fixedDateTime(v)) >= 0) { if (t <= 4294967295) a2[j] = t; else a2[j] = S[2](v); } else a2[j] = S[2](v);
      col = 3; v = r["f"]; if (v !== undefined) present++;
      a3[j] = typeof v === 'number' ? v : S[3](v);
      col = 4; v = r["i"]; if (v !== undefined) present++;
      if (typeof v === 'number' && (v | 0) === v) a4[j] = v; else a4[j] = S[4](v);
      col = 5; v = r["lc"]; if (v !== undefined) present++;
      c5[j] = v;
      if (keys !== present) { col = -1; H.checkKeys(r); }
    }
  } catch (e) { throw H.rowError(e, col, rowBase + j); }
  const s = new H.ByteSink(H.sizeHint(n));
  s.varUInt(6); s.varUInt(n);
  s.bytes(HEAD[0]);
  s.view(a0);
  s.bytes(HEAD[1]);
  try { W[1].prefix(s); W[1].data(c1, s); }
  catch (e) { throw H.dataError(e, 1, rowBase); }
  s.bytes(HEAD[2]);
  s.view(a2);
  s.bytes(HEAD[3]);
  s.view(a3);
  s.bytes(HEAD[4]);
  s.view(a4);
  s.bytes(HEAD[5]);
  try { W[5].prefix(s); W[5].data(c5, s); }
  catch (e) { throw H.dataError(e, 5, rowBase); }
  return s.chunks();
};
//# sourceURL=chwire/native-encoder/318f91db7242257b.js
