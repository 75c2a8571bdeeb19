// Many calls at once on one client leave no listener pile-up on a shared AbortSignal: each call's
// signal is its own (destroy() reaches it through AbortSignal.any), so Node never warns
// "MaxListenersExceededWarning: Possible EventTarget memory leak" under concurrency. On the real
// 18.16 server. Before: 30 concurrent fetches on a client without caller signals printed it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from '../src/index.js';
import { REAL_URL, SKIP_REAL } from './support/ch-server.js';

test('30 concurrent fetches, streams and pings, with and without caller signals: no MaxListenersExceededWarning', { skip: SKIP_REAL, timeout: 60_000 }, async () => {
  const warnings: string[] = [];
  const onWarning = (w: Error): void => { if (w.name === 'MaxListenersExceededWarning') warnings.push(w.message); };
  process.on('warning', onWarning);
  const client = createClient({ url: REAL_URL! });
  try {
    const shared = new AbortController();
    const rows = await Promise.all(Array.from({ length: 30 }, (_, i) => client.fetch('SELECT sleep(0.1) AS s', i % 2 === 0 ? {} : { signal: shared.signal })));
    assert.equal(rows.length, 30);
    await Promise.all(Array.from({ length: 30 }, async () => { for await (const _ of client.stream('SELECT number FROM system.numbers LIMIT 3')) { /* drain */ } }));
    await Promise.all(Array.from({ length: 30 }, () => client.ping()));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(warnings, []);
  } finally {
    process.off('warning', onWarning);
    await client.close();
  }
});
