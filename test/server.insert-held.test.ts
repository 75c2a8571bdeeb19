// What a streamed insert of an iterable holds while its source is waited for (issue 28 item 3):
// the block being filled, never the blocks already sent. Against the real 18.16: 10 MB blocks of
// 1 KB strings, the source stalls after three whole blocks and one row; at that point, after a full
// GC, the process's ArrayBuffers must hold less than one block. (Before: the first block stayed
// reachable from the body generator's parameter, and the block sent last from its stale register,
// for as long as the insert ran: two blocks, ≥ 20 MB, held by every insert.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import { SKIP_REAL, realClient, uniqueName } from './support/ch-server.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const ROW_BYTES = 1000;
const BLOCK = 10_000;

test('a streamed insert holds no block it has sent while its source stalls (< 1 block of ArrayBuffers; 2 blocks before)', { skip: SKIP_REAL }, async () => {
  const c = realClient();
  const t = uniqueName('held');
  await c.execute(`CREATE TABLE ${t} (i UInt32, s String) ENGINE = MergeTree ORDER BY i`);
  try {
    let release!: () => void;
    const stalled = new Promise<void>((r) => { release = r; });
    let atStall!: () => void;
    const reached = new Promise<void>((r) => { atStall = r; });
    const pad = 'x'.repeat(ROW_BYTES - 8);
    const rows = 3 * BLOCK + 1;
    async function* source(): AsyncGenerator<{ i: number; s: string }> {
      for (let i = 0; i < rows; i++) yield { i, s: `${String(i).padStart(8, '0')}${pad}` };
      atStall();
      await stalled;
    }
    gc();
    const base = process.memoryUsage().arrayBuffers;
    const ins = c.insert(t, source(), { blockSize: BLOCK });
    await reached;
    // Block 3 was handed to the body when row 30 000 arrived; let its last bytes leave the socket.
    await new Promise((r) => setTimeout(r, 500));
    gc(); gc();
    const heldMB = (process.memoryUsage().arrayBuffers - base) / 1e6;
    release();
    await ins;
    assert.equal(await c.fetchValue(`SELECT count() FROM ${t}`), BigInt(rows));
    assert.equal(await c.fetchValue(`SELECT sum(length(s)) FROM ${t}`), BigInt(rows * ROW_BYTES));
    const blockMB = (BLOCK * ROW_BYTES) / 1e6;
    assert.ok(heldMB < blockMB * 0.5, `ArrayBuffers held while the source stalled: ${heldMB.toFixed(1)} MB (a block is ${blockMB} MB)`);
  } finally {
    await c.execute(`DROP TABLE ${t}`);
    await c.close();
  }
});
