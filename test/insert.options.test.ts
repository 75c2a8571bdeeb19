// Insert options (issue 11 async inserts and deduplicationToken; issue 10 option validation):
// the settings each sends (the loopback server records them), what the embedded engine does with
// them, and a ChwireConfigError on servers too old for them (the 18.16-style loopback server and
// the real 18.16 server).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, ChwireConfigError } from '../src/index.js';
import { startTestServer } from './support/test-server.js';
import { SKIP_REAL, realClient, uniqueName } from './support/ch-server.js';

const modern = await startTestServer();
const old = await startTestServer({ version: '18.16.1' });
const m = createClient({ url: modern.url });
const o = createClient({ url: old.url });
const e = createClient({ url: 'chdb://' });
after(async () => { await m.close(); await o.close(); await e.close(); await modern.close(); await old.close(); });

function lastInsert(): URLSearchParams {
  const r = [...modern.requests].reverse().find((x) => /^INSERT/.test(x.sql));
  assert.ok(r !== undefined);
  return r.params;
}

test('async: the settings sent for each mode; synchronous by default', async () => {
  // (The loopback server acknowledges inserts without a table lookup for Native bytes.)
  const bytes = [new Uint8Array([1, 1, 1, 120, 5, 85, 73, 110, 116, 56, 7])];
  await m.insert('t', bytes);
  assert.equal(lastInsert().get('async_insert'), '0');
  assert.equal(lastInsert().get('wait_for_async_insert'), null);
  await m.insert('t', bytes, { async: true });
  assert.equal(lastInsert().get('async_insert'), '1');
  assert.equal(lastInsert().get('wait_for_async_insert'), '1');
  await m.insert('t', bytes, { async: { wait: false } });
  assert.equal(lastInsert().get('async_insert'), '1');
  assert.equal(lastInsert().get('wait_for_async_insert'), '0');
  await m.insert('t', bytes, { async: { wait: true }, deduplicationToken: 'batch-17' });
  assert.equal(lastInsert().get('wait_for_async_insert'), '1');
  assert.equal(lastInsert().get('insert_deduplication_token'), 'batch-17');
});

test('an 18.16 server: async and deduplicationToken are ChwireConfigErrors naming the version they need; nothing is sent', async () => {
  const before = old.requests.length;
  await assert.rejects(o.insert('t', [{ a: 1 }], { async: true }), (x: unknown) => x instanceof ChwireConfigError && /async needs ClickHouse 21\.11/.test(x.message) && /18\.16/.test(x.message));
  await assert.rejects(o.insert('t', [{ a: 1 }], { deduplicationToken: 'secret-token' }), (x: unknown) => x instanceof ChwireConfigError && /22\.2/.test(x.message) && !x.message.includes('secret-token'));
  assert.ok(old.requests.slice(before).every((r) => !/^INSERT/.test(r.sql)));
});

test('option validation: unknown and ill-typed insert options, non-integer block sizes, maxOpenConnections 0', async () => {
  await assert.rejects(m.insert('t', [{ a: 1 }], { blockSize: 0.5 }), (x: unknown) => x instanceof ChwireConfigError && /blockSize/.test(x.message));
  await assert.rejects(m.insert('t', [{ a: 1 }], { bogus: 1 } as never), (x: unknown) => x instanceof ChwireConfigError && /"bogus"/.test(x.message));
  await assert.rejects(m.insert('t', [{ a: 1 }], { async: 'yes' } as never), ChwireConfigError);
  await assert.rejects(m.insert('t', [{ a: 1 }], { async: { wiat: true } } as never), (x: unknown) => x instanceof ChwireConfigError && /async\.wiat/.test(x.message));
  await assert.rejects(m.insert('t', [{ a: 1 }], { deduplicationToken: '' }), ChwireConfigError);
  assert.throws(() => createClient({ url: modern.url, insertBlockSize: 1.5 }), (x: unknown) => x instanceof ChwireConfigError && /insertBlockSize/.test(x.message));
  assert.throws(() => createClient({ url: modern.url, maxOpenConnections: 0 }), (x: unknown) => x instanceof ChwireConfigError && /maxOpenConnections/.test(x.message));
  assert.throws(() => createClient({ url: modern.url, maxOpenConnections: 2.5 }), ChwireConfigError);
});

test('chdb://: async inserts land; a deduplication token drops a repeated insert where the table deduplicates', async () => {
  await e.execute('CREATE TABLE ai (id UInt32) ENGINE = MergeTree ORDER BY id');
  await e.execute('CREATE TABLE dd (id UInt32) ENGINE = MergeTree ORDER BY id SETTINGS non_replicated_deduplication_window = 100');
  await e.execute('CREATE TABLE nd (id UInt32) ENGINE = MergeTree ORDER BY id');
  try {
    await e.insert('ai', [{ id: 1 }, { id: 2 }], { async: true });
    assert.equal(await e.fetchValue('SELECT count() FROM ai'), 2n);
    // The embedded engine has no asynchronous insert queue (SYSTEM FLUSH ASYNC INSERT QUEUE says
    // it is not initialized): it writes at once even without waiting.
    await e.insert('ai', [{ id: 3 }], { async: { wait: false } });
    assert.equal(await e.fetchValue('SELECT count() FROM ai'), 3n);
    for (const t of ['dd', 'nd']) {
      await e.insert(t, [{ id: 1 }, { id: 2 }], { deduplicationToken: 'b1' });
      await e.insert(t, [{ id: 1 }, { id: 2 }], { deduplicationToken: 'b1' });
      await e.insert(t, [{ id: 1 }, { id: 2 }], { deduplicationToken: 'b2' });
    }
    // With a deduplication window the retry under b1 is dropped; without one, nothing is.
    assert.equal(await e.fetchValue('SELECT count() FROM dd'), 4n);
    assert.equal(await e.fetchValue('SELECT count() FROM nd'), 6n);
  } finally {
    for (const t of ['ai', 'dd', 'nd']) await e.execute(`DROP TABLE ${t}`);
  }
});

test('real 18.16 server: async and deduplicationToken refused before sending', { skip: SKIP_REAL }, async () => {
  const r = realClient();
  const t = uniqueName('chw_opts');
  try {
    await r.execute(`CREATE TABLE ${t} (id UInt32) ENGINE = MergeTree ORDER BY id`);
    await assert.rejects(r.insert(t, [{ id: 1 }], { async: true }), ChwireConfigError);
    await assert.rejects(r.insert(t, [{ id: 1 }], { deduplicationToken: 'x' }), ChwireConfigError);
    assert.equal(await r.fetchValue(`SELECT count() FROM ${t}`), 0n);
  } finally {
    await r.execute(`DROP TABLE IF EXISTS ${t}`);
    await r.close();
  }
});
