// Secrets of the request surface never leak: an access token (string and function), a proxy's
// password and a header value meant to be secret are provoked through every failure we can make
// (refused token, proxy 407 in both proxy modes, unreachable proxy, proxy's bad gateway, server
// error, timeout, abort, invalid option), and searched for in every URL the server and the proxy
// saw and in every error's message, stack, fields and cause chain (util.inspect walks them all).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createClient, type ClientOptions } from '../src/index.js';
import { startTestServer } from './support/test-server.js';
import { startForwardProxy } from './support/forward-proxy.js';

const TOKEN = 'tok3nS3cretValue.payload.sig';
const FN_TOKEN = 'fnTok3nS3cret.payload.sig';
const PROXY_PW = 'pr0xyS3cretPw';
const WRONG_PW = 'wr0ngPr0xyPw';
const HEADER_SECRET = 'h3aderS3cretValue';
const SECRETS = [TOKEN, FN_TOKEN, PROXY_PW, WRONG_PW, HEADER_SECRET];
// The encoded forms they travel in, which must not show up either.
const ENCODED = [PROXY_PW, WRONG_PW].map((pw) => Buffer.from(`pu:${pw}`).toString('base64'));

const dir = fileURLToPath(new URL('../../test/fixtures/tls/', import.meta.url));
const pem = (name: string): string => readFileSync(`${dir}${name}`, 'utf8');
const ca = pem('ca.crt');
const server = await startTestServer({ token: TOKEN });
const secure = await startTestServer({ token: TOKEN, tls: { key: pem('server.key'), cert: pem('server.crt') } });
const proxy = await startForwardProxy({ user: 'pu', password: PROXY_PW });
after(async () => { await server.close(); await secure.close(); await proxy.close(); });

/** Everything an error exposes: message, stack, own fields, the cause chain (inspect shows all). */
function exposed(e: unknown): string {
  const parts = [inspect(e, { depth: 20, showHidden: true, getters: true })];
  for (let x: unknown = e, i = 0; x !== undefined && x !== null && i < 10; x = (x as { cause?: unknown }).cause, i++) {
    if (x instanceof Error) parts.push(x.message, x.stack ?? '');
    try { parts.push(JSON.stringify(x)); } catch { /* cyclic: inspect covered it */ }
  }
  return parts.join('\n');
}

async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return exposed(e);
  }
  assert.fail('expected the call to fail');
}

test('token, proxy password and secret header values appear in no URL seen and no error', { timeout: 60_000 }, async () => {
  const texts: string[] = [];
  const proxied = `http://pu:${encodeURIComponent(PROXY_PW)}@127.0.0.1:${proxy.port}`;
  const wrongProxy = `http://pu:${WRONG_PW}@127.0.0.1:${proxy.port}`;
  const headers = { 'X-Api-Key': HEADER_SECRET };
  const make = (o: ClientOptions) => createClient({ requestTimeout: 3000, httpHeaders: headers, ...o });

  // Working calls, so the secrets are really sent (and then searched for in the URLs).
  const ok = make({ url: server.url, accessToken: TOKEN, proxy: proxied });
  assert.equal(await ok.fetchValue('SELECT 1 AS x'), 1);
  await ok.insert('t', [Buffer.from('1\n')], { format: 'TSV' });
  const okFn = make({ url: secure.url, tls: { ca }, accessToken: async () => FN_TOKEN.length > 0 ? TOKEN : '', proxy: proxied });
  assert.equal(await okFn.fetchValue('SELECT 2 AS x'), 2);

  // Failures of every kind.
  const badToken = make({ url: server.url, accessToken: () => FN_TOKEN, proxy: proxied });
  texts.push(await failure(badToken.fetch('SELECT 1')));
  texts.push(await failure(badToken.insert('t', [Buffer.from('1\n')], { format: 'TSV' })));
  texts.push(await failure(ok.fetch('SELECT * FROM missing_table_secret_test')));
  server.fault('/* secret-stall */', { kind: 'stall', at: 10 });
  texts.push(await failure(ok.fetch('SELECT number FROM numbers(10) /* secret-stall */')));
  const ac = new AbortController();
  const aborted = ok.fetch('SELECT number FROM numbers(10) /* secret-stall */', { signal: ac.signal });
  setTimeout(() => ac.abort(new Error('user abort')), 50);
  texts.push(await failure(aborted));
  for (const url of [server.url, secure.url]) {
    const c = make({ url, tls: url === secure.url ? { ca } : undefined, accessToken: TOKEN, proxy: wrongProxy });
    texts.push(await failure(c.fetch('SELECT 1')));
    await c.close();
  }
  const noServer = make({ url: 'http://127.0.0.1:1', accessToken: TOKEN, proxy: proxied });
  texts.push(await failure(noServer.fetch('SELECT 1')));
  await noServer.close();
  for (const url of ['http://127.0.0.1:9', secure.url]) {
    const noProxy = make({ url, tls: url === secure.url ? { ca } : undefined, accessToken: TOKEN, proxy: 'http://pu:' + encodeURIComponent(PROXY_PW) + '@127.0.0.1:1' });
    texts.push(await failure(noProxy.fetch('SELECT 1')));
    await noProxy.close();
  }
  texts.push(await failure(ok.fetch('SELECT 1', { httpHeaders: { 'X-Api-Key': `${HEADER_SECRET}\r\n` } })));
  texts.push(await failure(Promise.resolve().then(() => createClient({ url: server.url, accessToken: TOKEN, password: PROXY_PW }))));
  texts.push(await failure(Promise.resolve().then(() => createClient({ url: server.url, accessToken: `${TOKEN} ` }))));
  texts.push(await failure(Promise.resolve().then(() => createClient({ url: server.url, proxy: `https://pu:${PROXY_PW}@h:1` }))));
  for (const c of [ok, okFn, badToken]) await c.close();

  const urls = [...server.requests.map((r) => r.url), ...secure.requests.map((r) => r.url), ...proxy.lines];
  assert.ok(server.requests.some((r) => r.headers['authorization'] === `Bearer ${TOKEN}`), 'the token was really sent');
  assert.ok(proxy.authorizations.length > 0, 'the proxy credentials were really sent');
  assert.ok(texts.length >= 14);
  for (const s of [...SECRETS, ...ENCODED]) {
    for (const u of urls) assert.ok(!u.includes(s), `a URL holds a secret: ${u}`);
    for (const t of texts) assert.ok(!t.includes(s), `an error exposes a secret:\n${t}`);
  }
});
