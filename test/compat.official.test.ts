// chwire/compat where the official client's own suites (scripts/official-suites.ts) found it
// apart from @clickhouse/client 1.x: each case runs with both clients, against the real 18.16
// server (CHWIRE_TEST_HTTP_URL) or a hostile loopback server, and asserts the same outcome.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import * as official from '@clickhouse/client';
import * as compat from '../src/compat.js';
import { REAL_URL, SKIP_REAL } from './support/ch-server.js';
import { startTestServer } from './support/test-server.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyClient = any;
const OFF = { log: { level: official.ClickHouseLogLevel.OFF } };
const CLIENTS: [string, (o: Record<string, unknown>) => AnyClient][] = [
  ['official', (o) => official.createClient({ ...OFF, ...o })],
  ['compat', (o) => compat.createClient({ ...OFF, ...o } as never)],
];

/** Runs `run` with a fresh client of each kind; returns [official's result, compat's]. */
async function both<R>(opts: Record<string, unknown>, run: (c: AnyClient) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (const [, make] of CLIENTS) {
    const c = make(opts);
    try { out.push(await run(c)); } finally { await c.close(); }
  }
  return out;
}

async function rejection(p: Promise<unknown>): Promise<{ name: string; message: string; code: unknown }> {
  try {
    await p;
  } catch (e) {
    const err = e as { name: string; message: string; code?: unknown };
    return { name: err.name, message: err.message, code: err.code };
  }
  assert.fail('expected a rejection');
}

async function text(s: Readable): Promise<string> {
  let out = '';
  for await (const c of s) out += (c as Buffer).toString('utf8');
  return out;
}

/** A raw TCP server answering every connection with `answer(socket)`. */
async function tcpServer(answer: (s: net.Socket) => void): Promise<{ url: string; close(): void }> {
  const sockets = new Set<net.Socket>();
  const s = net.createServer((sock) => { sockets.add(sock); sock.on('error', () => undefined); sock.once('data', () => answer(sock)); });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, close: () => { s.close(); for (const k of sockets) k.destroy(); } };
}

const real = { url: REAL_URL };

test('runtime exports: every value of the official module that the suites use exists in chwire/compat, of the same kind', () => {
  const names = ['ClickHouseClient', 'createClient', 'ClickHouseError', 'parseError', 'ClickHouseLogLevel', 'SettingsMap', 'TupleParam', 'ResultSet',
    'drainStream', 'isRow', 'isProgressRow', 'isException', 'defaultJSONHandling', 'SupportedJSONFormats', 'SupportedRawFormats',
    'StreamableFormats', 'StreamableJSONFormats', 'SingleDocumentJSONFormats', 'RecordsJSONFormats'] as const;
  for (const n of names) {
    assert.equal(typeof (compat as Record<string, unknown>)[n], typeof (official as Record<string, unknown>)[n], n);
  }
  for (const n of ['SupportedJSONFormats', 'SupportedRawFormats', 'StreamableFormats', 'StreamableJSONFormats', 'SingleDocumentJSONFormats', 'RecordsJSONFormats'] as const) {
    assert.deepEqual([...compat[n]], [...official[n]], n);
  }
  assert.equal(typeof compat.ResultSet.instance, 'function');
  assert.equal(typeof compat.default.createClient, 'function');
  const c = new compat.ClickHouseClient({ url: 'http://127.0.0.1:1' });
  assert.ok(c instanceof compat.ClickHouseClient);
  assert.ok(compat.createClient({ url: 'http://127.0.0.1:1' }) instanceof compat.ClickHouseClient);
  void c.close();
  for (const row of [{ row: 1 }, { progress: {} }, { exception: 'x' }, { row: 1, extra: 2 }, null, 'row']) {
    assert.deepEqual([compat.isRow(row), compat.isProgressRow(row), compat.isException(row)], [official.isRow(row), official.isProgressRow(row), official.isException(row)]);
  }
  const m = { a: 'b', c: 'd' };
  assert.equal(String(compat.SettingsMap.from(m)), String(official.SettingsMap.from(m)));
  const text = 'Code: 60. DB::Exception: Table default.x does not exist. (UNKNOWN_TABLE) (version 24.3.1.1)\n';
  const [o, p] = [official.parseError(text), compat.parseError(text)] as { code?: string; type?: string; message: string }[];
  assert.deepEqual([p!.code, p!.type, p!.message, p instanceof compat.ClickHouseError], [o!.code, o!.type, o!.message, true]);
});

test('types as the official: ResultSet.json<T>() of JSONEachRow is T[], ResponseJSON, ClickHouseClient<Stream>, BaseClickHouseClientConfigOptions', { skip: SKIP_REAL }, async () => {
  // The official names the dependents type with: the generic client type and the base options.
  const options: compat.BaseClickHouseClientConfigOptions = { ...real, ...OFF };
  const c: compat.ClickHouseClient<Readable> = compat.createClient(options);
  try {
    const rs = await c.query({ query: 'SELECT 1 AS n', format: 'JSONEachRow' });
    const rows: { n: number }[] = await rs.json<{ n: number }>();
    assert.deepEqual(rows, [{ n: 1 }]);
    const doc: compat.ResponseJSON<{ n: number }> = await (await c.query({ query: 'SELECT 1 AS n', format: 'JSON' })).json<{ n: number }>();
    assert.deepEqual(doc.data, [{ n: 1 }]);
  } finally {
    await c.close();
  }
});

test('http_agent with keep_alive disabled (PostHog\'s configuration) is accepted and queries', { skip: SKIP_REAL }, async () => {
  const agent = new http.Agent({ keepAlive: true });
  const out = await both({ ...real, http_agent: agent, keep_alive: { enabled: false }, max_open_connections: 4 }, async (c) => (await c.query({ query: 'SELECT 1 AS n', format: 'JSONEachRow' })).json());
  agent.destroy();
  assert.deepEqual(out[1], out[0]);
  assert.deepEqual(out[0], [{ n: 1 }]);
});

test('ping() reports failure when the /ping response is cut short', async () => {
  const s = await tcpServer((sock) => { sock.end('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\npartial body'); });
  try {
    const out = await both({ url: s.url }, async (c) => {
      const r = await c.ping();
      return { success: r.success, aborted: r.success ? undefined : /aborted/i.test(String(r.error)) };
    });
    assert.deepEqual(out[1], out[0]);
    assert.deepEqual(out[0], { success: false, aborted: true });
  } finally {
    s.close();
  }
});

test('ignore_error_response: command() and exec() hand the error answer back instead of throwing', { skip: SKIP_REAL }, async () => {
  const out = await both(real, async (c) => {
    const cmd = await c.command({ query: 'SELECT * FROM no_such_table_chwire', ignore_error_response: true });
    const ex = await c.exec({ query: 'SELECT * FROM no_such_table_chwire', ignore_error_response: true });
    return { command: Object.keys(cmd).includes('query_id'), exec: ex.http_status_code, body: /no_such_table_chwire/.test(await text(ex.stream)) };
  });
  assert.deepEqual(out[1], out[0]);
  assert.equal(out[0]!.body, true);
});

test('a call aborted right after it is made rejects with name AbortError', { skip: SKIP_REAL }, async () => {
  const out = await both(real, async (c) => {
    const ac = new AbortController();
    const p = c.query({ query: 'SELECT sleep(1)', format: 'CSV', abort_signal: ac.signal });
    ac.abort();
    return (await rejection(p)).name;
  });
  assert.deepEqual(out, ['AbortError', 'AbortError']);
});

test('a connection reset surfaces with the system code, and an oversized header with HPE_HEADER_OVERFLOW', async () => {
  const reset = await tcpServer((sock) => sock.resetAndDestroy());
  const big = await tcpServer((sock) => sock.end(`HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(20_000)}\r\nContent-Length: 0\r\n\r\n`));
  try {
    const codes = await both({ url: reset.url }, async (c) => (await rejection(c.command({ query: 'SELECT 1' }))).code);
    assert.deepEqual(codes, ['ECONNRESET', 'ECONNRESET']);
    const headers = await both({ url: big.url, max_response_headers_size: 1024 }, async (c) => (await rejection(c.command({ query: 'SELECT 1' }))).code);
    assert.deepEqual(headers, ['HPE_HEADER_OVERFLOW', 'HPE_HEADER_OVERFLOW']);
  } finally {
    reset.close();
    big.close();
  }
});

test('result set errors carry the official texts', { skip: SKIP_REAL }, async () => {
  const out = await both(real, async (c) => {
    const rs = await c.query({ query: 'SELECT 1', format: 'JSONEachRow' });
    await rs.text();
    const again = await rejection(rs.text());
    const doc = await c.query({ query: 'SELECT 1', format: 'JSON' });
    let streamed: string | undefined;
    try { doc.stream(); } catch (e) { streamed = (e as Error).message; }
    doc.close();
    const csv = await c.query({ query: 'SELECT 1', format: 'CSV' });
    const json = await rejection(csv.json());
    return { again: again.message, streamed, json: json.message };
  });
  assert.deepEqual(out[1], out[0]);
  assert.equal(out[0]!.again, 'Stream has been already consumed');
});

test('per-call auth, exec({ values }) and query_params with undefined are taken as the official client takes them', { skip: SKIP_REAL }, async () => {
  const table = `compat_exec_values_${process.pid}_${Date.now() % 100000}`;
  const out = await both(real, async (c) => {
    const who = await (await c.query({ query: 'SELECT 1 AS u', format: 'JSONEachRow', auth: { username: 'default', password: '' } })).json();
    const wrong = await rejection(c.query({ query: 'SELECT 1', auth: { username: 'default', password: 'not-the-password' } }));
    await c.command({ query: `CREATE TABLE ${table} (n UInt8) ENGINE = Memory` });
    try {
      const r = await c.exec({ query: `INSERT INTO ${table} FORMAT CSV`, values: Readable.from(['1\n2\n']) });
      await text(r.stream);
      const rows = await (await c.query({ query: `SELECT n FROM ${table} ORDER BY n`, format: 'JSONEachRow' })).json();
      // 18.16 has no query parameters: both clients send param_n=\N and get the server's refusal.
      const params = await rejection(c.query({ query: 'SELECT {n:Nullable(UInt8)} AS n', query_params: { n: undefined } }));
      return { who, wrong: /Code: 193|password/i.test(wrong.message), rows, params: params.message };
    } finally {
      await c.command({ query: `DROP TABLE IF EXISTS ${table}` });
    }
  });
  assert.deepEqual(out[1], out[0]);
  assert.deepEqual(out[0]!.rows, [{ n: 1 }, { n: 2 }]);
});

test('no request the official client does not make: no SELECT version() before a query (by default; with json_fast_path: true, one probe per client beside the first query)', async () => {
  const server = await startTestServer();
  try {
    const c = compat.createClient({ url: server.url, ...OFF });
    await (await c.query({ query: 'SELECT 1 AS n', format: 'JSONEachRow' })).json();
    await c.close();
    assert.deepEqual(server.requests.map((r) => r.sql.trim()), ['SELECT 1 AS n \nFORMAT JSONEachRow']);
    // With the JSON fast path (opted in): the first query goes as JSON while one probe of the
    // server per client runs beside it; once it answered, queries go in binary (docs/migrating.md).
    server.requests.length = 0;
    const fast = compat.createClient({ url: server.url, ...OFF, json_fast_path: true });
    const isProbe = (sql: string): boolean => /^SELECT version\(\) AS v, timezone\(\) AS z, .* FROM system\.settings WHERE changed OR name IN/.test(sql);
    const binary = 'SELECT 1 AS n \nFORMAT RowBinaryWithNamesAndTypes';
    for (let i = 0; i < 100 && !server.requests.some((r) => r.sql.trim() === binary); i++) {
      await (await fast.query({ query: 'SELECT 1 AS n', format: 'JSONEachRow' })).json();
      await new Promise((r) => setTimeout(r, 20));
    }
    await fast.close();
    const sent = server.requests.map((r) => r.sql.trim());
    assert.equal(sent.filter(isProbe).length, 1);
    const queries = sent.filter((q) => !isProbe(q));
    assert.equal(queries[0], 'SELECT 1 AS n \nFORMAT JSONEachRow');
    assert.equal(queries.at(-1), binary);
  } finally {
    await server.close();
  }
});

test('a failed call is written to the console by default (no LoggerClass), as the official client does', { skip: SKIP_REAL }, async () => {
  const seen: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => { seen.push(args.map(String).join(' ')); };
  try {
    for (const [who, make] of [['official', official.createClient], ['compat', compat.createClient]] as const) {
      const before = seen.length;
      const c = (make as (o: object) => AnyClient)({ url: REAL_URL });
      await rejection(c.query({ query: 'SELECT * FROM no_such_table_chwire_log' }));
      await c.close();
      assert.ok(seen.length > before, `${who} wrote nothing to console.error`);
      assert.ok(seen.slice(before).some((l) => l.includes('no_such_table_chwire_log')), `${who}: the line names the error`);
    }
  } finally {
    console.error = original;
  }
});
after(() => undefined);

test('the failure log line withholds a server message that may quote inserted values (the thrown error keeps it)', { skip: SKIP_REAL }, async () => {
  const secret = 'secret_value_7f3a';
  const logged: string[] = [];
  class Capture {
    trace(): void {} debug(): void {} info(): void {} warn(): void {}
    error(p: { message: string; err: Error; args?: unknown }): void { logged.push(`${p.message} ${p.err.message} ${JSON.stringify(p.args)}`); }
  }
  const table = `compat_log_${process.pid}_${Date.now() % 100000}`;
  const c = compat.createClient({ url: REAL_URL, log: { LoggerClass: Capture as never } });
  try {
    await c.command({ query: `CREATE TABLE ${table} (n UInt8) ENGINE = Memory` });
    const thrown = await rejection(c.insert({ table, values: [{ n: secret }], format: 'JSONEachRow' }));
    assert.ok(thrown.message.includes(secret), 'the server quotes the value (else this test proves nothing)');
    assert.equal(logged.length, 1);
    assert.ok(!logged[0]!.includes(secret), logged[0]);
  } finally {
    await c.command({ query: `DROP TABLE IF EXISTS ${table}` });
    await c.close();
  }
});

test('calls to a server that never answers end as the official Timeout error., each of them, concurrent or later', async () => {
  const held = new Set<http.ServerResponse>();
  const s = http.createServer((_req, res) => { held.add(res); });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  try {
    const out = await both({ url, request_timeout: 150, max_open_connections: 2 }, async (c) => {
      const first = await Promise.all([1, 2, 3, 4].map(() => rejection(c.query({ query: 'SELECT 1' })).then((e) => e.message)));
      const later = (await rejection(c.command({ query: 'SELECT 1' }))).message;
      return [...first, later];
    });
    assert.deepEqual(out[1], out[0]);
    assert.deepEqual(out[0], Array(5).fill('Timeout error.'));
  } finally {
    for (const r of held) r.destroy();
    s.close();
  }
});

test('exec({ decompress_response_stream: false }) with response compression: the server\'s gzip bytes and headers as the official client hands them; an error still thrown decompressed', { skip: SKIP_REAL }, async () => {
  const gz = { url: REAL_URL, compression: { response: true } };
  const out = await both(gz, async (c) => {
    const r = await c.exec({ query: 'SELECT 42 AS result FORMAT JSONEachRow', decompress_response_stream: false });
    const parts: Buffer[] = [];
    for await (const p of r.stream as Readable) parts.push(p as Buffer);
    const bytes = Buffer.concat(parts);
    const failed = await rejection(c.exec({ query: 'invalid', decompress_response_stream: false }));
    return { bytes: bytes.toString('hex'), text: zlib.gunzipSync(bytes).toString(), encoding: r.response_headers['content-encoding'], status: r.http_status_code, error: /Syntax error/.test(failed.message) };
  });
  assert.deepEqual(out[1], out[0]);
  assert.equal(out[0]!.text, '{"result":42}\n');
  assert.equal(out[0]!.error, true);
});

test('exec({ ignore_error_response, decompress_response_stream: false }): the error answer still compressed, its status and headers, as the official client hands them', { skip: SKIP_REAL }, async () => {
  const gz = { url: REAL_URL, compression: { response: true } };
  const out = await both(gz, async (c) => {
    const r = await c.exec({ query: 'invalid', decompress_response_stream: false, ignore_error_response: true });
    const parts: Buffer[] = [];
    for await (const p of r.stream as Readable) parts.push(p as Buffer);
    const h = r.response_headers;
    return { text: zlib.gunzipSync(Buffer.concat(parts)).toString(), status: r.http_status_code, encoding: h['content-encoding'], code: h['x-clickhouse-exception-code'] };
  });
  assert.deepEqual(out[1], out[0]);
  assert.match(out[0]!.text, /Syntax error/);
});

test('an error answer whose gzip body is malformed rejects with zlib\'s Z_DATA_ERROR, as the official client does', async () => {
  const s = http.createServer((_req, res) => { res.appendHeader('Content-Encoding', 'gzip'); res.statusCode = 500; res.end('A malformed response without compression'); });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
    const out = await both({ url, compression: { response: true } }, async (c) => {
      const e = await rejection(c.query({ query: 'SELECT 1', format: 'JSONEachRow' }));
      return { code: e.code, message: e.message, isError: true };
    });
    assert.deepEqual(out[1], out[0]);
    assert.equal(out[0]!.code, 'Z_DATA_ERROR');
  } finally {
    s.close();
  }
});

test('clickhouse_settings.default_format is sent as the request\'s default_format parameter (chwire refuses it as a setting), as the official client sends it', { skip: SKIP_REAL }, async () => {
  const out = await both(real, async (c) => {
    const r = await c.exec({ query: 'SELECT number FROM system.numbers LIMIT 2', clickhouse_settings: { default_format: 'JSONEachRow' } });
    // The SQL's own FORMAT clause still wins, as on the server.
    const q = await c.exec({ query: 'SELECT 1 AS x FORMAT CSV', clickhouse_settings: { default_format: 'JSONEachRow' } });
    return [await text(r.stream), await text(q.stream)];
  });
  assert.deepEqual(out[1], out[0]);
  assert.deepEqual(out[0], ['{"number":"0"}\n{"number":"1"}\n', '1\n']);
});
