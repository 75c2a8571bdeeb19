// client.streamColumns and the streamed fetchColumns over the loopback test server (26.x and an
// 18.16-style server: text headers, appended exceptions) and the embedded engine (chdb://): one
// batch per Native block equal to the engine's rows, backpressure, cancel, abort, timeouts, and a
// fault property test (an exact prefix of the blocks, or the fault's own error, and the client
// stays usable), in the pattern of client.faults.property.test.ts.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  createClient, ChwireAbortError, ChwireConfigError, ChwireConnectionError, ChwireDecodeError, ChwireServerError, ChwireTimeoutError,
  type NativeColumns,
} from '../src/index.js';
import { engineBytes } from './support/engine.js';
import { startTestServer, type Fault } from './support/test-server.js';
import { cells } from './support/column-cells.js';
import { decodeNative } from '../src/native/index.js';

const modern = await startTestServer();
const old = await startTestServer({ version: '18.16.1' });
after(async () => { await modern.close(); await old.close(); });

const BLOCK = 700;
const SQL = `SELECT number AS n, toString(number * 7) AS s, toDateTime(1700000000 + number, 'Asia/Tokyo') AS t, toFloat64(number) / 3 AS f
  FROM numbers(5000) SETTINGS max_block_size = ${BLOCK}`;
const nativeBody = await engineBytes(SQL, 'Native');
const expected = decodeNative(nativeBody, { rows: 'array' }).rows as unknown[][];
const BLOCKS = Math.ceil(5000 / BLOCK);

/** Rows of column batches (as fetch gives them). */
function rowsOf(batches: readonly NativeColumns[]): unknown[][] {
  const out: unknown[][] = [];
  for (const b of batches) {
    const cols = b.columns.map((c, k) => cells(c, b.types[k]));
    for (let i = 0; i < b.rowCount; i++) out.push(cols.map((c) => c[i]));
  }
  return out;
}

for (const [label, server] of [['26.x', modern], ['18.16', old]] as const) {
  test(`streamColumns (${label}): one batch per block, the engine's rows, zone restored, queryId and summary`, async () => {
    const c = createClient({ url: server.url });
    try {
      const s = c.streamColumns(SQL, { queryId: `cols-${label}` });
      assert.equal(s.queryId, `cols-${label}`);
      const batches: NativeColumns[] = [];
      for await (const b of s) batches.push(b);
      assert.equal(batches.length, BLOCKS);
      assert.deepEqual(batches.map((b) => b.rowCount), [...Array.from({ length: BLOCKS - 1 }, () => BLOCK), 5000 - BLOCK * (BLOCKS - 1)]);
      assert.deepEqual(rowsOf(batches), expected);
      for (const b of batches) {
        assert.deepEqual(b.names, ['n', 's', 't', 'f']);
        assert.deepEqual(b.types, ['UInt64', 'String', "DateTime('Asia/Tokyo')", 'Float64']);
        assert.ok(b.columns[2] instanceof Uint32Array && b.columns[3] instanceof Float64Array);
      }
      assert.deepEqual(s.columns?.map((x) => x.type), ['UInt64', 'String', "DateTime('Asia/Tokyo')", 'Float64']);
      const whole = await c.fetchColumns(SQL);
      assert.deepEqual(rowsOf([whole]), expected);
      assert.deepEqual(whole.types, batches[0]!.types);
    } finally {
      await c.close();
    }
  });
}

test('streamColumns: backpressure (the body is read no faster than batches are taken), cancel, iterate once', async () => {
  const c = createClient({ url: modern.url });
  try {
    const marker = '/* cols-repeat */';
    modern.fault(marker, { kind: 'repeat', times: 400 });
    const s = c.streamColumns(`${SQL} ${marker}`);
    let n = 0;
    for await (const b of s) {
      assert.ok(b.rowCount > 0);
      if (++n === 2) {
        // Two batches taken: the server cannot have written much more than the socket buffers hold.
        await new Promise((r) => setTimeout(r, 100));
        assert.ok(modern.repeatBytesWritten < nativeBody.length * 400 / 4, `${modern.repeatBytesWritten} bytes written while waiting`);
        s.cancel();
      }
    }
    assert.equal(n, 2, 'the loop ends quietly after cancel()');
    assert.throws(() => { for (const _ of [s[Symbol.asyncIterator]()]) void _; }, ChwireConfigError);
    assert.equal(await c.fetchValue('SELECT 1 AS x'), 1);
  } finally {
    await c.close();
  }
});

test('streamColumns: abort, timeout, server error, bad options', async () => {
  const c = createClient({ url: modern.url, requestTimeout: 2000 });
  try {
    const patient = createClient({ url: modern.url, requestTimeout: 10_000 });
    const ac = new AbortController();
    modern.fault('/* cols-stall */', { kind: 'stall', at: 30_000 });
    const s = patient.streamColumns(`${SQL} /* cols-stall */`, { signal: ac.signal });
    const got: NativeColumns[] = [];
    // Aborted while waiting for the bytes after the first block (the server stalls there).
    await assert.rejects((async () => { for await (const b of s) { got.push(b); setTimeout(() => ac.abort(), 50); } })(), ChwireAbortError);
    assert.equal(got.length, 1, 'the one whole block sent before the stall');
    await assert.rejects((async () => { for await (const _ of patient.streamColumns('SELECT throwIf(1) AS x')) { /* no rows */ } })(), ChwireServerError);
    await patient.close();
    modern.fault('/* cols-stall2 */', { kind: 'stall', at: 5000 });
    await assert.rejects((async () => { for await (const _ of c.streamColumns(`${SQL} /* cols-stall2 */`)) { /* wait */ } })(), ChwireTimeoutError);
    await assert.rejects((async () => { for await (const _ of c.streamColumns(SQL, { wire: 1 as unknown as boolean })) { /* no rows */ } })(), ChwireConfigError);
    assert.equal(await c.fetchValue('SELECT 1 AS x'), 1);
  } finally {
    await c.close();
  }
});

type Api = 'streamColumns' | 'fetchColumns';
type FaultKind = Fault['kind'] | 'none';
interface Op { api: Api; fault: FaultKind; at: number; leaveAfter: number | undefined }

const opArb: fc.Arbitrary<Op> = fc.record({
  api: fc.constantFrom<Api>('streamColumns', 'fetchColumns'),
  fault: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom<FaultKind>('none', 'byte-per-chunk') },
    { weight: 6, arbitrary: fc.constantFrom<FaultKind>('cut-clean', 'cut-reset', 'reset', 'exception-tagged', 'exception-appended') },
    { weight: 1, arbitrary: fc.constant<FaultKind>('stall') },
  ),
  at: fc.integer({ min: 1, max: nativeBody.length - 1 }),
  leaveAfter: fc.option(fc.integer({ min: 1, max: BLOCKS }), { nil: undefined }),
});

function faultOf(op: Op, oldServer: boolean): Fault | undefined {
  const message = 'Code: 241. DB::Exception: Memory limit exceeded. (MEMORY_LIMIT_EXCEEDED) (version 26.7.2.1)';
  switch (op.fault) {
    case 'none': return undefined;
    case 'byte-per-chunk': return { kind: 'byte-per-chunk' };
    case 'reset': return { kind: 'reset' };
    case 'exception-tagged': case 'exception-appended': return { kind: oldServer ? 'exception-appended' : op.fault, at: op.at, message };
    case 'cut-clean': case 'cut-reset': case 'stall': return { kind: op.fault, at: op.at };
    default: return undefined;
  }
}

function allowed(op: Op): (abstract new (...a: never[]) => Error)[] {
  switch (op.fault) {
    case 'cut-clean': return [ChwireDecodeError];
    case 'cut-reset': case 'reset': return [ChwireConnectionError, ChwireDecodeError];
    case 'exception-tagged': case 'exception-appended': return [ChwireServerError];
    case 'stall': return [ChwireTimeoutError];
    default: return [];
  }
}

test('columnar reads under random faults: an exact prefix of whole blocks or the fault\'s error; the client stays usable', { timeout: 120_000 }, async () => {
  let serial = 0;
  await fc.assert(fc.asyncProperty(fc.boolean(), fc.array(opArb, { minLength: 1, maxLength: 4 }), async (oldServer, ops) => {
    const server = oldServer ? old : modern;
    const c = createClient({ url: server.url, maxOpenConnections: 2, requestTimeout: 1500 });
    try {
      for (const op of ops) {
        const marker = `/* cols-fault-${++serial} */`;
        const fault = faultOf(op, oldServer);
        if (fault !== undefined) server.fault(marker, fault);
        const sql = `${SQL} ${marker}`;
        const batches: NativeColumns[] = [];
        let failed = false;
        let left = false;
        try {
          if (op.api === 'fetchColumns') batches.push(await c.fetchColumns(sql));
          else {
            for await (const b of c.streamColumns(sql)) {
              batches.push(b);
              if (batches.length === op.leaveAfter) { left = true; break; }
            }
          }
        } catch (e) {
          failed = true;
          assert.ok(allowed(op).some((k) => e instanceof k), `${op.api} under ${op.fault}@${op.at}: ${String(e)}`);
        }
        const what = `${oldServer ? '18.16: ' : ''}${op.api} under ${op.fault}@${op.at}`;
        // Only whole blocks, each exactly the engine's: a prefix of the result in block-sized steps.
        const rows = rowsOf(batches);
        assert.deepEqual(rows, expected.slice(0, rows.length), `${what}: not a prefix`);
        if (op.api === 'streamColumns') batches.forEach((b, i) => assert.equal(b.rowCount, i < BLOCKS - 1 ? BLOCK : 5000 - BLOCK * (BLOCKS - 1), `${what}: batch ${i}`));
        else if (failed) assert.equal(batches.length, 0);
        // Native blocks carry their row count: a body cut anywhere fails, never a short result.
        if (!failed && !left) assert.equal(rows.length, expected.length, `${what}: short result`);
        assert.equal(await c.fetchValue(`SELECT 1 AS x /* cols-probe-${serial} */`), 1);
      }
    } finally {
      await c.close();
    }
  }), { numRuns: 25 });
});
