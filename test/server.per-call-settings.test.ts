// Tenants on one ClickHouse user (issue 32, item 7), against the real 18.16 behind a recording
// proxy: a call's own settings may not carry replace_running_query, profile, readonly, allow_ddl
// or log_queries (refused with ChwireConfigError, no request sent: the proxy counts) unless the
// client lists them in perCallSettings; the client's own settings may set them. Shown first with
// the attack itself: a call reusing a victim's query id with replace_running_query: 1 cancels the
// victim's query when allowed, and is refused (the victim's query finishes) when not.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, fetchColumns, insert, ChwireConfigError } from '../src/index.js';
import { createClient as createCompat } from '../src/compat.js';
import { REAL_URL, SKIP_REAL, recordingProxy, uniqueName, realClient, type RecordingProxy } from './support/ch-server.js';

const skip = SKIP_REAL;
let proxy: RecordingProxy | undefined;
const table = uniqueName('per_call_settings');

before(async () => {
  if (skip !== false) return;
  proxy = await recordingProxy(REAL_URL!);
  const admin = realClient();
  await admin.execute(`CREATE TABLE ${table} (a UInt32) ENGINE = Memory`);
  await admin.close();
});
after(async () => {
  if (skip !== false) return;
  const admin = realClient();
  await admin.execute(`DROP TABLE IF EXISTS ${table}`);
  await admin.close();
  await proxy?.close();
});

const GUARDED = { replace_running_query: 1, profile: 'default', readonly: 1, allow_ddl: 0, log_queries: 0 } as const;

/** ~1.5 s of work on 18.16 in 150 blocks (a cancel is seen between blocks). */
const SLOW = 'SELECT count() FROM (SELECT sleepEachRow(0.01) FROM system.numbers LIMIT 150)';

test('real server: another caller\'s query id with replace_running_query: 1 is refused per call (nothing sent, the victim\'s query finishes); allowed by perCallSettings, it cancels the victim\'s query', { skip }, async () => {
  const victim = createClient({ url: proxy!.url });
  const tenant = createClient({ url: proxy!.url });
  const allowed = createClient({ url: proxy!.url, perCallSettings: ['replace_running_query'] });
  try {
    await tenant.ping();
    for (const attacker of [tenant, allowed]) {
      const id = `victim-${uniqueName('q')}`;
      const running = victim.fetchValue(SLOW, { queryId: id, int64: 'number', settings: { max_block_size: 1 } }).then((v) => ({ v }), (e: unknown) => ({ e }));
      await new Promise((r) => setTimeout(r, 300));
      const before = proxy!.requests.length;
      const attack = attacker.fetchValue('SELECT 1', { queryId: id, settings: { replace_running_query: 1 }, int64: 'number' });
      if (attacker === tenant) {
        await assert.rejects(attack, (e: unknown) => e instanceof ChwireConfigError && /a call's own settings may not set replace_running_query/.test(e.message) && /nothing was sent/.test(e.message));
        assert.equal(proxy!.requests.length, before, 'the refused call sent a request');
        assert.deepEqual(await running, { v: 150 });
      } else {
        assert.equal(await attack, 1);
        const out = await running;
        assert.ok('e' in out, 'the victim\'s query was not cancelled: replace_running_query did not reach the server');
        assert.match(String((out as { e: unknown }).e), /cancel|replace|Code: 394/i);
      }
    }
  } finally {
    await victim.close();
    await tenant.close();
    await allowed.close();
  }
});

test('real server: each guarded setting in each call\'s own settings (and compat\'s clickhouse_settings), in any case, is refused before any request', { skip }, async () => {
  const c = createClient({ url: proxy!.url });
  const compat = createCompat({ url: proxy!.url });
  try {
    await c.ping();
    await compat.ping();
    const before = proxy!.requests.length;
    for (const [name, value] of [...Object.entries(GUARDED), ['PROFILE', 'default'], ['Log_Queries', 0]] as [string, string | number][]) {
      const settings = { [name]: value };
      const calls: (() => Promise<unknown>)[] = [
        () => c.fetch('SELECT 1', { settings }),
        () => c.fetchValue('SELECT 1', { settings }),
        () => fetchColumns(c, 'SELECT 1', { settings }),
        async () => { for await (const _ of c.stream('SELECT 1', { settings })) { /* drain */ } },
        async () => c.streamRaw('SELECT 1', { format: 'CSV', settings }).text(),
        () => c.execute(`INSERT INTO ${table} VALUES (1)`, { settings }),
        () => insert(c, table, [{ a: 1 }], { settings }),
        () => compat.query({ query: 'SELECT 1', format: 'JSONEachRow', clickhouse_settings: settings as never }),
        () => compat.command({ query: `INSERT INTO ${table} VALUES (1)`, clickhouse_settings: settings as never }),
        () => compat.exec({ query: 'SELECT 1', clickhouse_settings: settings as never }),
        () => compat.insert({ table, values: [{ a: 1 }], format: 'JSONEachRow', clickhouse_settings: settings as never }),
      ];
      for (const [k, call] of calls.entries()) {
        await assert.rejects(call(), (e: unknown) => e instanceof ChwireConfigError && new RegExp(`may not set ${name.toLowerCase()}`).test(e.message), `call ${k} with ${name}`);
      }
    }
    assert.deepEqual(proxy!.requests.slice(before), [], 'a refused call sent a request');
    assert.equal(await realClient().fetchValue(`SELECT count() FROM ${table}`, { int64: 'number' }), 0);
  } finally {
    await c.close();
    await compat.close();
  }
});

test('real server: the client\'s own settings may set them; perCallSettings lists the ones a call may set, or \'any\'', { skip }, async () => {
  const SQL = "SELECT value FROM system.settings WHERE name = 'log_queries'";
  const own = createClient({ url: REAL_URL!, settings: { log_queries: 0 } });
  const listed = createClient({ url: REAL_URL!, perCallSettings: ['log_queries'] });
  const any = createClient({ url: REAL_URL!, perCallSettings: 'any' });
  const compat = createCompat({ url: REAL_URL!, per_call_settings: ['log_queries'] });
  try {
    assert.equal(await own.fetchValue(SQL), '0');
    assert.equal(await listed.fetchValue(SQL, { settings: { log_queries: 0 } }), '0');
    // Listed is only what is listed.
    await assert.rejects(listed.fetchValue(SQL, { settings: { allow_ddl: 0 } }), ChwireConfigError);
    assert.equal(await any.fetchValue("SELECT value FROM system.settings WHERE name = 'allow_ddl'", { settings: { allow_ddl: 0 } }), '0');
    const rows = await (await compat.query({ query: SQL, format: 'JSONEachRow', clickhouse_settings: { log_queries: 0 } })).json<{ value: string }>();
    assert.deepEqual(rows, [{ value: '0' }]);
  } finally {
    await own.close();
    await listed.close();
    await any.close();
    await compat.close();
  }
  assert.throws(() => createClient({ url: REAL_URL!, perCallSettings: ['max_threads'] }), (e: unknown) => e instanceof ChwireConfigError && /names only the guarded settings/.test(e.message));
  assert.throws(() => createClient({ url: REAL_URL!, perCallSettings: 'all' as never }), ChwireConfigError);
});
