// npm run bench:compression — what each HTTP compression codec costs or saves (issue 11): a
// 1M-row read and a 1M-row insert over loopback, per codec (none, gzip, deflate, br, and zstd
// where node:zlib has it: Node 22.15+ / 23.8+), with the bytes each puts on the wire.
//
// Server: bench/compression-server.ts in a worker thread, serving the engine's own
// RowBinaryWithNamesAndTypes bytes of READ_SQL (made once), compressed at level 3 as ClickHouse
// does by default; inserts are decompressed there and counted. Loopback bandwidth is practically
// unlimited, so the table shows the CPU price of each codec; `pays below` is the link speed under
// which the bytes saved outweigh that price: (bytes saved) / (extra time).
// Checks before timing: every read path returns the same rows (count and a checksum of every
// value); every insert path's server-side decompressed byte count equals the uncompressed body's.
import { Worker } from 'node:worker_threads';
import * as zlib from 'node:zlib';
import { createClient, type Client } from '../src/index.js';
import { compileNativeEncoder, nativeBlocks } from '../src/native/index.js';
import { zstdAvailable } from '../src/transport/codecs.js';
import { engineBytes } from '../test/support/engine.js';
import { Bench, type BenchPath } from './harness.js';

const bench = new Bench('compression');
const ROWS = Number(process.env['BENCH_ROWS'] ?? '') || 1_000_000;
type Codec = 'none' | 'gzip' | 'deflate' | 'br' | 'zstd';
const CODECS: Codec[] = ['none', 'gzip', 'deflate', 'br', ...(zstdAvailable() ? ['zstd' as const] : [])];
bench.note(`rows per case: ${ROWS} (BENCH_ROWS overrides; the harness header's row count is not used here)`);
if (!zstdAvailable()) bench.note(`zstd skipped: node:zlib has no zstd in Node ${process.versions.node} (22.15+ / 23.8+)`);

const SCHEMA = [['id', 'UInt64'], ['name', 'String'], ['ts', "DateTime('UTC')"], ['score', 'Float64'], ['delta', 'Int32']] as const;
const READ_SQL = `SELECT number AS id, concat('user_', toString(number % 1000)) AS name, toDateTime(1700000000 + number, 'UTC') AS ts, number / 7 AS score, toInt32(toInt32(number % 100000) - 50000) AS delta FROM numbers(${ROWS})`;
const payload = await engineBytes(READ_SQL, 'RowBinaryWithNamesAndTypes');
// What DESCRIBE (system.columns) of the insert's table answers, made by the engine too.
const schemaRows = await engineBytes(`SELECT c.1 AS name, c.2 AS type FROM (SELECT arrayJoin([${SCHEMA.map(([n, t]) => `('${n}', '${t.replace(/'/g, "\\'")}')`).join(', ')}]) AS c)`, 'RowBinaryWithNamesAndTypes');
const worker = new Worker(new URL('./compression-server.js', import.meta.url), { workerData: { body: payload, schema: schemaRows } });
const port = await new Promise<number>((r) => worker.once('message', r));
const url = `http://127.0.0.1:${port}`;

const clients = new Map<Codec, Client>(CODECS.map((c) => [c, createClient({ url, compression: c === 'none' ? false : { response: c, request: c } })]));

// Bytes on the wire per codec, at the levels each side uses (server: level 3; client: fast settings).
const zc = zlib.constants as unknown as Record<string, number>;
const zz = zlib as unknown as { zstdCompressSync?: (b: Buffer, o?: object) => Buffer };
function wireSize(codec: Codec, b: Buffer, level: 'server' | 'client'): number {
  const l = level === 'server' ? 3 : 1;
  switch (codec) {
    case 'none': return b.length;
    case 'gzip': return zlib.gzipSync(b, { level: l }).length;
    case 'deflate': return zlib.deflateSync(b, { level: l }).length;
    case 'br': return zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: l } }).length;
    case 'zstd': return zz.zstdCompressSync!(b, { params: { [zc['ZSTD_c_compressionLevel']!]: l } }).length;
    default: throw new Error(`codec ${String(codec)}`);
  }
}

interface Summary { rows: number; check: number }
function summarise(rows: { id: bigint; name: string; ts: Date; score: number; delta: number }[]): Summary {
  let check = 0;
  for (const r of rows) check = (check + Number(r.id) + r.name.length + r.ts.getTime() / 1000 + r.score + r.delta) % 1e12;
  return { rows: rows.length, check: Math.round(check) };
}

const readBytes = new Map<Codec, number>(CODECS.map((c) => [c, wireSize(c, Buffer.from(payload), 'server')]));
const read = await bench.run({
  name: 'read',
  title: `fetch of ${ROWS} rows (UInt64, String, DateTime, Float64, Int32; ${(payload.length / 2 ** 20).toFixed(1)} MiB RowBinary) per response codec`,
  rows: ROWS,
  baselines: ['none'],
  paths: CODECS.map((c): BenchPath<Summary> => ({ name: c, run: async () => summarise(await clients.get(c)!.fetch(READ_SQL)) })),
  expected: summarise(await clients.get('none')!.fetch(READ_SQL)),
});

// Insert: the same rows as objects, Native-encoded by the client in 65 536-row blocks, compressed
// as they stream. The schema lookup happens in the check run (then cached), never timed.
const insertRows = Array.from({ length: ROWS }, (_, i) => ({ id: i, name: `user_${i % 1000}`, ts: new Date((1_700_000_000 + i) * 1000), score: i / 7, delta: (i % 100_000) - 50_000 }));
const encoder = compileNativeEncoder(SCHEMA.map(([name, type]) => ({ name, type })), 'object');
const blocks: Uint8Array[] = [];
for await (const b of nativeBlocks(insertRows, encoder, 65_536)) blocks.push(...b);
const nativeBody = Buffer.concat(blocks);
const insertBytes = new Map<Codec, number>(CODECS.map((c) => [c, wireSize(c, nativeBody, 'client')]));
const insert = await bench.run({
  name: 'insert',
  title: `insert of ${ROWS} row objects (same schema, Native in 65 536-row blocks, ${(nativeBody.length / 2 ** 20).toFixed(1)} MiB) per request codec`,
  rows: ROWS,
  baselines: ['none'],
  paths: CODECS.map((c): BenchPath<number> => ({
    name: c,
    run: async () => Number((await clients.get(c)!.insert('bench_t', insertRows, { blockSize: 65_536 })).summary?.['written_bytes']),
  })),
  expected: nativeBody.length,
});

// The codec's CPU alone (no HTTP, no decoding), synchronous node:zlib on the same bytes: what a
// response costs to decompress (server level 3) and an insert body to compress (client settings).
const zsync = zlib as unknown as { zstdDecompressSync?: (b: Buffer) => Buffer };
const plainPayload = Buffer.from(payload);
const packed = new Map<Codec, Buffer>();
for (const c of CODECS) {
  if (c === 'none') continue;
  const l = 3;
  packed.set(c, c === 'gzip' ? zlib.gzipSync(plainPayload, { level: l }) : c === 'deflate' ? zlib.deflateSync(plainPayload, { level: l })
    : c === 'br' ? zlib.brotliCompressSync(plainPayload, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: l } })
      : zz.zstdCompressSync!(plainPayload, { params: { [zc['ZSTD_c_compressionLevel']!]: l } }));
}
const unpack = (c: Codec, b: Buffer): Buffer => c === 'gzip' ? zlib.gunzipSync(b) : c === 'deflate' ? zlib.inflateSync(b) : c === 'br' ? zlib.brotliDecompressSync(b) : zsync.zstdDecompressSync!(b);
await bench.run({
  name: 'decompress',
  title: `decompressing the read's ${(plainPayload.length / 2 ** 20).toFixed(1)} MiB response body (compressed at level 3), node:zlib sync`,
  rows: ROWS,
  baselines: ['gzip'],
  paths: CODECS.filter((c) => c !== 'none').map((c): BenchPath<number> => ({ name: c, run: () => unpack(c, packed.get(c)!).length })),
  expected: plainPayload.length,
});
const fast = (c: Codec, b: Buffer): Buffer => c === 'gzip' ? zlib.gzipSync(b, { level: 1 }) : c === 'deflate' ? zlib.deflateSync(b, { level: 1 })
  : c === 'br' ? zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } })
    : zz.zstdCompressSync!(b, { params: { [zc['ZSTD_c_compressionLevel']!]: 1 } });
await bench.run({
  name: 'compress',
  title: `compressing the insert's ${(nativeBody.length / 2 ** 20).toFixed(1)} MiB Native body with the client's fast settings, node:zlib sync`,
  rows: ROWS,
  baselines: ['gzip'],
  paths: CODECS.filter((c) => c !== 'none').map((c): BenchPath<Buffer> => ({
    name: c,
    run: () => fast(c, nativeBody),
    check: (b) => { if (unpack(c, b).length !== nativeBody.length) throw new Error(`${c}: round trip differs`); },
  })),
});

// Bytes on the wire and the link speed below which each codec pays for itself.
for (const [name, res, bytes] of [['read', read, readBytes], ['insert', insert, insertBytes]] as const) {
  if (res === undefined) continue;
  const none = res.paths.find((p) => p.name === 'none')!;
  const lines = [`| ${name} codec | median ms | bytes on the wire | ratio | pays below |`, '| --- | ---: | ---: | ---: | ---: |'];
  const table: Record<string, unknown> = {};
  for (const p of res.paths) {
    const b = bytes.get(p.name as Codec)!;
    const saved = bytes.get('none')! - b;
    const extraS = (p.medianMs - none.medianMs) / 1000;
    const paysBelow = p.name === 'none' ? undefined : extraS <= 0 ? Infinity : saved / extraS;
    table[p.name] = { medianMs: p.medianMs, wireBytes: b, ratio: bytes.get('none')! / b, paysBelowBytesPerSecond: paysBelow };
    lines.push(`| ${p.name} | ${p.medianMs.toFixed(0)} | ${(b / 2 ** 20).toFixed(1)} MiB | ${(bytes.get('none')! / b).toFixed(1)}× | ${paysBelow === undefined ? '—' : paysBelow === Infinity ? 'always' : `${(paysBelow * 8 / 1e6).toFixed(0)} Mbit/s`} |`);
  }
  bench.extra(`wire-${name}`, table, `\n${lines.join('\n')}`);
}

for (const c of clients.values()) await c.close();
await worker.terminate();
bench.finish();
