// Exactly-once inserts with a deduplication token when a transport cannot stream a body (issue 17
// item 1): the web client without request streams sends one INSERT per block, block k under the
// token plus its number; the loopback server stores each into the embedded engine with the
// request's insert settings, as a server would. Under one token for all, the server dropped
// block 1 as a repeat of block 0. (Apart from insert.dedup.test.ts: the loopback server's engine
// is chdb's default connection, which cannot share a process with a chdb:// client.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChwireEncodeError } from '../src/index.js';
import { createClient as createWebClient } from '../src/web.js';
import { startTestServer } from './support/test-server.js';
import { engineExec } from './support/engine.js';

const rowsOf = (n: number): { id: number; p: number }[] => Array.from({ length: n }, (_, i) => ({ id: i, p: i % 3 }));

test('one block per request (fetch without request streams): block k goes under its own token; a retry commits each row once', async () => {
  const server = await startTestServer({ storeInserts: true });
  const c = createWebClient({ url: server.url, requestStreams: false, insertBlockSize: 1000 });
  try {
    await engineExec('DROP TABLE IF EXISTS dd_web');
    await engineExec('CREATE TABLE dd_web (id UInt32, p UInt8) ENGINE = MergeTree ORDER BY id SETTINGS non_replicated_deduplication_window = 100');
    const rows = rowsOf(5000);
    const bad = rows.map((r, i) => (i === 3500 ? { id: -1, p: 0 } : r));
    await assert.rejects(c.insert('dd_web', bad, { deduplicationToken: 'wtok' }), ChwireEncodeError);
    assert.equal(await c.fetchValue('SELECT count() FROM dd_web', { int64: 'number' }), 3000);
    await c.insert('dd_web', rows, { deduplicationToken: 'wtok' });
    assert.deepEqual([...await c.fetch('SELECT count() AS c, uniqExact(id) AS u FROM dd_web', { int64: 'number' })], [{ c: 5000, u: 5000 }]);
    const tokens = server.requests.filter((r) => /^INSERT/.test(r.sql) && r.sql.includes('dd_web')).map((r) => r.params.get('insert_deduplication_token'));
    assert.deepEqual(tokens.slice(-5), [0, 1, 2, 3, 4].map((k) => `wtok:block-${k}`));
  } finally {
    await engineExec('DROP TABLE IF EXISTS dd_web');
    await c.close();
    await server.close();
  }
});
