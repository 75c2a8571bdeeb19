// Small calls on the real 18.16 server, seen from the wire (issue 28 item 6): the work a call
// skips once its client knows the server (the version probe, the header set, the query string)
// never changes what is sent. A recording HTTP proxy on loopback passes every request on to the
// server and keeps its method, URL and headers.
//   - the version is probed once: N calls make N + 1 requests, never a probe per call;
//   - every query's URL is `default_format` then `query_id` (a fresh id per call), the settings
//     and query parameters after them escaped as URLSearchParams escapes them;
//   - the headers are the same on every call; a call's own httpHeaders go with that call only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from '../src/index.js';
import { REAL_URL, SKIP_REAL } from './support/ch-server.js';

interface Seen { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }

/** A loopback proxy to the real server that records each request (bodies up to 64 KiB). */
async function recordingProxy(target: string): Promise<{ url: string; seen: Seen[]; close: () => Promise<void> }> {
  const to = new URL(target);
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => { size += c.length; if (size <= 65536) chunks.push(c); });
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: body.toString('utf8') });
      const out = http.request({ hostname: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      out.on('error', () => res.destroy());
      out.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

const SQL = "SELECT number AS id, concat('user_', toString(number)) AS name FROM numbers(3)";

test('N small calls make N + 1 requests (one version probe), each with the same headers and its own query id', { skip: SKIP_REAL, timeout: 60_000 }, async () => {
  const proxy = await recordingProxy(REAL_URL!);
  const client = createClient({ url: proxy.url, username: 'default', password: '', httpHeaders: { 'X-App': 'small' } });
  try {
    const calls = 25;
    for (let i = 0; i < calls; i++) {
      const rows = await client.fetch(SQL);
      assert.deepEqual([...rows], [0, 1, 2].map((n) => ({ id: BigInt(n), name: `user_${n}` })));
    }
    assert.equal(proxy.seen.length, calls + 1, 'one probe, then one request per call');
    const [probe, ...queries] = proxy.seen;
    assert.match(probe!.body, /version\(\)/);
    const ids = new Set<string>();
    for (const q of queries) {
      assert.equal(q.method, 'POST');
      assert.equal(q.body, SQL);
      const m = /^\/\?default_format=Native&query_id=([0-9a-f-]{36})$/.exec(q.url);
      assert.ok(m !== null, q.url);
      ids.add(m[1]!);
      const { 'content-length': _, ...rest } = q.headers;
      const { 'content-length': __, ...first } = queries[0]!.headers;
      assert.deepEqual(rest, first);
      assert.equal(q.headers['x-app'], 'small');
      assert.equal(q.headers['x-clickhouse-user'], 'default');
    }
    assert.equal(ids.size, calls, 'a fresh query id per call');
  } finally {
    await client.close();
    await proxy.close();
  }
});

test('a call\'s own httpHeaders, settings and escaped values go with that call only', { skip: SKIP_REAL, timeout: 60_000 }, async () => {
  const proxy = await recordingProxy(REAL_URL!);
  const client = createClient({ url: proxy.url, settings: { max_threads: 1 } });
  try {
    await client.fetch(SQL);
    await client.fetch(SQL, { httpHeaders: { 'X-Call': 'one' }, settings: { max_block_size: 100 }, queryId: "my id&x=1 +%'é" });
    await client.fetch(SQL);
    const [, plain, own, again] = proxy.seen;
    assert.equal(plain!.headers['x-call'], undefined);
    assert.equal(own!.headers['x-call'], 'one');
    assert.equal(again!.headers['x-call'], undefined);
    const expected = new URLSearchParams({ default_format: 'Native', query_id: "my id&x=1 +%'é", max_threads: '1', max_block_size: '100' }).toString();
    assert.equal(own!.url, `/?${expected}`);
    assert.match(again!.url, /^\/\?default_format=Native&query_id=[0-9a-f-]{36}&max_threads=1$/);
  } finally {
    await client.close();
  }
  await proxy.close();
});
