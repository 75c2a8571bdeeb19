// Byte-array helpers that behave the same for Uint8Array and its subclasses (Node's Buffer).
//
// Invariant: values handed to users are fresh, plain Uint8Arrays that own their bytes. (Buffer's
// `slice` returns a VIEW of the same memory, and a Buffer's `slice` result is a Buffer: neither is
// acceptable for `strings: 'bytes'`.) Inputs are normalised to plain Uint8Array views at the entry
// points so generated code sees one array class.

/** A new plain Uint8Array holding a copy of bytes[start, end). */
export function copyBytes(bytes: Uint8Array, start: number, end: number): Uint8Array {
  const out = new Uint8Array(end - start);
  out.set(bytes.subarray(start, end));
  return out;
}

/** `bytes` itself when it is a plain Uint8Array, else a plain view of the same memory. */
export function plainBytes(bytes: Uint8Array): Uint8Array {
  return Object.getPrototypeOf(bytes) === Uint8Array.prototype ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** One new Uint8Array holding `parts` in order (no Node Buffer needed). */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/**
 * Index of the first `needle` in `hay` at or after `from`, or -1 (Buffer#indexOf for any
 * Uint8Array): the native single-byte search finds candidates, the rest is compared here.
 */
export function indexOfBytes(hay: Uint8Array, needle: Uint8Array, from = 0): number {
  const n = needle.length;
  if (n === 0) return from <= hay.length ? from : -1;
  const first = needle[0]!;
  const last = hay.length - n;
  let i = Math.max(0, from);
  while (i <= last) {
    i = hay.indexOf(first, i);
    if (i < 0 || i > last) return -1;
    let k = 1;
    while (k < n && hay[i + k] === needle[k]) k++;
    if (k === n) return i;
    i++;
  }
  return -1;
}

/** Bytes of a string whose characters are all below U+0100 (one byte each). */
export function latin1Bytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
}
