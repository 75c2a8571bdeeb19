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

export function fault(message: string, offset: number): DecodeFault {
  return new DecodeFault(message, offset);
}
