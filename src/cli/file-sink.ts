// stdout redirected to a regular file (`chwire query … > file`): the result's chunks gathered in
// memory and written with one synchronous write per MiB. Invariant: the file receives exactly the
// bytes written to the sink, in order, each once; a write error (ENOSPC, EIO) fails the write that
// hit it and every one after, so pipeline() reports it; the fd is never closed here (it is stdout).
// Why not an fs.WriteStream: each of its writes is a request to libuv's thread pool (a wake-up, a
// futex and a completion per write, ~950 writev and ~10 000 futex calls for 60 MB from 18.16,
// whose 4–8 KiB chunks arrive one socket read at a time); a write of a MiB to the page cache takes
// well under a millisecond, so doing it on the main thread costs less than handing it over.
import { writeSync } from 'node:fs';
import { Writable } from 'node:stream';

/** Bytes gathered before a write. */
const GATHER = 1 << 20;

/** A Writable onto the open file `fd` that writes whole MiBs synchronously, the rest at its end. */
export function fileSink(fd: number): Writable {
  const buf = Buffer.allocUnsafe(GATHER);
  let used = 0;
  const flush = (): void => {
    let off = 0;
    // A regular file may take fewer bytes than asked (a signal, a quota): the rest is written again.
    while (off < used) off += writeSync(fd, buf, off, used - off);
    used = 0;
  };
  const take = (chunk: Uint8Array): void => {
    let at = 0;
    while (at < chunk.length) {
      const n = Math.min(chunk.length - at, GATHER - used);
      buf.set(n === chunk.length ? chunk : chunk.subarray(at, at + n), used);
      used += n;
      at += n;
      if (used === GATHER) flush();
    }
  };
  return new Writable({
    // Writable's own buffer holds at most one MiB more before pipeline() waits.
    highWaterMark: GATHER,
    write(chunk: Uint8Array, _enc, cb) {
      try { take(chunk); } catch (e) { cb(e as Error); return; }
      cb();
    },
    final(cb) {
      try { flush(); } catch (e) { cb(e as Error); return; }
      cb();
    },
  });
}
