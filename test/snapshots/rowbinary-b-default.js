"use strict";
  return function decode(u8, dv, p, end, out, cur) {
    let rs = p;
    try {
      while (p < end) {
        rs = p;
        let v0, v1, v2, v3, v4;
        if (p + 8 > end) throw H.more(cur, p + 8);
        v0 = H.readUInt64Big(dv, p);
        p += 8;
        if (p >= end) throw H.more(cur, p + 1);
        let n5 = u8[p];
        if (n5 < 128) p++; else { cur.pos = p; n5 = H.readVarUInt(cur); p = cur.pos; }
        if (n5 > end - p) throw H.badLength(cur, p, n5);
        v1 = H.utf8Decode(u8, p, p + n5);
        p += n5;
        if (p + 16 > end) throw H.more(cur, p + 16);
        v2 = new Date(dv.getUint32(p, true) * 1000);
        v3 = dv.getFloat64(p + 4, true);
        v4 = dv.getInt32(p + 12, true);
        p += 16;
        out.push({"id": v0, "name": v1, "ts": v2, "score": v3, "n": v4});
      }
    } catch (err) {
      cur.pos = rs;
      throw err;
    }
    return p;
  };
//# sourceURL=chwire/rowbinary/0ebe09abe9215be4.js