// Query parameters travel in the URL, which servers cap (issue 10, large parameters). Measured on
// the loopback server fed by the engine: a parameter of ~1 MB encoded (URL just under 1 MiB) is
// bound and answered; one that makes the URL longer than 1 MiB (a modern server's
// http_max_uri_size) is a ChwireConfigError before anything is sent, naming the parameter and its
// size but never its value. An 18.16 server answers a URL over 16 KiB with a bare 400: explained.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, ChwireConfigError } from '../src/index.js';
import { MAX_URL_BYTES } from '../src/transport/url-limit.js';
import { startTestServer } from './support/test-server.js';
import { REAL_URL, SKIP_REAL } from './support/ch-server.js';

test('a parameter up to the URL limit is sent and bound; beyond it, refused before sending', async () => {
  const server = await startTestServer();
  const c = createClient({ url: server.url });
  after(async () => { await c.close(); await server.close(); });
  // 'a' is not percent-encoded: the URL grows by the value's length plus the rest of the request.
  const fits = 'a'.repeat(MAX_URL_BYTES - 4096);
  assert.equal(await c.fetchValue('SELECT length({s:String}) AS n', { params: { s: fits } }), BigInt(fits.length));
  const before = server.requests.length;
  const secret = `SECRET-${'b'.repeat(MAX_URL_BYTES)}`;
  await assert.rejects(c.fetch('SELECT length({big:String}) AS n, {small:UInt8} AS m', { params: { big: secret, small: 1 } }), (e: unknown) => {
    assert.ok(e instanceof ChwireConfigError, String(e));
    assert.match(e.message, /over the 1048576-byte limit/);
    assert.match(e.message, /big \(\d+ bytes encoded\)/);
    assert.match(e.message, /temporary table/);
    assert.ok(!e.message.includes('SECRET') && !String(e.stack).includes('SECRET'), 'the value stays out of the error');
    return true;
  });
  assert.equal(server.requests.length, before, 'nothing was sent');
});

test('18.16: a URL over 16 KiB answered with a bare 400 is explained', { skip: SKIP_REAL }, async () => {
  const c = createClient({ url: REAL_URL });
  after(() => c.close());
  // 18.16 has no query parameters; a long query id makes the same URL (its value is ours, not secret).
  await assert.rejects(c.fetch('SELECT 1', { queryId: 'q'.repeat(17_000) }), (e: unknown) => e instanceof ChwireConfigError && /before ClickHouse 21\.5 take at most 16384 bytes/.test(e.message));
  assert.deepEqual(await c.fetch('SELECT 1 AS x', { queryId: 'q'.repeat(15_000) }), [{ x: 1 }]);
});
