// Property: one client, a random sequence of reads through every read API, each answered by the
// loopback test server (engine bytes; a 26.x server, or an 18.16 one where rows are read as Native
// and exceptions come as appended text) with a random fault or none. Every read either gives exactly
// the engine's rows (bytes, for streamRaw) or fails with the error class that fault calls for —
// never a wrong row, never a short result from a body cut mid-row, never an untyped error — and
// afterwards the client still answers a plain query (no connection or session lock left behind).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  createClient, ChwireConnectionError, ChwireDecodeError, ChwireServerError, ChwireTimeoutError,
} from '../src/index.js';
import { engineBytes, engineJsonRows } from './support/engine.js';
import { startTestServer, type Fault } from './support/test-server.js';

const modern = await startTestServer();
const old = await startTestServer({ version: '18.16.1' }); // reads Native, appends exceptions as text
after(async () => { await modern.close(); await old.close(); });

const SQL = 'SELECT number AS n, toString(number * 7) AS s FROM numbers(3000)';
const expected = (await engineJsonRows(SQL)).map(([n, s]) => ({ n: BigInt(n as string), s: s as string }));
const tsv = Buffer.from(await engineBytes(SQL, 'TSV'));
const rowBinaryLength = (await engineBytes(SQL, 'RowBinaryWithNamesAndTypes')).length;

type Api = 'fetch' | 'fetch-native' | 'stream' | 'batches' | 'raw';
type FaultKind = Fault['kind'] | 'none';
interface Op { api: Api; fault: FaultKind; at: number; leaveAfter: number | undefined }

const opArb: fc.Arbitrary<Op> = fc.record({
  api: fc.constantFrom<Api>('fetch', 'fetch-native', 'stream', 'batches', 'raw'),
  fault: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom<FaultKind>('none', 'byte-per-chunk') },
    { weight: 6, arbitrary: fc.constantFrom<FaultKind>('cut-clean', 'cut-reset', 'reset', 'exception-tagged', 'exception-appended') },
    { weight: 1, arbitrary: fc.constant<FaultKind>('stall') },
  ),
  at: fc.integer({ min: 1, max: rowBinaryLength - 1 }),
  leaveAfter: fc.option(fc.integer({ min: 1, max: 2500 }), { nil: undefined }),
});

let serial = 0;

/** The fault to install for `op`, or undefined. An old server has no tagged framing: it appends. */
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

/** What a read received: its rows (or bytes), kept even when it then fails. */
interface Received { rows: unknown[]; bytes: Buffer; left: boolean }

/** Runs one read into `got`; throws what the client threw. */
async function run(c: ReturnType<typeof createClient>, op: Op, sql: string, got: Received): Promise<void> {
  const stop = op.leaveAfter;
  switch (op.api) {
    case 'fetch': got.rows = [...await c.fetch(sql)]; return;
    case 'fetch-native': got.rows = [...await c.fetch(sql, { format: 'Native' })]; return;
    case 'stream':
      for await (const r of c.stream(sql)) { got.rows.push(r); if (got.rows.length === stop) { got.left = true; return; } }
      return;
    case 'batches':
      for await (const b of c.stream(sql).batches()) { got.rows.push(...b); if (stop !== undefined && got.rows.length >= stop) { got.left = true; return; } }
      return;
    case 'raw':
      for await (const b of c.streamRaw(sql, { format: 'TSV' })) {
        got.bytes = Buffer.concat([got.bytes, b]);
        if (stop !== undefined && got.bytes.length >= 20000) { got.left = true; return; }
      }
      return;
  }
}

/** The error classes a fault may surface as. */
function allowed(op: Op): (abstract new (...a: never[]) => Error)[] {
  switch (op.fault) {
    case 'none': case 'byte-per-chunk': return [];
    case 'cut-clean': return [ChwireDecodeError]; // a body that ends mid-row (a row boundary: a prefix, checked below)
    case 'cut-reset': case 'reset': return [ChwireConnectionError, ChwireDecodeError];
    case 'exception-tagged': case 'exception-appended': return [ChwireServerError];
    case 'stall': return [ChwireTimeoutError];
    default: return [];
  }
}

test('random reads under random faults: the exact rows or the fault\'s own error, and the client stays usable', { timeout: 120_000 }, async () => {
  await fc.assert(fc.asyncProperty(fc.boolean(), fc.array(opArb, { minLength: 1, maxLength: 5 }), async (oldServer, ops) => {
    const server = oldServer ? old : modern;
    // One attempt per call: this property is about how each fault surfaces (retries have their own, test/http.retry.property.test.ts).
    // 1 s: long enough that a loaded machine does not time out a read with no fault (300 ms did), short enough for stalls.
    const c = createClient({ url: server.url, maxOpenConnections: 2, requestTimeout: 1000, retry: false });
    try {
      for (const op of ops) {
        const marker = `/* fault-${++serial} */`;
        const fault = faultOf(op, oldServer);
        if (fault !== undefined) server.fault(marker, fault);
        const sql = `${SQL} ${marker}`;
        const got: Received = { rows: [], bytes: Buffer.alloc(0), left: false };
        let failed = false;
        try {
          await run(c, op, sql, got);
        } catch (e) {
          failed = true;
          const classes = allowed(op);
          assert.ok(classes.some((k) => e instanceof k), `${oldServer ? '18.16: ' : ''}${op.api} under ${op.fault}@${op.at}: ${String(e)}`);
        }
        // Whatever arrived, before an error too, is exactly a prefix of the engine's result (no row
        // or byte made from an exception's text); complete unless the read failed, was left early,
        // or a clean cut fell on a row boundary (RowBinary and TSV cannot tell).
        const what = `${oldServer ? '18.16: ' : ''}${op.api} under ${op.fault}@${op.at}`;
        if (op.api === 'raw') {
          assert.ok(tsv.subarray(0, got.bytes.length).equals(got.bytes), `${what}: bytes are not a prefix`);
          if (!failed && !got.left && op.fault !== 'cut-clean') assert.equal(got.bytes.length, tsv.length, `${what}: short body`);
        } else {
          got.rows.forEach((r, i) => assert.deepEqual(r, expected[i], `${what}: row ${i}`));
          if (!failed && !got.left && op.fault !== 'cut-clean') assert.equal(got.rows.length, expected.length, `${what}: short result`);
          if (!failed && !got.left && got.rows.length !== expected.length) {
            assert.ok(op.api !== 'fetch-native', `${what}: a Native body cut clean must fail (blocks carry their row count)`);
          }
        }
        // Nothing is left holding a connection: a plain query still gets an answer.
        assert.equal(await c.fetchValue(`SELECT 1 AS x /* probe-${serial} */`), 1);
      }
    } finally {
      await c.close();
    }
  }), { numRuns: 30 });
});
