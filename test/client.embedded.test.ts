// The whole client API against the embedded engine (chdb://): reads (fetch, stream, batches,
// Native), statements, inserts (Native through the engine's FROM INFILE), sessions, query
// parameters (property-tested round trips), columnar reads, and the errors each can raise.
// Expected values are computed independently in JS from the same formulas the SQL uses.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Readable } from 'node:stream';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, tuple, ChwireAbortError, ChwireConfigError, ChwireEncodeError, ChwireServerError, ChwireTimeoutError } from '../src/index.js';

const c = createClient({ url: 'chdb://' });
after(() => c.close());

const SQL = 'SELECT number AS n, toString(number * 3) AS s, toInt32(toInt64(number) - 1000) AS i FROM numbers(300000)';

test('fetch, fetchOne, fetchValue and result metadata', async () => {
  const rows = await c.fetch<{ n: bigint; s: string; i: number }>(SQL, { queryId: 'emb-1' });
  assert.equal(rows.length, 300000);
  for (let k = 0; k < rows.length; k += 997) assert.deepEqual(rows[k], { n: BigInt(k), s: String(k * 3), i: k - 1000 });
  assert.deepEqual(rows.columns.map((x) => x.type), ['UInt64', 'String', 'Int32']);
  assert.equal(rows.queryId, 'emb-1');
  // What chdb reports of a finished single-shot call: the result's rows and bytes, the time taken.
  assert.equal(rows.summary?.['result_rows'], '300000');
  assert.ok(Number(rows.summary?.['elapsed_ns']) > 0);
  assert.deepEqual(await c.fetchOne('SELECT 1 AS a, 2 AS b'), { a: 1, b: 2 });
  assert.equal(await c.fetchValue("SELECT 'v' AS x"), 'v');
  assert.equal(await c.fetchValue('SELECT 1 FROM numbers(0)'), undefined);
  assert.match((await c.serverVersion()), /^\d+\.\d+/);
  await c.ping();
});

test('stream: every row in order across many engine chunks; batches; Native gives the same rows', async () => {
  let k = 0;
  for await (const r of c.stream<{ n: bigint; s: string }>(SQL)) {
    if (r.n !== BigInt(k) || r.s !== String(k * 3)) assert.fail(`row ${k}: ${String(r.n)} ${r.s}`);
    k++;
  }
  assert.equal(k, 300000);
  let seen = 0;
  for await (const b of c.stream<{ n: bigint }>(SQL).batches()) {
    assert.ok(b.length > 0 && b.length <= 1024, `batch of ${b.length}`);
    if (b[0]!.n !== BigInt(seen)) assert.fail(`batch starting at row ${seen} starts with ${String(b[0]!.n)}`);
    seen += b.length;
  }
  assert.equal(seen, 300000);
  // Native (lazily built rows): the same rows, in order, in arrays of at most 1 024.
  seen = 0;
  for await (const b of c.stream<{ n: bigint; s: string }>(SQL, { format: 'Native' }).batches()) {
    assert.ok(b.length > 0 && b.length <= 1024, `batch of ${b.length}`);
    for (const r of b) { if (r.n !== BigInt(seen) || r.s !== String(seen * 3)) assert.fail(`row ${seen}`); seen++; }
  }
  assert.equal(seen, 300000);
  const native = await c.fetch(SQL, { format: 'Native', rows: 'array' });
  assert.equal(native.length, 300000);
  assert.deepEqual(native[12345], [12345n, String(12345 * 3), 12345 - 1000]);
});

test('leaving a stream early frees its connection for the next query', async () => {
  for (let round = 0; round < 3; round++) {
    for await (const _ of c.stream('SELECT number FROM numbers(10000000)')) break;
  }
  assert.equal(await c.fetchValue('SELECT 41 + 1 AS x'), 42);
});

test('execute + insert (objects, arrays, a subset of columns, JSONEachRow bytes) read back equal', async () => {
  await c.execute('CREATE TABLE ins (id UInt64, name String, at DateTime64(3, \'UTC\'), tags Array(String), score Nullable(Float64), d UInt8 DEFAULT 7) ENGINE = MergeTree ORDER BY id');
  const objs = Array.from({ length: 2500 }, (_, i) => ({ id: i, name: `n${i}'\\`, at: new Date(1_700_000_000_123 + i), tags: i % 2 ? ['a', `b${i}`] : [], score: i % 3 ? i / 3 : null, d: i % 256 }));
  await c.insert('ins', objs, { blockSize: 1000 });
  await c.insert('ins', [[100000, 'arr', new Date(0), ['x'], 1.5, 9]]);
  await c.insert('ins', [{ id: 200000, name: 'partial' }], { columns: ['id', 'name'] });
  await c.insert('ins', ['{"id":300000,"name":"json","at":"2024-01-01 00:00:00.000","tags":[],"score":null,"d":1}\n'], { format: 'JSONEachRow' });
  const back = await c.fetch<Record<string, unknown>>('SELECT * FROM ins ORDER BY id');
  assert.equal(back.length, 2503);
  back.slice(0, 2500).forEach((r, i) => {
    const o = objs[i]!;
    assert.deepEqual(r, { id: BigInt(o.id), name: o.name, at: o.at, tags: o.tags, score: o.score, d: o.d });
  });
  assert.deepEqual(back[2500], { id: 100000n, name: 'arr', at: new Date(0), tags: ['x'], score: 1.5, d: 9 });
  assert.deepEqual(back[2501], { id: 200000n, name: 'partial', at: new Date(0), tags: [], score: null, d: 7 });
  assert.equal(back[2502]!['name'], 'json');
});

test('insert errors: unknown column and bad value before anything is sent; a failing block keeps exactly the earlier ones', async () => {
  await c.execute('CREATE TABLE ins2 (id UInt32, v UInt8) ENGINE = MergeTree ORDER BY id');
  await assert.rejects(c.insert('ins2', [{ id: 1, v: 1, extra: 2 }]), (e: unknown) => e instanceof ChwireEncodeError && e.column === 'extra');
  const rows = Array.from({ length: 3500 }, (_, i) => ({ id: i, v: i % 200 }));
  rows[2100] = { id: 2100, v: 300 };
  await assert.rejects(c.insert('ins2', rows, { blockSize: 1000 }), (e: unknown) => e instanceof ChwireEncodeError && e.row === 2100 && e.column === 'v');
  assert.equal(await c.fetchValue('SELECT count() FROM ins2'), 2000n);
  await c.execute('TRUNCATE TABLE ins2');
  await assert.rejects(c.insert('ins2', rows, { blockSize: 0 }), ChwireEncodeError);
  assert.equal(await c.fetchValue('SELECT count() FROM ins2'), 0n);
  await assert.rejects(c.insert('no_such_table', [{ a: 1 }]), ChwireConfigError);
});

test('insert of Native bytes made elsewhere (Buffers, a byte-mode Readable) passes them through; a first row that is no object is named', async () => {
  await c.execute('CREATE TABLE ins3 (id UInt32, s String) ENGINE = MergeTree ORDER BY id');
  // Native bytes written by the engine itself (the session's engine: a second one cannot run).
  const file = join(mkdtempSync(join(tmpdir(), 'chwire-native-')), 'b.native');
  await c.execute(`SELECT toUInt32(number) AS id, concat('s', toString(number)) AS s FROM numbers(1000) INTO OUTFILE '${file}' FORMAT Native`);
  const block = readFileSync(file);
  assert.ok(block.length > 1000);
  await c.insert('ins3', [block.subarray(0, 7), block.subarray(7)]);
  await c.insert('ins3', Readable.from([Buffer.from(block)], { objectMode: false }));
  assert.deepEqual(await c.fetch('SELECT count() AS n, sum(id) AS sid, countIf(s = concat(\'s\', toString(id))) AS ok FROM ins3'),
    [{ n: 2000n, sid: 999000n, ok: 2000n }]);
  await assert.rejects(c.insert('ins3', ['not a row']), (e: unknown) => e instanceof ChwireEncodeError && e.row === 0 && /expected an object keyed by column name/.test(e.message));
  await assert.rejects(c.insert('ins3', [block, 'text']), (e: unknown) => e instanceof ChwireConfigError && /Native bytes/.test(e.message));
});

test('insert does not depend on the client\'s decode defaults; a key whose value is undefined is ignored in every row', async () => {
  await c.execute('CREATE TABLE ins4 (id UInt32, name String) ENGINE = MergeTree ORDER BY id');
  // The table's schema is read with the library's defaults: names stay text under strings: 'bytes'.
  const b = createClient({ url: 'chdb://', strings: 'bytes', columns: { name: { strings: 'bytes' } }, rows: 'array' });
  try {
    await b.insert('ins4', [{ id: 1, name: 'a', extra: undefined }, { id: 2, name: 'b', extra: undefined }]);
    assert.deepEqual(await b.fetch('SELECT id, name FROM ins4 ORDER BY id'), [[1, new TextEncoder().encode('a')], [2, new TextEncoder().encode('b')]]);
  } finally {
    await b.close();
  }
});

test('streamRaw on the embedded engine: one whole document per format (CSV with its header once, a Parquet file the engine reads back)', async () => {
  const N = 300000; // many engine chunks when streamed: each would carry its own header
  const sql = `SELECT number AS n, concat('v', toString(number)) AS s FROM numbers(${N})`;
  const collect = async (s: AsyncIterable<Uint8Array>): Promise<Buffer> => { const parts: Uint8Array[] = []; for await (const b of s) parts.push(b); return Buffer.concat(parts); };
  const csv = (await collect(c.streamRaw(sql, { format: 'CSVWithNames' }))).toString('utf8');
  const lines = csv.split('\n');
  assert.equal(lines[0], '"n","s"');
  assert.equal(lines.length, N + 2); // header, N rows, '' after the last newline
  assert.equal(lines[N], `${N - 1},"v${N - 1}"`);
  const parquet = await collect(c.streamRaw(sql, { format: 'Parquet', settings: { max_threads: 1 } }));
  const file = join(mkdtempSync(join(tmpdir(), 'chwire-raw-')), 'r.parquet');
  writeFileSync(file, parquet);
  assert.deepEqual(await c.fetchOne(`SELECT count() AS k, sum(n) AS total, countIf(s = concat('v', toString(n))) AS ok FROM file('${file}', 'Parquet')`),
    { k: BigInt(N), total: BigInt(N) * BigInt(N - 1) / 2n, ok: BigInt(N) });
});

test('sessions: a temporary table lives in its session only', async () => {
  await c.execute('CREATE TEMPORARY TABLE t_sess (a UInt8)', { sessionId: 'A' });
  await c.execute('INSERT INTO t_sess VALUES (1), (2)', { sessionId: 'A' });
  assert.equal(await c.fetchValue('SELECT count() FROM t_sess', { sessionId: 'A' }), 2n);
  await assert.rejects(c.fetch('SELECT count() FROM t_sess', { sessionId: 'B' }), (e: unknown) => e instanceof ChwireServerError && e.serverCode === 60);
});

test('parameters: any string round-trips through {s:String} unchanged', async () => {
  const hostile = ["'); DROP TABLE ins; --", 'a\\', '\\N', 'tab\there', 'nl\nnl', 'nul\0nul', 'quote\'s', 'back\\slash\\\\', '\u{1F600} ünïcode', ''];
  for (const s of hostile) assert.equal(await c.fetchValue('SELECT {s:String} AS s', { params: { s } }), s);
  await fc.assert(fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 40 }), async (s) => {
    assert.equal(await c.fetchValue('SELECT {s:String} AS s', { params: { s } }), s);
  }), { numRuns: 60 });
});

test('parameters: arrays, maps, tuples, dates and integers at their limits', async () => {
  await fc.assert(fc.asyncProperty(fc.array(fc.string({ maxLength: 12 }), { maxLength: 6 }), async (a) => {
    assert.deepEqual(await c.fetchValue('SELECT {a:Array(String)} AS a', { params: { a } }), a);
  }), { numRuns: 40 });
  assert.equal(await c.fetchValue('SELECT {u:UInt64} AS u', { params: { u: 18446744073709551615n } }), 18446744073709551615n);
  assert.equal(await c.fetchValue('SELECT {i:Int64} AS i', { params: { i: -9223372036854775808n } }), -9223372036854775808n);
  assert.deepEqual(await c.fetchValue('SELECT {m:Map(String, Int32)} AS m', { params: { m: new Map([["k'1", -1], ['k2', 2147483647]]) } }), { "k'1": -1, k2: 2147483647 });
  assert.deepEqual(await c.fetchValue('SELECT {t:Tuple(UInt8, String)} AS t', { params: { t: tuple(7, 'x\\y') } }), [7, 'x\\y']);
  const d = new Date(Date.UTC(2024, 1, 29, 23, 59, 58));
  assert.deepEqual(await c.fetchValue("SELECT {d:DateTime('UTC')} AS d", { params: { d } }), d);
  assert.equal(await c.fetchValue('SELECT {n:Nullable(String)} AS n', { params: { n: null } }), null);
});

test('fetchColumns: typed arrays for numeric columns, arrays for the rest', async () => {
  const r = await c.fetchColumns('SELECT toFloat64(number) / 2 AS f, toInt32(toInt64(number) - 5) AS i, toString(number) AS s FROM numbers(100000)');
  assert.deepEqual(r.names, ['f', 'i', 's']);
  assert.ok(r.columns[0] instanceof Float64Array);
  assert.ok(r.columns[1] instanceof Int32Array);
  const [f, i, s] = r.columns as [Float64Array, Int32Array, string[]];
  assert.equal(f.length, 100000);
  assert.equal(f[99999], 99999 / 2);
  assert.equal(i[0], -5);
  assert.equal(s[4242], '4242');
});

test('Native reads report a top-level DateTime with its zone (binary type headers), columns and rows alike', async () => {
  const sql = "SELECT toDateTime(1700000000, 'Asia/Tokyo') AS t, [toDateTime(0, 'Europe/Berlin')] AS a, toDateTime(5, 'UTC') AS u";
  const want = ["DateTime('Asia/Tokyo')", "Array(DateTime('Europe/Berlin'))", "DateTime('UTC')"];
  const cols = await c.fetchColumns(sql);
  assert.deepEqual(cols.types, want);
  // Columnar DateTime: seconds by default (issue 13); an explicit datetime option gives Dates.
  assert.deepEqual(cols.columns[0], new Uint32Array([1700000000]));
  assert.deepEqual((await c.fetchColumns(sql, { datetime: 'Date' })).columns[0], [new Date(1700000000 * 1000)]);
  const rows = await c.fetch<{ t: Date }>(sql, { format: 'Native' });
  assert.deepEqual(rows.columns.map((x) => x.type), want);
  assert.deepEqual(rows[0]!.t, new Date(1700000000 * 1000));
  // The user's own setting wins: text headers, where the top-level zone is lost (native.md §2),
  // and fetchColumns recovers it from DESCRIBE of the query (which the engine runs single-shot).
  const text = await c.fetchColumns(sql, { settings: { output_format_native_encode_types_in_binary_format: 0 } });
  assert.deepEqual(text.types, want);
  const textRows = await c.fetch(sql, { format: 'Native', settings: { output_format_native_encode_types_in_binary_format: 0 } });
  assert.deepEqual(textRows.columns.map((x) => x.type), ['DateTime', "Array(DateTime('Europe/Berlin'))", 'DateTime']);
});

test('errors: server errors, abort, closed client, a second data directory', async () => {
  await assert.rejects(c.fetch('SELECT * FROM missing_table'), (e: unknown) => e instanceof ChwireServerError && e.serverCode === 60 && e.serverName === 'UNKNOWN_TABLE');
  await assert.rejects(c.fetch('SELEC 1'), (e: unknown) => e instanceof ChwireServerError && e.serverCode === 62);
  const ac = new AbortController();
  await assert.rejects((async () => {
    let n = 0;
    for await (const _ of c.stream('SELECT number FROM numbers(100000000)', { signal: ac.signal })) if (++n === 1000) ac.abort();
  })(), ChwireAbortError);
  const other = createClient({ url: 'chdb:///tmp/chwire-other-dir' });
  await assert.rejects(other.fetch('SELECT 1'), ChwireConfigError);
  await other.close();
  const closed = createClient({ url: 'chdb://' });
  await closed.close();
  await assert.rejects(closed.fetch('SELECT 1'), ChwireConfigError);
});

test('requestTimeout on the embedded engine: a read or a statement given up on is a ChwireTimeoutError; a stream that keeps delivering chunks is progress', async () => {
  const t = createClient({ url: 'chdb://', requestTimeout: 1000 });
  const slow = 'SELECT sleepEachRow(0.9) FROM numbers(3)'; // one block that takes ~2.7 s to compute
  try {
    for (const read of [() => t.fetch(slow), async () => { for await (const _ of t.stream(slow)); }]) {
      const started = performance.now();
      await assert.rejects(read(), ChwireTimeoutError);
      assert.ok(performance.now() - started < 2500, 'the timeout fired before the block was done');
    }
    // A stream that keeps delivering chunks is progress, however long it runs in all.
    let n = 0;
    for await (const _ of t.stream('SELECT number FROM numbers(2000000)')) n++;
    assert.equal(n, 2000000);
    // A statement stops being waited for (the engine finishes it); the client stays usable.
    await assert.rejects(t.execute(slow), ChwireTimeoutError);
    assert.equal(await t.fetchValue('SELECT 41 + 1 AS x'), 42);
  } finally {
    await t.close();
  }
});

test('the database option applies to the embedded engine too (schema lookup, reads)', async () => {
  await c.execute('CREATE DATABASE IF NOT EXISTS emb_db');
  await c.execute('CREATE TABLE emb_db.t (x UInt8) ENGINE = Memory');
  const d = createClient({ url: 'chdb://', database: 'emb_db' });
  try {
    await d.insert('t', [{ x: 5 }, { x: 6 }]);
    assert.equal(await d.fetchValue('SELECT sum(x) FROM t'), 11n);
    assert.equal(await d.fetchValue('SELECT currentDatabase()'), 'emb_db');
    assert.equal(await c.fetchValue('SELECT currentDatabase()'), 'default');
  } finally {
    await d.close();
  }
});
