// The files of `chwire query --out` and `chwire insert FILE`. An input is opened (and checked to
// be a readable file) before anything is sent to the server; an output is written under a
// temporary name in the same directory and renamed to its final name only once the whole result
// has been written, so the final name holds a complete result or nothing new (a failed or
// interrupted export leaves neither a partial file nor an empty one, and an existing file under
// that name stays as it was). Invariant: every file error becomes one FileError line naming the
// path and the cause, never a stack.
import { unlinkSync, type ReadStream, type WriteStream } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { once } from 'node:events';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/** A file could not be read or written: the message names the path and the cause. */
export class FileError extends Error {}

const CAUSES: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EMFILE: 'too many open files',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many symbolic links',
  EEXIST: 'already exists',
};

/** `cannot read FILE: permission denied`; the system's own text for a code not listed. */
export function fileError(verb: 'read' | 'write', path: string, e: unknown): FileError {
  const code = (e as { code?: unknown } | null)?.code;
  const cause = typeof code === 'string' ? CAUSES[code] ?? `${(e as Error).message.replace(/^[A-Z]+: /, '').replace(/, \w+ '.*'$/, '')} (${code})` : (e as Error).message;
  return new FileError(`cannot ${verb} ${path}: ${cause}`);
}

/** Opens `path` for reading, refusing what is not a regular file (a directory, a socket). */
/** A file opened for reading, with its size (for the progress line's percentage). */
export interface OpenedInput {
  readonly stream: ReadStream;
  readonly size: number;
}

export async function openInput(path: string): Promise<OpenedInput> {
  let fh;
  try {
    fh = await open(path, 'r');
  } catch (e) {
    throw fileError('read', path, e);
  }
  let size = 0;
  try {
    const st = await fh.stat();
    if (st.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    // (A FIFO or a device has no size: no percentage then.)
    size = st.isFile() ? st.size : 0;
  } catch (e) {
    await fh.close();
    throw fileError('read', path, e);
  }
  // A read error before the insert starts reading is kept for its loop, never unhandled.
  return { stream: fh.createReadStream().on('error', () => undefined), size };
}

export interface AtomicOutput {
  readonly stream: WriteStream;
  /** Waits for the bytes to reach the file, then gives it its final name. */
  commit(): Promise<void>;
  /** Removes the temporary file (after a failure); never throws. */
  discard(): Promise<void>;
  /** The same, synchronously (for a process about to exit). */
  discardSync(): void;
}

/**
 * A file written beside `path` (`.name.chwire-<random>.part`, same directory so the rename stays
 * on one file system and is atomic) and renamed to `path` by commit(). Created before the query
 * is sent, so an unwritable destination fails at once.
 */
export async function atomicOutput(path: string): Promise<AtomicOutput> {
  const temp = join(dirname(path), `.${basename(path)}.chwire-${randomBytes(6).toString('hex')}.part`);
  let fh;
  try {
    fh = await open(temp, 'wx');
  } catch (e) {
    throw fileError('write', path, e);
  }
  const stream = fh.createWriteStream();
  // Errors reach the command through pipeline(); this keeps one that comes after it from being unhandled.
  stream.on('error', () => undefined);
  let gone = false;
  const closed = async (): Promise<void> => {
    if (!stream.closed) { stream.destroy(); if (!stream.closed) await once(stream, 'close').catch(() => undefined); }
  };
  return {
    stream,
    async commit() {
      if (!stream.closed) await once(stream, 'close');
      try {
        await rename(temp, path);
      } catch (e) {
        throw fileError('write', path, e);
      }
      gone = true;
    },
    async discard() {
      if (gone) return;
      gone = true;
      await closed();
      await unlink(temp).catch(() => undefined);
    },
    discardSync() {
      if (gone) return;
      gone = true;
      try { unlinkSync(temp); } catch { /* already gone */ }
    },
  };
}
