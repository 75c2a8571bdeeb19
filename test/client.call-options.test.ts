// Per-call options are checked (issue 17, item 6): an unknown key is refused with
// ChwireConfigError before anything is sent, on every call, and an @clickhouse/client name gets
// chwire's (`abort_signal` → `signal`). Against the loopback test server (which records requests)
// and the embedded engine.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, ChwireConfigError } from '../src/index.js';
import { startTestServer } from './support/test-server.js';

const c = createClient({ url: 'chdb://' });
after(() => c.close());

function refusedWith(re: RegExp) {
  return (e: unknown) => e instanceof ChwireConfigError && re.test(e.message);
}

test('the issue\'s fetch: abort_signal, query_params, clickhouse_settings, session_id are refused with chwire\'s names', async () => {
  const ac = new AbortController();
  await assert.rejects(c.fetch('SELECT 1', { abort_signal: ac.signal } as never), refusedWith(/unknown option "abort_signal" of fetch.*"signal"/));
  await assert.rejects(c.fetch('SELECT {x:UInt8}', { query_params: { x: 1 } } as never), refusedWith(/"query_params".*"params"/));
  await assert.rejects(c.fetch('SELECT 1', { clickhouse_settings: { max_threads: 1 } } as never), refusedWith(/"clickhouse_settings".*"settings"/));
  await assert.rejects(c.fetch('SELECT 1', { session_id: 's' } as never), refusedWith(/"session_id".*"sessionId"/));
  await assert.rejects(c.fetch('SELECT 1', { query_id: 'q' } as never), refusedWith(/"query_id".*"queryId"/));
  await assert.rejects(c.fetch('SELECT 1', { signl: ac.signal } as never), refusedWith(/unknown option "signl" of fetch$/));
  // Known options still work.
  assert.deepEqual(await c.fetch('SELECT {x:UInt8} AS x', { params: { x: 7 }, settings: { max_threads: 1 }, signal: ac.signal }), [{ x: 7 }]);
});

test('every call refuses an unknown option, before anything is sent', async () => {
  const server = await startTestServer();
  const h = createClient({ url: server.url });
  try {
    const bad = { abort_signal: new AbortController().signal } as never;
    const calls: [string, () => unknown][] = [
      ['fetch', () => h.fetch('SELECT 1', bad)],
      ['fetchOne', () => h.fetchOne('SELECT 1', bad)],
      ['fetchValue', () => h.fetchValue('SELECT 1', bad)],
      ['stream', () => h.stream('SELECT 1', bad)],
      ['streamRaw', () => h.streamRaw('SELECT 1', { format: 'CSV', ...(bad as object) } as never)],
      ['execute', () => h.execute('SELECT 1', bad)],
      ['insert', () => h.insert('t', [{ a: 1 }], bad)],
      ['fetchColumns', () => h.fetchColumns('SELECT 1', bad)],
      ['streamColumns', () => h.streamColumns('SELECT 1', bad)],
      ['ping', () => h.ping(bad)],
    ];
    for (const [name, call] of calls) {
      // Synchronous calls (stream, streamRaw, streamColumns) throw; the others reject.
      let outcome: unknown;
      try { outcome = await call(); } catch (e) { outcome = e; }
      assert.ok(outcome instanceof ChwireConfigError, `${name}: ${String(outcome)}`);
      assert.match(outcome.message, new RegExp(`unknown option "abort_signal" of ${name} \\(.*"signal"\\)`));
    }
    assert.equal(server.requests.length, 0, 'nothing was sent');
    // A call's options must be an object.
    await assert.rejects(h.fetch('SELECT 1', 'x' as never), refusedWith(/options of fetch must be an object, got string/));
    // fetch's own `format` is known; execute's is not, and says where a format goes.
    await assert.rejects(h.execute('SELECT 1', { format: 'JSON' } as never), refusedWith(/"format" of execute.*streamRaw/));
    // insert's `values`/`table` name the arguments.
    await assert.rejects(h.insert('t', [{ a: 1 }], { values: [] } as never), refusedWith(/"values" of insert.*second argument/));
  } finally {
    await h.close();
    await server.close();
  }
});

test('an unknown client option gets chwire\'s name when it is @clickhouse/client\'s', () => {
  assert.throws(() => createClient({ url: 'chdb://', request_timeout: 1000 } as never), refusedWith(/unknown client option "request_timeout" .*"requestTimeout"/));
  assert.throws(() => createClient({ url: 'chdb://', clickhouse_settings: {} } as never), refusedWith(/"clickhouse_settings".*"settings"/));
});
