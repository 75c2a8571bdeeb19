// Host selection, failover, retries and the pool wait against loopback test servers: every request
// (probe, ping, schema lookup, query) goes through one host selection; load balancing spreads
// calls; a refusing host is skipped for its cooldown and then probed once; retries follow the
// policy (statuses, Retry-After, "try again" server codes, query ids per attempt, bodies produced
// again); a closed client sends nothing; a full pool ends in a ChwireTimeoutError naming the
// streams that hold it.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { createClient, ChwireAbortError, ChwireConfigError, ChwireConnectionError, ChwireServerError, ChwireTimeoutError } from '../src/index.js';
import { HttpTransport } from '../src/transport/http.js';
import { HostSet, HostState } from '../src/transport/hosts.js';
import { backoff, parseRetryAfter, resolveRetry } from '../src/transport/retry.js';
import { startTestServer } from './support/test-server.js';

const a = await startTestServer();
const b = await startTestServer();
after(async () => { await a.close(); await b.close(); });

/** A loopback port nothing listens on (connections are refused). */
async function deadUrl(): Promise<string> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return `http://127.0.0.1:${port}`;
}

const count = (srv: typeof a, marker: string): number => srv.requests.filter((q) => q.sql.includes(marker)).length;

test('failover at start: the first host down, every call (probe, ping, version, fetch, insert) goes to the next; array and comma forms', async () => {
  const dead = await deadUrl();
  for (const url of [[dead, a.url], `${dead}, ${a.url}`]) {
    const c = createClient({ url, retry: false });
    assert.equal(await c.fetchValue('SELECT 1 AS x /* fo-start */'), 1);
    await c.ping();
    assert.match(await c.serverVersion(), /^26\./);
    await c.insert('t', [Buffer.from('1\n')], { format: 'TSV' });
    const [h0, h1] = c.hosts();
    assert.equal(h0!.up, false);
    assert.match(h0!.lastError ?? '', /ECONNREFUSED/);
    assert.equal(h1!.up, true);
    assert.ok(h1!.requests >= 4, `requests on the live host: ${h1!.requests}`);
    assert.equal(h1!.inFlight, 0);
    await c.close();
  }
});

test('every host down: ChwireConnectionError listing each host and its cause; hosts() shows no credentials', async () => {
  const [d1, d2] = [await deadUrl(), await deadUrl()];
  const c = createClient({ url: [d1.replace('http://', 'http://bob:pw-secret@'), d2], retry: false });
  await assert.rejects(c.fetchValue('SELECT 1'), (e: unknown) => e instanceof ChwireConnectionError
    && e.message.includes(new URL(d1).host) && e.message.includes(new URL(d2).host) && /ECONNREFUSED[\s\S]*ECONNREFUSED/.test(e.message)
    && !e.message.includes('pw-secret'));
  const hs = c.hosts();
  assert.equal(hs.length, 2);
  for (const h of hs) {
    assert.equal(h.up, false);
    assert.ok(!JSON.stringify(h).includes('pw-secret') && !JSON.stringify(h).includes('bob'), JSON.stringify(h));
  }
  await c.close();
});

test('loadBalancing: in-order sticks to the first host, round-robin alternates, random uses both', async () => {
  const run = async (loadBalancing: 'in-order' | 'round-robin' | 'random', marker: string): Promise<[number, number]> => {
    const c = createClient({ url: [a.url, b.url], loadBalancing });
    for (let i = 0; i < 20; i++) assert.equal(await c.fetchValue(`SELECT ${i} AS x ${marker}`), i);
    await c.close();
    return [count(a, marker), count(b, marker)];
  };
  assert.deepEqual(await run('in-order', '/* lb-in-order */'), [20, 0]);
  assert.deepEqual(await run('round-robin', '/* lb-rr */'), [10, 10]);
  const [ra, rb] = await run('random', '/* lb-random */');
  assert.equal(ra + rb, 20);
  assert.ok(ra > 0 && rb > 0, `random: ${ra} / ${rb}`);
  assert.throws(() => createClient({ loadBalancing: 'nearest' as never }), (e: unknown) => e instanceof ChwireConfigError && /loadBalancing/.test(e.message));
});

test('hostCooldown: a refusing host is skipped while another is up, then exactly one request probes it', async () => {
  // A host that refuses now and listens later: a port reserved, then served by a proxy to `a`.
  const dead = await deadUrl();
  const port = Number(new URL(dead).port);
  const c = createClient({ url: [dead, b.url], hostCooldown: 1500, retry: false });
  assert.equal(await c.fetchValue('SELECT 1 AS x /* cd-1 */'), 1);
  assert.equal(c.hosts()[0]!.up, false);
  const triedBefore = c.hosts()[0]!.requests;
  for (let i = 0; i < 5; i++) await c.fetchValue('SELECT 1 AS x /* cd-2 */');
  assert.equal(c.hosts()[0]!.requests, triedBefore, 'skipped during its cooldown');
  // The host comes back: after the cooldown, the next request probes it and traffic returns (in-order).
  const proxy = net.createServer((s) => { const u = net.connect(Number(new URL(a.url).port), '127.0.0.1'); s.pipe(u).pipe(s); s.on('error', () => u.destroy()); u.on('error', () => s.destroy()); });
  await new Promise<void>((r) => proxy.listen(port, '127.0.0.1', () => r()));
  try {
    await new Promise((r) => setTimeout(r, 1600));
    const marker = '/* cd-3 */';
    await Promise.all([c.fetchValue(`SELECT 1 AS x ${marker}`), c.fetchValue(`SELECT 1 AS x ${marker}`), c.fetchValue(`SELECT 1 AS x ${marker}`)]);
    assert.equal(c.hosts()[0]!.requests - triedBefore, 1, 'one probe while the others go to the host that is up');
    assert.equal(count(a, marker), 1);
    assert.equal(c.hosts()[0]!.up, true);
    await c.fetchValue(`SELECT 1 AS x /* cd-4 */`);
    assert.equal(count(a, '/* cd-4 */'), 1, 'in-order: back to the first host');
  } finally {
    await c.close();
    await new Promise<void>((r) => proxy.close(() => r()));
  }
});

test('retry: 503 then 502 then success, under new query ids; 429 waits its Retry-After; a "try again" server code is retried, others are not', async () => {
  const c = createClient({ url: a.url, retry: { attempts: 3, baseDelay: 1, maxDelay: 5 } });
  a.script('/* rt-1 */', [{ kind: 'status', status: 503 }, { kind: 'status', status: 502 }]);
  assert.equal(await c.fetchValue('SELECT 7 AS x /* rt-1 */', { queryId: 'rt1' }), 7);
  assert.deepEqual(a.requests.filter((q) => q.sql.includes('/* rt-1 */')).map((q) => q.params.get('query_id')), ['rt1', 'rt1-retry-1', 'rt1-retry-2']);

  a.script('/* rt-2 */', [{ kind: 'status', status: 429, retryAfter: '1' }]);
  const t0 = Date.now();
  assert.equal(await c.fetchValue('SELECT 8 AS x /* rt-2 */'), 8);
  assert.ok(Date.now() - t0 >= 950, `Retry-After 1 s honoured (${Date.now() - t0} ms)`);

  // Retry-After beyond the time budget: not waited for, the 429 is the error.
  const short = createClient({ url: a.url, requestTimeout: 500 });
  a.script('/* rt-3 */', [{ kind: 'status', status: 429, retryAfter: '5' }]);
  await assert.rejects(short.fetchValue('SELECT 1 /* rt-3 */'), (e: unknown) => e instanceof ChwireServerError && e.status === 429);
  assert.equal(count(a, '/* rt-3 */'), 1);
  await short.close();

  a.script('/* rt-4 */', [{ kind: 'status', status: 500, code: 202 }]);
  assert.equal(await c.fetchValue('SELECT 9 AS x /* rt-4 */'), 9);
  assert.equal(count(a, '/* rt-4 */'), 2);

  a.script('/* rt-5 */', [{ kind: 'status', status: 500, code: 241 }]);
  await assert.rejects(c.fetchValue('SELECT 1 /* rt-5 */'), (e: unknown) => e instanceof ChwireServerError && e.serverCode === 241);
  assert.equal(count(a, '/* rt-5 */'), 1, 'other server errors are not retried');

  // Out of attempts: the last error, with the earlier ones attached.
  a.script('/* rt-6 */', [{ kind: 'status', status: 503 }, { kind: 'status', status: 504 }, { kind: 'status', status: 502 }]);
  await assert.rejects(c.fetchValue('SELECT 1 /* rt-6 */'), (e: unknown) => e instanceof ChwireServerError && e.status === 502
    && (e.earlierAttempts ?? []).map((x) => (x as ChwireServerError).status).join() === '503,504');
  await c.close();
});

test('retry: writes are sent again only when harmless (refused, idempotent execute, a body that can be produced again)', async () => {
  const c = createClient({ url: a.url, retry: { attempts: 3, baseDelay: 1, maxDelay: 5 } });
  // execute: not retried unless idempotent.
  a.script('/* ex-1 */', [{ kind: 'status', status: 503 }]);
  await assert.rejects(c.execute('CREATE TABLE x /* ex-1 */'), (e: unknown) => e instanceof ChwireServerError && e.status === 503);
  assert.equal(count(a, '/* ex-1 */'), 1);
  a.script('/* ex-2 */', [{ kind: 'status', status: 503 }]);
  await c.execute('SELECT 1 /* ex-2 */', { idempotent: true });
  assert.equal(count(a, '/* ex-2 */'), 2);
  await assert.rejects(c.execute('SELECT 1', { idempotent: 'yes' as never }), ChwireConfigError);
  // An insert with a one-shot body: never sent twice.
  a.script('/* in-1 */', [{ kind: 'status', status: 503 }]);
  await assert.rejects(c.insert('t /* in-1 */', [Buffer.from('1\n')], { format: 'TSV' }), ChwireServerError);
  assert.equal(count(a, '/* in-1 */'), 1);
  // The transport contract: a body given as a function is produced again for each attempt.
  // (A connection per request: a reset on a reused socket within 200 ms would count as a stale socket, sent again under the same id.)
  const t = new HttpTransport({ urls: [new URL(a.url)], username: 'default', password: '', requestTimeout: 5000, maxOpenConnections: 2, keepAlive: false, idleSocketTtl: 2500, compression: false, retry: resolveRetry({ baseDelay: 1 }) });
  a.script('/* in-2 */', [{ kind: 'status', status: 503 }, { kind: 'reset' }]);
  let made = 0;
  const body = (): AsyncIterable<Uint8Array> => { made++; return (async function* () { yield Buffer.from('abc'); yield Buffer.from('def'); })(); };
  const r = await t.request({ sql: 'INSERT INTO t FORMAT TSV /* in-2 */', body, idempotent: true, queryId: 'in2' });
  for await (const _ of r.body) { /* empty */ }
  const sent = a.requests.filter((q) => q.sql.includes('/* in-2 */'));
  assert.equal(made, 3);
  assert.deepEqual(sent.map((q) => q.body.toString()), ['abcdef', 'abcdef', 'abcdef']);
  // The query id is kept only when the earlier attempt is known dead (a refusal), else suffixed.
  assert.deepEqual(sent.map((q) => q.params.get('query_id')), ['in2', 'in2-retry-1', 'in2-retry-2']);
  await t.close();
  // A refused connection sends nothing: even a one-shot insert body goes to the next host intact.
  const dead = await deadUrl();
  const f = createClient({ url: [dead, a.url], retry: false });
  await f.insert('t /* in-3 */', [Buffer.from('12\n'), Buffer.from('34\n')], { format: 'TSV' });
  assert.deepEqual(a.requests.filter((q) => q.sql.includes('/* in-3 */')).map((q) => q.body.toString()), ['12\n34\n']);
  await f.close();
  await c.close();
});

test('retry never goes past requestTimeout in total, and an abort ends the wait between attempts', async () => {
  const c = createClient({ url: a.url, requestTimeout: 400, retry: { attempts: 50, baseDelay: 100, maxDelay: 100 } });
  a.fault('/* budget */', { kind: 'status', status: 503 });
  const t0 = Date.now();
  await assert.rejects(c.fetchValue('SELECT 1 /* budget */'), (e: unknown) => e instanceof ChwireServerError || e instanceof ChwireTimeoutError);
  assert.ok(Date.now() - t0 < 1500, `${Date.now() - t0} ms`);
  assert.ok(count(a, '/* budget */') < 20, `${count(a, '/* budget */')} attempts`);
  const slow = createClient({ url: a.url, retry: { attempts: 5, baseDelay: 60_000, maxDelay: 60_000 } });
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 100);
  await assert.rejects(slow.fetchValue('SELECT 1 /* budget */', { signal: ac.signal }), ChwireAbortError);
  await c.close();
  await slow.close();
});

test('a destroyed client sends nothing more; destroy() fails what waits for a socket without sending it (close() would wait for the open stream)', async () => {
  const c = createClient({ url: a.url, maxOpenConnections: 1 });
  await c.fetchValue('SELECT 1 AS x');
  const s = c.stream('SELECT number FROM numbers(1000) /* hold-close */');
  a.fault('/* hold-close */', { kind: 'repeat', times: 2000 });
  const it = s[Symbol.asyncIterator]();
  await it.next();
  const waiting = c.fetchValue('SELECT 2 AS x /* never-sent */');
  await new Promise((r) => setTimeout(r, 100));
  const before = a.requests.length;
  const refused = assert.rejects(waiting, (e: unknown) => e instanceof ChwireAbortError && /client\.destroy\(\)/.test((e as Error).message));
  await c.destroy();
  await refused;
  await assert.rejects(c.fetchValue('SELECT 3 AS x'), ChwireConfigError);
  await assert.rejects(c.ping(), ChwireConfigError);
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(a.requests.length, before, 'nothing sent after destroy()');
  assert.equal(count(a, '/* never-sent */'), 0);
});

test('the wait for a pooled socket counts against requestTimeout and names the streams holding the pool', async () => {
  const c = createClient({ url: a.url, maxOpenConnections: 1, requestTimeout: 4000 });
  a.fault('/* held */', { kind: 'repeat', times: 2000 });
  const s = c.stream('SELECT number AS n, toString(number) AS s FROM numbers(1000) /* held */', { queryId: 'forgotten-stream' });
  for await (const _ of s) break; // not this: leaving the loop releases it
  const held = c.stream('SELECT number AS n, toString(number) AS s FROM numbers(1000) /* held */', { queryId: 'held-stream' });
  await held[Symbol.asyncIterator]().next(); // iterated once, then left
  const t0 = Date.now();
  await assert.rejects(c.fetchValue('SELECT 1'), (e: unknown) => e instanceof ChwireTimeoutError
    && /pool is exhausted/.test(e.message) && /1 of 1 connections in use/.test(e.message)
    && /held-stream idle for \d+\.\d s/.test(e.message) && !e.message.includes('forgotten-stream'));
  assert.ok(Date.now() - t0 < 15_000);
  // An abort while waiting for a socket ends the wait at once.
  const ac = new AbortController();
  const p = c.fetchValue('SELECT 1', { signal: ac.signal });
  setTimeout(() => ac.abort(), 50);
  await assert.rejects(p, ChwireAbortError);
  assert.equal(c.hosts()[0]!.inFlight, 1, 'only the held stream');
  held.cancel();
  assert.equal(await c.fetchValue('SELECT 1 AS x'), 1, 'the socket is free again once the stream is cancelled');
  assert.equal(c.hosts()[0]!.inFlight, 0);
  await c.close();
});

test('host selection (unit): order by policy, up hosts first, one probe after the cooldown', () => {
  let now = 0;
  const hosts = [0, 1, 2].map((i) => new HostState(new URL(`http://h${i}:8123`), i, undefined));
  const rr = new HostSet(hosts, 'round-robin', 1000, Math.random, () => now);
  assert.deepEqual(rr.order().map((h) => h.index), [0, 1, 2]);
  assert.deepEqual(rr.order().map((h) => h.index), [1, 2, 0]);
  rr.unreachable(hosts[1]!, 'refused');
  assert.deepEqual(rr.order().map((h) => h.index), [2, 0, 1], 'a down host last');
  assert.deepEqual(rr.order(new Set([hosts[0]!])).map((h) => h.index), [2, 0, 1]);
  now = 1000;
  assert.deepEqual(rr.order().map((h) => h.index), [1, 2, 0], 'its cooldown over, the host is probed first');
  rr.begin(hosts[1]!); // this request probes it
  assert.ok(hosts[1]!.probing);
  assert.deepEqual(rr.order().map((h) => h.index), [2, 0, 1], 'by one request only');
  rr.reached(hosts[1]!);
  assert.equal(hosts[1]!.up, true);
  // Backoff: full jitter under min(maxDelay, base·2^(n−1)); Retry-After as seconds or a date.
  const p = resolveRetry({ baseDelay: 100, maxDelay: 300 });
  assert.equal(backoff(p, 1, () => 0.999), 99);
  assert.equal(backoff(p, 3, () => 0.999), 299);
  assert.equal(backoff(p, 3, () => 0), 0);
  assert.equal(parseRetryAfter('2'), 2000);
  assert.equal(parseRetryAfter(new Date(10_000).toUTCString(), 4000), 6000);
  assert.equal(parseRetryAfter('soon'), undefined);
  for (const bad of [{ attempts: 0 }, { attempts: 1.5 }, { baseDelay: -1 }, { tries: 2 }, 3]) {
    assert.throws(() => createClient({ retry: bad as never }), ChwireConfigError);
  }
  assert.throws(() => createClient({ hostCooldown: -1 }), ChwireConfigError);
  assert.throws(() => createClient({ maxOpenConnections: 0 }), ChwireConfigError);
});

test('host selection (unit): a suspect host is skipped without an event; a hung one gets a /ping as its probe, never a request', () => {
  let now = 0;
  const due: number[] = [];
  const hosts = [0, 1].map((i) => new HostState(new URL(`http://h${i}:8123`), i, undefined));
  const set = new HostSet(hosts, 'in-order', 1000, Math.random, () => now, (h) => { due.push(h.index); });
  assert.ok(set.suspect(hosts[0]!));
  assert.ok(!set.suspect(hosts[0]!), 'one check at a time');
  assert.deepEqual(set.order().map((h) => h.index), [1, 0], 'suspect: last');
  assert.equal(hosts[0]!.up, true);
  set.cleared(hosts[0]!);
  assert.deepEqual(set.order().map((h) => h.index), [0, 1], 'only slow: back first');
  set.suspect(hosts[0]!);
  set.hung(hosts[0]!, 'no response head; /ping got no answer either');
  assert.equal(hosts[0]!.up, false);
  assert.deepEqual(set.order().map((h) => h.index), [1, 0]);
  now = 1000;
  assert.deepEqual(set.order().map((h) => h.index), [1, 0], 'its cooldown over, a hung host is not handed a request');
  assert.deepEqual(due, [0], 'a /ping probes it instead');
  set.order();
  assert.deepEqual(due, [0], 'one probe at a time');
  set.reached(hosts[0]!);
  assert.equal(hosts[0]!.up, true);
  assert.equal(hosts[0]!.lastError, undefined, 'lastError cleared when the host is back');
  assert.deepEqual(set.order().map((h) => h.index), [0, 1]);
});

test('a host that accepts connections and never answers leaves the rotation; only a /ping brings it back', async () => {
  // Accepts and reads, answers nothing; once `healed`, new connections are piped to `a`.
  let healed = false;
  const held = new Set<net.Socket>();
  const hang = net.createServer((s) => {
    if (healed) { const u = net.connect(Number(new URL(a.url).port), '127.0.0.1'); s.pipe(u).pipe(s); s.on('error', () => u.destroy()); u.on('error', () => s.destroy()); return; }
    held.add(s);
    s.on('data', () => undefined);
    s.on('error', () => undefined);
  });
  await new Promise<void>((r) => hang.listen(0, '127.0.0.1', () => r()));
  const hangUrl = `http://127.0.0.1:${(hang.address() as net.AddressInfo).port}`;
  const c = createClient({ url: [hangUrl, b.url], loadBalancing: 'round-robin', requestTimeout: 400, hostCooldown: 500, retry: false });
  try {
    let failed = 0;
    for (let i = 0; i < 12; i++) {
      try { assert.equal(await c.fetchValue(`SELECT ${i} AS x /* hang-1 */`), i); } catch (e) {
        failed++;
        assert.ok(e instanceof ChwireTimeoutError && e.host === new URL(hangUrl).href, String(e));
      }
    }
    assert.equal(failed, 1, 'one call pays the timeout, the rest go to the live host');
    for (let i = 0; i < 20 && c.hosts()[0]!.up; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(c.hosts()[0]!.up, false);
    assert.match(c.hosts()[0]!.lastError ?? '', /no response from .* within 400 ms[\s\S]*GET \/ping got no answer either/);
    // The cooldown passes: a /ping (no answer) keeps it down; the calls keep going to `b`.
    await new Promise((r) => setTimeout(r, 600));
    for (let i = 0; i < 4; i++) assert.equal(await c.fetchValue(`SELECT ${i} AS x /* hang-2 */`), i);
    assert.equal(count(b, '/* hang-2 */'), 4);
    healed = true;
    for (const s of held) s.destroy();
    const deadline = Date.now() + 5000;
    while (!c.hosts()[0]!.up && Date.now() < deadline) { await c.fetchValue('SELECT 1 AS x'); await new Promise((r) => setTimeout(r, 100)); }
    assert.equal(c.hosts()[0]!.up, true);
    assert.equal(c.hosts()[0]!.lastError, undefined);
    for (let i = 0; i < 4; i++) assert.equal(await c.fetchValue(`SELECT ${i} AS x /* hang-3 */`), i);
    assert.equal(count(a, '/* hang-3 */'), 2, 'back in the rotation');
  } finally {
    await c.close();
    for (const s of held) s.destroy();
    await new Promise<void>((r) => hang.close(() => r()));
  }
});

test('retry budget: under sustained 202s retries stop amplifying (≤ 20 % of calls + 10), without it every call is sent 3 times', async () => {
  const calls = 100;
  const run = async (budget: boolean): Promise<{ sent: number; errors: unknown[] }> => {
    const marker = `/* budget-${String(budget)} */`;
    a.fault(marker, { kind: 'status', status: 500, code: 202 });
    const c = createClient({ url: a.url, retry: { attempts: 3, baseDelay: 1, maxDelay: 2, ...(budget ? {} : { budget: false }) } });
    try {
      const errors = await Promise.all(Array.from({ length: calls }, () => c.fetchValue(`SELECT 1 AS x ${marker}`).then(() => undefined, (e: unknown) => e)));
      return { sent: count(a, marker), errors };
    } finally {
      await c.close();
    }
  };
  const without = await run(false);
  const withBudget = await run(true);
  assert.equal(without.sent, 3 * calls);
  assert.ok(withBudget.sent <= calls + 10 + 0.2 * calls, `${withBudget.sent} requests for ${calls} calls`);
  assert.ok(withBudget.sent > calls, 'some retries are still made');
  assert.ok(withBudget.errors.every((e) => e instanceof ChwireServerError && e.serverCode === 202));
  assert.ok(withBudget.errors.some((e) => /not retried: the retry budget \(retries at most 20 % of calls \+ 10 per 10000 ms\) is spent/.test((e as Error).message)));
});

test('an error after retries says so: attempts, hosts, where the time went, the last error as cause', async () => {
  const c = createClient({ url: [a.url, b.url], loadBalancing: 'round-robin', retry: { attempts: 3, baseDelay: 1, maxDelay: 2 } });
  a.script('/* summary-1 */', [{ kind: 'status', status: 500, code: 202 }, { kind: 'status', status: 500, code: 202 }]);
  b.script('/* summary-1 */', [{ kind: 'status', status: 500, code: 202 }, { kind: 'status', status: 500, code: 202 }]);
  const e = await c.fetchValue('SELECT 1 AS x /* summary-1 */').then(() => undefined, (x: unknown) => x);
  await c.close();
  assert.ok(e instanceof ChwireServerError && e.serverCode === 202, String(e));
  const [ua, ub] = [new URL(a.url).href, new URL(b.url).href];
  assert.match(e.message, /^after 3 attempts on http:\/\/127\.0\.0\.1:\d+\/, http:\/\/127\.0\.0\.1:\d+\/ \(\d+ ms waiting for connections, \d+ ms for the server, \d+ ms between attempts\): Code: 202\./);
  assert.ok(e.cause instanceof ChwireServerError && e.cause.serverCode === 202 && e.cause.host === e.host);
  assert.equal(e.earlierAttempts?.length, 2);
  assert.equal(e.timings?.attempts, 3);
  assert.deepEqual(new Set(e.timings?.hosts), new Set([ua, ub]));
  assert.ok(e.message.endsWith(`(host ${e.host})`));
});
