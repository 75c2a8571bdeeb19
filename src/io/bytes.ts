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
