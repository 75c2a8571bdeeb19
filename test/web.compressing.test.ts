// chwire/web against a server that compresses its answers by default, as ClickHouse does from 25.10
// (enable_http_compression = 1) and as any compressing proxy does: the loopback test server (26.7)
// answers in the codec of the Accept-Encoding Node's fetch sends by itself, the request asking for
// no compression. chwire/web reads what the runtime's fetch decoded, with default options and with
// compression asked for, and so does chwire/compat/web (beside @clickhouse/client-web). A fetch that
// hands bodies over still encoded is refused by name at the version probe. Bounds on the decoded
// bytes: test/hostile.bounds.test.ts; other runtimes: test/runtimes/run.ts.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { Readable } from 'node:stream';
import * as official from '@clickhouse/client-web';
import { createClient as createNodeClient } from '../src/index.js';
import { createClient, ChwireConfigError, ChwireConnectionError, ChwireServerError, type WebClientOptions } from '../src/web.js';
import * as compat from '../src/compat-web.js';
import { engineExec } from './support/engine.js';
import { startTestServer } from './support/test-server.js';

const server = await startTestServer({ storeInserts: true });
// The same server with `enable_http_compression = 0` in its profile: answers uncompressed.
const plain = await startTestServer({ httpCompression: false });
after(async () => { await server.close(); await plain.close(); });

const SQL = `SELECT number AS n, toString(number * 7) AS s, [number, number + 1] AS arr, toDateTime(1700000000 + number, 'UTC') AS t,
  if(number % 3 = 0, NULL, number) AS nul FROM numbers(5000)`;
const answers = (marker: string) => server.requests.filter((r) => r.sql.includes(marker));

test('default options: every read gets what the runtime\'s fetch decoded, though the request asked for no compression', async () => {
  const c = createClient({ url: server.url, requestTimeout: 10_000 });
  const n = createNodeClient({ url: server.url, requestTimeout: 10_000 });
  try {
    for (const format of ['RowBinaryWithNamesAndTypes', 'Native'] as const) {
      const want = await n.fetch(`${SQL} /* zip-node-${format} */`, { format });
      const got = await c.fetch(`${SQL} /* zip-web-${format} */`, { format });
      assert.equal(got.length, 5000);
      assert.deepEqual([...got], [...want], format);
      // node:http sends no Accept-Encoding: uncompressed. Node's fetch sends its own: compressed.
      assert.equal(answers(`zip-node-${format}`)[0]!.responseEncoding, undefined);
      const req = answers(`zip-web-${format}`)[0]!;
      assert.equal(req.params.get('enable_http_compression'), null, 'compression was not asked for');
      assert.match(String(req.headers['accept-encoding']), /gzip/);
      assert.equal(req.responseEncoding, 'gzip');
    }
    let count = 0;
    for await (const r of c.stream<{ n: bigint }>('SELECT number AS n FROM numbers(30000) /* zip-stream */')) assert.equal(r.n, BigInt(count++));
    assert.equal(count, 30000);
    const parts: Uint8Array[] = [];
    for await (const p of c.streamRaw('SELECT number, toString(number) FROM numbers(3) /* zip-raw */', { format: 'CSV' })) parts.push(p);
    assert.equal(Buffer.concat(parts).toString(), '0,"0"\n1,"1"\n2,"2"\n');
    const cols = await c.fetchColumns('SELECT number AS n FROM numbers(4) /* zip-cols */');
    assert.deepEqual(Array.from(cols.columns[0] as ArrayLike<unknown>), [0n, 1n, 2n, 3n]);
    assert.deepEqual(await c.fetchOne('SELECT {a:UInt8} + 1 AS x /* zip-params */', { params: { a: 41 } }), { x: 42 });
    for (const m of ['zip-stream', 'zip-raw', 'zip-cols', 'zip-params']) assert.equal(answers(m)[0]!.responseEncoding, 'gzip', m);
    // A query's error comes compressed too (it is raised once the server's output is set up).
    await assert.rejects(c.fetch('SELECT * FROM no_such_table_zip'), (e: unknown) => e instanceof ChwireServerError && e.serverCode === 60 && /no_such_table_zip/.test(e.serverMessage));
    assert.equal(answers('no_such_table_zip')[0]!.responseEncoding, 'gzip');
    // Inserts: the acknowledgement (empty, compressed) and the rows read back.
    await engineExec('CREATE TABLE IF NOT EXISTS zip_ins (id UInt32, s String) ENGINE = Memory');
    await c.insert('zip_ins', Array.from({ length: 2000 }, (_, i) => ({ id: i, s: `r${i}` })));
    assert.deepEqual(await c.fetchOne('SELECT count() AS c, sum(id) AS s FROM zip_ins', { int64: 'number' }), { c: 2000, s: 1999000 });
    await engineExec('DROP TABLE zip_ins');
  } finally {
    await c.close();
    await n.close();
  }
});

test('compression asked for (compression: true): the runtime\'s fetch decodes the codec it chose, the same rows', async () => {
  const c = createClient({ url: server.url, compression: true, requestTimeout: 10_000 });
  const d = createClient({ url: server.url, requestTimeout: 10_000 });
  try {
    assert.deepEqual([...await c.fetch(`${SQL} /* zip-asked */`)], [...await d.fetch(SQL)]);
    const req = answers('zip-asked')[0]!;
    assert.equal(req.params.get('enable_http_compression'), '1');
    assert.equal(req.responseEncoding, 'gzip');
  } finally {
    await c.close();
    await d.close();
  }
});

test('chwire/compat/web with default options reads the compressed answers as @clickhouse/client-web does', async () => {
  const o = official.createClient({ url: server.url, log: { level: official.ClickHouseLogLevel.OFF } });
  const c = compat.createClient({ url: server.url });
  try {
    interface Q { query(p: { query: string; format: string }): Promise<{ json(): Promise<unknown>; text(): Promise<string> }> }
    const outcome = async (client: Q, tag: string): Promise<unknown> => {
      const rs = await client.query({ query: `SELECT number AS n, toString(number) AS s FROM numbers(2000) /* zip-compat-${tag} */`, format: 'JSONEachRow' });
      const rows = await rs.json();
      const text = await (await client.query({ query: `SELECT number FROM numbers(3) /* zip-compat-text-${tag} */`, format: 'CSV' })).text();
      const error = await client.query({ query: `SELECT * FROM no_such_table_zip_${tag}`, format: 'JSONEachRow' }).then(() => 'no error', (e: Error) => e.message.replace(tag, 'TAG').slice(0, 60));
      return { rows, text, error };
    };
    const theirs = await outcome(o as unknown as Q, 'official');
    const ours = await outcome(c as unknown as Q, 'compat');
    assert.deepEqual(ours, theirs);
    assert.equal((theirs as { rows: unknown[] }).rows.length, 2000);
    for (const tag of ['official', 'compat']) {
      const req = answers(`zip-compat-${tag}`)[0]!;
      assert.equal(req.params.get('enable_http_compression'), null);
      assert.equal(req.responseEncoding, 'gzip', tag);
    }
  } finally {
    await o.close();
    await c.close();
  }
});

test('an exception block after rows, compressed: the server\'s error, or a cut that says what may have been lost; never a garbage row', async () => {
  // A runtime's fetch decodes asynchronously and drops what it has not decoded yet when the
  // connection is cut (as a 25.11+ server cuts it after the block): either outcome is possible.
  const c = createClient({ url: server.url, requestTimeout: 10_000 });
  try {
    for (let i = 0; i < 3; i++) {
      server.fault(`/* zip-tagged-${i} */`, { kind: 'exception-tagged', at: 1 + 2 + 7 + 10000 * 8, message: 'Code: 241. DB::Exception: Memory limit exceeded. (MEMORY_LIMIT_EXCEEDED) (version 26.7.2.1)' });
      let n = 0;
      const e = await (async () => {
        try {
          for await (const r of c.stream<{ n: bigint }>(`SELECT number AS n FROM numbers(20000) /* zip-tagged-${i} */`)) { assert.equal(r.n, BigInt(n)); n++; }
        } catch (x) { return x; }
        return undefined;
      })();
      assert.ok(n <= 10000, `${n} rows`);
      if (e instanceof ChwireServerError) {
        assert.equal(e.serverCode, 241);
        assert.equal(n, 10000);
      } else {
        assert.ok(e instanceof ChwireConnectionError, String(e));
        assert.match(e.message, /Content-Encoding "gzip", decoded by the runtime's fetch, which drops what it has not decoded yet when the connection is cut: an error the server wrote just before cutting it .* may have been lost with it/);
      }
      assert.equal(answers(`zip-tagged-${i}`)[0]!.responseEncoding, 'gzip');
    }
  } finally {
    await c.close();
  }
});

/** A fetch over node:http that hands the body over as the server sent it, still in its Content-Encoding (not the Fetch standard's). */
const undecodingFetch = (input: string, init: RequestInit): Promise<Response> => new Promise((resolve, reject) => {
  const headers = { ...(init.headers as Record<string, string>), 'accept-encoding': 'gzip' };
  const req = http.request(input, { method: init.method, headers, signal: init.signal ?? undefined }, (res) => {
    const h = new Headers();
    for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
    resolve(new Response(Readable.toWeb(res) as ReadableStream<Uint8Array>, { status: res.statusCode ?? 0, headers: h }));
  });
  req.on('error', reject);
  req.end(init.body as string | Uint8Array | undefined);
});

test('a fetch that hands bodies over still encoded: refused by name at the version probe, the query not sent', async () => {
  for (const opts of [{}, { compression: true }] as WebClientOptions[]) {
    const marker = `zip-undecoded-${opts.compression === true ? 'asked' : 'default'}`;
    const c = createClient({ url: server.url, fetch: undecodingFetch, retry: false, ...opts });
    try {
      await assert.rejects(c.fetch(`SELECT 1 /* ${marker} */`), (e: unknown) => e instanceof ChwireConfigError
        && /^option fetch: the answer of 127\.0\.0\.1:\d+ to chwire's version probe came in Content-Encoding "gzip" and this fetch handed it over still encoded; chwire\/web needs a fetch that decodes response bodies/.test(e.message));
      assert.equal(answers(marker).length, 0, 'the query was not sent');
    } finally {
      await c.close();
    }
  }
  // The same fetch against a server that does not compress: nothing to decode, the rows.
  const p = createClient({ url: plain.url, fetch: undecodingFetch });
  try {
    assert.deepEqual([...await p.fetch('SELECT number AS n FROM numbers(3)')], [{ n: 0n }, { n: 1n }, { n: 2n }]);
    assert.equal(plain.requests.at(-1)!.responseEncoding, undefined);
  } finally {
    await p.close();
  }
});
