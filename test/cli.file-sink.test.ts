// The sink behind `chwire query … > file` (src/cli/file-sink.ts): whatever the chunking, the file
// holds exactly the bytes written after what it held (the fd's own position: `>>` appends), chunks
// that cross the MiB it gathers included; a write the file refuses fails the pipeline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fc from 'fast-check';
import { fileSink } from '../src/cli/file-sink.js';

const dir = mkdtempSync(join(tmpdir(), 'chwire-file-sink-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('the file holds every byte written, in order, after what it held (chunks of any size across the MiB boundary)', async () => {
  const file = join(dir, 'out.bin');
  await fc.assert(fc.asyncProperty(
    fc.array(fc.integer({ min: 0, max: 700_000 }), { minLength: 0, maxLength: 8 }),
    fc.integer({ min: 0, max: 255 }),
    async (sizes, seed) => {
      writeFileSync(file, 'kept\n');
      let k = seed;
      const chunks = sizes.map((n) => { const b = Buffer.allocUnsafe(n); for (let i = 0; i < n; i++) b[i] = (k = (k * 31 + 7) & 0xff); return b; });
      const fd = openSync(file, 'a');
      try {
        await pipeline(Readable.from(chunks), fileSink(fd));
      } finally {
        closeSync(fd);
      }
      assert.ok(readFileSync(file).equals(Buffer.concat([Buffer.from('kept\n'), ...chunks])));
    },
  ), { numRuns: 25 });
});

test('a write the file refuses fails the pipeline with the system error', async () => {
  const file = join(dir, 'read-only.bin');
  writeFileSync(file, '');
  const fd = openSync(file, 'r');
  try {
    await assert.rejects(pipeline(Readable.from([Buffer.alloc(3 << 20)]), fileSink(fd)), { code: 'EBADF' });
  } finally {
    closeSync(fd);
  }
});
