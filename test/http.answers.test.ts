// The HTTP transport's per-request answer options against a loopback node:http server:
// `encodedBody` hands a compressed body over as the server sent it (error answers thrown are
// still decompressed), `errorAnswers: 'return'` hands an error answer back as the response, and an
// error body that will not decompress is a ChwireServerError whose cause is zlib's error.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { HttpTransport } from '../src/transport/http.js';
import type { TransportResponse } from '../src/transport/types.js';
import { ChwireDecodeError, ChwireServerError } from '../src/errors.js';

const ROWS = Buffer.from('{"result":42}\n'.repeat(500));
const ROWS_GZ = zlib.gzipSync(ROWS);
const ERROR_TEXT = 'Code: 62, e.displayText() = DB::Exception: Syntax error: failed at position 1, e.what() = DB::Exception\n';

// What the server answers, by the statement sent: rows, an error, a malformed "gzip" error, brotli.
const server = http.createServer((req, res) => {
  let sql = '';
  req.on('data', (c: Buffer) => { sql += c.toString(); });
  req.on('end', () => {
    if (sql === 'rows') { res.writeHead(200, { 'Content-Encoding': 'gzip', 'X-ClickHouse-Exception-Tag': 'abcdefghijklmnop' }); res.end(ROWS_GZ); return; }
    if (sql === 'error') { res.writeHead(500, { 'Content-Encoding': 'gzip', 'X-ClickHouse-Exception-Code': '62' }); res.end(zlib.gzipSync(ERROR_TEXT)); return; }
    if (sql === 'malformed') { res.writeHead(500, { 'Content-Encoding': 'gzip' }); res.end('A malformed response without compression'); return; }
    if (sql === 'brotli') { res.writeHead(200, { 'Content-Encoding': 'br' }); res.end(zlib.brotliCompressSync(ROWS)); return; }
    res.writeHead(404); res.end();
  });
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
after(() => server.close());
const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);

function transport(): HttpTransport {
  return new HttpTransport({ urls: [url], username: 'default', password: '', requestTimeout: 5000, maxOpenConnections: 4, keepAlive: true, idleSocketTtl: 2500, compression: true });
}

async function bytesOf(r: TransportResponse): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const c of r.body) parts.push(c);
  return Buffer.concat(parts);
}

async function rejection(p: Promise<unknown>): Promise<Error> {
  try { await p; } catch (e) { return e as Error; }
  assert.fail('expected a rejection');
}

test('encodedBody: a gzip body is handed over byte for byte as the server sent it, with its Content-Encoding, and not scanned for exceptions', async () => {
  const t = transport();
  try {
    const r = await t.request({ sql: 'rows', encodedBody: true });
    assert.deepEqual(await bytesOf(r), ROWS_GZ);
    assert.equal(r.headers?.['content-encoding'], 'gzip');
    assert.equal(r.exceptionsFramed, false);
    assert.equal(r.status, undefined);
    // Without it, the same answer is decompressed (and its exception framing read).
    const d = await t.request({ sql: 'rows' });
    assert.deepEqual(await bytesOf(d), ROWS);
    assert.equal(d.exceptionsFramed, true);
  } finally { await t.close(); }
});

test('encodedBody: an error answer is still decompressed and thrown as the server\'s error; an encoding not asked for is still refused', async () => {
  const t = transport();
  try {
    const e = await rejection(t.request({ sql: 'error', encodedBody: true }));
    assert.ok(e instanceof ChwireServerError);
    assert.equal(e.serverCode, 62);
    assert.match(e.message, /Syntax error/);
    assert.ok(await rejection(t.request({ sql: 'brotli', encodedBody: true })) instanceof ChwireDecodeError);
  } finally { await t.close(); }
});

test('errorAnswers return: the error answer is the response (its status, headers and body), decompressed or, with encodedBody, as sent', async () => {
  const t = transport();
  try {
    const d = await t.request({ sql: 'error', errorAnswers: 'return' });
    assert.equal(d.status, 500);
    assert.equal(d.headers?.['x-clickhouse-exception-code'], '62');
    assert.equal((await bytesOf(d)).toString(), ERROR_TEXT);
    const raw = await t.request({ sql: 'error', errorAnswers: 'return', encodedBody: true });
    assert.equal(raw.status, 500);
    assert.equal(raw.headers?.['content-encoding'], 'gzip');
    assert.equal(zlib.gunzipSync(await bytesOf(raw)).toString(), ERROR_TEXT);
  } finally { await t.close(); }
});

test('an error answer whose gzip body will not decompress: ChwireServerError saying so, with zlib\'s Z_DATA_ERROR as cause', async () => {
  const t = transport();
  try {
    const e = await rejection(t.request({ sql: 'malformed' }));
    assert.ok(e instanceof ChwireServerError);
    assert.equal(e.status, 500);
    assert.match(e.message, /not decompressible as gzip/);
    assert.equal((e.cause as { code?: string } | undefined)?.code, 'Z_DATA_ERROR');
  } finally { await t.close(); }
});
