'use strict';
return function encodeBlock(rows, start, end, rowBase) {
  const n = end - start;
  if (!(n > 0)) return [];
  const a0 = new Int8Array(n);
  const c1 = new Array(n);
  const c2 = new Array(n);
  let j = 0, col = -1, v, t, r;
  try {
    for (let i = start; i < end; i++, j++) {
      r = rows[i]; col = -1;
      if (typeof r !== 'object' || r === null || Array.isArray(r)) H.badRow(r, false);
      let keys = 0, present = 0;
      for (const _ in r) keys++;
      col = 0; v = (H.own(r, K[0]) ? r[K[0]] : undefined); if (v !== undefined) present++;
      if (typeof v === 'number' && (v << 24 >> 24) === v) a0[j] = v; else a0[j] = S[0](v);
      col = 1; v = r["it's\n"]; if (v !== undefined) present++;
      c1[j] = v;
      col = 2; v = (H.own(r, K[2]) ? r[K[2]] : undefined); if (v !== undefined) present++;
      c2[j] = v;
      if (keys !== present) { col = -1; H.checkKeys(r); }
    }
  } catch (e) { throw H.rowError(e, col, rowBase + j); }
  const s = new H.ByteSink(H.sizeHint(n));
  s.varUInt(3); s.varUInt(n);
  s.bytes(HEAD[0]);
  s.view(a0);
  s.bytes(HEAD[1]);
  try { W[1].prefix(s); W[1].data(c1, s); }
  catch (e) { throw H.dataError(e, 1, rowBase); }
  s.bytes(HEAD[2]);
  try { W[2].prefix(s); W[2].data(c2, s); }
  catch (e) { throw H.dataError(e, 2, rowBase); }
  return s.chunks();
};
//# sourceURL=chwire/native-encoder/d01769bd04713aed.js
