// chwire/web (the client on fetch) against the loopback test server, run in Node's own fetch:
// the same rows as the Node client for the same bytes, streaming, raw and columnar reads, errors in
// both exception framings, abort and timeout stopping the query on the server (KILL QUERY seen),
// inserts streamed (one request) and buffered (one request per block, identical blocks), and the
// options that cannot exist without Node refused by name. Other runtimes: test/runtimes/.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient as createNodeClient } from '../src/index.js';
import { createClient, ChwireAbortError, ChwireConfigError, ChwireConnectionError, ChwireDecodeError, ChwireEncodeError, ChwireServerError, ChwireTimeoutError, type WebClientOptions } from '../src/web.js';
import { createNativeDecoder } from '../src/codec.js';
import { engineExec, engineJsonRows } from './support/engine.js';
import { startTestServer } from './support/test-server.js';

const server = await startTestServer({ user: 'u1', password: 'p@ss:word', storeInserts: true });
const old = await startTestServer({ version: '18.16.1' });
after(async () => { await server.close(); await old.close(); });

const client = (over: WebClientOptions = {}) => createClient({ url: server.url, username: 'u1', password: 'p@ss:word', requestTimeout: 5000, ...over });
const nodeClient = () => createNodeClient({ url: server.url, username: 'u1', password: 'p@ss:word', requestTimeout: 5000 });

const FAMILIES = `SELECT number AS n, toInt8(number % 100 - 50) AS i8, toString(number * 7) AS s, toFixedString(toString(number % 10), 2) AS fs,
  toFloat64(number) / 3 AS f, toDecimal64(number / 7, 4) AS d, toDateTime(1700000000 + number, 'UTC') AS t, toDate(19000 + number) AS dt,
  toDateTime64(1700000000.123 + number, 3, 'Asia/Tokyo') AS t64, toUUID('00112233-4455-6677-8899-aabbccddeeff') AS u, toIPv4('10.0.0.1') AS ip4,
  [number, number + 1] AS arr, map('k', number) AS m, (number, toString(number)) AS tup, if(number % 3 = 0, NULL, number) AS nul,
  toLowCardinality(toString(number % 5)) AS lc, CAST(number % 2 AS Enum8('a' = 0, 'b' = 1)) AS e, toInt128(number) - 1000 AS i128, number % 2 = 1 AS b
  FROM numbers(3000)`;

test('every type family: the web client reads the same rows as the Node client (RowBinary and Native)', async () => {
  const w = client();
  const n = nodeClient();
  for (const format of ['RowBinaryWithNamesAndTypes', 'Native'] as const) {
    const a = await w.fetch(FAMILIES, { format });
    const b = await n.fetch(FAMILIES, { format });
    assert.equal(a.length, 3000);
    assert.deepEqual([...a], [...b], format);
    assert.deepEqual(a.columns, b.columns);
  }
  // And the values are the engine's: spot-check against its JSON.
  const json = await engineJsonRows('SELECT number, toString(number * 7) FROM numbers(3000)');
  const rows = await w.fetch<{ n: bigint; s: string }>(FAMILIES);
  rows.forEach((r, i) => { assert.equal(r.n, BigInt(json[i]![0] as string)); assert.equal(r.s, json[i]![1]); });
  await w.close();
  await n.close();
});

test('fetchOne, fetchValue, params, decode options, stream with batches, streamRaw and fetchColumns', async () => {
  const c = client({ int64: 'number' });
  assert.deepEqual(await c.fetchOne('SELECT toUInt64(42) AS a, {s:String} AS s', { params: { s: "it's \\ ok" } }), { a: 42, s: "it's \\ ok" });
  assert.equal(await c.fetchValue('SELECT {x:Array(UInt8)}', { params: { x: [1, 2, 3] }, int64: 'bigint' }).then((v) => JSON.stringify(v)), '[1,2,3]');
  let count = 0;
  for await (const batch of c.stream<{ n: number }>('SELECT number AS n FROM numbers(5000)').batches()) {
    assert.ok(batch.length > 0 && batch.length <= 1024);
    for (const r of batch) assert.equal(r.n, count++);
  }
  assert.equal(count, 5000);
  const parts: Uint8Array[] = [];
  for await (const p of c.streamRaw('SELECT number, toString(number) FROM numbers(3)', { format: 'CSV' })) parts.push(p);
  assert.equal(new TextDecoder().decode(Buffer.concat(parts)), '0,"0"\n1,"1"\n2,"2"\n');
  const cols = await c.fetchColumns('SELECT number AS n, toString(number) AS s FROM numbers(4)');
  assert.deepEqual(cols.names, ['n', 's']);
  assert.deepEqual(Array.from(cols.columns[0] as ArrayLike<bigint>), [0n, 1n, 2n, 3n]);
  const r = await c.execute('SELECT 1 /* web-exec */', { queryId: 'q-web-exec' });
  assert.equal(r.queryId, 'q-web-exec');
  await c.close();
});

test('credentials travel in headers only; the query id, summary and sessions reach the server', async () => {
  const u = new URL(server.url);
  const c = createClient({ url: `http://u1:${encodeURIComponent('p@ss:word')}@${u.host}` });
  const rows = await c.fetch('SELECT 1 AS x /* web-cred */', { queryId: 'q-web-cred', sessionId: 'sess-web' });
  assert.equal(rows.queryId, 'q-web-cred');
  assert.equal(rows.summary?.['read_rows'], '1');
  const req = server.requests.filter((r) => r.sql.includes('web-cred')).at(-1)!;
  assert.ok(!req.url.includes('p%40ss') && !req.url.includes('p@ss') && !req.url.includes('u1'), req.url);
  assert.equal(req.headers['x-clickhouse-key'], 'p@ss:word');
  assert.equal(req.params.get('session_id'), 'sess-web');
  await c.close();
});

test('server errors, both exception framings, a body cut short: each is its ChwireError and no garbage row is served', async () => {
  const c = client();
  await assert.rejects(c.fetch('SELECT * FROM no_such_table_web'), (e: unknown) => e instanceof ChwireServerError && e.serverCode === 60);
  const bad = client({ password: 'wrong' });
  await assert.rejects(bad.fetch('SELECT 1'), (e: unknown) => e instanceof ChwireServerError && e.serverCode === 516 && !e.message.includes('wrong'));

  const tagged = 'SELECT number AS n FROM numbers(20000) /* web-tagged */';
  // fetch drops what its stream had queued when the connection is cut after the block; the body
  // reads ahead so the block is never among those bytes: the server's error after every row, with
  // a consumer that keeps up and with one that falls behind (a pause every 1 000 rows). Answered
  // uncompressed (enable_http_compression=0): a runtime's decompressor drops what it has not decoded
  // yet at a cut, see web.compressing.test.ts.
  for (const slow of [false, true]) {
    server.fault('/* web-tagged */', { kind: 'exception-tagged', at: 1 + 2 + 7 + 10000 * 8, message: 'Code: 241. DB::Exception: Memory limit exceeded. (MEMORY_LIMIT_EXCEEDED) (version 26.7.2.1)' });
    let n = 0;
    const e1 = await (async () => {
      try {
        for await (const r of c.stream<{ n: bigint }>(tagged, { settings: { enable_http_compression: 0 } })) {
          assert.equal(r.n, BigInt(n));
          n++;
          if (slow && n % 1000 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
        }
      } catch (x) { return x; }
      return undefined;
    })();
    assert.ok(e1 instanceof ChwireServerError && e1.serverCode === 241 && e1.serverName === 'MEMORY_LIMIT_EXCEEDED', `${slow ? 'slow' : 'fast'} consumer: ${String(e1)}`);
    assert.equal(n, 10000);
  }

  const appended = 'SELECT number AS n FROM numbers(20000) /* web-appended */';
  server.fault('/* web-appended */', { kind: 'exception-appended', at: 1 + 2 + 7 + 10000 * 8, message: 'Code: 395. DB::Exception: Value passed to \'throwIf\' function is non-zero. (FUNCTION_THROW_IF_VALUE_IS_NON_ZERO) (version 26.7.2.1)' });
  await assert.rejects(c.fetch(appended), (e: unknown) => e instanceof ChwireServerError && e.serverCode === 395);

  server.fault('/* web-cut */', { kind: 'cut-clean', at: 1000 });
  await assert.rejects(c.fetch('SELECT number AS n, toString(number) AS s FROM numbers(5000) /* web-cut */'), ChwireDecodeError);
  server.fault('/* web-reset */', { kind: 'cut-reset', at: 1000 });
  await assert.rejects(c.fetch('SELECT number AS n FROM numbers(5000) /* web-reset */'), ChwireConnectionError);
  await c.close();
});

test('an old server (18.16): rows as Native, an appended exception raised, its error style parsed', async () => {
  const c = createClient({ url: old.url });
  assert.deepEqual([...await c.fetch('SELECT number AS n FROM numbers(3)')], [{ n: 0n }, { n: 1n }, { n: 2n }]);
  assert.equal(old.requests.at(-1)?.params.get('default_format'), 'Native');
  await assert.rejects(c.fetch('SELECT * FROM no_such_table_web'), (e: unknown) => e instanceof ChwireServerError && e.serverCode === 60);
  await c.close();
});

test('abort and requestTimeout: their error classes, and the server is asked to KILL the query', async () => {
  const c = client({ requestTimeout: 400 });
  server.fault('/* web-stall */', { kind: 'stall', at: 50 });
  await assert.rejects(c.fetch('SELECT number AS n FROM numbers(5000) /* web-stall */', { queryId: 'q-web-stall' }), ChwireTimeoutError);
  const ac = new AbortController();
  server.fault('/* web-abort */', { kind: 'stall', at: 50 });
  setTimeout(() => ac.abort(), 100);
  await assert.rejects(c.fetch('SELECT number AS n FROM numbers(5000) /* web-abort */', { signal: ac.signal, queryId: 'q-web-abort' }), ChwireAbortError);
  const pre = new AbortController();
  pre.abort();
  await assert.rejects(c.fetch('SELECT 1', { signal: pre.signal }), ChwireAbortError);
  for (const id of ['q-web-stall', 'q-web-abort']) {
    for (let i = 0; i < 50 && !server.requests.some((r) => r.sql.startsWith('KILL QUERY') && r.sql.includes(id)); i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(server.requests.some((r) => r.sql.startsWith('KILL QUERY') && r.sql.includes(`'${id}'`)), `no KILL QUERY for ${id}`);
  }
  const dead = createClient({ url: 'http://127.0.0.1:1', requestTimeout: 2000 });
  await assert.rejects(dead.ping(), ChwireConnectionError);
  await c.close();
});

test('leaving a stream early or cancel() ends it quietly', async () => {
  const c = client();
  let k = 0;
  for await (const _ of c.stream('SELECT number FROM numbers(100000)')) if (++k === 10) break;
  const s = c.stream('SELECT number FROM numbers(100000)');
  k = 0;
  for await (const _ of s) if (++k === 5) s.cancel();
  assert.equal(k, 5);
  assert.equal(await c.fetchValue('SELECT 7 AS x'), 7);
  await c.close();
});

const nativeBlocksOf = (body: Uint8Array): number[] => createNativeDecoder().pushSources!(body).map((b) => b.length);

test('insert: streamed as one body where the runtime can; buffered one block per request otherwise, same blocks, rows stored', async () => {
  await engineExec('DROP TABLE IF EXISTS web_ins');
  await engineExec('CREATE TABLE web_ins (id UInt32, s String, t DateTime(\'UTC\'), a Array(Nullable(Int64))) ENGINE = Memory');
  const rows = Array.from({ length: 2500 }, (_, i) => ({ id: i, s: `r${i}`, t: new Date(1700000000000 + i * 1000), a: [BigInt(i), null] }));
  const ofTable = () => server.requests.filter((r) => r.sql.includes('INTO `web_ins`') || r.sql.includes('INTO web_ins')).filter((r) => r.body.length > 0);

  const streamed = client({ requestStreams: true, insertBlockSize: 1000 });
  const before = ofTable().length;
  await streamed.insert('web_ins', rows);
  const one = ofTable().slice(before);
  assert.equal(one.length, 1, 'one request');
  assert.equal(one[0]!.headers['transfer-encoding'], 'chunked');
  assert.deepEqual(nativeBlocksOf(one[0]!.body), [1000, 1000, 500]);

  const buffered = client({ requestStreams: false, insertBlockSize: 1000 });
  const before2 = ofTable().length;
  await buffered.insert('web_ins', rows);
  const many = ofTable().slice(before2);
  assert.deepEqual(many.map((r) => nativeBlocksOf(r.body)), [[1000], [1000], [500]], 'one request per block');
  assert.deepEqual(Buffer.concat(many.map((r) => r.body)), one[0]!.body, 'the same bytes as the streamed body');

  const stored = await streamed.fetch<{ c: bigint; s: bigint }>('SELECT count() AS c, sum(id) AS s FROM web_ins');
  assert.deepEqual([...stored], [{ c: 5000n, s: 2n * 3123750n }]);

  // A value that cannot be encoded in block 2: block 1 is committed, the error is raised.
  await engineExec('TRUNCATE TABLE web_ins');
  const badRows = rows.map((r, i) => (i === 1500 ? { ...r, id: -1 } : r));
  await assert.rejects(buffered.insert('web_ins', badRows), ChwireEncodeError);
  assert.equal(await streamed.fetchValue('SELECT count() FROM web_ins', { int64: 'number' }), 1000);
  await engineExec('DROP TABLE web_ins');
  await streamed.close();
  await buffered.close();
});

test('compression: gzip responses decompressed by fetch, gzip insert bodies through CompressionStream', async () => {
  const c = client({ compression: { response: true, request: true }, requestStreams: true });
  const rows = await c.fetch('SELECT number AS n FROM numbers(1000) /* web-gzip */');
  assert.equal(rows.length, 1000);
  const req = server.requests.filter((r) => r.sql.includes('web-gzip')).at(-1)!;
  assert.equal(req.params.get('enable_http_compression'), '1');
  await engineExec('CREATE TABLE IF NOT EXISTS web_gz (s String) ENGINE = Memory');
  await c.insert('web_gz', Array.from({ length: 5000 }, () => ({ s: 'same text again and again' })));
  const ins = server.requests.filter((r) => r.sql.includes('web_gz') && r.body.length > 0).at(-1)!;
  assert.equal(ins.headers['content-encoding'], 'gzip');
  assert.ok(ins.rawLength < ins.body.length / 5, `compressed ${ins.rawLength} of ${ins.body.length}`);
  assert.deepEqual(nativeBlocksOf(ins.body), [5000]);
  await engineExec('DROP TABLE web_gz');
  await c.close();
});

test('options that need Node are a ChwireConfigError naming them; the rest is validated as in Node', () => {
  assert.throws(() => createClient({ url: 'chdb://' }), (e: unknown) => e instanceof ChwireConfigError && /chdb:\/\//.test(e.message));
  for (const name of ['tls', 'agent', 'proxy', 'maxOpenConnections', 'keepAlive', 'idleSocketTtl']) {
    assert.throws(() => createClient({ url: server.url, [name]: name === 'keepAlive' ? true : {} } as never), (e: unknown) => e instanceof ChwireConfigError && e.message.includes(`option ${name} `), name);
  }
  assert.throws(() => createClient({ requestTimout: 5 } as never), (e: unknown) => e instanceof ChwireConfigError && /requestTimout/.test(e.message));
  assert.throws(() => createClient({ fetch: 'no' } as never), (e: unknown) => e instanceof ChwireConfigError && /fetch/.test(e.message));
  assert.throws(() => createClient({ requestStreams: 1 } as never), (e: unknown) => e instanceof ChwireConfigError && /requestStreams/.test(e.message));
  assert.throws(() => createClient({ url: 'http://user:secret@[bad' }), (e: unknown) => e instanceof ChwireConfigError && !e.message.includes('secret'));
});

test('a custom fetch is used for every request', async () => {
  let calls = 0;
  const c = client({ fetch: (input, init) => { calls++; return fetch(input, init); } });
  assert.equal(await c.fetchValue('SELECT 5 AS x'), 5);
  assert.ok(calls >= 2, 'version probe and query');
  await c.close();
});

/** A fetch that hides every X-ClickHouse-* response header, as a browser does for a cross-origin server that exposes none. */
const hidingFetch = async (input: string, init: RequestInit): Promise<Response> => {
  const res = await fetch(input, init);
  const headers = new Headers();
  res.headers.forEach((v, k) => { if (!k.startsWith('x-clickhouse-')) headers.set(k, v); });
  return new Response(res.body, { status: res.status, headers });
};

test('headers hidden by CORS: a tagged exception is still an error with no garbage row, and data that looks like a marker is data', async () => {
  const c = client({ fetch: hidingFetch });
  const tagged = 'SELECT number AS n FROM numbers(20000) /* web-hidden-tagged */';
  server.fault('/* web-hidden-tagged */', { kind: 'exception-tagged', at: 1 + 2 + 7 + 10000 * 8, message: 'Code: 241. DB::Exception: Memory limit exceeded. (MEMORY_LIMIT_EXCEEDED) (version 26.7.2.1)' });
  let n = 0;
  const e = await (async () => {
    try {
      // (Uncompressed, as above: what a decompressor held at the cut would be lost.)
      for await (const r of c.stream<{ n: bigint }>(tagged, { settings: { enable_http_compression: 0 } })) {
        assert.equal(r.n, BigInt(n));
        n++;
        if (n % 1000 === 0) await new Promise((resolve) => setTimeout(resolve, 5)); // a consumer behind the network
      }
    } catch (x) { return x; }
    return undefined;
  })();
  // No tag to look for: the block's `__exception__` marker in the last bytes names the error.
  assert.ok(e instanceof ChwireServerError && e.serverCode === 241 && e.serverName === 'MEMORY_LIMIT_EXCEEDED', String(e));
  assert.equal(n, 10000);
  const text = 'a\r\n__exception__\r\nnot one, just text';
  const rows = await c.fetch<{ s: string; n: bigint }>('SELECT {s:String} AS s, number AS n FROM numbers(3)', { params: { s: text } });
  assert.deepEqual([...rows], [0n, 1n, 2n].map((x) => ({ s: text, n: x })));
  await c.close();
});
