// A server that answers with a redirect (issue 25, item 2). chwire/web used to follow a 302/307/308
// to another host, sending it X-ClickHouse-User/Key (and the SQL or insert body on 307/308), and
// returned that host's rows as the result. No transport follows a redirect: the call fails with a
// ChwireConnectionError that names the target by origin and path (never its query string, which
// may carry secrets) and says chwire does not follow redirects; the second server, which records
// every connection and byte it receives, receives nothing. Real sockets on 127.0.0.1.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createClient, ChwireConnectionError, type Client } from '../src/index.js';
import { createClient as createWebClient } from '../src/web.js';
import { createClient as createCompat } from '../src/compat.js';

const USER = 'tenant';
const PASSWORD = 'tenant-secret-pw';

// The second server: a raw TCP listener, so even a connection that sends nothing is counted.
let thiefConnections = 0;
const thiefBytes: Buffer[] = [];
const thief = net.createServer((s) => {
  thiefConnections++;
  s.on('data', (d) => thiefBytes.push(d));
  s.on('error', () => undefined);
  // Answer like a ClickHouse with other rows, should anything arrive.
  s.once('data', () => s.end('HTTP/1.1 200 OK\r\nContent-Length: 22\r\n\r\n26.7.2.1\tUTC\nstolen\n\n'));
});
await new Promise<void>((r) => thief.listen(0, '127.0.0.1', r));
const thiefOrigin = `http://127.0.0.1:${(thief.address() as AddressInfo).port}`;

// The hostile server: answers the version probe (unless told to redirect it too), redirects the rest.
let status = 302;
let redirectProbe = false;
let location = `${thiefOrigin}/steal/here?token=SECRET-IN-QUERY#frag`;
const hostile = http.createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on('data', (d: Buffer) => parts.push(d));
  req.on('end', () => {
    const body = Buffer.concat(parts).toString('latin1');
    if (!redirectProbe && body.includes('SELECT version(), timezone()')) {
      res.writeHead(200, { 'Content-Type': 'text/tab-separated-values' });
      res.end('18.16.1\tUTC\n');
      return;
    }
    res.writeHead(status, { Location: location });
    res.end('moved');
  });
});
await new Promise<void>((r) => hostile.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;

after(async () => {
  await new Promise<void>((r) => hostile.close(() => r()));
  hostile.closeAllConnections();
  await new Promise<void>((r) => thief.close(() => r()));
});

const makers: [string, () => Client][] = [
  ['node', () => createClient({ url, username: USER, password: PASSWORD, retry: false })],
  ['web', () => createWebClient({ url, username: USER, password: PASSWORD }) as unknown as Client],
];

function refusedNaming(target: string) {
  return (e: unknown): boolean => {
    assert.ok(e instanceof ChwireConnectionError, `a ChwireConnectionError, got ${String(e)}`);
    const text = `${e.message}\n${e.stack ?? ''}`;
    assert.match(e.message, /chwire does not follow redirects/);
    assert.ok(e.message.includes(`to ${target};`), `names ${target}: ${e.message}`);
    assert.ok(!text.includes('SECRET-IN-QUERY') && !text.includes('token=') && !text.includes('frag'), 'no query string or fragment');
    assert.ok(!text.includes(PASSWORD), 'no password');
    return true;
  };
}

for (const [kind, make] of makers) {
  for (const code of [301, 302, 303, 307, 308]) {
    test(`${kind}: a ${code} is not followed, on a query and on an insert; nothing reaches the target`, async () => {
      status = code;
      redirectProbe = false;
      location = `${thiefOrigin}/steal/here?token=SECRET-IN-QUERY#frag`;
      const c = make();
      try {
        await assert.rejects(c.fetch("SELECT 'mine' AS a"), refusedNaming(`${thiefOrigin}/steal/here`));
        // (The insert's DESCRIBE is the request redirected here; compat's insert below sends a body.)
        await assert.rejects(c.insert('t', [{ a: 'secret row' }]), refusedNaming(`${thiefOrigin}/steal/here`));
      } finally {
        await c.close();
      }
      assert.equal(thiefConnections, 0, 'no connection to the redirect target');
      assert.equal(thiefBytes.length, 0);
    });
  }

  test(`${kind}: the version probe redirected, a relative Location, a Location with credentials`, async () => {
    status = 307;
    redirectProbe = true;
    const c = make();
    try {
      location = `${thiefOrigin}/x?password=SECRET-IN-QUERY`;
      await assert.rejects(c.fetch('SELECT 1'), refusedNaming(`${thiefOrigin}/x`));
      location = '/elsewhere?token=SECRET-IN-QUERY';
      await assert.rejects(c.fetch('SELECT 1'), refusedNaming(`${url}/elsewhere`));
      location = `http://u:SECRET-IN-QUERY@127.0.0.1:${(thief.address() as AddressInfo).port}/p`;
      await assert.rejects(c.fetch('SELECT 1'), refusedNaming(`${thiefOrigin}/p`));
    } finally {
      await c.close();
    }
    assert.equal(thiefConnections, 0);
  });
}

test('compat: a redirect is not followed either', async () => {
  status = 308;
  redirectProbe = true;
  location = `${thiefOrigin}/steal`;
  const c = createCompat({ url, username: USER, password: PASSWORD });
  try {
    const refused = (e: unknown): boolean => /chwire does not follow redirects/.test((e as Error).message) && (e as Error).message.includes(`${thiefOrigin}/steal`);
    await assert.rejects(c.query({ query: 'SELECT 1', format: 'JSONEachRow' }).then((r) => r.json()), refused);
    // An insert with a body (307/308 would make a following client resend it).
    redirectProbe = false;
    await assert.rejects(c.insert({ table: 't', values: [{ a: 'secret row' }], format: 'JSONEachRow' }), refused);
  } finally {
    await c.close();
  }
  assert.equal(thiefConnections, 0);
});

test('a browser-style opaque redirect (status 0, no headers) is refused, saying the target is hidden', async () => {
  redirectProbe = true;
  // What a browser's fetch returns for redirect: 'manual' (Response.type 'opaqueredirect', status 0).
  const opaque = async (_u: string, init: RequestInit): Promise<Response> => {
    assert.equal(init.redirect, 'manual');
    const r = new Response(null, { status: 200 });
    Object.defineProperty(r, 'type', { value: 'opaqueredirect' });
    Object.defineProperty(r, 'status', { value: 0 });
    return r;
  };
  const c = createWebClient({ url, username: USER, password: PASSWORD, fetch: opaque });
  try {
    await assert.rejects(c.fetch('SELECT 1'), (e: unknown) => e instanceof ChwireConnectionError && /a target the browser does not reveal/.test(e.message) && /does not follow redirects/.test(e.message));
  } finally {
    await c.close();
  }
});
