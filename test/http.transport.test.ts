// The HTTP transport against the loopback test server: what goes on the wire (SQL in the body,
// settings and params in the URL, credentials only in headers), bodies byte-exact against the
// engine (plain, gzip, one byte per chunk), and every failure a response can have.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { HttpTransport, type HttpTransportOptions } from '../src/transport/http.js';
import type { TransportResponse } from '../src/transport/types.js';
import { NO_RETRY } from '../src/transport/retry.js';
import { ChwireAbortError, ChwireConnectionError, ChwireServerError, ChwireTimeoutError } from '../src/errors.js';
import { engineBytes } from './support/engine.js';
import { startTestServer } from './support/test-server.js';

const server = await startTestServer({ user: 'alice', password: 's3cret' });
after(() => server.close());

function transport(over: Partial<HttpTransportOptions> = {}): HttpTransport {
  return new HttpTransport({
    urls: [new URL(server.url)], username: 'alice', password: 's3cret', requestTimeout: 5000,
    maxOpenConnections: 4, keepAlive: true, idleSocketTtl: 2500, compression: false, ...over,
  });
}

async function readAll(r: TransportResponse): Promise<{ bytes: Buffer; chunks: number }> {
  const parts: Uint8Array[] = [];
  for await (const c of r.body) parts.push(c);
  return { bytes: Buffer.concat(parts), chunks: parts.length };
}

const ROWS = 'SELECT number AS n, toString(number) AS s FROM numbers(20000)';

test('sends SQL in the body, settings and params in the URL, credentials only in headers', async () => {
  const t = transport({ database: 'default' });
  const r = await t.request({ sql: `${ROWS} /* wire */`, format: 'RowBinaryWithNamesAndTypes', settings: { max_threads: '1' }, params: { x: 'a\\tb' }, queryId: 'q-wire', sessionId: 's1' });
  const { bytes } = await readAll(r);
  assert.deepEqual(bytes, Buffer.from(await engineBytes(`${ROWS} /* wire */`, 'RowBinaryWithNamesAndTypes')));
  const req = server.requests.find((q) => q.sql.includes('/* wire */'))!;
  assert.equal(req.method, 'POST');
  assert.equal(req.params.get('max_threads'), '1');
  assert.equal(req.params.get('param_x'), 'a\\tb');
  assert.equal(req.params.get('query_id'), 'q-wire');
  assert.equal(req.params.get('session_id'), 's1');
  assert.equal(req.params.get('database'), 'default');
  assert.equal(req.params.get('default_format'), 'RowBinaryWithNamesAndTypes');
  assert.equal(req.headers['x-clickhouse-user'], 'alice');
  assert.equal(req.headers['x-clickhouse-key'], 's3cret');
  assert.ok(!req.url.includes('s3cret') && !req.url.includes('alice'), 'credentials must not be in the URL');
  assert.equal(r.queryId, 'q-wire');
  assert.deepEqual(r.summary, { read_rows: '1', read_bytes: '8' });
  await t.close();
});

test('gzip responses are decompressed as a stream, byte-exact', async () => {
  const t = transport({ compression: true });
  const r = await t.request({ sql: `${ROWS} /* gz */`, format: 'RowBinaryWithNamesAndTypes' });
  const { bytes } = await readAll(r);
  assert.deepEqual(bytes, Buffer.from(await engineBytes(`${ROWS} /* gz */`, 'RowBinaryWithNamesAndTypes')));
  const req = server.requests.find((q) => q.sql.includes('/* gz */'))!;
  assert.equal(req.params.get('enable_http_compression'), '1');
  assert.equal(req.headers['accept-encoding'], 'gzip');
  await t.close();
});

test('requestCompression gzips a streamed request body (and only that): the server gets the same bytes', async () => {
  // Engine Native bytes of a compressible result, sent as an insert body would be: in pieces.
  const data = Buffer.from(await engineBytes('SELECT number AS n, toString(number % 100) AS s FROM numbers(50000)', 'Native'));
  const pieces = async function* (): AsyncGenerator<Uint8Array> {
    for (let at = 0; at < data.length; at += 65536) yield data.subarray(at, at + 65536);
  };
  const t = transport({ requestCompression: true });
  await readAll(await t.request({ sql: 'SELECT 1 /* gz-body */', format: 'TabSeparated', body: pieces() }));
  const got = server.requests.find((q) => q.sql.includes('/* gz-body */'))!;
  assert.equal(got.headers['content-encoding'], 'gzip');
  assert.deepEqual(got.body, data, 'the server decodes exactly the bytes given');
  assert.ok(got.rawLength * 2 < data.length, `${got.rawLength} bytes on the wire for ${data.length}`);
  // A query in the body (no streamed data) is not compressed.
  await readAll(await t.request({ sql: 'SELECT 2 /* plain-body */', format: 'TabSeparated' }));
  const plain = server.requests.find((q) => q.sql.includes('/* plain-body */'))!;
  assert.equal(plain.headers['content-encoding'], undefined);
  await t.close();
});

test('a body sent one byte per chunk arrives complete', async () => {
  const sql = 'SELECT number AS n, toString(number) AS s FROM numbers(300) /* bytewise */';
  server.fault('/* bytewise */', { kind: 'byte-per-chunk' });
  const t = transport();
  const { bytes, chunks } = await readAll(await t.request({ sql, format: 'RowBinaryWithNamesAndTypes' }));
  const expected = Buffer.from(await engineBytes(sql, 'RowBinaryWithNamesAndTypes'));
  assert.deepEqual(bytes, expected);
  assert.ok(chunks > 50, `expected many small chunks, got ${chunks}`);
  await t.close();
});

test('a connection reset in the middle of the body is a ChwireConnectionError', async () => {
  server.fault('/* cut-reset */', { kind: 'cut-reset', at: 1000 });
  const t = transport();
  const r = await t.request({ sql: `${ROWS} /* cut-reset */`, format: 'RowBinaryWithNamesAndTypes' });
  await assert.rejects(readAll(r), ChwireConnectionError);
  await t.close();
});

test('a reset before any response on a fresh socket: sent once without a retry policy; with one, again under new query ids', async () => {
  server.fault('/* reset */', { kind: 'reset' });
  const sent = (): string[] => server.requests.filter((q) => q.sql.includes('/* reset */')).map((q) => q.params.get('query_id') ?? '');
  const once = transport({ retry: NO_RETRY });
  await assert.rejects(once.request({ sql: 'SELECT 1 /* reset */', format: 'TabSeparated', idempotent: true, queryId: 'r1' }), ChwireConnectionError);
  assert.deepEqual(sent(), ['r1']);
  await once.close();
  // No keep-alive: every attempt on a fresh socket, so none can be taken for a stale one (a reused
  // socket failing within the stale window is resent once under the same id, by design).
  const retried = transport({ retry: { attempts: 3, baseDelay: 1, maxDelay: 1 }, keepAlive: false });
  await assert.rejects(retried.request({ sql: 'SELECT 1 /* reset */', format: 'TabSeparated', idempotent: true, queryId: 'r2' }), (e: unknown) =>
    e instanceof ChwireConnectionError && (e.earlierAttempts ?? []).length === 2);
  // The first attempt may have reached the server: later ones never reuse its id.
  assert.deepEqual(sent().slice(1), ['r2', 'r2-retry-1', 'r2-retry-2']);
  await retried.close();
});

test('an exception written after 10 000 rows (25.11+ tagged framing) is a ChwireServerError, and no byte of it is data', async () => {
  const sql = 'SELECT number AS n FROM numbers(20000) /* tagged */';
  const full = Buffer.from(await engineBytes(sql, 'RowBinaryWithNamesAndTypes'));
  const at = full.length - 10000 * 8; // header + 10 000 rows of UInt64
  const message = "Code: 395. DB::Exception: Value passed to 'throwIf' function is non-zero. (FUNCTION_THROW_IF_VALUE_IS_NON_ZERO) (version 26.7.2.1)";
  server.fault('/* tagged */', { kind: 'exception-tagged', at, message });
  const t = transport();
  const r = await t.request({ sql, format: 'RowBinaryWithNamesAndTypes', queryId: 'q-tagged' });
  const seen: Uint8Array[] = [];
  const err = await (async () => {
    try { for await (const c of r.body) seen.push(c); } catch (e) { return e; }
    return undefined;
  })();
  assert.ok(err instanceof ChwireServerError, `got ${String(err)}`);
  assert.equal(err.serverCode, 395);
  assert.equal(err.serverName, 'FUNCTION_THROW_IF_VALUE_IS_NON_ZERO');
  assert.equal(err.serverMessage, message);
  assert.equal(err.queryId, 'q-tagged');
  assert.deepEqual(Buffer.concat(seen), full.subarray(0, at), 'exactly the data before the block');
  await t.close();
});

/** The KILL QUERY request the transport sends for `queryId` once it gives up, waited for up to 2 s. */
async function killRequestFor(queryId: string): Promise<{ sql: string; sessionId: string | null } | undefined> {
  const until = Date.now() + 2000;
  for (;;) {
    const k = server.requests.find((q) => q.sql.startsWith('KILL QUERY') && q.sql.includes(`'${queryId}'`));
    if (k !== undefined) return { sql: k.sql, sessionId: k.params.get('session_id') };
    if (Date.now() > until) return undefined;
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('a stalled body is a ChwireTimeoutError after requestTimeout without progress, and the query is killed', async () => {
  server.fault('/* stall */', { kind: 'stall', at: 100 });
  const t = transport({ requestTimeout: 300 });
  const r = await t.request({ sql: `${ROWS} /* stall */`, format: 'RowBinaryWithNamesAndTypes', queryId: 'q-stall', sessionId: 's-stall' });
  await assert.rejects(readAll(r), ChwireTimeoutError);
  // The server would go on running it: the transport asks it to stop, outside the session.
  assert.deepEqual(await killRequestFor('q-stall'), { sql: "KILL QUERY WHERE query_id = 'q-stall' ASYNC", sessionId: null });
  await t.close();
});

test('a request body that keeps streaming is progress: it outlives requestTimeout; a body that stalls does not', async () => {
  const piece = Buffer.from('{"n":1}\n');
  const slow = (gaps: number[]) => async function* (): AsyncGenerator<Uint8Array> {
    for (const ms of gaps) { await new Promise((r) => setTimeout(r, ms)); yield piece; }
  };
  const t = transport({ requestTimeout: 400 });
  // Six chunks 150 ms apart: 900 ms in all, never 400 ms without a byte.
  await readAll(await t.request({ sql: 'SELECT 1 /* slow-body */', format: 'TabSeparated', body: slow([150, 150, 150, 150, 150, 150])() }));
  assert.equal(server.requests.find((q) => q.sql.includes('/* slow-body */'))?.body.length, 6 * piece.length);
  // One gap longer than the timeout.
  await assert.rejects(t.request({ sql: 'SELECT 1 /* stalled-body */', format: 'TabSeparated', body: slow([50, 700, 50])() }), ChwireTimeoutError);
  await t.close();
});

test('aborting mid-body is a ChwireAbortError, frees the connection and kills the query', async () => {
  server.fault('/* abort */', { kind: 'stall', at: 100 });
  const t = transport({ maxOpenConnections: 1 });
  const ac = new AbortController();
  const r = await t.request({ sql: `${ROWS} /* abort */`, format: 'RowBinaryWithNamesAndTypes', signal: ac.signal, queryId: "q-ab'ort" });
  setTimeout(() => ac.abort(), 50);
  await assert.rejects(readAll(r), ChwireAbortError);
  // With a pool of one, this only runs if the aborted request released its slot.
  const { bytes } = await readAll(await t.request({ sql: 'SELECT 1', format: 'TabSeparated' }));
  assert.equal(bytes.toString(), '1\n');
  // The id is quoted as a string literal, whatever it holds.
  assert.equal((await killRequestFor("q-ab\\'ort"))?.sql, "KILL QUERY WHERE query_id = 'q-ab\\'ort' ASYNC");
  await t.close();
});

test('an already aborted signal never sends the request', async () => {
  const t = transport();
  const ac = new AbortController();
  ac.abort();
  const before = server.requests.length;
  await assert.rejects(t.request({ sql: 'SELECT 1', format: 'TabSeparated', signal: ac.signal }), ChwireAbortError);
  assert.equal(server.requests.length, before);
  await t.close();
});

test('leaving the body early cancels the request and releases the socket', async () => {
  const t = transport({ maxOpenConnections: 1 });
  const r = await t.request({ sql: 'SELECT number FROM numbers(2000000) /* early */', format: 'RowBinaryWithNamesAndTypes' });
  for await (const _ of r.body) break;
  const { bytes } = await readAll(await t.request({ sql: 'SELECT 2', format: 'TabSeparated' }));
  assert.equal(bytes.toString(), '2\n');
  await t.close();
});

test('keep-alive: many sequential queries use one connection', async () => {
  const s = await startTestServer();
  const t = new HttpTransport({ urls: [new URL(s.url)], username: 'default', password: '', requestTimeout: 5000, maxOpenConnections: 4, keepAlive: true, idleSocketTtl: 2500, compression: false });
  for (let i = 0; i < 20; i++) await readAll(await t.request({ sql: `SELECT ${i}`, format: 'TabSeparated' }));
  assert.equal(s.connections, 1);
  await t.close();
  await s.close();
});

test('a stale keep-alive socket is retried once for reads, never for writes', async () => {
  const s = await startTestServer();
  const t = new HttpTransport({ urls: [new URL(s.url)], username: 'default', password: '', requestTimeout: 5000, maxOpenConnections: 1, keepAlive: true, idleSocketTtl: 2500, compression: false });
  await readAll(await t.request({ sql: 'SELECT 1', format: 'TabSeparated', idempotent: true }));
  s.dropNextReusedRequest();
  const { bytes } = await readAll(await t.request({ sql: 'SELECT 7', format: 'TabSeparated', idempotent: true }));
  assert.equal(bytes.toString(), '7\n');
  assert.equal(s.dropped, 1);
  assert.equal(s.connections, 2);
  s.dropNextReusedRequest();
  await assert.rejects(t.request({ sql: 'SELECT 8', idempotent: false }), ChwireConnectionError);
  assert.equal(s.dropped, 2);
  await t.close();
  await s.close();
});

test("idle sockets are dropped before the server's announced keep-alive timeout", async () => {
  const s = await startTestServer({ keepAliveTimeout: 2 });
  const t = new HttpTransport({ urls: [new URL(s.url)], username: 'default', password: '', requestTimeout: 5000, maxOpenConnections: 1, keepAlive: true, idleSocketTtl: 10_000, compression: false });
  await readAll(await t.request({ sql: 'SELECT 1', format: 'TabSeparated' }));
  await readAll(await t.request({ sql: 'SELECT 1', format: 'TabSeparated' }));
  assert.equal(s.connections, 1);
  // Announced 2 s: the client keeps the socket at most 1 s, the server would wait 2 s.
  await new Promise((r) => setTimeout(r, 1300));
  await readAll(await t.request({ sql: 'SELECT 1', format: 'TabSeparated' }));
  assert.equal(s.connections, 2);
  await t.close();
  await s.close();
});

test('an error before the body is a ChwireServerError with code, name, status and query id', async () => {
  const t = transport();
  const e = await t.request({ sql: 'SELECT * FROM no_such_table', format: 'RowBinaryWithNamesAndTypes', queryId: 'q-unknown' }).then(() => undefined, (x: unknown) => x);
  assert.ok(e instanceof ChwireServerError);
  assert.equal(e.serverCode, 60);
  assert.equal(e.serverName, 'UNKNOWN_TABLE');
  assert.equal(e.status, 404);
  assert.equal(e.queryId, 'q-unknown');
  assert.match(e.serverMessage, /^Code: 60\. DB::Exception: .*no_such_table/);
  await t.close();
});

test('wrong credentials: ChwireServerError 516, and the password appears nowhere in it', async () => {
  const t = transport({ password: 'wrong-password' });
  const e = await t.request({ sql: 'SELECT 1', format: 'TabSeparated' }).then(() => undefined, (x: unknown) => x);
  assert.ok(e instanceof ChwireServerError);
  assert.equal(e.serverCode, 516);
  assert.equal(e.status, 403);
  assert.ok(!JSON.stringify({ m: e.message, s: e.stack }).includes('wrong-password'));
  await t.close();
});

test('an unreachable server is a ChwireConnectionError naming host and port only', async () => {
  const t = new HttpTransport({ urls: [new URL('http://127.0.0.1:1')], username: 'u', password: 'pw-not-shown', requestTimeout: 2000, maxOpenConnections: 1, keepAlive: true, idleSocketTtl: 1000, compression: false });
  const e = await t.request({ sql: 'SELECT 1' }).then(() => undefined, (x: unknown) => x);
  assert.ok(e instanceof ChwireConnectionError);
  assert.match(e.message, /127\.0\.0\.1:1/);
  assert.ok(!e.message.includes('pw-not-shown'));
  await t.close();
});

test('failover: a refused first host sends reads to the next one', async () => {
  const t = new HttpTransport({ urls: [new URL('http://127.0.0.1:1'), new URL(server.url)], username: 'alice', password: 's3cret', requestTimeout: 2000, maxOpenConnections: 1, keepAlive: true, idleSocketTtl: 1000, compression: false });
  const { bytes } = await readAll(await t.request({ sql: 'SELECT 3', format: 'TabSeparated', idempotent: true }));
  assert.equal(bytes.toString(), '3\n');
  await t.close();
});

test('server() probes the version once and ping() checks /ping', async () => {
  const t = transport();
  const before = server.requests.filter((q) => /version\(\)/.test(q.sql)).length;
  const a = await t.server();
  const b = await t.server();
  assert.equal(a.version, '26.7.2.1');
  assert.equal(a.major, 26);
  assert.equal(b, a);
  assert.equal(server.requests.filter((q) => /version\(\)/.test(q.sql)).length - before, 1);
  await t.ping();
  await t.close();
  // Behind a proxy path, ping goes under that path like every query does.
  const p = transport({ urls: [new URL(`${server.url}/behind/proxy/`)] });
  await p.ping();
  assert.equal(server.requests.at(-1)?.url, '/behind/proxy/ping');
  await p.close();
});

test('a pooled socket idle past its limit is discarded even when a blocked event loop delayed its timer', async () => {
  const s = await startTestServer({ keepAliveTimeout: 2 });
  const t = new HttpTransport({ urls: [new URL(s.url)], username: 'default', password: '', requestTimeout: 5000, maxOpenConnections: 1, keepAlive: true, idleSocketTtl: 10_000, compression: false });
  await readAll(await t.request({ sql: 'SELECT 1', format: 'TabSeparated' }));
  // Block the event loop past the 1 s limit (server announced 2 s): the idle timer cannot run.
  const until = Date.now() + 1200;
  while (Date.now() < until) { /* busy */ }
  const { bytes } = await readAll(await t.request({ sql: 'SELECT 4', idempotent: false }));
  assert.equal(bytes.toString(), '4\n');
  assert.equal(s.connections, 2, 'the old socket was not reused for a write');
  await t.close();
  await s.close();
});
