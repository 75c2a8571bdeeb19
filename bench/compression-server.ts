// The server side of bench:compression, run in a worker thread (so its compression work runs on
// another thread, as a real server's would): answers `SELECT version()`, serves one fixed body
// (real engine bytes handed over by the bench) for any other query, compressed per Accept-Encoding
// at level 3 (ClickHouse's http_zlib_compression_level default), and takes INSERT bodies:
// decompressed per Content-Encoding, counted, discarded, acknowledged with the decompressed byte
// count in X-ClickHouse-Summary (the bench's check that every codec delivered every byte).
import http from 'node:http';
import * as zlib from 'node:zlib';
import type { Transform } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import type { AddressInfo } from 'node:net';

type Z = typeof zlib & { createZstdCompress?: (o?: object) => Transform; createZstdDecompress?: () => Transform };
const z = zlib as Z;
const zc = zlib.constants as unknown as Record<string, number>;
const body = Buffer.from(workerData.body as Uint8Array);
const schema = Buffer.from(workerData.schema as Uint8Array);

function encoder(accept: string): [string, Transform] | undefined {
  if (accept === 'zstd' && z.createZstdCompress) return ['zstd', z.createZstdCompress({ params: { [zc['ZSTD_c_compressionLevel']!]: 3 } })];
  if (accept === 'br') return ['br', zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 3 } })];
  if (accept === 'gzip') return ['gzip', zlib.createGzip({ level: 3 })];
  if (accept === 'deflate') return ['deflate', zlib.createDeflate({ level: 3 })];
  return undefined;
}

function decoder(encoding: string | undefined): Transform | undefined {
  switch (encoding) {
    case 'gzip': return zlib.createGunzip();
    case 'deflate': return zlib.createInflate();
    case 'br': return zlib.createBrotliDecompress();
    case 'zstd': return z.createZstdDecompress!();
    default: return undefined;
  }
}

const server = http.createServer(async (req, res) => {
  const u = new URL(req.url ?? '/', 'http://x');
  const query = u.searchParams.get('query');
  if (query !== null && /^INSERT/i.test(query)) {
    const d = decoder(req.headers['content-encoding']);
    let n = 0;
    const src = d === undefined ? req : req.pipe(d);
    for await (const c of src) n += (c as Buffer).length;
    res.setHeader('X-ClickHouse-Summary', JSON.stringify({ written_bytes: String(n) }));
    res.end();
    return;
  }
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const sql = Buffer.concat(chunks).toString('utf8');
  if (/^\s*SELECT version\(\)/i.test(sql)) { res.end('26.7.2.1\n'); return; }
  if (sql.includes('system.columns')) { res.end(schema); return; }
  const enc = u.searchParams.get('enable_http_compression') === '1' ? encoder(String(req.headers['accept-encoding'] ?? '')) : undefined;
  res.setHeader('Content-Type', 'application/octet-stream');
  if (enc === undefined) { res.end(body); return; }
  res.setHeader('Content-Encoding', enc[0]);
  enc[1].pipe(res);
  // In 1 MiB pieces, like a server writing blocks.
  for (let i = 0; i < body.length; i += 1 << 20) {
    if (!enc[1].write(body.subarray(i, i + (1 << 20)))) await new Promise((r) => enc[1].once('drain', r));
  }
  enc[1].end();
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => parentPort!.postMessage((server.address() as AddressInfo).port));
