// Corrupt-data signal of the readers: a value that cannot be what its type says (a Bool byte of
// 7, an Enum value outside its list, a length beyond the engine's limits).
//
// Invariant: readers never know which column or row they serve; they throw a DecodeFault with
// the absolute offset (in the buffer they read) and the driver turns it into a ChwireDecodeError
// that names column, row and offset in the whole body. Truncation is NOT a fault: it is NEED_MORE.

export class DecodeFault extends Error {
  readonly offset: number;
  override get name(): string { return 'DecodeFault'; }
  constructor(message: string, offset: number) {
    super(message);
    this.offset = offset;
  }
}

/** The engine's own input limits (format_binary_max_string_size / _array_size): 1 GiB. */
export const MAX_LENGTH = 0x40000000;

/**
 * RowBinary values that take no bytes (the elements of `Array(Tuple())`, of `Map(Tuple(), Tuple())`
 * and the like) that one body may hold: 2^18 (262 144), plus ZERO_WIDTH_PER_BYTE for each byte of
 * rows read so far. A count of such values costs one VarUInt, so without a bound a few bytes could
 * make the decoder build billions of values. Each decoder charges the count against this budget,
 * at the count's offset, before it builds anything (DecodeFault beyond it).
 * Native has no such values: an empty tuple there takes a byte per value.
 */
export const MAX_ZERO_WIDTH_VALUES = 0x40000;

/** Values that take no bytes allowed per byte of rows, beyond MAX_ZERO_WIDTH_VALUES (a long honest result). */
export const ZERO_WIDTH_PER_BYTE = 16;

/** The fault of a count of zero-width values beyond what is left of the body's budget. */
export function zeroWidthFault(count: number, offset: number): DecodeFault {
  return new DecodeFault(`a count of ${count} values that take no bytes goes beyond the limit of ${MAX_ZERO_WIDTH_VALUES} such values per body plus ${ZERO_WIDTH_PER_BYTE} per byte of rows (a value like Array(Tuple()) of that size costs no bytes: refused to bound the work a few bytes can cause)`, offset);
}

export function fault(message: string, offset: number): DecodeFault {
  return new DecodeFault(message, offset);
}
