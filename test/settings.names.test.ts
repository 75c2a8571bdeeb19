// A setting's name that is not an identifier is refused with ChwireConfigError before anything is
// sent (issue 17, item 16): chdb:// spliced names into the SQL's SETTINGS clause (a key such as
// 'max_threads=1&readonly' reached the parser), HTTP into URL parameters. Client-level and per-call
// settings, on chdb://, the Node HTTP transport and the web entry.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, ChwireConfigError, type Client } from '../src/index.js';
import { createClient as createWebClient } from '../src/web.js';
import { startTestServer } from './support/test-server.js';
import { checkSettingName, RESERVED_SETTING_NAMES } from '../src/client/options/setting-name.js';

const server = await startTestServer();
after(() => server.close());

const BAD = ['max_threads=1&readonly', 'max_threads = 1, readonly', 'a b', '1abc', '', 'x;DROP', 'max_threads\n'];
const refused = (e: unknown) => e instanceof ChwireConfigError && /setting name .* is not an identifier/.test(e.message);

test('client-level: a setting name that is not an identifier is refused by createClient', () => {
  for (const name of BAD) {
    assert.throws(() => createClient({ url: 'chdb://', settings: { [name]: 1 } }), refused, name);
    assert.throws(() => createClient({ url: server.url, settings: { [name]: 1 } }), refused, name);
    assert.throws(() => createWebClient({ url: server.url, settings: { [name]: 1 } }), refused, name);
  }
});

const clients: [string, () => Client][] = [
  ['chdb://', () => createClient({ url: 'chdb://' })],
  ['http', () => createClient({ url: server.url })],
  ['web', () => createWebClient({ url: server.url }) as unknown as Client],
];

for (const [kind, make] of clients) {
  test(`per call on ${kind}: refused before anything is sent, on every call with settings`, async () => {
    const c = make();
    const before = server.requests.length;
    try {
      for (const name of BAD) {
        const settings = { [name]: 1 };
        await assert.rejects(c.fetch('SELECT 1', { settings }), refused, `fetch ${name}`);
        await assert.rejects(c.execute('SELECT 1', { settings }), refused, `execute ${name}`);
        await assert.rejects(c.fetchColumns('SELECT 1', { settings }), refused, `fetchColumns ${name}`);
        await assert.rejects(c.insert('t', [{ a: 1 }], { settings }), refused, `insert ${name}`);
        await assert.rejects((async () => { for await (const _ of c.streamRaw('SELECT 1', { format: 'CSV', settings })) { /* */ } })(), refused, `streamRaw ${name}`);
      }
      // Identifiers still pass.
      assert.equal((await c.fetch('SELECT 1 AS x', { settings: { max_threads: 1 } })).length, 1);
    } finally {
      await c.close();
    }
    // Only the server probe and the last (good) query may have reached the server.
    assert.ok(server.requests.slice(before).every((r) => !/readonly|DROP/.test(r.url)), 'no bad name in a request');
  });
}

// Issue 25, item 1: names the HTTP interface reads as its own request parameters are not settings.
// The list is the server's (src/client/options/setting-name.ts says where from); each refusal names the
// chwire option that does the job.
const RESERVED: [string, RegExp][] = [
  ['query', /option params/], ['database', /option database/], ['default_format', /option format/],
  ['user', /option username/], ['password', /option password/], ['quota_key', /X-ClickHouse-Quota/],
  ['query_id', /option queryId/], ['session_id', /option sessionId/], ['session_timeout', /session_timeout/],
  ['session_check', /session_check/], ['close_session', /close_session/], ['compress', /option compression/],
  ['decompress', /option compression/], ['stacktrace', /stack traces/], ['role', /option role/],
  ['client_protocol_version', /protocol version/], ['buffer_size', /server memory/], ['param_x', /option params/], ['param_', /option params/],
  // The server's HTMLForm looks parameters up ignoring case.
  ['QUERY', /option params/], ['Database', /option database/], ['Param_x', /option params/], ['SESSION_ID', /option sessionId/],
];

test('every reserved name (and the param_ prefix) is refused with the option to use, the same list the module exports', () => {
  assert.deepEqual([...RESERVED_SETTING_NAMES].sort(), RESERVED.map(([n]) => n).filter((n) => !n.toLowerCase().startsWith('param_') && n === n.toLowerCase()).sort());
  for (const [name, hint] of RESERVED) {
    const refused = (e: unknown) => e instanceof ChwireConfigError && e.message.includes(`setting name "${name}" is not a setting`) && hint.test(e.message);
    assert.throws(() => checkSettingName(name), refused, name);
    assert.throws(() => createClient({ url: 'chdb://', settings: { [name]: 1 } }), refused, name);
    assert.throws(() => createClient({ url: server.url, settings: { [name]: 1 } }), refused, name);
    assert.throws(() => createWebClient({ url: server.url, settings: { [name]: 1 } }), refused, name);
  }
  // Settings that merely look alike pass, as does wait_end_of_query (see the module).
  for (const name of ['max_threads', 'wait_end_of_query', 'queries', 'params_x', 'param', 'format_csv_delimiter', 'date_time_input_format', 'http_headers_progress_interval_ms', 'database_atomic_wait_for_drop_and_detach_synchronously']) {
    checkSettingName(name);
  }
});

for (const [kind, make] of clients) {
  test(`per call on ${kind}: a reserved name is refused before anything is sent`, async () => {
    const c = make();
    const before = server.requests.length;
    try {
      for (const [name] of RESERVED) {
        const settings = { [name]: '1' };
        const refused = (e: unknown) => e instanceof ChwireConfigError && e.message.includes(`setting name "${name}" is not a setting`);
        await assert.rejects(c.fetch('SELECT 1', { settings }), refused, `fetch ${name}`);
        await assert.rejects(c.fetchColumns('SELECT 1', { settings }), refused, `fetchColumns ${name}`);
        await assert.rejects(c.insert('t', [{ a: 1 }], { settings }), refused, `insert ${name}`);
        await assert.rejects((async () => { for await (const _ of c.streamRaw('SELECT 1', { format: 'CSV', settings })) { /* */ } })(), refused, `streamRaw ${name}`);
      }
    } finally {
      await c.close();
    }
    assert.equal(server.requests.length, before, 'nothing was sent');
  });
}
