// The request surface against the real server (Debian clickhouse-server 18.16, started by .ci/run):
// gzip and deflate both ways with rows stored and read back equal; what 18.16 does with the codecs
// it lacks (br/zstd responses come back uncompressed, br requests are refused, code 89); a forward
// proxy in front of it; an access token and a role, which it cannot take, failing clearly.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ChwireConfigError, ChwireServerError, type Client } from '../src/index.js';
import { AUTH_PASSWORD, AUTH_USER, REAL_URL, SKIP_REAL, realClient, uniqueName } from './support/ch-server.js';
import { startForwardProxy } from './support/forward-proxy.js';

const skip = SKIP_REAL;
let c: Client;
const table = uniqueName('chwire_surface');

before(async () => {
  if (skip !== false) return;
  c = realClient();
  await c.execute(`CREATE TABLE ${table} (id UInt64, s String) ENGINE = MergeTree ORDER BY id`);
});
after(async () => {
  if (skip !== false) return;
  await c.execute(`DROP TABLE IF EXISTS ${table}`);
  await c.close();
});

const N = 50_000;
const row = (i: number): { id: number; s: string } => ({ id: i, s: `value ${i} ${'x'.repeat(i % 13)}` });

for (const codec of ['gzip', 'deflate'] as const) {
  test(`${codec} both ways: ${N} rows stored and read back equal`, { skip, timeout: 60_000 }, async () => {
    await c.execute(`TRUNCATE TABLE ${table}`);
    const z = realClient({ compression: { request: codec, response: codec } });
    await z.insert(table, Array.from({ length: N }, (_, i) => row(i)), { blockSize: 20_000 });
    assert.equal(await c.fetchValue(`SELECT count() FROM ${table}`), BigInt(N));
    let i = 0;
    for await (const r of z.stream<{ id: bigint; s: string }>(`SELECT id, s FROM ${table} ORDER BY id`)) {
      const x = row(i++);
      if (r.id !== BigInt(x.id) || r.s !== x.s) assert.fail(`row ${i - 1} differs`);
    }
    assert.equal(i, N);
    // An error body comes compressed too and is still read.
    await assert.rejects(z.fetch('SELECT * FROM no_such_table_surface'), (e: unknown) => e instanceof ChwireServerError && e.serverCode === 60);
    await z.close();
  });
}

test('codecs 18.16 lacks: a br response comes back uncompressed and is read as is; a br request body is refused (code 89)', { skip }, async () => {
  const br = realClient({ compression: { response: 'br', request: 'br' } });
  const rows = await br.fetch<{ n: bigint }>('SELECT number AS n FROM numbers(1000)');
  assert.equal(rows.length, 1000);
  assert.equal(rows[999]!.n, 999n);
  await assert.rejects(br.insert(table, [{ id: 1, s: 'a' }]), (e: unknown) => e instanceof ChwireServerError && e.serverCode === 89 && /Content-Encoding/.test(e.message));
  await br.close();
});

test('through a forward proxy (absolute form): queries and inserts reach the real server; the proxy sees headers, never a password in a URL', { skip, timeout: 60_000 }, async () => {
  const proxy = await startForwardProxy({ user: 'pu', password: 'proxy-secret' });
  try {
    const p = realClient({ username: AUTH_USER, password: AUTH_PASSWORD, proxy: `http://pu:proxy-secret@127.0.0.1:${proxy.port}`, httpHeaders: { 'X-Request-Source': 'chwire-test' } });
    await c.execute(`TRUNCATE TABLE ${table}`);
    await p.insert(table, Array.from({ length: 1000 }, (_, i) => row(i)));
    assert.equal(await p.fetchValue(`SELECT count() FROM ${table}`), 1000n);
    await p.close();
    assert.ok(proxy.forwarded >= 3);
    const host = new URL(REAL_URL!).host;
    assert.ok(proxy.lines.every((l) => l.includes(`http://${host}/`)), proxy.lines.join('\n'));
    assert.ok(proxy.seen.every((s) => s.includes('"x-request-source":"chwire-test"')), 'the header went out with every request');
    for (const l of proxy.lines) assert.ok(!l.includes(AUTH_PASSWORD) && !l.includes('proxy-secret'));
  } finally {
    await proxy.close();
  }
});

test('an access token on 18.16 (which knows only Basic and X-ClickHouse-* auth): the server\'s refusal, without the token', { skip }, async () => {
  const token = 'realServerTok3n.abc.def';
  const t = realClient({ accessToken: () => token });
  await assert.rejects(t.fetch('SELECT 1'), (e: unknown) => e instanceof ChwireServerError && !e.message.includes(token) && !String((e as Error).stack).includes(token));
  await t.close();
});

test('role on 18.16: ChwireConfigError before anything is sent (the role parameter needs 24.4)', { skip }, async () => {
  const r = realClient({ role: 'reader' });
  await assert.rejects(r.fetch('SELECT 1'), (e: unknown) => e instanceof ChwireConfigError && /24\.4/.test(e.message));
  assert.equal(await r.fetchValue('SELECT 1 AS x', { role: [] }), 1, 'role: [] clears the client\'s role for a call');
  await r.close();
});
