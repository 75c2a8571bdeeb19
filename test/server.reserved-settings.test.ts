// Setting names that ClickHouse's HTTP interface reads as its own request parameters (issue 25,
// item 1). On Debian's 18.16 `settings: { query: … }` put the caller's text in front of the SQL
// (another tenant's rows came back; an INSERT wrote into a table) and `{ database: 'system' }`
// overrode the client's database. Each such name is refused with a ChwireConfigError naming the
// right option, before any request leaves: a recording proxy in front of the real server counts
// what reached it, and the table the hostile setting targets stays empty.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, ChwireConfigError } from '../src/index.js';
import { createClient as createWebClient } from '../src/web.js';
import { createClient as createCompat } from '../src/compat.js';
import { REAL_URL, SKIP_REAL, realClient, recordingProxy, uniqueName, type RecordingProxy } from './support/ch-server.js';

const skip = SKIP_REAL;
let proxy: RecordingProxy | undefined;
const log = uniqueName('reserved_log');
const secrets = uniqueName('reserved_secrets');

before(async () => {
  if (skip !== false) return;
  proxy = await recordingProxy(REAL_URL!);
  const admin = realClient();
  await admin.execute(`CREATE TABLE ${log} (line String) ENGINE = Memory`);
  await admin.execute(`CREATE TABLE ${secrets} (a String) ENGINE = Memory`);
  await admin.execute(`INSERT INTO ${secrets} VALUES ('other tenant secret')`);
  await admin.close();
});
after(async () => {
  if (skip !== false) return;
  const admin = realClient();
  await admin.execute(`DROP TABLE IF EXISTS ${log}`);
  await admin.execute(`DROP TABLE IF EXISTS ${secrets}`);
  await admin.close();
  await proxy?.close();
});

const HOSTILE = (): Record<string, string>[] => [
  { query: `SELECT a FROM ${secrets} UNION ALL` },
  { query: `INSERT INTO ${log} FORMAT TSV` },
  { database: 'system' },
  { default_format: 'JSON' },
  { param_x: '1' },
  { user: 'default' },
  { password: 'x' },
  { query_id: 'mine' },
  { session_id: 's1' },
  { compress: '1' },
  { decompress: '1' },
  { stacktrace: '1' },
];

test('18.16: reserved names in per-call settings never leave the client (Node, web, compat)', { skip }, async () => {
  const clients = [
    ['http', createClient({ url: proxy!.url })],
    ['web', createWebClient({ url: proxy!.url })],
  ] as const;
  const compat = createCompat({ url: proxy!.url });
  try {
    // The server probe and one clean query first, so every later request would be the hostile one.
    for (const [, c] of clients) assert.deepEqual(await c.fetch("SELECT 'public' AS a"), [{ a: 'public' }]);
    await (await compat.query({ query: 'SELECT 1 AS x', format: 'JSONEachRow' })).json();
    const sent = proxy!.requests.length;
    for (const settings of HOSTILE()) {
      const name = Object.keys(settings)[0]!;
      const refused = (e: unknown): boolean => e instanceof ChwireConfigError && e.message.includes(`setting name "${name}" is not a setting`);
      for (const [kind, c] of clients) {
        await assert.rejects(c.fetch("SELECT 'public' AS a", { settings }), refused, `${kind} fetch ${name}`);
        await assert.rejects(c.execute("SELECT 'public' AS a", { settings }), refused, `${kind} execute ${name}`);
        await assert.rejects(c.insert(log, [{ line: 'x' }], { settings }), refused, `${kind} insert ${name}`);
      }
      // compat takes `default_format` (spelt so) as the official client's way to name exec's output
      // format: it becomes chwire's own format parameter, escaped, never a setting (below).
      if (name === 'default_format') continue;
      await assert.rejects(compat.query({ query: "SELECT 'public' AS a", format: 'JSONEachRow', clickhouse_settings: settings }), refused, `compat query ${name}`);
      await assert.rejects(compat.insert({ table: log, values: [{ line: 'x' }], format: 'JSONEachRow', clickhouse_settings: settings }), refused, `compat insert ${name}`);
    }
    assert.equal(proxy!.requests.length, sent, `no request reached the server: ${proxy!.requests.slice(sent).join(', ')}`);
    // compat's default_format: the query's own FORMAT wins (as with the official client) and the
    // request carries it once, as the request's parameter.
    const rs = await compat.query({ query: "SELECT 'public' AS a", format: 'JSONEachRow', clickhouse_settings: { default_format: 'TSV' } });
    assert.deepEqual(await rs.json(), [{ a: 'public' }]);
    const last = proxy!.requests.at(-1)!;
    assert.equal(last.match(/[?&]default_format=/g)?.length, 1, last);
    assert.match(last, /[?&]default_format=JSONEachRow(&|\s|$)/);
  } finally {
    for (const [, c] of clients) await c.close();
    await compat.close();
  }
  const admin = realClient();
  try {
    assert.deepEqual(await admin.fetch(`SELECT count() AS n FROM ${log}`), [{ n: 0n }], 'the log table was not written');
  } finally {
    await admin.close();
  }
});

test('18.16: reserved names in client-level settings are refused by createClient (every transport, compat)', { skip }, () => {
  const sent = proxy!.requests.length;
  for (const settings of HOSTILE()) {
    const name = Object.keys(settings)[0]!;
    const refused = (e: unknown): boolean => e instanceof ChwireConfigError && e.message.includes(`setting name "${name}" is not a setting`);
    assert.throws(() => createClient({ url: proxy!.url, settings }), refused, name);
    assert.throws(() => createWebClient({ url: proxy!.url, settings }), refused, name);
    assert.throws(() => createClient({ url: 'chdb://', settings }), refused, name);
    assert.throws(() => createCompat({ url: proxy!.url, clickhouse_settings: settings }), refused, name);
  }
  assert.equal(proxy!.requests.length, sent);
});

test('18.16: wait_end_of_query still passes (it only buffers the response); buffer_size is refused', { skip }, async () => {
  assert.throws(() => createClient({ url: proxy!.url, settings: { buffer_size: 1048576 } }), /buffer_size.*not a setting/);
  const c = createClient({ url: proxy!.url, settings: { wait_end_of_query: 1 } });
  try {
    assert.deepEqual(await c.fetch("SELECT 'public' AS a", { settings: { wait_end_of_query: 1 } }), [{ a: 'public' }]);
  } finally {
    await c.close();
  }
});
