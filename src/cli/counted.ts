// The bytes of `chwire query` and `chwire insert` on their way through: each chunk is reported to
// the progress line (and to a line counter) and passed on as it is. Invariant: chunks are never
// copied, split or held, so the pass-through stays a pipe.
import type { ProgressSink } from './progress.js';

/** Something that looks at each chunk as it passes (the line count of an insert). */
export interface ChunkWatcher {
  add(chunk: Uint8Array): void;
}

export async function* counted(src: AsyncIterable<Uint8Array>, p: ProgressSink, lines?: ChunkWatcher): AsyncGenerator<Uint8Array> {
  for await (const chunk of src) {
    lines?.add(chunk);
    p.bytes(chunk.length);
    yield chunk;
  }
}
