// Hostile servers against the bounds of issue 25 (items 3, 4, 6 and 13's slow body), on the
// node:http transport (chwire) and the fetch transport (chwire/web): decompression bombs as error
// bodies, an error body that never ends or comes one byte at a time, an endless valid
// RowBinaryWithNamesAndTypes body, a gzip row bomb, one String value of 1 GiB, a body that comes
// one byte at a time (ended by callTimeout, or by the call's AbortSignal.timeout). Each call must
// end with a typed error within a time bound, with the process's memory growth (peak RSS sampled
// during the call) under 300 MB. The bombs are made here with node:zlib; every server is on
// 127.0.0.1 and every write loop is bounded.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import zlib from 'node:zlib';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createClient, ChwireAbortError, ChwireLimitError, ChwireServerError, ChwireDecodeError, ChwireTimeoutError, type ClientOptions } from '../src/index.js';
import { createClient as createWebClient } from '../src/web.js';
import { ERROR_BODY_BYTES } from '../src/transport/server-error.js';

type Handler = (res: http.ServerResponse) => void | Promise<void>;

const servers: http.Server[] = [];
after(() => { for (const s of servers) { s.closeAllConnections(); s.close(); } });

/** A server that answers the version probe and KILL QUERY like a 23.8, and every query with `handler`. */
async function hostile(handler: Handler): Promise<string> {
  const server = http.createServer((req, res) => {
    let sql = '';
    req.on('data', (c: Buffer) => { if (sql.length < 4096) sql += c.toString('latin1'); });
    req.on('end', () => {
      if (sql.includes('SELECT version()')) { res.writeHead(200, { 'Content-Type': 'text/tab-separated-values' }); res.end('23.8.1\tUTC\n'); return; }
      if (sql.startsWith('KILL QUERY')) { res.writeHead(200); res.end(); return; }
      void Promise.resolve(handler(res)).catch(() => res.destroy());
    });
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Writes `chunk` until the client goes away (at most `max` times), waiting for drain. */
async function endless(res: http.ServerResponse, chunk: Buffer, max = 1_000_000, pauseMs = 0): Promise<void> {
  for (let i = 0; i < max && !res.destroyed && !res.writableEnded; i++) {
    if (!res.write(chunk)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
    if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
  }
  if (!res.destroyed) res.end();
}

// The bombs, made once: a brotli body of 1 GiB of text (~190 KB), and a gzip member of 16 MiB of
// text sent 64 times (a valid gzip body of several members: 1 GiB from ~1 MB).
const BROTLI_GIB = await (async () => {
  const enc = zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } });
  const parts: Buffer[] = [];
  enc.on('data', (c: Buffer) => parts.push(c));
  const chunk = Buffer.alloc(16 << 20, 'x');
  for (let i = 0; i < 64; i++) enc.write(chunk);
  enc.end();
  await once(enc, 'end');
  return Buffer.concat(parts);
})();
const GZIP_16MIB = zlib.gzipSync(Buffer.alloc(16 << 20, 'x'), { level: 9 });

/** A RowBinaryWithNamesAndTypes header of one column. */
function header(name: string, type: string): Buffer {
  return Buffer.concat([Buffer.from([1, name.length]), Buffer.from(name), Buffer.from([type.length]), Buffer.from(type)]);
}
function varint(n: number): Buffer {
  const out: number[] = [];
  while (n >= 0x80) { out.push((n & 0x7f) | 0x80); n = Math.floor(n / 128); }
  out.push(n);
  return Buffer.from(out);
}
/** `count` rows of a String column, each `len` bytes. */
function stringRows(count: number, len: number): Buffer {
  const row = Buffer.concat([varint(len), Buffer.alloc(len, 'r')]);
  return Buffer.concat(Array.from({ length: count }, () => row));
}

const MB = 1e6;

/** Runs `call`, sampling RSS every 25 ms: its outcome, how long it took and the peak RSS growth. */
async function measured(call: () => Promise<unknown>): Promise<{ error: unknown; ms: number; rssGrowth: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 25);
  const t0 = Date.now();
  let error: unknown;
  try { await call(); } catch (e) { error = e; }
  const ms = Date.now() - t0;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { error, ms, rssGrowth: peak - before };
}

const TRANSPORTS = [
  { name: 'node:http', make: (o: ClientOptions) => createClient(o) },
  { name: 'fetch (chwire/web)', make: (o: ClientOptions) => createWebClient(o as never) },
] as const;

type Case = {
  name: string;
  /** The one transport the case is for (else both). */
  only?: (typeof TRANSPORTS)[number]['name'];
  handler: Handler;
  opts: (transport: string) => ClientOptions;
  call: (c: ReturnType<typeof createClient>) => Promise<unknown>;
  check: (e: unknown) => void;
  withinMs: number;
};

const isCutServerError = (why: RegExp) => (e: unknown): void => {
  assert.ok(e instanceof ChwireServerError, `expected ChwireServerError, got ${String(e)}`);
  assert.equal(e.status, 500);
  assert.match(e.message, why);
  assert.ok(e.serverMessage.length <= ERROR_BODY_BYTES, `kept ${e.serverMessage.length} chars of the error body`);
};

const CASES: Case[] = [
  {
    name: 'a 500 whose brotli body is 1 GiB of text',
    handler: (res) => { res.writeHead(500, { 'Content-Encoding': 'br' }); res.end(BROTLI_GIB); },
    opts: (t) => ({ compression: t === 'node:http' ? { response: 'br' } : true, requestTimeout: 30_000 }),
    call: (c) => c.fetch('SELECT 1'),
    check: isCutServerError(/error body over 1048576 bytes of text, cut/),
    withinMs: 15_000,
  },
  {
    name: 'a 500 whose gzip body (64 members of 16 MiB each) is 1 GiB of text',
    handler: (res) => endless(res.writeHead(500, { 'Content-Encoding': 'gzip' }), GZIP_16MIB, 64),
    opts: () => ({ compression: true, requestTimeout: 30_000 }),
    call: (c) => c.fetch('SELECT 1'),
    check: isCutServerError(/error body over 1048576 bytes of text, cut/),
    withinMs: 15_000,
  },
  {
    name: 'a 500 whose plain body never ends',
    handler: (res) => endless(res.writeHead(500), Buffer.alloc(64 * 1024, 'e')),
    opts: () => ({ requestTimeout: 5000 }),
    call: (c) => c.fetch('SELECT 1'),
    check: isCutServerError(/error body over 1048576 bytes of text, cut/),
    withinMs: 10_000,
  },
  {
    name: 'a 500 whose body comes one byte every 100 ms, for ever',
    handler: (res) => endless(res.writeHead(500), Buffer.from('e'), 10_000, 100),
    opts: () => ({ requestTimeout: 2000 }),
    call: (c) => c.fetch('SELECT 1'),
    check: isCutServerError(/error body not complete within 2000 ms, cut/),
    withinMs: 8000,
  },
  {
    // node:http sends no Accept-Encoding with compression off; a fetch runtime sends its own.
    name: 'a 500 in an encoding the request did not ask for',
    only: 'node:http',
    handler: (res) => { res.writeHead(500, { 'Content-Encoding': 'br' }); res.end(BROTLI_GIB); },
    opts: () => ({ requestTimeout: 30_000 }),
    call: (c) => c.fetch('SELECT 1'),
    check: isCutServerError(/in Content-Encoding "br", which the request did not ask for/),
    withinMs: 10_000,
  },
  {
    name: 'a 200 in an encoding the request did not ask for',
    only: 'node:http',
    handler: (res) => { res.writeHead(200, { 'Content-Encoding': 'gzip' }); res.end(zlib.gzipSync(Buffer.concat([header('s', 'String'), stringRows(10, 10)]))); },
    opts: () => ({ requestTimeout: 30_000 }),
    call: (c) => c.fetch('SELECT 1'),
    check: (e) => { assert.ok(e instanceof ChwireDecodeError, String(e)); assert.match(e.message, /Content-Encoding "gzip", which the request did not ask for/); },
    withinMs: 10_000,
  },
  // The fetch transport reads what the runtime's fetch decoded, compression asked for or not (a
  // server compressing by default, or a proxy): the bounds hold on the decoded bytes.
  {
    name: 'a 500 whose brotli body is 1 GiB of text, compression not asked for',
    only: 'fetch (chwire/web)',
    handler: (res) => { res.writeHead(500, { 'Content-Encoding': 'br' }); res.end(BROTLI_GIB); },
    opts: () => ({ requestTimeout: 30_000 }),
    call: (c) => c.fetch('SELECT 1'),
    check: isCutServerError(/error body over 1048576 bytes of text, cut/),
    withinMs: 15_000,
  },
  {
    name: 'a gzip row bomb, compression not asked for',
    only: 'fetch (chwire/web)',
    handler: async (res) => {
      res.writeHead(200, { 'Content-Encoding': 'gzip' });
      res.write(zlib.gzipSync(header('s', 'String')));
      await endless(res, zlib.gzipSync(stringRows((16 << 20) / 101, 100), { level: 9 }), 64);
    },
    opts: () => ({ requestTimeout: 30_000, maxResultBytes: 32 << 20 }),
    call: (c) => c.fetch('SELECT s FROM bomb'),
    check: (e) => { assert.ok(e instanceof ChwireLimitError, String(e)); assert.equal(e.limit, 'maxResultBytes'); },
    withinMs: 20_000,
  },
  {
    name: 'a 500 in a coding no fetch decodes',
    only: 'fetch (chwire/web)',
    handler: (res) => { res.writeHead(500, { 'Content-Encoding': 'lz4' }); res.end(BROTLI_GIB); },
    opts: () => ({ requestTimeout: 30_000 }),
    call: (c) => c.fetch('SELECT 1'),
    check: isCutServerError(/in Content-Encoding "lz4", which no fetch decodes \(a fetch runtime decodes gzip, deflate, br and zstd, the codings it asks for itself\), not decoded/),
    withinMs: 10_000,
  },
  {
    name: 'a 200 in a coding no fetch decodes',
    only: 'fetch (chwire/web)',
    handler: (res) => { res.writeHead(200, { 'Content-Encoding': 'gzip, xz' }); res.end(BROTLI_GIB); },
    opts: () => ({ compression: true, requestTimeout: 30_000 }),
    call: (c) => c.fetch('SELECT 1'),
    check: (e) => { assert.ok(e instanceof ChwireDecodeError, String(e)); assert.match(e.message, /is in Content-Encoding "xz", which no fetch decodes/); },
    withinMs: 10_000,
  },
  {
    name: 'an endless valid RowBinaryWithNamesAndTypes body, read by fetch',
    handler: async (res) => { res.writeHead(200); res.write(header('s', 'String')); await endless(res, stringRows(64, 1000)); },
    opts: () => ({ requestTimeout: 30_000, maxResultBytes: 16 << 20 }),
    call: (c) => c.fetch('SELECT s FROM endless'),
    check: (e) => { assert.ok(e instanceof ChwireLimitError, String(e)); assert.equal(e.limit, 'maxResultBytes'); assert.equal(e.bound, 16 << 20); assert.match(e.message, /maxResultBytes \(16777216 bytes/); assert.match(e.message, /createClient\(\{ maxResultBytes: \d+ \}\)/); },
    withinMs: 20_000,
  },
  {
    name: 'an endless valid body, read by fetchColumns',
    handler: async (res) => {
      // Native: a block of 10 000 rows of a String column, again and again.
      const rows = 10_000;
      const block = Buffer.concat([varint(1), varint(rows), varint(1), Buffer.from('s'), varint(6), Buffer.from('String'), stringRows(rows, 100)]);
      res.writeHead(200);
      await endless(res, block);
    },
    opts: () => ({ requestTimeout: 30_000, maxResultBytes: 16 << 20 }),
    call: (c) => c.fetchColumns('SELECT s FROM endless'),
    check: (e) => { assert.ok(e instanceof ChwireLimitError, String(e)); assert.equal(e.limit, 'maxResultBytes'); },
    withinMs: 20_000,
  },
  {
    name: 'a gzip row bomb (64 members of 16 MiB of rows)',
    handler: async (res) => {
      res.writeHead(200, { 'Content-Encoding': 'gzip' });
      res.write(zlib.gzipSync(header('s', 'String')));
      const member = zlib.gzipSync(stringRows((16 << 20) / 101, 100), { level: 9 });
      await endless(res, member, 64);
    },
    opts: () => ({ compression: true, requestTimeout: 30_000, maxResultBytes: 32 << 20 }),
    call: (c) => c.fetch('SELECT s FROM bomb'),
    check: (e) => { assert.ok(e instanceof ChwireLimitError, String(e)); assert.equal(e.limit, 'maxResultBytes'); },
    withinMs: 20_000,
  },
  {
    name: 'a row bomb of narrow rows stops at maxResultRows',
    handler: async (res) => {
      res.writeHead(200, { 'Content-Encoding': 'gzip' });
      res.write(zlib.gzipSync(Buffer.concat([Buffer.from([1, 1]), Buffer.from('n'), Buffer.from([5]), Buffer.from('UInt8')])));
      await endless(res, zlib.gzipSync(Buffer.alloc(16 << 20), { level: 9 }), 64);
    },
    opts: () => ({ compression: true, requestTimeout: 30_000, maxResultRows: 1_000_000 }),
    call: (c) => c.fetch('SELECT n FROM bomb', { rows: 'array' }),
    check: (e) => { assert.ok(e instanceof ChwireLimitError, String(e)); assert.equal(e.limit, 'maxResultRows'); assert.match(e.message, /maxResultRows \(1000000 rows\)/); },
    withinMs: 20_000,
  },
  {
    name: 'one String value of 1 GiB',
    handler: async (res) => { res.writeHead(200); res.write(Buffer.concat([header('s', 'String'), varint(1 << 30)])); await endless(res, Buffer.alloc(1 << 20, 'v'), 1024); },
    opts: () => ({ requestTimeout: 30_000, maxResultBytes: 64 << 20 }),
    call: (c) => c.fetchValue('SELECT s FROM huge'),
    check: (e) => { assert.ok(e instanceof ChwireLimitError, String(e)); assert.equal(e.limit, 'maxResultBytes'); },
    withinMs: 20_000,
  },
  {
    name: 'a body that comes one byte every 200 ms, ended by the client\'s callTimeout (requestTimeout never fires)',
    handler: async (res) => { res.writeHead(200); res.write(header('s', 'String')); await endless(res, Buffer.from([0]), 1000, 200); },
    opts: () => ({ requestTimeout: 1000, callTimeout: 3000 }),
    call: (c) => c.fetch('SELECT s FROM slow'),
    check: (e) => { assert.ok(e instanceof ChwireTimeoutError, String(e)); assert.match(e.message, /^fetch did not end within 3000 ms \(callTimeout\)/); },
    withinMs: 8000,
  },
  {
    name: 'a body that comes one byte every 200 ms, ended by fetchColumns\' own callTimeout',
    // A Native block of a million UInt8 rows whose data comes one byte at a time.
    handler: async (res) => { res.writeHead(200); res.write(Buffer.concat([varint(1), varint(1_000_000), varint(1), Buffer.from('n'), varint(5), Buffer.from('UInt8')])); await endless(res, Buffer.from([1]), 1000, 200); },
    opts: () => ({ requestTimeout: 1000 }),
    call: (c) => c.fetchColumns('SELECT s FROM slow', { callTimeout: 2000 }),
    check: (e) => { assert.ok(e instanceof ChwireTimeoutError, String(e)); assert.match(e.message, /^fetchColumns did not end within 2000 ms \(callTimeout\)/); },
    withinMs: 8000,
  },
  {
    name: 'a body that comes one byte every 200 ms, ended by the call\'s AbortSignal.timeout (requestTimeout never fires)',
    handler: async (res) => { res.writeHead(200); res.write(header('s', 'String')); await endless(res, Buffer.from([0]), 1000, 200); },
    opts: () => ({ requestTimeout: 1000 }),
    call: (c) => c.fetch('SELECT s FROM slow', { signal: AbortSignal.timeout(3000) }),
    check: (e) => { assert.ok(e instanceof ChwireAbortError, String(e)); assert.equal((e.cause as Error | undefined)?.name, 'TimeoutError'); },
    withinMs: 8000,
  },
];

for (const t of TRANSPORTS) {
  for (const k of CASES) {
    if (k.only !== undefined && k.only !== t.name) continue;
    test(`${t.name}: ${k.name}: a typed error in bounded time and memory`, { timeout: 60_000 }, async () => {
      const url = await hostile(k.handler);
      const c = t.make({ url, retry: false, ...k.opts(t.name) } as ClientOptions) as ReturnType<typeof createClient>;
      try {
        const { error, ms, rssGrowth } = await measured(() => k.call(c));
        assert.ok(error !== undefined, 'the call succeeded');
        k.check(error);
        assert.ok(ms < k.withinMs, `took ${ms} ms (bound ${k.withinMs})`);
        assert.ok(rssGrowth < 300 * MB, `RSS grew by ${Math.round(rssGrowth / MB)} MB`);
      } finally {
        await c.destroy();
      }
    });
  }
}

test('a bound given per call replaces the client\'s; a stream refuses both bounds and callTimeout', async () => {
  const url = await hostile(async (res) => { res.writeHead(200); res.write(header('s', 'String')); await endless(res, stringRows(64, 1000), 200); });
  const c = createClient({ url, retry: false, maxResultBytes: 1 << 20 });
  try {
    const rows = await c.fetch('SELECT s FROM t', { maxResultBytes: 0 });
    assert.equal(rows.length, 200 * 64);
    await assert.rejects(c.fetch('SELECT s FROM t'), (e: unknown) => e instanceof ChwireLimitError && e.bound === 1 << 20);
    await assert.rejects(c.fetch('SELECT s FROM t', { maxResultRows: 100, maxResultBytes: 0 }), (e: unknown) => e instanceof ChwireLimitError && e.limit === 'maxResultRows');
    assert.throws(() => c.stream('SELECT s FROM t', { maxResultBytes: 10 }), /stream holds no result/);
    assert.throws(() => c.stream('SELECT s FROM t', { callTimeout: 10 }), /AbortSignal\.timeout/);
    await assert.rejects(c.fetch('SELECT s FROM t', { callTimeout: -1 }), /option callTimeout of fetch must be a non-negative number/);
    assert.throws(() => createClient({ url, maxResultRows: -1 }), /option maxResultRows must be a non-negative integer/);
  } finally {
    await c.destroy();
  }
});
