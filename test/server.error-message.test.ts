// A long server error goes into `e.message` only in part (issue 32, item 12): its start and its
// end, with a note that the whole text is `e.serverMessage`. Against 18.16 (an unknown identifier of
// 200 000 characters: the server quotes it whole) and a loopback server whose 500 body is 1 MiB.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createClient, ChwireServerError } from '../src/index.js';
import { SERVER_MESSAGE_CHARS } from '../src/errors.js';
import { SKIP_REAL, realClient } from './support/ch-server.js';

const servers: http.Server[] = [];
after(() => { for (const s of servers) { s.closeAllConnections(); s.close(); } });

function capped(e: unknown, whole: number): boolean {
  assert.ok(e instanceof ChwireServerError, String(e));
  assert.ok(e.message.length < SERVER_MESSAGE_CHARS + 400, `message of ${e.message.length} characters`);
  assert.ok(e.serverMessage.length >= whole, `serverMessage of ${e.serverMessage.length} characters`);
  assert.match(e.message, /characters of the server's message not shown here: the whole text is the error's serverMessage/);
  assert.ok(e.message.startsWith(e.serverMessage.slice(0, 100)));
  return true;
}

test('real server: a 200 000-character error is cut in e.message and whole in e.serverMessage', { skip: SKIP_REAL }, async () => {
  const c = realClient();
  try {
    const name = 'x'.repeat(200_000);
    await assert.rejects(c.fetch(`SELECT ${name}`), (e: unknown) => {
      capped(e, 200_000);
      const err = e as ChwireServerError;
      assert.equal(err.serverCode, 47);
      assert.match(err.message, /^Code: 47, e\.displayText\(\) = DB::Exception: Unknown identifier: x{100}/);
      assert.match(err.message, /e\.what\(\) = DB::Exception \(host http:\/\/127\.0\.0\.1:\d+\/?\)$/);
      return true;
    });
    // A short one is whole.
    await assert.rejects(c.fetch('SELECT no_such_column'), (e: unknown) => e instanceof ChwireServerError && !/not shown here/.test(e.message) && e.message.includes(e.serverMessage.trim()));
  } finally {
    await c.close();
  }
});

test('a 1 MiB error body: e.message holds its start and end, e.serverMessage all of it', async () => {
  const body = `Code: 62. DB::Exception: Syntax error: ${'y'.repeat((1 << 20) - 100)} (SYNTAX_ERROR) (version 26.7.2.1)`;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(500, { 'X-ClickHouse-Exception-Code': '62' });
      res.end(body.slice(0, 1 << 20));
    });
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const c = createClient({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, retry: false });
  try {
    await assert.rejects(c.execute('SELECT 1'), (e: unknown) => capped(e, (1 << 20) - 200));
  } finally {
    await c.close();
  }
});
