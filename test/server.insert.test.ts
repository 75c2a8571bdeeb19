// INSERT against a real ClickHouse server (Debian clickhouse-server 18.16, started by .ci/run):
// 1M rows of a mixed schema streamed in Native blocks and read back equal; a bad value in the
// middle of a multi-block insert leaves exactly the blocks before it; blockSize 0 is all or
// nothing; abort stops the request; JSONEachRow and Native bytes pass through.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ChwireAbortError, ChwireEncodeError, type Client } from '../src/index.js';
import { Readable } from 'node:stream';
import { REAL_URL, SKIP_REAL, realClient, uniqueName } from './support/ch-server.js';

const skip = SKIP_REAL;
let c: Client;
const table = uniqueName('chwire_ins');

before(async () => {
  if (skip !== false) return;
  c = realClient();
  await c.execute(`CREATE TABLE ${table} (
    id UInt64, s String, t DateTime, f Float64, n Nullable(Int32), a Array(UInt16), e Enum8('a' = 1, 'b' = 2), d Date
  ) ENGINE = MergeTree ORDER BY id`);
});
after(async () => {
  if (skip !== false) return;
  await c.execute(`DROP TABLE IF EXISTS ${table}`);
  await c.close();
});

const DAY = 86_400_000;
function row(i: number): { id: number; s: string; t: Date; f: number; n: number | null; a: number[]; e: string; d: Date } {
  return {
    id: i, s: `row ${i} ${'é'.repeat(i % 4)}`, t: new Date(1_700_000_000_000 + i * 1000), f: i / 7 - 1000,
    n: i % 5 === 0 ? null : i - 500_000, a: Array.from({ length: i % 4 }, (_, k) => (i + k) % 65536), e: i % 2 ? 'a' : 'b',
    d: new Date(Date.UTC(2020, 0, 1) + (i % 3000) * DAY),
  };
}

async function count(): Promise<bigint> {
  return (await c.fetchValue<bigint>(`SELECT count() FROM ${table}`))!;
}

test('1M rows in streamed blocks read back equal', { skip, timeout: 120_000 }, async () => {
  await c.execute(`TRUNCATE TABLE ${table}`);
  const N = 1_000_000;
  async function* rows() { for (let i = 0; i < N; i++) yield row(i); }
  await c.insert(table, rows());
  assert.equal(await count(), BigInt(N));
  let i = 0;
  for await (const r of c.stream<Record<string, unknown>>(`SELECT * FROM ${table} ORDER BY id`)) {
    const x = row(i);
    if (r['id'] !== BigInt(x.id) || r['s'] !== x.s || (r['t'] as Date).getTime() !== x.t.getTime() || r['f'] !== x.f || r['n'] !== x.n
      || JSON.stringify(r['a']) !== JSON.stringify(x.a) || r['e'] !== x.e || (r['d'] as Date).getTime() !== x.d.getTime()) {
      assert.fail(`row ${i} differs: ${JSON.stringify(r, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`);
    }
    i++;
  }
  assert.equal(i, N);
});

test('a bad value in block 3 of 5: ChwireEncodeError names row and column, blocks 0-2 are in the table', { skip }, async () => {
  await c.execute(`TRUNCATE TABLE ${table}`);
  const rows: Record<string, unknown>[] = Array.from({ length: 5000 }, (_, i) => row(i));
  rows[3456] = { ...rows[3456], n: 'not a number' };
  const e = await c.insert(table, rows, { blockSize: 1000 }).then(() => undefined, (x: unknown) => x);
  assert.ok(e instanceof ChwireEncodeError, String(e));
  assert.equal(e.row, 3456);
  assert.equal(e.column, 'n');
  assert.equal(await count(), 3000n);
  assert.equal(await c.fetchValue(`SELECT max(id) FROM ${table}`), 2999n);
});

test('blockSize 0: the same bad input leaves the table untouched', { skip }, async () => {
  await c.execute(`TRUNCATE TABLE ${table}`);
  const rows: Record<string, unknown>[] = Array.from({ length: 5000 }, (_, i) => row(i));
  rows[3456] = { ...rows[3456], e: 'no such label' };
  await assert.rejects(c.insert(table, rows, { blockSize: 0 }), (x: unknown) => x instanceof ChwireEncodeError && x.row === 3456 && x.column === 'e');
  assert.equal(await count(), 0n);
});

test('aborting mid-insert stops the request', { skip }, async () => {
  await c.execute(`TRUNCATE TABLE ${table}`);
  const ac = new AbortController();
  let produced = 0;
  async function* slow() {
    for (let i = 0; ; i++) {
      if (i % 1000 === 0) await new Promise((r) => setTimeout(r, 10));
      produced++;
      yield row(i);
    }
  }
  setTimeout(() => ac.abort(), 300);
  await assert.rejects(c.insert(table, slow(), { blockSize: 1000, signal: ac.signal }), ChwireAbortError);
  const atAbort = produced;
  await new Promise((r) => setTimeout(r, 200));
  // (Once the insert settled, its source is read no more: issue 26 item 1.)
  assert.equal(produced, atAbort, 'the input is no longer read after the abort');
  assert.ok((await count()) <= BigInt(produced));
});

test('JSONEachRow bytes pass through unchanged', { skip }, async () => {
  await c.execute(`TRUNCATE TABLE ${table}`);
  const lines = ['{"id":1,"s":"x","t":"2024-01-02 03:04:05","f":1.5,"n":null,"a":[1,2],"e":"a","d":"2024-01-02"}\n', '{"id":2,"s":"y","t":"2024-01-02 03:04:06","f":2.5,"n":7,"a":[],"e":"b","d":"2024-01-03"}\n'];
  await c.insert(table, lines, { format: 'JSONEachRow' });
  assert.deepEqual(await c.fetch(`SELECT id, s, n FROM ${table} ORDER BY id`), [{ id: 1n, s: 'x', n: null }, { id: 2n, s: 'y', n: 7 }]);
});

test('Native bytes the server wrote itself pass through (Buffers, a byte-mode Readable)', { skip }, async () => {
  await c.execute(`TRUNCATE TABLE ${table}`);
  await c.insert(table, Array.from({ length: 3000 }, (_, i) => row(i)));
  const copy = uniqueName('chwire_ins_copy');
  await c.execute(`CREATE TABLE ${copy} AS ${table}`);
  try {
    // The server's own Native output of the table, read raw over HTTP.
    const res = await fetch(`${REAL_URL!.replace(/\/$/, '')}/?query=${encodeURIComponent(`SELECT * FROM ${table} ORDER BY id FORMAT Native`)}`);
    assert.equal(res.status, 200);
    const bytes = Buffer.from(await res.arrayBuffer());
    await c.insert(copy, [bytes.subarray(0, 1000), bytes.subarray(1000)]);
    await c.insert(copy, Readable.from([bytes], { objectMode: false }));
    const sums = (t: string): Promise<unknown> => c.fetchOne(`SELECT count() AS n, sum(id) AS ids, sum(length(s)) AS chars, sum(toUInt32(t)) AS ts, sum(length(a)) AS items FROM ${t}`);
    const one = await sums(table) as Record<string, bigint>;
    assert.deepEqual(await sums(copy), Object.fromEntries(Object.entries(one).map(([k, v]) => [k, v * 2n])));
  } finally {
    await c.execute(`DROP TABLE IF EXISTS ${copy}`);
  }
});

test('gzip both ways ({ request: true, response: true }): 100k rows in blocks stored and read back equal', { skip, timeout: 60_000 }, async () => {
  await c.execute(`TRUNCATE TABLE ${table}`);
  const gz = realClient({ compression: { request: true, response: true } });
  const N = 100_000;
  await gz.insert(table, Array.from({ length: N }, (_, i) => row(i)), { blockSize: 30_000 });
  assert.equal(await count(), BigInt(N));
  let i = 0;
  for await (const r of gz.stream<{ id: bigint; s: string; f: number }>(`SELECT id, s, f FROM ${table} ORDER BY id`)) {
    const x = row(i++);
    if (r.id !== BigInt(x.id) || r.s !== x.s || r.f !== x.f) assert.fail(`row ${i - 1} differs`);
  }
  assert.equal(i, N);
  await gz.close();
});
