"use strict";
  const k0 = C[0];
  const k1 = C[1];
  return function decode(u8, dv, p, end, out, cur) {
    let rs = p;
    let zs = cur.zeroLeft;
    try {
      while (p < end) {
        rs = p;
        zs = cur.zeroLeft;
        let v0, v1, v2, v3, v4, v5;
        if (p >= end) throw H.more(cur, p + 1);
        let n6 = u8[p];
        if (n6 < 128) p++; else { cur.pos = p; n6 = H.readVarUInt(cur); p = cur.pos; }
        if (n6 * 1 > end - p) throw H.badLength(cur, p, n6 * 1);
        const a7 = new Array(n6);
        for (let i8 = 0; i8 < n6; i8++) {
          let v9;
          if (p >= end) throw H.more(cur, p + 1);
          let n10 = u8[p];
          if (n10 < 128) p++; else { cur.pos = p; n10 = H.readVarUInt(cur); p = cur.pos; }
          if (n10 * 1 > end - p) throw H.badLength(cur, p, n10 * 1);
          const a11 = new Array(n10);
          for (let i12 = 0; i12 < n10; i12++) {
            let v13;
            if (p >= end) throw H.more(cur, p + 1);
            let n14 = u8[p];
            if (n14 < 128) p++; else { cur.pos = p; n14 = H.readVarUInt(cur); p = cur.pos; }
            if (n14 * 1 > end - p) throw H.badLength(cur, p, n14 * 1);
            const a15 = new Array(n14);
            for (let i16 = 0; i16 < n14; i16++) {
              let v17;
              cur.pos = p; v17 = k0(cur); p = cur.pos;
              a15[i16] = v17;
            }
            v13 = a15;
            a11[i12] = v13;
          }
          v9 = a11;
          a7[i8] = v9;
        }
        v0 = a7;
        if (p + 48 > end) throw H.more(cur, p + 48);
        v1 = H.decimalNumber(dv, p, 8, 4);
        v2 = H.uuidToBytes(u8, p + 8);
        v3 = H.int64TicksToIso(dv, p + 24, 6);
        v4 = [dv.getFloat64(p + 32, true), dv.getFloat64(p + 40, true)];
        p += 48;
        cur.pos = p; v5 = k1(cur); p = cur.pos;
        out.push({"deep": v0, "dec": v1, "u": v2, "t64": v3, "p": v4, "j": v5});
      }
    } catch (err) {
      cur.pos = rs;
      cur.zeroLeft = zs;
      throw err;
    }
    return p;
  };
//# sourceURL=chwire/rowbinary/7b1f5505e07f3d4e.js