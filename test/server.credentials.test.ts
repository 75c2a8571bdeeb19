// Credentials at createClient (issue 25, item 11). A password with CR/LF/NUL was accepted and failed
// at the first call with Node's plain TypeError ERR_INVALID_CHAR (not a ChwireError); a non-Latin-1
// one (пароль😀) the same, and a Latin-1 one (café) went as the single byte E9, a wrong password.
// Now control characters are refused at createClient naming the option (never the value), and any
// other character travels as UTF-8, which Debian's 18.16 accepts: .ci/clickhouse-config.sh
// configures chwire_utf8 / пароль😀, chwire_latin1 / café (SHA-256) and пользователь / ключ.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, ChwireConfigError, ChwireServerError, type Client } from '../src/index.js';
import { createClient as createWebClient } from '../src/web.js';
import { createClient as createCompat } from '../src/compat.js';
import { REAL_URL, SKIP_REAL } from './support/ch-server.js';

const skip = SKIP_REAL;
const USERS: [string, string][] = [['chwire_utf8', 'пароль😀'], ['chwire_latin1', 'café'], ['пользователь', 'ключ']];
const WHOAMI = "SELECT user FROM system.processes WHERE query LIKE '%whoami_marker_25%' LIMIT 1";

const makers: [string, (o: { username?: string; password?: string; url?: string }) => Client][] = [
  ['node', (o) => createClient({ url: REAL_URL, ...o })],
  ['web', (o) => createWebClient({ url: REAL_URL!, ...o }) as unknown as Client],
];

for (const [kind, make] of makers) {
  test(`18.16 ${kind}: non-ASCII user names and passwords authenticate (sent as UTF-8)`, { skip }, async () => {
    for (const [username, password] of USERS) {
      const c = make({ username, password });
      try {
        assert.deepEqual(await c.fetch(WHOAMI), [{ user: username }], username);
      } finally {
        await c.close();
      }
      // In the URL too (percent-encoded, as a URL carries them).
      const u = new URL(REAL_URL!);
      u.username = encodeURIComponent(username);
      u.password = encodeURIComponent(password);
      const d = make({ url: u.href });
      try {
        assert.deepEqual(await d.fetch(WHOAMI), [{ user: username }], `${username} in the URL`);
      } finally {
        await d.close();
      }
    }
    // A wrong non-ASCII password is the server's refusal, a ChwireServerError, not a TypeError.
    const w = make({ username: 'chwire_utf8', password: 'пароль😁' });
    try {
      await assert.rejects(w.fetch('SELECT 1'), (e: unknown) => e instanceof ChwireServerError && e.serverCode === 193 && !e.message.includes('пароль'));
    } finally {
      await w.close();
    }
  });
}

test('18.16 compat: a UTF-8 password authenticates', { skip }, async () => {
  const c = createCompat({ url: REAL_URL, username: 'chwire_utf8', password: 'пароль😀' });
  try {
    assert.deepEqual(await (await c.query({ query: WHOAMI, format: 'JSONEachRow' })).json(), [{ user: 'chwire_utf8' }]);
  } finally {
    await c.close();
  }
});

const BAD = ['qz\rqz', 'qz\nqz', 'qz\r\nX-Injected: 1', 'qz\0qz', 'qz\tqz', 'qz\x7fqz', 'qz\x1bqz', 'qz\uD800qz'];

test('control characters and lone surrogates in username/password are refused at createClient, naming the option only', () => {
  for (const bad of BAD) {
    for (const option of ['username', 'password'] as const) {
      const refused = (e: unknown): boolean => e instanceof ChwireConfigError && e.message.startsWith(`option ${option} `) && !e.message.includes(bad) && !e.message.includes('qz');
      const o = { url: 'http://127.0.0.1:9', [option]: bad };
      assert.throws(() => createClient(o), refused, `node ${option} ${JSON.stringify(bad)}`);
      assert.throws(() => createWebClient(o), refused, `web ${option} ${JSON.stringify(bad)}`);
      assert.throws(() => createCompat(o), refused, `compat ${option} ${JSON.stringify(bad)}`);
      // In the URL (percent-encoded), as the option it becomes.
      if (!bad.includes('\uD800')) {
        const u = new URL('http://127.0.0.1:9');
        if (option === 'username') u.username = encodeURIComponent(bad); else { u.username = 'u'; u.password = encodeURIComponent(bad); }
        assert.throws(() => createClient({ url: u.href }), refused, `url ${option} ${JSON.stringify(bad)}`);
      }
    }
  }
  // An access token that a header cannot carry is refused the same way, its value not shown.
  for (const bad of ['vw\r\nX: 1', 'vw\0', 'vwö']) {
    assert.throws(() => createClient({ url: 'http://127.0.0.1:9', accessToken: bad }), (e: unknown) => e instanceof ChwireConfigError && /access token/.test(e.message) && !e.message.includes('vw'));
    assert.throws(() => createCompat({ url: 'http://127.0.0.1:9', access_token: bad }), (e: unknown) => e instanceof ChwireConfigError && !e.message.includes('vw'));
  }
});
