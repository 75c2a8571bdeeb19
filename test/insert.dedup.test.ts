// Exactly-once inserts with a deduplication token (issue 17 item 1): a first attempt that stops
// at any point (a value that cannot be encoded, a source that throws, an abort while the source
// is waited for) commits its first blocks; a retry with the same token, rows, order and block
// size commits every row exactly once: count and distinct count equal the input, with and
// without PARTITION BY, in the embedded engine (ClickHouse 26.7); one block per request (the web
// client without request streams): insert.dedup-web.test.ts. Before the fix the server squashed a first attempt's k blocks into one
// part and the retry's n blocks into another: 10 000 rows failed at 6 500 then retried → 16 000.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createClient, ChwireAbortError, ChwireEncodeError } from '../src/index.js';

const e = createClient({ url: 'chdb://' });
after(() => e.close());

interface Row { id: number; p: number }
const rowsOf = (n: number): Row[] => Array.from({ length: n }, (_, i) => ({ id: i, p: i % 3 }));

type Failure = 'value' | 'throw' | 'abort';

/** The rows of a first attempt that stops at row `at` (the row itself is never sent). */
async function* stopping(rows: Row[], at: number, how: Failure, ac: AbortController): AsyncGenerator<object> {
  for (let i = 0; i < rows.length; i++) {
    if (i === at) {
      if (how === 'value') { yield { id: 'not a number', p: 0 }; continue; }
      if (how === 'throw') throw new Error('source failed');
      // The abort comes from outside while the source is waited for (as a caller's would).
      setTimeout(() => ac.abort(), 0);
      await new Promise((r) => setTimeout(r, 50));
    }
    yield rows[i]!;
  }
}

const expected: Record<Failure, (x: unknown) => boolean> = {
  value: (x) => x instanceof ChwireEncodeError,
  throw: (x) => x instanceof Error && /source failed/.test(x.message),
  abort: (x) => x instanceof ChwireAbortError,
};

test('the report\'s case: 10 000 rows, blocks of 2 000, a bad value at row 6 500, then a retry: 10 000 rows, 6 000 committed by the first attempt', async () => {
  await e.execute('CREATE TABLE dd_report (id UInt32, p UInt8) ENGINE = MergeTree ORDER BY id SETTINGS non_replicated_deduplication_window = 100');
  try {
    const rows = rowsOf(10_000);
    const bad = rows.map((r, i) => (i === 6500 ? { id: 'x', p: 0 } : r));
    await assert.rejects(e.insert('dd_report', bad, { deduplicationToken: 'tok', blockSize: 2000 }), ChwireEncodeError);
    assert.equal(await e.fetchValue('SELECT count() FROM dd_report'), 6000n);
    await e.insert('dd_report', rows, { deduplicationToken: 'tok', blockSize: 2000 });
    assert.deepEqual([...await e.fetch('SELECT count() AS c, uniqExact(id) AS u FROM dd_report')], [{ c: 10_000n, u: 10_000n }]);
    // A repeat of the whole insert is dropped too.
    await e.insert('dd_report', rows, { deduplicationToken: 'tok', blockSize: 2000 });
    assert.equal(await e.fetchValue('SELECT count() FROM dd_report'), 10_000n);
  } finally {
    await e.execute('DROP TABLE dd_report');
  }
});

test('a first attempt from a generator retried from an array (blocks of 2 000, not a multiple of an iterable\'s 1 024-row slices): the committed blocks are recognised, not stored again', async () => {
  // The server hashes each Native block it reads: an array cut in 8 192-row slices sent block 0 as
  // one Native block where the generator had sent it as two (1 024 + 976), so the retry's block 0
  // was new to the server and its 2 000 rows were stored twice (6 000 rows, 4 000 distinct).
  await e.execute('CREATE TABLE dd_kinds (id UInt32, p UInt8) ENGINE = MergeTree ORDER BY id SETTINGS non_replicated_deduplication_window = 100');
  try {
    const rows = rowsOf(4000);
    const ac = new AbortController();
    await assert.rejects(e.insert('dd_kinds', stopping(rows, 2001, 'value', ac), { deduplicationToken: 'kinds', blockSize: 2000 }), ChwireEncodeError);
    assert.equal(await e.fetchValue('SELECT count() FROM dd_kinds'), 2000n);
    await e.insert('dd_kinds', rows, { deduplicationToken: 'kinds', blockSize: 2000 });
    assert.deepEqual([...await e.fetch('SELECT count() AS c, uniqExact(id) AS u FROM dd_kinds')], [{ c: 4000n, u: 4000n }]);
    // And the other way round: a generator repeating an array's insert is dropped whole.
    await e.insert('dd_kinds', stopping(rows, -1, 'value', ac), { deduplicationToken: 'kinds', blockSize: 2000 });
    assert.equal(await e.fetchValue('SELECT count() FROM dd_kinds'), 4000n);
  } finally {
    await e.execute('DROP TABLE dd_kinds');
  }
});

test('property (chdb://): any failure point, block size, failure kind and partitioning; after the retries count = distinct = input', { timeout: 600_000 }, async () => {
  let table = 0;
  await fc.assert(fc.asyncProperty(
    fc.integer({ min: 1, max: 4000 }),
    fc.integer({ min: 1, max: 40 }), // blocks in the input (block size = ceil(n / blocks)), or 0 below
    fc.boolean(), // blockSize 0: the whole input one block
    fc.array(fc.record({ at: fc.integer({ min: 0, max: 999 }), how: fc.constantFrom<Failure>('value', 'throw', 'abort') }), { minLength: 1, maxLength: 3 }),
    fc.boolean(), // PARTITION BY
    async (n, blocks, whole, failures, partitioned) => {
      const t = `dd_prop_${table++}`;
      const blockSize = whole ? 0 : Math.ceil(n / blocks);
      await e.execute(`CREATE TABLE ${t} (id UInt32, p UInt8) ENGINE = MergeTree ${partitioned ? 'PARTITION BY p' : ''} ORDER BY id SETTINGS non_replicated_deduplication_window = 1000`);
      try {
        const rows = rowsOf(n);
        const opts = { deduplicationToken: `tok-${t}`, blockSize };
        let committed = 0;
        for (const f of failures) {
          const ac = new AbortController();
          const at = Math.floor((f.at / 1000) * n);
          await assert.rejects(e.insert(t, stopping(rows, at, f.how, ac), { ...opts, signal: ac.signal }), expected[f.how]);
          // A failed attempt commits the whole blocks before its failure (blockSize 0: none); those an
          // earlier attempt committed are not committed again.
          committed = Math.max(committed, blockSize === 0 ? 0 : Math.floor(at / blockSize) * blockSize);
          assert.equal(await e.fetchValue(`SELECT count() FROM ${t}`), BigInt(committed));
          assert.equal(await e.fetchValue(`SELECT uniqExact(id) FROM ${t}`), BigInt(committed));
        }
        await e.insert(t, rows, opts);
        assert.deepEqual([...await e.fetch(`SELECT count() AS c, uniqExact(id) AS u FROM ${t}`)], [{ c: BigInt(n), u: BigInt(n) }]);
      } finally {
        await e.execute(`DROP TABLE ${t}`);
      }
    },
  ), { numRuns: 25 });
});

test('without a token nothing changes: the server squashes the blocks (one part for 10 000 rows in blocks of 2 000)', async () => {
  await e.execute('CREATE TABLE dd_plain (id UInt32) ENGINE = MergeTree ORDER BY id');
  try {
    await e.insert('dd_plain', rowsOf(10_000).map((r) => ({ id: r.id })), { blockSize: 2000 });
    assert.equal(await e.fetchValue("SELECT count() FROM system.parts WHERE table = 'dd_plain' AND active"), 1n);
  } finally {
    await e.execute('DROP TABLE dd_plain');
  }
});
