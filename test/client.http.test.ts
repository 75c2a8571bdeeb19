// The whole client over HTTP against the loopback test server: results equal to the engine's own
// JSON of the same query, streaming with backpressure (memory measured, not time), every error
// class provoked, old-server behaviour (Native, no parameters, old error style).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, ChwireAbortError, ChwireConfigError, ChwireConnectionError, ChwireDecodeError, ChwireServerError, ChwireTimeoutError } from '../src/index.js';
import { engineBytes, engineExec, engineJsonRows } from './support/engine.js';
import { createNativeDecoder } from '../src/codec.js';
import { startTestServer } from './support/test-server.js';
import { collectGarbage } from './support/ch-server.js';

const server = await startTestServer({ user: 'u1', password: 'p@ss:word' });
const old = await startTestServer({ version: '18.16.1' });
after(async () => { await server.close(); await old.close(); });

const client = (over: Parameters<typeof createClient>[0] = {}) => createClient({ url: server.url, username: 'u1', password: 'p@ss:word', requestTimeout: 5000, ...over });

const SQL = "SELECT number AS n, toString(number * 7) AS s, toDateTime(1700000000 + number, 'UTC') AS t FROM numbers(5000)";

test('fetch returns every row equal to the engine, with columns, query id and summary', async () => {
  const c = client();
  const rows = await c.fetch<{ n: bigint; s: string; t: Date }>(`${SQL} /* fetch */`, { queryId: 'q-fetch' });
  const expected = await engineJsonRows(SQL);
  assert.equal(rows.length, expected.length);
  rows.forEach((r, i) => {
    const [n, s, t] = expected[i] as [string, string, string];
    assert.equal(r.n, BigInt(n));
    assert.equal(r.s, s);
    assert.equal(r.t.getTime(), Date.parse(`${t.replace(' ', 'T')}Z`));
  });
  assert.deepEqual(rows.columns.map((x) => [x.name, x.type]), [['n', 'UInt64'], ['s', 'String'], ['t', "DateTime('UTC')"]]);
  assert.equal(rows.queryId, 'q-fetch');
  assert.equal(rows.summary?.['read_rows'], '1');
  assert.ok(!Object.keys(rows).includes('columns'), 'metadata is not enumerable');
  await c.close();
});

test('fetchOne, fetchValue, per-call decode options and per-column overrides', async () => {
  const c = client({ int64: 'string' });
  assert.deepEqual(await c.fetchOne('SELECT toUInt64(42) AS a, toInt64(-1) AS b'), { a: '42', b: '-1' });
  assert.deepEqual(await c.fetchOne('SELECT toUInt64(42) AS a, toInt64(-1) AS b', { int64: 'number', columns: { b: { int64: 'bigint' } } }), { a: 42, b: -1n });
  assert.equal(await c.fetchValue('SELECT toString(99) AS x'), '99');
  assert.equal(await c.fetchOne('SELECT 1 AS x FROM numbers(0)'), undefined);
  assert.deepEqual(await c.fetch('SELECT 1 AS a, 2 AS b', { rows: 'array' }), [[1, 2]]);
  await c.close();
});

test('execute runs a statement and returns its query id', async () => {
  const c = client();
  const r = await c.execute('SELECT 1 /* exec */', { queryId: 'q-exec' });
  assert.equal(r.queryId, 'q-exec');
  assert.equal(server.requests.at(-1)?.params.get('default_format'), null);
  await c.close();
});

test('stream yields rows while the body arrives, and batches() gives the same rows in arrays of at most 1 024', async () => {
  const c = client();
  let count = 0;
  for await (const row of c.stream<{ n: bigint }>(`${SQL} /* stream */`)) {
    assert.equal(row.n, BigInt(count));
    count++;
  }
  assert.equal(count, 5000);
  let total = 0;
  for await (const b of c.stream<{ n: bigint }>(`${SQL} /* batches */`).batches()) {
    assert.ok(b.length > 0 && b.length <= 1024, `batch of ${b.length}`);
    for (const row of b) assert.equal(row.n, BigInt(total++));
  }
  assert.equal(total, 5000);
  const s = c.stream('SELECT 1 AS x');
  for await (const _ of s) { /* consume */ }
  assert.throws(() => s.batches(), ChwireConfigError);
  await c.close();
});

test('backpressure: a slow reader keeps the server blocked and memory flat', async () => {
  // ~64 MiB of rows offered; the reader takes a few and waits: the socket must not be drained.
  server.fault('/* slow */', { kind: 'repeat', times: 1000 });
  const c = client();
  const s = c.stream<{ n: bigint }>('SELECT number AS n, toString(number) AS s FROM numbers(8000) /* slow */');
  await collectGarbage();
  const heapBefore = process.memoryUsage().heapUsed;
  let n = 0;
  let peak = 0;
  for await (const _ of s) {
    n++;
    if (n % 2000 === 0) {
      await new Promise((r) => setTimeout(r, 20));
      await collectGarbage();
      peak = Math.max(peak, process.memoryUsage().heapUsed - heapBefore);
    }
    if (n === 40_000) break;
  }
  const written = server.repeatBytesWritten;
  // 40 000 rows is ~0.6 MiB of body; the server may run ahead only by socket and stream buffers.
  assert.ok(written < 8 * 1024 * 1024, `server wrote ${written} bytes ahead of a reader that took 40 000 rows`);
  assert.ok(peak < 16 * 1024 * 1024, `heap grew by ${peak} bytes`);
  await c.close();
});

test('leaving a stream (rows or batches) early releases its connection', async () => {
  const c = client({ maxOpenConnections: 1 });
  for await (const _ of c.stream('SELECT number FROM numbers(3000000) /* leave */')) break;
  assert.equal(await c.fetchValue('SELECT 5 AS x'), 5);
  for await (const b of c.stream('SELECT number FROM numbers(3000000) /* leave-batches */').batches()) { assert.ok(b.length > 0); break; }
  assert.equal(await c.fetchValue('SELECT 6 AS x'), 6);
  // Native (an old server): the batches come from lazily built sources; leaving releases too.
  const o = createClient({ url: old.url, maxOpenConnections: 1, requestTimeout: 5000 });
  for await (const b of o.stream('SELECT number FROM numbers(3000000) /* leave-native */').batches()) { assert.ok(b.length > 0); break; }
  assert.equal(await o.fetchValue('SELECT 7 AS x'), 7);
  await o.close();
  await c.close();
});

test('cancel() inside the loop ends it quietly (rows, batches, Native) and releases the connection', async () => {
  for (const [c, tag] of [[client({ maxOpenConnections: 1 }), 'rb'], [createClient({ url: old.url, maxOpenConnections: 1, requestTimeout: 5000 }), 'native']] as const) {
    const s = c.stream<{ number: bigint }>(`SELECT number FROM numbers(3000000) /* cancel-rows-${tag} */`);
    let n = 0;
    for await (const row of s) {
      assert.equal(row.number, BigInt(n));
      if (++n === 10) s.cancel();
    }
    assert.equal(n, 10, `${tag}: no row after cancel()`);
    assert.equal(await c.fetchValue('SELECT 8 AS x'), 8);
    const b = c.stream(`SELECT number FROM numbers(3000000) /* cancel-batches-${tag} */`);
    let arrays = 0;
    for await (const batch of b.batches()) {
      assert.ok(batch.length > 0);
      if (++arrays === 2) b.cancel();
    }
    assert.equal(arrays, 2, `${tag}: no array after cancel()`);
    assert.equal(await c.fetchValue('SELECT 9 AS x'), 9);
    await c.close();
  }
});

test('streamRaw: the bytes of any format exactly as the engine writes them; exceptions in either framing never reach the data', async () => {
  const c = client({ maxOpenConnections: 1 });
  const sql = "SELECT number AS n, concat('v', toString(number)) AS s FROM numbers(50000)";
  const collect = async (s: AsyncIterable<Uint8Array>): Promise<Buffer> => { const parts: Uint8Array[] = []; for await (const b of s) parts.push(b); return Buffer.concat(parts); };
  for (const format of ['CSVWithNames', 'Parquet', 'JSONEachRow']) {
    const raw = c.streamRaw(`${sql} /* raw-${format} */`, { format, queryId: `q-raw-${format}` });
    assert.deepEqual(await collect(raw), Buffer.from(await engineBytes(sql, format)), format);
    assert.equal(raw.queryId, `q-raw-${format}`);
    assert.equal(server.requests.at(-1)?.params.get('default_format'), format);
  }
  // 25.11+ framing: the transport cuts the exception block out and raises it.
  server.fault('/* raw-tagged */', { kind: 'exception-tagged', at: 5000, message: 'Code: 241. DB::Exception: Memory limit exceeded. (MEMORY_LIMIT_EXCEEDED) (version 26.7.2.1)' });
  await assert.rejects(collect(c.streamRaw(`${sql} /* raw-tagged */`, { format: 'TSV' })), (e: unknown) => e instanceof ChwireServerError && e.serverCode === 241);
  // Text appended after the data (servers before 25.11): held back, raised, never handed over.
  const parts: Uint8Array[] = [];
  server.fault('/* raw-appended */', { kind: 'exception-appended', at: 300000, message: "Code: 395. DB::Exception: Value passed to 'throwIf' function is non-zero. (FUNCTION_THROW_IF_VALUE_IS_NON_ZERO) (version 26.7.2.1)" });
  await assert.rejects((async () => { for await (const b of c.streamRaw(`${sql} /* raw-appended */`, { format: 'TSV' })) parts.push(b); })(), (e: unknown) => e instanceof ChwireServerError && e.serverCode === 395);
  assert.ok(!Buffer.concat(parts).includes('DB::Exception'), 'no exception text among the data');
  assert.ok(Buffer.concat(parts).length > 200000, 'the data before it streamed');
  // Leaving early, or cancel(), releases the one connection.
  for await (const _ of c.streamRaw('SELECT number FROM numbers(3000000) /* raw-leave */', { format: 'TSV' })) break;
  const r = c.streamRaw('SELECT number FROM numbers(3000000) /* raw-cancel */', { format: 'TSV' });
  let chunks = 0;
  for await (const _ of r) if (++chunks === 2) r.cancel();
  assert.equal(chunks, 2);
  assert.equal(await c.fetchValue('SELECT 4 AS x'), 4);
  assert.throws(() => c.streamRaw('SELECT 1', { format: 'CSV; DROP' }), ChwireConfigError);
  // With gzip on the wire the bytes handed over are the decompressed ones.
  const gz = client({ compression: true });
  assert.deepEqual(await collect(gz.streamRaw(`${sql} /* raw-gzip */`, { format: 'CSVWithNames' })), Buffer.from(await engineBytes(sql, 'CSVWithNames')));
  assert.equal(server.requests.at(-1)?.params.get('enable_http_compression'), '1');
  await gz.close();
  await c.close();
});

test('keepAlive: false opens a connection per request; insertBlockSize (and blockSize) set the Native blocks of an insert', async () => {
  const once = client({ keepAlive: false });
  await once.serverVersion();
  const before = server.connections;
  for (let i = 0; i < 3; i++) assert.equal(await once.fetchValue(`SELECT ${i} AS x`), i);
  assert.equal(server.connections - before, 3);
  await once.close();
  const pooled = client();
  await pooled.serverVersion();
  const before2 = server.connections;
  for (let i = 0; i < 3; i++) await pooled.fetchValue(`SELECT ${i} AS x`);
  assert.ok(server.connections - before2 <= 1, 'one pooled connection serves them');
  await pooled.close();

  await engineExec('CREATE TABLE IF NOT EXISTS http_ins_bs (id UInt32, s String) ENGINE = Memory');
  const c = client({ insertBlockSize: 1000 });
  const rows = Array.from({ length: 2500 }, (_, i) => ({ id: i, s: `r${i}` }));
  const blocksOf = (marker: string): number[] => {
    const req = server.requests.filter((r) => r.sql.includes('http_ins_bs') && r.body.length > 0).at(-1)!;
    assert.match(req.sql, /FORMAT Native$/, marker);
    return createNativeDecoder().pushSources!(req.body).map((b) => b.length);
  };
  await c.insert('http_ins_bs', rows);
  assert.deepEqual(blocksOf('client option'), [1000, 1000, 500]);
  await c.insert('http_ins_bs', rows, { blockSize: 0 });
  assert.deepEqual(blocksOf('per call'), [2500]);
  await c.close();
});

test('an insert whose connection is reset is a ChwireConnectionError and is not sent again', async () => {
  await engineExec('CREATE TABLE IF NOT EXISTS http_ins_reset (id UInt32) ENGINE = Memory');
  server.fault('INTO http_ins_reset', { kind: 'reset' });
  const c = client();
  await assert.rejects(c.insert('http_ins_reset', Array.from({ length: 3000 }, (_, id) => ({ id })), { blockSize: 1000 }), ChwireConnectionError);
  assert.equal(server.requests.filter((r) => r.sql.includes('INTO http_ins_reset')).length, 1, 'never retried');
  assert.equal(await c.fetchValue('SELECT 2 AS x'), 2);
  await c.close();
});

test('a body cut mid-row with a clean end is a ChwireDecodeError naming row and offset', async () => {
  server.fault('/* cut-row */', { kind: 'cut-clean', at: 1000 });
  const c = client();
  const e = await c.fetch(`${SQL} /* cut-row */`).then(() => undefined, (x: unknown) => x);
  assert.ok(e instanceof ChwireDecodeError, String(e));
  assert.ok(e.row !== undefined && e.row > 0);
  assert.ok(e.offset > 0 && e.offset <= 1000);
  await c.close();
});

test('an exception appended after 10 000 rows (old servers) is a ChwireServerError', async () => {
  const sql = 'SELECT number AS n, toString(number) AS s FROM numbers(20000) /* appended */';
  const { engineBytes } = await import('./support/engine.js');
  const full = await engineBytes(sql, 'RowBinaryWithNamesAndTypes');
  // Where the 10 000th row ends: header + rows 0..9999 (UInt64 + LEB128 length + digits).
  let at = full.length;
  for (let i = 19999; i >= 10000; i--) at -= 8 + 1 + String(i).length;
  server.fault('/* appended */', { kind: 'exception-appended', at, message: "Code: 395. DB::Exception: Value passed to 'throwIf' function is non-zero. (FUNCTION_THROW_IF_VALUE_IS_NON_ZERO) (version 26.7.2.1)" });
  const c = client();
  const e = await c.fetch(sql).then(() => undefined, (x: unknown) => x);
  assert.ok(e instanceof ChwireServerError, String(e));
  assert.equal(e.serverCode, 395);
  await c.close();
});

test('an exception after 10 000 rows in the 25.11+ framing is a ChwireServerError and no row is garbage', async () => {
  const sql = 'SELECT number AS n FROM numbers(20000) /* tagged-client */';
  server.fault('/* tagged-client */', { kind: 'exception-tagged', at: 1 + 2 + 7 + 10000 * 8, message: 'Code: 241. DB::Exception: Memory limit exceeded. (MEMORY_LIMIT_EXCEEDED) (version 26.7.2.1)' });
  const c = client();
  let n = 0;
  const e = await (async () => {
    try { for await (const r of c.stream<{ n: bigint }>(sql)) { assert.equal(r.n, BigInt(n)); n++; } } catch (x) { return x; }
    return undefined;
  })();
  assert.ok(e instanceof ChwireServerError, String(e));
  assert.equal(e.serverName, 'MEMORY_LIMIT_EXCEEDED');
  assert.equal(n, 10000);
  await c.close();
});

test('timeout, abort and connection errors surface as their classes', async () => {
  server.fault('/* c-stall */', { kind: 'stall', at: 50 });
  const c = client({ requestTimeout: 300 });
  await assert.rejects(c.fetch(`${SQL} /* c-stall */`), ChwireTimeoutError);
  const ac = new AbortController();
  server.fault('/* c-abort */', { kind: 'stall', at: 50 });
  setTimeout(() => ac.abort(), 50);
  await assert.rejects(c.fetch(`${SQL} /* c-abort */`, { signal: ac.signal }), ChwireAbortError);
  await c.close();
  const dead = createClient({ url: 'http://127.0.0.1:1', requestTimeout: 2000 });
  await assert.rejects(dead.ping(), ChwireConnectionError);
  await dead.close();
});

test('server errors: unknown table and bad credentials', async () => {
  const c = client();
  await assert.rejects(c.fetch('SELECT * FROM missing_table'), (e: unknown) => e instanceof ChwireServerError && e.serverName === 'UNKNOWN_TABLE' && typeof e.queryId === 'string');
  await c.close();
  const bad = client({ password: 'nope' });
  await assert.rejects(bad.fetch('SELECT 1'), (e: unknown) => e instanceof ChwireServerError && e.serverCode === 516);
  await bad.close();
});

test('credentials in the URL go to headers, never on the wire in the URL', async () => {
  const u = new URL(server.url);
  const c = createClient({ url: `http://u1:${encodeURIComponent('p@ss:word')}@${u.host}` });
  assert.equal(await c.fetchValue('SELECT 11 AS x /* url-creds */'), 11);
  const req = server.requests.find((r) => r.sql.includes('/* url-creds */'))!;
  assert.equal(req.headers['x-clickhouse-key'], 'p@ss:word');
  assert.ok(!req.url.includes('p%40ss') && !req.url.includes('u1'));
  await c.close();
});

test('queries of one session run one after another', async () => {
  server.fault('/* held */', { kind: 'stall', at: 20 });
  const c = client();
  const held = c.stream(`${SQL} /* held */`, { sessionId: 'sess-1' });
  const it = held[Symbol.asyncIterator]();
  const first = it.next(); // starts the request; the body stalls after 20 bytes
  await new Promise((r) => setTimeout(r, 100));
  const other = c.fetchValue('SELECT 3 AS x /* second-in-session */', { sessionId: 'sess-1' });
  await new Promise((r) => setTimeout(r, 150));
  assert.equal(server.requests.filter((r) => r.sql.includes('second-in-session')).length, 0, 'waits for the session');
  held.cancel();
  await first.catch(() => undefined);
  assert.equal(await other, 3);
  await c.close();
});

test('compression option: gzip over the wire, same rows', async () => {
  const c = client({ compression: true });
  const rows = await c.fetch(`${SQL} /* c-gzip */`);
  assert.equal(rows.length, 5000);
  assert.equal(server.requests.at(-1)?.headers['accept-encoding'], 'gzip');
  await c.close();
});

test('an old server (18.16): rows read as Native, parameters refused clearly, old error style parsed', async () => {
  const c = createClient({ url: old.url });
  const rows = await c.fetch<{ n: bigint; s: string }>('SELECT number AS n, toString(number) AS s FROM numbers(10) /* old-native */');
  assert.deepEqual(rows.map((r) => [r.n, r.s]), Array.from({ length: 10 }, (_, i) => [BigInt(i), String(i)]));
  assert.equal(old.requests.find((r) => r.sql.includes('old-native'))?.params.get('default_format'), 'Native');
  // fetchColumns: the text header drops a top-level DateTime's zone; the query's DESCRIBE restores it.
  const q = "SELECT toDateTime(0, 'Asia/Tokyo') AS t, toDateTime(5, 'UTC') AS u, [toDateTime(0, 'Europe/Berlin')] AS a, 1 AS x /* old-zones */";
  const described = (): number => old.requests.filter((r) => r.sql.startsWith('DESCRIBE TABLE') && r.sql.includes('old-zones')).length;
  const cols = await c.fetchColumns(q);
  assert.deepEqual(cols.types, ["DateTime('Asia/Tokyo')", "DateTime('UTC')", "Array(DateTime('Europe/Berlin'))", 'UInt8']);
  assert.deepEqual(cols.columns[0], new Uint32Array([0])); // columnar DateTime: seconds by default (issue 13)
  assert.equal(described(), 1);
  await c.fetchColumns(q, { types: { t: "DateTime('Asia/Tokyo')" } }); // given types: no DESCRIBE
  await c.fetchColumns('SELECT 1 AS x /* old-zones */');                // no DateTime: no DESCRIBE
  assert.equal(described(), 1);
  // No rows: a Native body is empty (no header block), so there are no columns to report.
  const none = await c.fetch('SELECT number AS n FROM numbers(10) WHERE n > 100 /* old-empty */');
  assert.equal(none.length, 0);
  assert.deepEqual(none.columns, []);
  await assert.rejects(c.fetch('SELECT {x:UInt8} AS x', { params: { x: 1 } }), (e: unknown) => e instanceof ChwireConfigError && /too old/.test(e.message));
  await assert.rejects(c.fetch('SELECT * FROM missing_table'), (e: unknown) => e instanceof ChwireServerError && e.serverCode === 60 && /e\.displayText\(\)/.test(e.serverMessage));
  // An exception appended in mid-block, or after whole blocks: fetchColumns raises the server's error.
  const big = 'SELECT number AS n, toString(number) AS s FROM numbers(200000)';
  const message = "Code: 395. DB::Exception: Value passed to 'throwIf' function is non-zero. (FUNCTION_THROW_IF_VALUE_IS_NON_ZERO) (version 18.16.1)";
  const full = (await engineBytes(big, 'Native')).length;
  for (const [tag, at] of [['mid', 100_000], ['end', full]] as const) {
    old.fault(`/* cols-${tag} */`, { kind: 'exception-appended', at, message });
    await assert.rejects(c.fetchColumns(`${big} /* cols-${tag} */`), (e: unknown) => e instanceof ChwireServerError && e.serverCode === 395, tag);
  }
  // execute() does not read results, but an exception appended to its body is still its error.
  old.fault('/* exec-appended */', { kind: 'exception-appended', at: 5000, message });
  await assert.rejects(c.execute(`${big} /* exec-appended */`), (e: unknown) => e instanceof ChwireServerError && e.serverCode === 395);
  await c.close();
});

test('options are validated', () => {
  assert.throws(() => createClient({ url: 'ftp://x' }), ChwireConfigError);
  assert.throws(() => createClient({ url: 'http://user:secret@[bad' }), (e: unknown) => e instanceof ChwireConfigError && !e.message.includes('secret'));
  assert.throws(() => createClient({ requestTimout: 5 } as never), ChwireConfigError);
  assert.throws(() => createClient({ url: 'chdb://relative/path' }), ChwireConfigError);
  assert.throws(() => createClient({ compression: { reqest: true } as never }), (e: unknown) => e instanceof ChwireConfigError && /reqest/.test(e.message));
  assert.throws(() => createClient({ compression: { request: 'yes' } as never }), ChwireConfigError);
  assert.throws(() => createClient({ url: 'chdb://', compression: 'gzip' as never }), ChwireConfigError);
});
