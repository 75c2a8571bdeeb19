"use strict";
  const k0 = C[0];
  const k1 = C[1];
  const k2 = C[2];
  return function decode(u8, dv, p, end, out, cur) {
    let rs = p;
    let zs = cur.zeroLeft;
    try {
      while (p < end) {
        rs = p;
        zs = cur.zeroLeft;
        let v0, v1, v2, v3, v4;
        if (p >= end) throw H.more(cur, p + 1);
        const f5 = u8[p];
        if (f5 === 1) { p++; v0 = null; } else if (f5 !== 0) { throw H.fault("Nullable flag is neither 0 nor 1", p); } else {
          p++;
          if (p >= end) throw H.more(cur, p + 1);
          let n6 = u8[p];
          if (n6 < 128) p++; else { cur.pos = p; n6 = H.readVarUInt(cur); p = cur.pos; }
          if (n6 > end - p) throw H.badLength(cur, p, n6);
          v0 = H.utf8Decode(u8, p, p + n6);
          p += n6;
        }
        if (p >= end) throw H.more(cur, p + 1);
        let n7 = u8[p];
        if (n7 < 128) p++; else { cur.pos = p; n7 = H.readVarUInt(cur); p = cur.pos; }
        if (n7 * 2 > end - p) throw H.badLength(cur, p, n7 * 2);
        const m8 = {};
        for (let i9 = 0; i9 < n7; i9++) {
          let k10, v11;
          if (p >= end) throw H.more(cur, p + 1);
          let n12 = u8[p];
          if (n12 < 128) p++; else { cur.pos = p; n12 = H.readVarUInt(cur); p = cur.pos; }
          if (n12 > end - p) throw H.badLength(cur, p, n12);
          k10 = H.utf8Decode(u8, p, p + n12);
          p += n12;
          if (p >= end) throw H.more(cur, p + 1);
          let n13 = u8[p];
          if (n13 < 128) p++; else { cur.pos = p; n13 = H.readVarUInt(cur); p = cur.pos; }
          if (n13 * 2 > end - p) throw H.badLength(cur, p, n13 * 2);
          const a14 = new Array(n13);
          for (let i15 = 0; i15 < n13; i15++) {
            let v16;
            let t17, t18;
            if (p + 1 > end) throw H.more(cur, p + 1);
            t17 = u8[p];
            p += 1;
            cur.pos = p; t18 = k0(cur); p = cur.pos;
            v16 = {"a": t17, "b": t18};
            a14[i15] = v16;
          }
          v11 = a14;
          H.setOwn(m8, String(k10), v11);
        }
        v1 = m8;
        if (p >= end) throw H.more(cur, p + 1);
        const d19 = u8[p++];
        switch (d19) {
          case 255: v2 = null; break;
          case 0: {
            if (p >= end) throw H.more(cur, p + 1);
            let n20 = u8[p];
            if (n20 < 128) p++; else { cur.pos = p; n20 = H.readVarUInt(cur); p = cur.pos; }
            if (n20 > end - p) throw H.badLength(cur, p, n20);
            v2 = H.utf8Decode(u8, p, p + n20);
            p += n20;
            break;
          }
          case 1: {
            if (p + 8 > end) throw H.more(cur, p + 8);
            v2 = (dv.getUint32(p + 4, true) * 4294967296 + dv.getUint32(p, true));
            p += 8;
            break;
          }
          default: throw H.fault("Variant discriminator out of range", p - 1);
        }
        if (p + 1 > end) throw H.more(cur, p + 1);
        v3 = (k1[u8[p] ^ 128] ?? H.badEnum(dv.getInt8(p), p));
        p += 1;
        cur.pos = p; v4 = k2(cur); p = cur.pos;
        out.push([v0, v1, v2, v3, v4]);
      }
    } catch (err) {
      cur.pos = rs;
      cur.zeroLeft = zs;
      throw err;
    }
    return p;
  };
//# sourceURL=chwire/rowbinary/ed33efbd7130943b.js