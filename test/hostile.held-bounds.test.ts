// Memory bounds that bound memory (issue 32, item 4), against a hostile loopback server: an endless
// stream of 1-row Native blocks (each ~20 bytes of body, ~270 bytes of heap once held as a block of
// columns) and an endless JSONEachRow text. Each buffered call must end in ChwireLimitError at the
// client's default bounds, in a child process whose V8 heap is small (--max-old-space-size=640,
// a little over twice the 256 MiB default bound): before, fetchColumns died at the heap limit
// (exit 134) and streamRaw(…).text()/json() held the body without any bound. Then the per-call and
// ceiling semantics: a call's own maxResultBytes on streamRaw, maxResultBytesCeiling refusing a
// call that asks for more (or for 0) before anything is sent, and capping the default.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { once } from 'node:events';
import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { createClient, fetchColumns, ChwireConfigError, ChwireLimitError } from '../src/index.js';

const servers: http.Server[] = [];
after(() => { for (const s of servers) { s.closeAllConnections(); s.close(); } });

/** One Native block of one row: a UInt64 column `n`. */
function oneRowBlock(): Buffer {
  const name = Buffer.from('n');
  const type = Buffer.from('UInt64');
  return Buffer.concat([Buffer.from([1, 1, name.length]), name, Buffer.from([type.length]), type, Buffer.alloc(8, 7)]);
}
const BLOCKS = Buffer.concat(Array.from({ length: 4096 }, oneRowBlock));
const LINES = Buffer.from('{"s":"x"}\n'.repeat(8192));

/**
 * A server that answers the version probe and KILL QUERY like a 23.8, and every other query with
 * an endless body of 1-row Native blocks (Native asked for) or JSONEachRow lines; it counts the
 * queries it was sent (the probe and KILLs apart). Every write loop is bounded.
 */
async function hostile(): Promise<{ url: string; queries: () => number }> {
  let queries = 0;
  const server = http.createServer((req, res) => {
    let sql = '';
    req.on('data', (c: Buffer) => { if (sql.length < 4096) sql += c.toString('latin1'); });
    req.on('end', () => {
      if (sql.includes('SELECT version()')) { res.writeHead(200, { 'Content-Type': 'text/tab-separated-values' }); res.end('23.8.1\tUTC\n'); return; }
      if (sql.startsWith('KILL QUERY')) { res.writeHead(200); res.end(); return; }
      queries++;
      const format = new URL(req.url ?? '/', 'http://x').searchParams.get('default_format') ?? 'Native';
      res.writeHead(200, { 'X-ClickHouse-Format': format });
      const chunk = format === 'Native' ? BLOCKS : LINES;
      void (async () => {
        res.on('error', () => {});
        for (let i = 0; i < 2_000_000 && !res.destroyed; i++) {
          if (!res.write(chunk)) await new Promise<void>((r) => { res.once('drain', r); res.once('close', r); });
        }
        if (!res.destroyed) res.end();
      })();
    });
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, queries: () => queries };
}

const CHILD = new URL('./support/held-bounds-child.js', import.meta.url).pathname;

function child(url: string, call: string): Promise<{ code: number | null; out: Record<string, unknown> | undefined; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--max-old-space-size=640', CHILD, url, call], { timeout: 60_000, maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : null;
      const line = stdout.trim().split('\n').pop();
      resolve({ code, out: line === undefined || line === '' ? undefined : JSON.parse(line) as Record<string, unknown>, stderr: stderr.slice(-500) });
    });
  });
}

for (const call of ['fetchColumns', 'text', 'json'] as const) {
  test(`an endless body: ${call === 'fetchColumns' ? 'fetchColumns (1-row Native blocks)' : `streamRaw(…).${call}() (JSONEachRow)`} at the default bounds ends in ChwireLimitError, in a 640 MB heap`, async () => {
    const { url } = await hostile();
    const r = await child(url, call);
    assert.equal(r.code, 0, `the child exited with ${r.code} (134: the V8 heap limit): ${r.stderr}`);
    assert.equal(r.out?.['error'], 'ChwireLimitError', JSON.stringify(r.out));
    assert.equal(r.out?.['limit'], 'maxResultBytes');
    assert.equal(r.out?.['bound'], 256 * 1024 * 1024);
    // The bound is one of memory: the process stays within ~2× of it (V8, buffers, the joins).
    assert.ok((r.out?.['peakRss'] as number) < 900e6, `peak RSS ${r.out?.['peakRss']}`);
    if (call !== 'text') assert.match(String(r.out?.['message']), /bytes held: the response body after decompression, and an estimate/);
  });
}

test('fetchColumns: what the blocks hold counts with their bytes, and the error says so', async () => {
  const { url } = await hostile();
  const c = createClient({ url, maxResultBytes: 4 << 20 });
  try {
    await assert.rejects(fetchColumns(c, 'SELECT n'), (e: unknown) => e instanceof ChwireLimitError && e.bound === 4 << 20
      && /larger than maxResultBytes \(4194304 bytes held: the response body after decompression, and an estimate of the blocks, columns and JS values decoded from it\)/.test(e.message));
  } finally {
    await c.close();
  }
});

test('streamRaw: a call\'s own maxResultBytes and maxResultRows bound text() and json(); a loop over the stream is not bounded by them', async () => {
  const { url } = await hostile();
  const c = createClient({ url, maxResultBytes: 1 << 20 });
  try {
    await assert.rejects(c.streamRaw('SELECT s', { format: 'JSONEachRow' }).text(), (e: unknown) => e instanceof ChwireLimitError && e.bound === 1 << 20 && /streamRaw is larger than maxResultBytes \(1048576 bytes/.test(e.message));
    await assert.rejects(c.streamRaw('SELECT s', { format: 'JSONEachRow', maxResultBytes: 3 << 20 }).text(), (e: unknown) => e instanceof ChwireLimitError && e.bound === 3 << 20);
    await assert.rejects(c.streamRaw('SELECT s', { format: 'JSONEachRow', maxResultBytes: 0, maxResultRows: 50_000 }).json(), (e: unknown) => e instanceof ChwireLimitError && e.limit === 'maxResultRows' && e.bound === 50_000);
    // A loop holds nothing: it reads past the bound (and stops when it wants).
    let n = 0;
    const s = c.streamRaw('SELECT s', { format: 'JSONEachRow', maxResultBytes: 1 << 16 });
    for await (const chunk of s) { n += chunk.byteLength; if (n > 4 << 20) break; }
    assert.ok(n > 4 << 20);
    assert.throws(() => c.streamRaw('SELECT s', { format: 'JSONEachRow', maxResultBytes: -1 }), ChwireConfigError);
  } finally {
    await c.close();
  }
});

test('maxResultBytesCeiling: a call may lower the bound, not raise it past the ceiling nor lift it with 0 (refused, nothing sent); the default is capped by it', async () => {
  const { url, queries } = await hostile();
  const c = createClient({ url, maxResultBytesCeiling: 2 << 20 });
  const r = createClient({ url, maxResultRowsCeiling: 1000 });
  try {
    for (const call of [
      () => fetchColumns(c, 'SELECT n', { maxResultBytes: 0 }),
      () => fetchColumns(c, 'SELECT n', { maxResultBytes: 4 << 20 }),
      () => c.fetch('SELECT n', { maxResultBytes: 0 }),
      () => r.fetch('SELECT n', { maxResultRows: 0 }),
      () => r.fetch('SELECT n', { maxResultRows: 1001 }),
      async () => c.streamRaw('SELECT s', { format: 'JSONEachRow', maxResultBytes: 0 }).text(),
    ]) {
      await assert.rejects(call(), (e: unknown) => e instanceof ChwireConfigError && /above the client's maxResult(Bytes|Rows)Ceiling \((2097152|1000)\): a call may lower the bound/.test(e.message));
    }
    assert.equal(queries(), 0, 'a refused call sent its query');
    // No bound of its own: the ceiling is the bound (not the 256 MiB default).
    await assert.rejects(c.streamRaw('SELECT s', { format: 'JSONEachRow' }).text(), (e: unknown) => e instanceof ChwireLimitError && e.bound === 2 << 20);
    // Lower than the ceiling: allowed, and it is the bound.
    await assert.rejects(fetchColumns(c, 'SELECT n', { maxResultBytes: 1 << 20 }), (e: unknown) => e instanceof ChwireLimitError && e.bound === 1 << 20);
    await assert.rejects(r.fetch('SELECT n', { maxResultRows: 10, format: 'Native' }), (e: unknown) => e instanceof ChwireLimitError && e.limit === 'maxResultRows' && e.bound === 10);
    // fetchColumns has no row bound by default: under a row ceiling, the ceiling is its bound.
    await assert.rejects(fetchColumns(r, 'SELECT n'), (e: unknown) => e instanceof ChwireLimitError && e.limit === 'maxResultRows' && e.bound === 1000);
  } finally {
    await c.close();
    await r.close();
  }
  // The client's own bound must be within its ceiling too.
  assert.throws(() => createClient({ url, maxResultBytes: 4 << 20, maxResultBytesCeiling: 2 << 20 }), (e: unknown) => e instanceof ChwireConfigError && /maxResultBytes of createClient is 4194304, above/.test(e.message));
  assert.throws(() => createClient({ url, maxResultBytes: 0, maxResultBytesCeiling: 2 << 20 }), ChwireConfigError);
  assert.throws(() => createClient({ url, maxResultBytesCeiling: 0 }), ChwireConfigError);
});
