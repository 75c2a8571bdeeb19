// The one read cursor of the prebuilt (non-generated) readers: a byte view, a DataView over the
// same bytes, a position and an end. Generated code keeps its position in a local and syncs it
// into `pos` around calls to prebuilt readers.
//
// Invariant: `u8`, `dv` cover exactly the same bytes; `pos <= end <= u8.length` between reads.
// `need` is a hint written just before NEED_MORE is thrown: the absolute position (in this
// buffer) that must exist before a retry can get further (0 when unknown). Stream decoders use it
// to wait for a big value to arrive whole instead of retrying on every chunk.
// `zeroLeft` is what is left of the body's budget of values that take no bytes (io/fault.ts,
// MAX_ZERO_WIDTH_VALUES) as of `zeroFrom` (a position in u8), which earns ZERO_WIDTH_PER_BYTE more
// per byte after it: RowBinary readers charge such counts to it; its owner resets it per body and
// credits the bytes read when a call ends.
import { MAX_ZERO_WIDTH_VALUES } from './fault.js';

export interface Cursor {
  u8: Uint8Array;
  dv: DataView;
  pos: number;
  end: number;
  need: number;
  zeroLeft: number;
  zeroFrom: number;
}

export function createCursor(u8: Uint8Array, start = 0, end = u8.length): Cursor {
  return { u8, dv: new DataView(u8.buffer, u8.byteOffset, u8.byteLength), pos: start, end, need: 0, zeroLeft: MAX_ZERO_WIDTH_VALUES, zeroFrom: start };
}

/** Point an existing cursor at new bytes (keeps the object's hidden class stable). */
export function resetCursor(c: Cursor, u8: Uint8Array, start: number, end: number): void {
  if (c.u8 !== u8) {
    c.u8 = u8;
    c.dv = new DataView(u8.buffer, u8.byteOffset, u8.byteLength);
  }
  c.pos = start;
  c.end = end;
  c.need = 0;
}

/**
 * A stream decoder's cursor also knows the body offset of u8[0], so that a reader can recognise
 * the same bytes after the stream's buffer has moved (see the Native `stringReader`).
 */
export interface NativeCursor extends Cursor {
  origin?: number;
  /** Set by a resumable read that stopped inside a column: where it continues (native/resumable.ts). */
  resume?: number;
}
