// The functions generated decoders call (passed in as one object, `H`, never spliced as text),
// also used by the prebuilt readers so that both paths share one implementation per conversion.
//
// Invariant: pure functions of their arguments (plus the cursor they are handed); no module state
// apart from immutable tables and one scratch buffer used synchronously inside bf16().
import { NEED_MORE } from '../io/need-more.js';
import { DecodeFault, MAX_LENGTH, zeroWidthFault } from '../io/fault.js';
import type { Cursor } from '../io/cursor.js';
import { readVarUInt } from '../io/varint.js';
import { utf8Decode } from '../io/utf8.js';
import { copyBytes } from '../io/bytes.js';
import {
  readUInt64Big, readInt64Big, readUInt64Number, readInt64Number, readUInt64String, readInt64String,
  readUIntBig, readIntBig, readInt64Exact,
} from '../io/bigint.js';
import { decimalToString, decimalToNumber } from '../convert/decimal.js';
import { uuidToString, uuidToBytes } from '../convert/uuid.js';
import { ipv4ToString, ipv6ToString } from '../convert/ip.js';
import {
  daysToString, secondsToIso, ticksToDate, ticksToIso, ticksToMillis, timeToString, time64ToString, time64ToSeconds,
  int64TicksToFlooredMillis, int64TicksToIso,
} from '../convert/datetime.js';
import { setOwn, setJsonPath } from '../convert/objects.js';
import { float32Shortest } from '../convert/float32.js';
import { ZoneText } from '../convert/server-text.js';
import { FillCache } from '../convert/cache.js';
import { StringDict } from '../io/string-dict.js';

const scratch = new DataView(new ArrayBuffer(4));

/** BFloat16 bits → number (the upper half of a Float32). */
export function bf16(bits: number): number {
  scratch.setUint32(0, bits << 16, true);
  return scratch.getFloat32(0, true);
}

/** Record what a retry needs and hand back the NEED_MORE signal for the caller to throw. */
export function more(c: Cursor, need: number): typeof NEED_MORE {
  c.need = need;
  return NEED_MORE;
}

/**
 * A length prefix `n` at `p` that is not entirely present: beyond the engine's 1 GiB limit it is
 * corrupt (fail now, never wait or allocate); otherwise wait for the bytes.
 */
export function badLength(c: Cursor, p: number, n: number): unknown {
  if (n > MAX_LENGTH) return new DecodeFault(`length ${n} exceeds the 1 GiB limit`, p);
  c.need = p + n;
  return NEED_MORE;
}

export function fault(message: string, offset: number): DecodeFault {
  return new DecodeFault(message, offset);
}

/** Int64 little-endian ticks as a number when exact, else a bigint. */
/** Decimal of `width` bytes at p, as exact text. */
export function decimalText(dv: DataView, p: number, width: number, scale: number): string {
  if (width === 4) return decimalToString(dv.getInt32(p, true), scale);
  if (width === 8) return decimalToString(readInt64Exact(dv, p), scale);
  return decimalToString(readIntBig(dv, p, width), scale);
}

/** Decimal of `width` bytes at p, as the nearest double. */
export function decimalNumber(dv: DataView, p: number, width: number, scale: number): number {
  if (width === 4) return decimalToNumber(dv.getInt32(p, true), scale);
  if (width === 8) return decimalToNumber(readInt64Exact(dv, p), scale);
  return decimalToNumber(readIntBig(dv, p, width), scale);
}

function badBool(u8: Uint8Array, p: number): never {
  throw new DecodeFault(`Bool byte ${u8[p]} is neither 0 nor 1`, p);
}

function badEnum(value: number, p: number): never {
  throw new DecodeFault(`Enum value ${value} is not in the type's list`, p);
}

export const H = {
  badBool, badEnum, copyBytes,
  NEED_MORE, MAX_LENGTH, more, badLength, fault, zeroWidthFault, bf16, readVarUInt, utf8Decode,
  readUInt64Big, readInt64Big, readUInt64Number, readInt64Number, readUInt64String, readInt64String,
  readUIntBig, readIntBig, decimalText, decimalNumber,
  // Generated code's name for the exact Int64 read (io/bigint.ts).
  int64Exactish: readInt64Exact,
  uuidToString, uuidToBytes, ipv4ToString, ipv6ToString,
  daysToString, secondsToIso, ticksToDate, ticksToIso, ticksToMillis, timeToString, time64ToString, time64ToSeconds,
  int64TicksToFlooredMillis, int64TicksToIso, setOwn, setJsonPath, FillCache, StringDict,
  float32Shortest, ZoneText,
};
export type Helpers = typeof H;
