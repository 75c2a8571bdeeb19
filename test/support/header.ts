// Reading the header of a RowBinaryWithNamesAndTypes body in tests, independently of the decoder
// under test: VarUInt n, n names, then n types (text, or the binary type encoding).

class ByteCursor {
  pos = 0;
  constructor(readonly b: Uint8Array) {}
  varUInt(): number {
    let r = 0;
    for (let mul = 1; ; mul *= 128) {
      const x = this.b[this.pos++];
      if (x === undefined) throw new Error('header: truncated VarUInt');
      r += (x & 0x7f) * mul;
      if (x < 0x80) return r;
    }
  }
  string(): string {
    const n = this.varUInt();
    if (this.pos + n > this.b.length) throw new Error('header: truncated string');
    const s = new TextDecoder().decode(this.b.subarray(this.pos, this.pos + n));
    this.pos += n;
    return s;
  }
}

/** Column names and text types of a RowBinaryWithNamesAndTypes body. */
export function headerTextTypes(b: Uint8Array): { names: string[]; types: string[] } {
  const c = new ByteCursor(b);
  const n = c.varUInt();
  const names = Array.from({ length: n }, () => c.string());
  const types = Array.from({ length: n }, () => c.string());
  return { names, types };
}

/** Column names and the offset where the (binary-encoded) types start. */
export function headerNames(b: Uint8Array): { names: string[]; typesOffset: number } {
  const c = new ByteCursor(b);
  const n = c.varUInt();
  const names = Array.from({ length: n }, () => c.string());
  return { names, typesOffset: c.pos };
}
