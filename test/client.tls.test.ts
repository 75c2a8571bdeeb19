// HTTPS: the client against the loopback test server over TLS, with the certificates of
// test/fixtures/tls/ (a test CA valid until 2126; a server certificate for 127.0.0.1 and localhost
// and a client certificate, both signed by it; the CA's key was discarded). The `tls` option's
// `ca`, `cert`/`key`, `servername` and `rejectUnauthorized` each change the outcome.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createClient, ChwireConnectionError } from '../src/index.js';
import { startTestServer } from './support/test-server.js';

// Compiled to dist/test/: the fixtures stay in the source tree.
const dir = fileURLToPath(new URL('../../test/fixtures/tls/', import.meta.url));
const pem = (name: string): string => readFileSync(`${dir}${name}`, 'utf8');
const ca = pem('ca.crt');
const serverTls = { key: pem('server.key'), cert: pem('server.crt') };

const plain = await startTestServer({ tls: serverTls });
const mutual = await startTestServer({ tls: { ...serverTls, ca, requestCert: true } });
after(async () => { await plain.close(); await mutual.close(); });

const SQL = "SELECT number AS n, toString(number) AS s FROM numbers(1000)";

test('https with the server\'s CA: rows arrive; without it the certificate is refused', async () => {
  const c = createClient({ url: plain.url, tls: { ca } });
  const rows = await c.fetch<{ n: bigint; s: string }>(SQL);
  assert.equal(rows.length, 1000);
  assert.deepEqual(rows[999], { n: 999n, s: '999' });
  await c.close();

  const untrusted = createClient({ url: plain.url });
  await assert.rejects(untrusted.fetch('SELECT 1'), (e: unknown) => e instanceof ChwireConnectionError && /certificate/i.test(e.message));
  await untrusted.close();

  // Trusting the CA is not enough when the name does not match the certificate.
  const wrongName = createClient({ url: plain.url, tls: { ca, servername: 'db.example.com' } });
  await assert.rejects(wrongName.fetch('SELECT 1'), (e: unknown) => e instanceof ChwireConnectionError && /altnames|hostname|certificate/i.test(e.message));
  await wrongName.close();

  // Verification off: the user's explicit choice.
  const insecure = createClient({ url: plain.url, tls: { rejectUnauthorized: false } });
  assert.equal(await insecure.fetchValue('SELECT 7 AS x'), 7);
  await insecure.close();
});

test('a server that demands a client certificate: cert and key get in, nothing else does', async () => {
  const c = createClient({ url: mutual.url, tls: { ca, cert: pem('client.crt'), key: pem('client.key') } });
  assert.equal(await c.fetchValue('SELECT 8 AS x'), 8);
  let n = 0;
  for await (const _ of c.stream(SQL)) n++;
  assert.equal(n, 1000);
  await c.close();

  const anonymous = createClient({ url: mutual.url, tls: { ca } });
  await assert.rejects(anonymous.fetch('SELECT 1'), ChwireConnectionError);
  await anonymous.close();
});
