// The tls option's checks at createClient (issue 25, item 13). `rejectUnauthorized: 'false'` or `0`
// was accepted (Node verifies for any value but false, so it failed safe, but silently read
// otherwise than written), and a tls option on a client whose every URL is http:// was ignored
// without a word. Both are refused now, naming the option; compat's tls goes the same way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, ChwireConfigError } from '../src/index.js';
import { createClient as createCompat } from '../src/compat.js';

test('tls.rejectUnauthorized must be a boolean; tls.servername a string', () => {
  for (const v of ['false', 0, 1, 'true', null, {}]) {
    assert.throws(() => createClient({ url: 'https://127.0.0.1:9', tls: { rejectUnauthorized: v as never } }),
      (e: unknown) => e instanceof ChwireConfigError && /^option tls\.rejectUnauthorized must be a boolean, got /.test(e.message), JSON.stringify(v));
  }
  assert.throws(() => createClient({ url: 'https://127.0.0.1:9', tls: { servername: 5 as never } }), (e: unknown) => e instanceof ChwireConfigError && /tls\.servername must be a string/.test(e.message));
  for (const v of [true, false]) createClient({ url: 'https://127.0.0.1:9', tls: { rejectUnauthorized: v } }).close();
});

test('a tls option where every URL is http:// is refused (TLS options need https)', () => {
  const refused = (e: unknown): boolean => e instanceof ChwireConfigError && /option tls applies to https:\/\/ URLs only/.test(e.message);
  assert.throws(() => createClient({ url: 'http://127.0.0.1:9', tls: { ca: 'x' } }), refused);
  assert.throws(() => createClient({ url: ['http://127.0.0.1:9', 'http://127.0.0.1:10'], tls: { rejectUnauthorized: false } }), refused);
  assert.throws(() => createCompat({ url: 'http://127.0.0.1:9', tls: { ca_cert: Buffer.from('x') } }), refused);
  // One https URL among them: the option applies to it.
  void createClient({ url: ['http://127.0.0.1:9', 'https://127.0.0.1:10'], tls: { rejectUnauthorized: true } }).close();
  void createClient({ url: 'https://127.0.0.1:9', tls: { ca: 'x' } }).close();
});
