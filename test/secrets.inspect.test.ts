// A client printed as a team would while debugging (console.log / util.inspect with every option,
// JSON.stringify, a template string) shows none of its credentials: password (given or in the URL),
// access token, proxy password. Before, util.inspect showed the transport's options, token included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { createClient } from '../src/index.js';

test('inspecting or serialising a client never shows a credential', async () => {
  const clients = [
    createClient({ url: 'http://u:pw-in-url-SECRET@127.0.0.1:1' }),
    createClient({ url: 'http://127.0.0.1:1', password: 'pw-option-SECRET' }),
    createClient({ url: 'http://127.0.0.1:1', accessToken: 'token-SECRET', proxy: 'http://p:proxy-pw-SECRET@127.0.0.1:2' }),
  ];
  try {
    for (const c of clients) {
      const shown = [
        inspect(c, { depth: Infinity, showHidden: true, getters: true }),
        JSON.stringify(c),
        `${String(inspect(c))}`,
      ].join('\n');
      assert.doesNotMatch(shown, /SECRET/);
      assert.match(inspect(c), /ChwireClient \{ transport: 'http' \}/);
    }
  } finally {
    for (const c of clients) await c.close();
  }
});
