// UTF-8 bytes → JS string, with invalid sequences replaced by U+FFFD (never a throw).
//
// Invariant: the result equals `new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)` for
// every input (a leading BOM is data, not a marker); test/io.utf8.test.ts checks it on random
// bytes. Short strings skip TextDecoder, whose per-call overhead dominates below ~512 bytes
// (bench/micro/utf8.ts, Node 20: 4-64 ASCII bytes cost 45-240 ns via Buffer#utf8Slice against
// 120-380 ns via TextDecoder; a fromCharCode loop is only competitive up to ~8 bytes). The codec
// layer does not import `node:`: a global Buffer is detected at run time; without it (browser,
// worker) short ASCII takes the loop and the rest TextDecoder.

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** Without Buffer: at most this many bytes go through a pure-JS loop (ASCII only). */
export const SHORT_ASCII_MAX = 8;
/** With Buffer: up to this many bytes Buffer#utf8Slice beats TextDecoder (it wins even at 4 and
 * still ties at 512: TextDecoder pays a subarray allocation and a JS wrapper per call). */
export const NATIVE_SLICE_MAX = 512;

type Slicer = (this: Uint8Array, start: number, end: number) => string;
const bufferProto = (globalThis as { Buffer?: { prototype?: { utf8Slice?: Slicer } } }).Buffer?.prototype;
const utf8Slice: Slicer | undefined = typeof bufferProto?.utf8Slice === 'function' ? bufferProto.utf8Slice : undefined;

/** Decode bytes[start, end) as UTF-8. */
export const utf8Decode: (bytes: Uint8Array, start: number, end: number) => string = utf8Slice !== undefined
  ? (bytes, start, end) => (end - start <= NATIVE_SLICE_MAX ? utf8Slice.call(bytes, start, end) : decoder.decode(bytes.subarray(start, end)))
  : (bytes, start, end) => {
    if (end - start <= SHORT_ASCII_MAX) {
      let out = '';
      for (let i = start; i < end; i++) {
        const b = bytes[i]!;
        if (b >= 0x80) return decoder.decode(bytes.subarray(start, end));
        out += String.fromCharCode(b);
      }
      return out;
    }
    return decoder.decode(bytes.subarray(start, end));
  };

/** The TextDecoder path only (tests compare the fast paths against it). */
export function utf8DecodeStandard(bytes: Uint8Array, start: number, end: number): string {
  return decoder.decode(bytes.subarray(start, end));
}
