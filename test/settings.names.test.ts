// A setting's name that is not an identifier is refused with ChwireConfigError before anything is
// sent (issue 17, item 16): chdb:// spliced names into the SQL's SETTINGS clause (a key such as
// 'max_threads=1&readonly' reached the parser), HTTP into URL parameters. Client-level and per-call
// settings, on chdb://, the Node HTTP transport and the web entry.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, ChwireConfigError, type Client } from '../src/index.js';
import { createClient as createWebClient } from '../src/web.js';
import { startTestServer } from './support/test-server.js';

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
