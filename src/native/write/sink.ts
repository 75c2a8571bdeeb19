// The byte sink of the Native encoder: buffers for small and variable-size data (headers, string
// bytes with their LEB128 lengths, offsets), each new one twice the last, plus whole typed-array
// columns handed over as they are, so that a numeric column costs exactly one copy (into its
// typed array) and no byte is copied again when a buffer fills up.
//
// Invariant: `chunks()` returns the block's bytes in write order; a typed array passed to
// `view()` is never copied and must not be modified afterwards. No `node:` imports.

const utf8Encoder = new TextEncoder();

export class ByteSink {
  /**
   * A sink that lives as long as the class. V8 holds an object's hidden class ("map") only weakly
   * from its parent map: once the last sink of a block is garbage and a full GC runs, the map is
   * collected, the next `new ByteSink` builds a fresh one, and every optimised function whose
   * inline caches saw the old map deoptimises ("insufficient type feedback") and runs slowly
   * until it is re-optimised. Measured: encoding 200k rows after each full GC took 2× as long.
   */
  static readonly mapAnchor: ByteSink = new ByteSink(0);

  private buf: Uint8Array;
  private pos = 0;
  /** Start of the part of `buf` not yet moved to `out`. */
  private mark = 0;
  private readonly out: Uint8Array[] = [];

  constructor(initial = 4096) {
    this.buf = new Uint8Array(initial);
  }

  /**
   * Make room for `n` more bytes. When the buffer is full, the bytes written so far are handed out
   * as a chunk (as view() does) and writing goes on in a new buffer twice the size: nothing
   * written is copied again, and a column of many small strings stays linear.
   */
  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    this.cut();
    let size = this.buf.length * 2;
    while (size < n) size *= 2;
    this.buf = new Uint8Array(size);
    this.pos = 0;
    this.mark = 0;
  }

  u8(v: number): void {
    this.ensure(1);
    this.buf[this.pos++] = v;
  }

  varUInt(v: number): void {
    this.ensure(10);
    const b = this.buf;
    let p = this.pos;
    while (v >= 0x80) {
      b[p++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    b[p++] = v;
    this.pos = p;
  }

  /** A UInt64 from a non-negative safe integer (counts, offsets, flags). */
  u64(v: number): void {
    this.ensure(8);
    const b = this.buf;
    const p = this.pos;
    const lo = v >>> 0;
    const hi = Math.floor(v / 4294967296) >>> 0;
    b[p] = lo; b[p + 1] = lo >>> 8; b[p + 2] = lo >>> 16; b[p + 3] = lo >>> 24;
    b[p + 4] = hi; b[p + 5] = hi >>> 8; b[p + 6] = hi >>> 16; b[p + 7] = hi >>> 24;
    this.pos = p + 8;
  }

  /** Copy small bytes (headers, FixedString values) into the buffer. */
  bytes(src: Uint8Array): void {
    this.ensure(src.length);
    this.buf.set(src, this.pos);
    this.pos += src.length;
  }

  /** A String: LEB128 byte length, then the UTF-8 bytes, encoded in place (no per-value allocation). */
  string(s: string): void {
    const len = s.length;
    if (len < 64) {
      // Short strings: an ASCII loop beats TextEncoder's call overhead; fall back at the first non-ASCII char.
      this.ensure(len + 1);
      const b = this.buf;
      const start = this.pos;
      let p = start + 1;
      let i = 0;
      for (; i < len; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        b[p++] = c;
      }
      if (i === len) {
        b[start] = len;
        this.pos = p;
        return;
      }
    }
    // At most 3 bytes per UTF-16 unit. Reserve the LEB128 size of that bound, then close the gap if
    // the real length needs fewer prefix bytes (only when it crosses a 7-bit boundary).
    const max = len * 3;
    const reserve = varUIntSize(max);
    this.ensure(reserve + max);
    const b = this.buf;
    const start = this.pos;
    const written = utf8Encoder.encodeInto(s, b.subarray(start + reserve, start + reserve + max)).written;
    const need = varUIntSize(written);
    if (need !== reserve) b.copyWithin(start + need, start + reserve, start + reserve + written);
    // The length goes into the bytes reserved above (need ≤ reserve), never through ensure(): a
    // new buffer there would separate the length from the bytes already encoded after it.
    let p = start;
    let v = written;
    while (v >= 0x80) {
      b[p++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    b[p] = v;
    this.pos = start + need + written;
  }

  /**
   * A whole String column: the common case (short ASCII) runs with the buffer and position in
   * locals; anything else goes through `string()`, and a value that is not a string to `other`
   * (which writes it or throws).
   */
  stringColumn(values: readonly unknown[], other: (sink: ByteSink, v: unknown, i: number) => void): void {
    let buf = this.buf;
    let pos = this.pos;
    const n = values.length;
    for (let i = 0; i < n; i++) {
      const v = values[i];
      if (typeof v === 'string') {
        const len = v.length;
        if (len < 128) {
          if (pos + len + 1 > buf.length) {
            this.pos = pos;
            this.ensure(len + 1);
            buf = this.buf;
            pos = this.pos;
          }
          const start = pos;
          let p = pos + 1;
          let k = 0;
          for (; k < len; k++) {
            const ch = v.charCodeAt(k);
            if (ch >= 0x80) break;
            buf[p++] = ch;
          }
          if (k === len) {
            buf[start] = len;
            pos = p;
            continue;
          }
        }
        this.pos = pos;
        this.string(v);
      } else {
        this.pos = pos;
        other(this, v, i);
      }
      buf = this.buf;
      pos = this.pos;
    }
    this.pos = pos;
  }

  /** Append a typed array's bytes as their own chunk (zero copy). */
  view(v: ArrayBufferView): void {
    if (v.byteLength === 0) return;
    this.cut();
    this.out.push(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
  }

  /** Hand out the pending bytes of the buffer as a chunk; later writes go after them. */
  private cut(): void {
    if (this.pos > this.mark) {
      this.out.push(this.buf.subarray(this.mark, this.pos));
      this.mark = this.pos;
    }
  }

  /** The block's bytes, in order. The sink must not be used afterwards. */
  chunks(): Uint8Array[] {
    this.cut();
    return this.out;
  }
}

export function varUIntSize(v: number): number {
  let n = 1;
  while (v >= 0x80) {
    v = Math.floor(v / 128);
    n++;
  }
  return n;
}

/** The bytes of a String value (used for precomputed column headers). */
export function stringBytes(s: string): Uint8Array {
  const body = utf8Encoder.encode(s);
  const out = new Uint8Array(varUIntSize(body.length) + body.length);
  let v = body.length;
  let p = 0;
  while (v >= 0x80) {
    out[p++] = (v & 0x7f) | 0x80;
    v = Math.floor(v / 128);
  }
  out[p++] = v;
  out.set(body, p);
  return out;
}
