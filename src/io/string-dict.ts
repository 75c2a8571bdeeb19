// Per-query memo of decoded strings for LowCardinality(String) columns, whose values repeat by
// design: a repeated value costs a short hash and a byte compare instead of a new string (less
// garbage, and equal values share one immutable string).
//
// Invariant: returns exactly utf8Decode(bytes, p, p + n). Direct-mapped (1024 slots, a new value
// replaces the slot's old one), so memory is bounded; only strings up to 48 bytes are memoised;
// it switches itself off for the rest of the query when misses outnumber hits after 4096 misses.
import { utf8Decode } from './utf8.js';
import { copyBytes } from './bytes.js';

const SLOTS = 1024;
const MAX_BYTES = 48;

export class StringDict {
  private readonly keys: (Uint8Array | undefined)[] = new Array<Uint8Array | undefined>(SLOTS).fill(undefined);
  private readonly values: string[] = new Array<string>(SLOTS).fill('');
  private lookups = 0;
  private misses = 0;
  private off = false;

  get(bytes: Uint8Array, p: number, n: number): string {
    if (this.off || n > MAX_BYTES) return utf8Decode(bytes, p, p + n);
    this.lookups++;
    const end = p + n;
    let h = n;
    for (let i = p; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
    const slot = (h ^ (h >>> 15)) & (SLOTS - 1);
    const k = this.keys[slot];
    if (k !== undefined && k.length === n) {
      let i = 0;
      while (i < n && k[i] === bytes[p + i]) i++;
      if (i === n) return this.values[slot]!;
    }
    const s = utf8Decode(bytes, p, end);
    this.keys[slot] = copyBytes(bytes, p, end);
    this.values[slot] = s;
    if (++this.misses > 4096 && this.misses * 2 > this.lookups) this.off = true;
    return s;
  }
}
