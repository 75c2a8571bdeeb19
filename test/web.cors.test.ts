// The CORS preflight (docs/web.md, Browsers): what a real 18.16 does with a browser's OPTIONS
// preflight (501 on `/`, no answer at all with a query string), and chwire/web on a page of another
// origin failing fast with an error that says so instead of waiting the whole requestTimeout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { createClient, ChwireConnectionError, ChwireTimeoutError } from '../src/web.js';
import { REAL_URL, SKIP_REAL } from './support/ch-server.js';

/** A browser's preflight: OPTIONS, no body and no Content-Length. Resolves with the status, or 'no answer'. */
function preflight(url: string, waitMs: number): Promise<number | 'no answer'> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'OPTIONS',
      headers: { Origin: 'http://page.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-clickhouse-user,x-clickhouse-key' },
    }, (res) => { res.resume(); resolve(res.statusCode ?? 0); });
    req.setTimeout(waitMs, () => { req.destroy(); resolve('no answer'); });
    req.on('error', reject);
    req.end();
  });
}

test('18.16 and a CORS preflight: 501 on /, no answer at all once the URL has a query string (as chwire\'s requests do)', { skip: SKIP_REAL, timeout: 20_000 }, async () => {
  assert.equal(await preflight(`${REAL_URL!}/`, 3000), 501);
  assert.equal(await preflight(`${REAL_URL!}/?default_format=TabSeparated&query_id=cors-1`, 2000), 'no answer');
});

test('chwire/web on a page of another origin: an unanswered first request fails after 10 s (not requestTimeout) and names the preflight', { timeout: 30_000 }, async () => {
  const held = new Set<net.Socket>();
  const hang = net.createServer((s) => { held.add(s); s.on('data', () => undefined); s.on('error', () => undefined); });
  await new Promise<void>((r) => hang.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(hang.address() as net.AddressInfo).port}`;
  const g = globalThis as { location?: unknown };
  g.location = { origin: 'http://page.example' };
  try {
    const c = createClient({ url, requestTimeout: 120_000 });
    const t0 = Date.now();
    const e = await c.fetchValue('SELECT 1').then(() => undefined, (x: unknown) => x);
    const took = Date.now() - t0;
    assert.ok(e instanceof ChwireTimeoutError, String(e));
    assert.ok(took >= 9500 && took < 15_000, `${took} ms`);
    assert.match(e.message, /within 10000 ms \(the version probe's limit[^)]*\); this page \(http:\/\/page\.example\) is on another origin, and a CORS preflight \(OPTIONS\)/);
    assert.match(e.message, /21\.10[\s\S]*18\.16 answers 501/);
    await c.close();
    // A refused connection on such a page carries the same hint (the browser shows a refused preflight so).
    const dead = createClient({ url: 'http://127.0.0.1:9', requestTimeout: 5000 });
    const r = await dead.fetchValue('SELECT 1').then(() => undefined, (x: unknown) => x);
    assert.ok(r instanceof ChwireConnectionError && /CORS preflight/.test(r.message), String(r));
    await dead.close();
  } finally {
    delete g.location;
    for (const s of held) s.destroy();
    await new Promise<void>((r) => hang.close(() => r()));
  }
  // Same origin (or no page): no hint.
  const plain = createClient({ url: 'http://127.0.0.1:9', requestTimeout: 5000 });
  const p = await plain.fetchValue('SELECT 1').then(() => undefined, (x: unknown) => x);
  assert.ok(p instanceof ChwireConnectionError && !/CORS/.test(p.message), String(p));
  await plain.close();
});
