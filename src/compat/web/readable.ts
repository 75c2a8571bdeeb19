// An async iterable of byte chunks as a WHATWG ReadableStream, the body type the official web
// client hands out (exec()'s stream, the source of a ResultSet). Runtime-neutral.
// Invariants: chunks are pulled one at a time as the reader asks (no read-ahead past one chunk);
// cancelling the stream ends the iterable (its `finally` releases the response); the iterable's
// error is the stream's error.

export function readableOf(chunks: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const it = chunks[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await it.next();
      if (next.done === true) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await it.return?.();
    },
  }, { highWaterMark: 0 });
}
