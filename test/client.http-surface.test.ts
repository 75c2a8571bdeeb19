// The request surface over real HTTP against the loopback test server: access tokens, roles, extra
// headers, each compression codec both ways, a forward proxy (absolute form and CONNECT + TLS) and
// an agent of the user's own; what the embedded engine does with each option; validation.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createClient, ChwireConfigError, ChwireConnectionError, ChwireServerError } from '../src/index.js';
import { createNativeDecoder } from '../src/codec.js';
import { engineExec } from './support/engine.js';
import { startTestServer } from './support/test-server.js';
import { startForwardProxy } from './support/forward-proxy.js';
import { zstdInNode } from './support/test-server-codecs.js';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0.c2lnbmF0dXJl';
const server = await startTestServer({ token: TOKEN });
const plain = await startTestServer();
const old = await startTestServer({ version: '18.16.1' });
const dir = fileURLToPath(new URL('../../test/fixtures/tls/', import.meta.url));
const pem = (name: string): string => readFileSync(`${dir}${name}`, 'utf8');
const ca = pem('ca.crt');
const secure = await startTestServer({ tls: { key: pem('server.key'), cert: pem('server.crt') } });
after(async () => { await server.close(); await plain.close(); await old.close(); await secure.close(); });

const SQL = 'SELECT number AS n, toString(number * 7) AS s FROM numbers(3000)';
const NO_ZSTD = zstdInNode() ? false : `node:zlib has no zstd in Node ${process.versions.node} (22.15+ / 23.8+)`;

test('accessToken (string): Authorization: Bearer alone, no X-ClickHouse-User/Key; rows arrive', async () => {
  const c = createClient({ url: server.url, accessToken: TOKEN });
  const rows = await c.fetch<{ n: bigint; s: string }>(`${SQL} /* tok-str */`);
  assert.equal(rows.length, 3000);
  assert.deepEqual(rows[2999], { n: 2999n, s: String(2999 * 7) });
  const req = server.requests.find((r) => r.sql.includes('tok-str'))!;
  assert.equal(req.headers['authorization'], `Bearer ${TOKEN}`);
  assert.equal(req.headers['x-clickhouse-user'], undefined);
  assert.equal(req.headers['x-clickhouse-key'], undefined);
  await c.close();
  // Without the token the same server refuses: the header is what let the query in.
  const anon = createClient({ url: server.url });
  await assert.rejects(anon.fetch('SELECT 1'), (e: unknown) => e instanceof ChwireServerError && e.serverCode === 516);
  await anon.close();
});

test('accessToken (function): asked before every request, async allowed; rotation takes effect at once', async () => {
  let calls = 0;
  let current = 'stale.token';
  const c = createClient({ url: server.url, accessToken: async () => { calls++; await new Promise((r) => setTimeout(r, 1)); return current; } });
  await assert.rejects(c.fetch('SELECT 1 AS x /* tok-fn-stale */'), (e: unknown) => e instanceof ChwireServerError && e.serverCode === 516 && !e.message.includes('stale.token'));
  current = TOKEN;
  const before = server.requests.length;
  const callsBefore = calls;
  for (let i = 0; i < 3; i++) assert.equal(await c.fetchValue(`SELECT ${i} AS x /* tok-fn */`), i);
  assert.equal(calls - callsBefore, server.requests.length - before, 'one call of the function per request');
  assert.ok(server.requests.slice(before).every((r) => r.headers['authorization'] === `Bearer ${TOKEN}`));
  await c.close();
});

test('accessToken function that throws or returns junk: ChwireConfigError (with the cause), nothing sent, token never quoted', async () => {
  const boom = new Error('identity provider down');
  const before = server.requests.length;
  const c = createClient({ url: server.url, accessToken: () => { throw boom; } });
  await assert.rejects(c.fetch('SELECT 1'), (e: unknown) => e instanceof ChwireConfigError && e.cause === boom && /accessToken function failed/.test(e.message));
  await c.close();
  assert.equal(server.requests.length, before, 'no request without a token');
  for (const bad of [undefined, 42, '', 'has space', `${TOKEN}\r\nX-Evil: 1`]) {
    const b = createClient({ url: server.url, accessToken: () => bad as string });
    await assert.rejects(b.fetch('SELECT 1'), (e: unknown) => e instanceof ChwireConfigError && (typeof bad !== 'string' || bad === '' || !e.message.includes(bad)));
    await b.close();
  }
  assert.equal(server.requests.length, before);
});

test('accessToken is exclusive with password and username, in options or in the URL; ill-typed is refused', () => {
  const only = (re: RegExp) => (e: unknown) => e instanceof ChwireConfigError && re.test(e.message) && !e.message.includes(TOKEN);
  assert.throws(() => createClient({ url: server.url, accessToken: TOKEN, password: 'pw' }), only(/accessToken and password/));
  assert.throws(() => createClient({ url: server.url.replace('http://', 'http://u:pw@'), accessToken: TOKEN }), only(/accessToken and password/));
  assert.throws(() => createClient({ url: server.url, accessToken: TOKEN, username: 'bob' }), only(/accessToken and username/));
  assert.throws(() => createClient({ url: server.url.replace('http://', 'http://bob@'), accessToken: TOKEN }), only(/accessToken and username/));
  assert.throws(() => createClient({ url: server.url, accessToken: 5 as never }), only(/accessToken must be/));
  assert.throws(() => createClient({ url: server.url, accessToken: 'two words' }), (e: unknown) => e instanceof ChwireConfigError && !e.message.includes('two words'));
});

test('role: one role URL parameter per role; a call\'s role replaces the client\'s; [] sends none; inserts too', async () => {
  const c = createClient({ url: plain.url, role: ['analyst', 'reader'] });
  const roles = (marker: string): string[] => plain.requests.find((r) => r.sql.includes(marker))!.params.getAll('role');
  await c.fetch('SELECT 1 AS x /* role-client */');
  assert.deepEqual(roles('role-client'), ['analyst', 'reader']);
  await c.fetch('SELECT 1 AS x /* role-call */', { role: 'admin' });
  assert.deepEqual(roles('role-call'), ['admin']);
  await c.execute('SELECT 1 /* role-none */', { role: [] });
  assert.deepEqual(roles('role-none'), []);
  await c.fetchColumns('SELECT 1 AS x /* role-cols */', { role: ['a b', 'c&d=e'] });
  assert.deepEqual(roles('role-cols'), ['a b', 'c&d=e'], 'names are URL-encoded, not spliced');
  for await (const _ of c.streamRaw('SELECT 1 /* role-raw */', { format: 'TSV' })) { /* drain */ }
  assert.deepEqual(roles('role-raw'), ['analyst', 'reader']);
  await c.insert('role_t', [Buffer.from('{"x":1}\n')], { format: 'JSONEachRow', role: 'writer' });
  assert.deepEqual(plain.requests.filter((r) => r.sql.includes('role_t')).at(-1)!.params.getAll('role'), ['writer']);
  // The version probe carries no role (it must work before the version is known).
  assert.deepEqual(plain.requests.find((r) => r.sql === 'SELECT version(), timezone()')!.params.getAll('role'), []);
  await assert.rejects(c.fetch('SELECT 1', { role: [''] }), ChwireConfigError);
  await assert.rejects(c.fetch('SELECT 1', { role: 5 as never }), ChwireConfigError);
  await c.close();
  assert.throws(() => createClient({ url: plain.url, role: [1] as never }), ChwireConfigError);
});

test('role on a server older than 24.4: ChwireConfigError before anything is sent, like query parameters', async () => {
  const c = createClient({ url: old.url, role: 'analyst' });
  const before = old.requests.length;
  await assert.rejects(c.fetch('SELECT 1 /* old-role */'), (e: unknown) => e instanceof ChwireConfigError && /24\.4/.test(e.message) && /18\.16/.test(e.message));
  assert.equal(old.requests.filter((r) => r.sql.includes('old-role')).length, 0);
  // Per call on a client without a default role: the same.
  const d = createClient({ url: old.url });
  await assert.rejects(d.execute('SELECT 1', { role: ['x'] }), ChwireConfigError);
  assert.equal(await d.fetchValue('SELECT 5 AS x'), 5, 'without a role the old server still works');
  assert.ok(old.requests.length > before);
  await c.close();
  await d.close();
});

test('httpHeaders: client and per call, merged case-insensitively (per call wins), on every request', async () => {
  const c = createClient({ url: plain.url, httpHeaders: { 'X-Tenant': 'acme', 'X-Trace': 'client' } });
  await c.fetch('SELECT 1 AS x /* hdr-1 */', { httpHeaders: { 'x-trace': 'call', 'X-Extra': 'e' } });
  const h = plain.requests.find((r) => r.sql.includes('hdr-1'))!.headers;
  assert.equal(h['x-tenant'], 'acme');
  assert.equal(h['x-trace'], 'call');
  assert.equal(h['x-extra'], 'e');
  await c.insert('hdr_t', [Buffer.from('{"x":1}\n')], { format: 'JSONEachRow', httpHeaders: { 'X-Insert': 'yes' } });
  const ins = plain.requests.filter((r) => r.sql.includes('hdr_t')).at(-1)!.headers;
  assert.equal(ins['x-insert'], 'yes');
  assert.equal(ins['x-tenant'], 'acme');
  await c.ping();
  assert.equal(plain.requests.at(-1)!.headers['x-tenant'], 'acme', 'ping carries the client\'s headers');
  await c.close();
});

test('httpHeaders: headers the client owns are refused (any case); names and values validated, values never quoted', async () => {
  for (const name of ['Authorization', 'x-clickhouse-user', 'X-ClickHouse-Key', 'CONTENT-ENCODING', 'Accept-Encoding', 'Content-Type', 'Transfer-Encoding', 'Connection', 'Host', 'Content-Length', 'Proxy-Authorization']) {
    assert.throws(() => createClient({ url: plain.url, httpHeaders: { [name]: 'v' } }), (e: unknown) => e instanceof ChwireConfigError && e.message.includes(name), name);
  }
  const secret = 'top-secret-value';
  for (const v of [`${secret}\r\nX-Injected: 1`, `${secret}\n`, `${secret}\0`, `${secret}\u2028`]) {
    assert.throws(() => createClient({ url: plain.url, httpHeaders: { 'X-Api-Key': v } }), (e: unknown) => e instanceof ChwireConfigError && /X-Api-Key/.test(e.message) && !e.message.includes(secret));
  }
  assert.throws(() => createClient({ url: plain.url, httpHeaders: { 'bad name': 'v' } }), ChwireConfigError);
  assert.throws(() => createClient({ url: plain.url, httpHeaders: { 'X-A': 1 as never } }), ChwireConfigError);
  assert.throws(() => createClient({ url: plain.url, httpHeaders: { 'X-A': 'a', 'x-a': 'b' } }), ChwireConfigError);
  assert.throws(() => createClient({ url: plain.url, httpHeaders: 'X-A: 1' as never }), ChwireConfigError);
  const c = createClient({ url: plain.url });
  await assert.rejects(c.fetch('SELECT 1', { httpHeaders: { authorization: 'Bearer x' } }), ChwireConfigError);
  await assert.rejects(c.fetch('SELECT 1', { httpHeaders: { 'X-A': `${secret}\r\n` } }), (e: unknown) => e instanceof ChwireConfigError && !e.message.includes(secret));
  await c.close();
});

for (const codec of ['gzip', 'deflate', 'br', 'zstd'] as const) {
  test(`compression ${codec}: responses decoded as a stream, insert bodies compressed; equal rows and bytes`, { skip: codec === 'zstd' ? NO_ZSTD : false }, async () => {
    const c = createClient({ url: plain.url, compression: { response: codec, request: codec } });
    const rows = await c.fetch<{ n: bigint; s: string }>(`${SQL} /* codec-${codec} */`);
    assert.equal(rows.length, 3000);
    assert.deepEqual(rows[1234], { n: 1234n, s: String(1234 * 7) });
    const req = plain.requests.find((r) => r.sql.includes(`codec-${codec}`))!;
    assert.equal(req.headers['accept-encoding'], codec, 'exactly the one codec we decode');
    assert.equal(req.params.get('enable_http_compression'), '1');
    // A big streamed read through the decompressor (several chunks).
    let n = 0;
    for await (const _ of c.stream(`SELECT number AS n FROM numbers(200000) /* codec-stream-${codec} */`)) n++;
    assert.equal(n, 200_000);
    // A server error body is compressed too and still read.
    await assert.rejects(c.fetch('SELECT * FROM no_such_table_x'), (e: unknown) => e instanceof ChwireServerError && e.serverCode === 60);
    // Insert: the server decodes the body per Content-Encoding; it went compressed.
    await engineExec('CREATE TABLE IF NOT EXISTS codec_t (id UInt32, s String) ENGINE = Memory');
    const data = Array.from({ length: 20_000 }, (_, i) => ({ id: i, s: `row number ${i}` }));
    await c.insert('codec_t', data, { queryId: `ins-${codec}` });
    const ins = plain.requests.find((r) => r.params.get('query_id') === `ins-${codec}`)!;
    assert.equal(ins.headers['content-encoding'], codec);
    assert.ok(ins.rawLength < ins.body.length / 2, `${codec} body smaller on the wire (${ins.rawLength} < ${ins.body.length})`);
    const blocks = createNativeDecoder().pushSources!(ins.body);
    assert.equal(blocks.reduce((a, b) => a + b.length, 0), 20_000);
    await c.close();
  });
}

test('compression: true stays gzip responses only; { request: true } is gzip; an old server without br answers identity', async () => {
  const c = createClient({ url: plain.url, compression: true });
  await c.fetch('SELECT 1 AS x /* comp-true */');
  assert.equal(plain.requests.find((r) => r.sql.includes('comp-true'))!.headers['accept-encoding'], 'gzip');
  await c.insert('codec_t', [{ id: 1, s: 'a' }], { queryId: 'comp-true-ins' });
  assert.equal(plain.requests.find((r) => r.params.get('query_id') === 'comp-true-ins')!.headers['content-encoding'], undefined);
  await c.close();
  const r = createClient({ url: plain.url, compression: { request: true } });
  await r.insert('codec_t', [{ id: 1, s: 'a' }], { queryId: 'comp-req-true' });
  assert.equal(plain.requests.find((x) => x.params.get('query_id') === 'comp-req-true')!.headers['content-encoding'], 'gzip');
  await r.close();
  // 18.16 knows gzip and deflate only: asked for br it answers uncompressed (read as is); sent br it refuses.
  const o = createClient({ url: old.url, compression: { response: 'br', request: 'br' } });
  assert.equal(await o.fetchValue('SELECT 3 AS x'), 3);
  await assert.rejects(o.insert('t', [Buffer.from('1\n')], { format: 'TSV' }), (e: unknown) => e instanceof ChwireServerError && e.serverCode === 89 && /Content-Encoding/.test(e.message));
  await o.close();
});

test('compression: zstd on a Node without it is a ChwireConfigError naming the Node versions that have it; bad values refused', { skip: zstdInNode() ? 'this Node has zstd' : false }, () => {
  for (const o of [{ response: 'zstd' }, { request: 'zstd' }] as const) {
    assert.throws(() => createClient({ url: plain.url, compression: o }), (e: unknown) => e instanceof ChwireConfigError && /22\.15/.test(e.message) && /23\.8/.test(e.message) && e.message.includes(process.versions.node));
  }
});

test('compression values are validated', () => {
  assert.throws(() => createClient({ compression: { response: 'lz4' as never } }), (e: unknown) => e instanceof ChwireConfigError && /compression\.response/.test(e.message));
  assert.throws(() => createClient({ compression: { request: 1 as never } }), (e: unknown) => e instanceof ChwireConfigError && /compression\.request/.test(e.message));
  assert.throws(() => createClient({ compression: 'gzip' as never }), ChwireConfigError);
});

test('proxy, plain HTTP: requests in absolute form through the proxy, Proxy-Authorization to the proxy only', async () => {
  const proxy = await startForwardProxy({ user: 'pu', password: 'proxy-pw' });
  const c = createClient({ url: plain.url, proxy: `http://pu:proxy-pw@127.0.0.1:${proxy.port}`, httpHeaders: { 'X-Via': 'test' } });
  const rows = await c.fetch(`${SQL} /* via-proxy */`);
  assert.equal(rows.length, 3000);
  await c.insert('codec_t', [{ id: 1, s: 'a' }], { queryId: 'proxy-ins' });
  assert.ok(proxy.forwarded >= 3, 'probe, query and schema lookups went through the proxy');
  assert.equal(proxy.tunnels, 0);
  assert.ok(proxy.lines.every((l) => l.startsWith(`POST ${plain.url}/?`) || l.startsWith(`GET ${plain.url}/`)), proxy.lines.join('\n'));
  const basic = `Basic ${Buffer.from('pu:proxy-pw').toString('base64')}`;
  assert.ok(proxy.authorizations.every((a) => a === basic));
  const seenByServer = plain.requests.find((r) => r.sql.includes('via-proxy'))!;
  assert.equal(seenByServer.headers['proxy-authorization'], undefined, 'the proxy consumed its credentials');
  assert.equal(seenByServer.headers['x-via'], 'test');
  await c.close();

  const wrong = createClient({ url: plain.url, proxy: `http://pu:wrong-pw@127.0.0.1:${proxy.port}` });
  await assert.rejects(wrong.fetch('SELECT 1'), (e: unknown) => e instanceof ChwireConnectionError && /407/.test(e.message) && !e.message.includes('wrong-pw'));
  await wrong.close();
  await proxy.close();
});

test('proxy, https server: one CONNECT tunnel per pooled connection, TLS to the server inside it', async () => {
  const proxy = await startForwardProxy({ user: 'pu', password: 'tunnel-pw' });
  const c = createClient({ url: secure.url, tls: { ca }, proxy: `http://pu:tunnel-pw@127.0.0.1:${proxy.port}`, maxOpenConnections: 1 });
  const rows = await c.fetch(`${SQL} /* via-tunnel */`);
  assert.equal(rows.length, 3000);
  for (let i = 0; i < 3; i++) assert.equal(await c.fetchValue(`SELECT ${i} AS x`), i);
  assert.equal(proxy.forwarded, 0);
  assert.equal(proxy.tunnels, 1, 'the keep-alive pool reuses the tunnel');
  assert.deepEqual(proxy.lines, [`CONNECT ${new URL(secure.url).host}`]);
  assert.equal(secure.requests.find((r) => r.sql.includes('via-tunnel'))!.headers['proxy-authorization'], undefined, 'credentials never inside the tunnel');
  await c.close();
  // TLS is still checked end to end: without the CA the certificate is refused.
  const untrusted = createClient({ url: secure.url, proxy: `http://pu:tunnel-pw@127.0.0.1:${proxy.port}` });
  await assert.rejects(untrusted.fetch('SELECT 1'), (e: unknown) => e instanceof ChwireConnectionError && /certificate/i.test(e.message));
  await untrusted.close();
  const refused = createClient({ url: secure.url, tls: { ca }, proxy: `http://pu:nope-pw@127.0.0.1:${proxy.port}` });
  await assert.rejects(refused.fetch('SELECT 1'), (e: unknown) => e instanceof ChwireConnectionError && /407/.test(e.message) && !e.message.includes('nope-pw'));
  await refused.close();
  await proxy.close();
  // A proxy that is not there: a connection error naming the proxy's address.
  const gone = createClient({ url: secure.url, tls: { ca }, proxy: `http://127.0.0.1:${proxy.port}` });
  await assert.rejects(gone.fetch('SELECT 1'), (e: unknown) => e instanceof ChwireConnectionError && e.message.includes(`127.0.0.1:${proxy.port}`));
  await gone.close();
});

test('proxy option validated without echoing it', () => {
  for (const p of ['https://u:leak-pw@proxy:3128', 'socks5://u:leak-pw@proxy:1080', 'not a url leak-pw', 'http://u:leak-pw@proxy:3128/path']) {
    assert.throws(() => createClient({ url: plain.url, proxy: p }), (e: unknown) => e instanceof ChwireConfigError && /proxy/.test(e.message) && !e.message.includes('leak-pw'), p);
  }
  assert.throws(() => createClient({ url: plain.url, proxy: 3128 as never }), ChwireConfigError);
});

class CountingAgent extends http.Agent {
  created = 0;
  override createConnection(...args: Parameters<http.Agent["createConnection"]>): ReturnType<http.Agent["createConnection"]> {
    this.created++;
    return super.createConnection(...args);
  }
}

test('agent: the user\'s own agent carries every request and survives close(); pool options with it are refused', async () => {
  const agent = new CountingAgent({ keepAlive: true, maxSockets: 1 });
  const c = createClient({ url: plain.url, agent });
  for (let i = 0; i < 3; i++) assert.equal(await c.fetchValue(`SELECT ${i} AS x`), i);
  assert.equal(agent.created, 1, 'one keep-alive socket of the user\'s agent served all');
  await c.close();
  const d = createClient({ url: plain.url, agent });
  assert.equal(await d.fetchValue('SELECT 9 AS x'), 9, 'the agent still works after the first client closed');
  await d.close();
  agent.destroy();
  for (const k of ['maxOpenConnections', 'keepAlive', 'idleSocketTtl', 'tls', 'proxy'] as const) {
    const v = { maxOpenConnections: 2, keepAlive: false, idleSocketTtl: 100, tls: { ca }, proxy: 'http://127.0.0.1:1' }[k];
    assert.throws(() => createClient({ url: plain.url, agent: new http.Agent(), [k]: v }), (e: unknown) => e instanceof ChwireConfigError && e.message.includes(k), k);
  }
  assert.throws(() => createClient({ url: secure.url, agent: new http.Agent() }), (e: unknown) => e instanceof ChwireConfigError && /https:/.test(e.message));
  assert.throws(() => createClient({ url: plain.url, agent: {} as never }), ChwireConfigError);
  // An https.Agent with its own TLS settings serves an https URL.
  const sa = new https.Agent({ ca, keepAlive: true });
  const s = createClient({ url: secure.url, agent: sa });
  assert.equal(await s.fetchValue('SELECT 4 AS x'), 4);
  await s.close();
  sa.destroy();
});

test('chdb://: HTTP-only options are refused naming the option; compression is ignored', async () => {
  for (const [k, v] of [['accessToken', TOKEN], ['role', 'r'], ['httpHeaders', { 'X-A': 'b' }], ['proxy', 'http://127.0.0.1:3128'], ['agent', new http.Agent()]] as const) {
    assert.throws(() => createClient({ url: 'chdb://', [k]: v }), (e: unknown) => e instanceof ChwireConfigError && e.message.includes(k) && /chdb/.test(e.message), k);
  }
  const c = createClient({ url: 'chdb://', compression: { response: 'br', request: 'deflate' } });
  assert.equal(await c.fetchValue('SELECT 6 AS x'), 6);
  await assert.rejects(c.fetch('SELECT 1', { role: 'r' }), (e: unknown) => e instanceof ChwireConfigError && /role/.test(e.message));
  await assert.rejects(c.fetch('SELECT 1', { httpHeaders: { 'X-A': 'b' } }), (e: unknown) => e instanceof ChwireConfigError && /httpHeaders/.test(e.message));
  await c.close();
});
