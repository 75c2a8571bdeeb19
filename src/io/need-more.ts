// The "ran out of bytes" signal of resumable readers.
//
// A prebuilt (non-generated) reader that reaches the end of the bytes it was given throws the
// NEED_MORE singleton. The caller decides what it means: in a chunked stream, wait for the next
// chunk and retry the row from its start; at the end of the body, a truncated payload, reported
// as a ChwireDecodeError naming the column, row and offset. Throwing a preallocated object costs
// no allocation and no stack capture, and it happens at most once per chunk.

export const NEED_MORE: { readonly needMore: true } = Object.freeze({ needMore: true as const });

export function isNeedMore(e: unknown): boolean {
  return e === NEED_MORE;
}
