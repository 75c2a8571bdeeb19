// HTTP compression as the loopback test server does it, after ClickHouse (http.md §8): a response
// codec chosen by substring of Accept-Encoding with the server's priority (zstd > br > gzip >
// deflate), when enable_http_compression is on: the URL's value, else the server's default (on from
// 25.10, off before); request bodies decoded per Content-Encoding. zstd needs a Node whose zlib has
// it (22.15+): under an older Node the server answers a request listing zstd with the next codec.
// An 18.x server knows only gzip and deflate (observed on Debian's 18.16: other request encodings
// are `Code: 89 … Unknown Content-Encoding`, other Accept-Encodings get an identity body).
import * as zlib from 'node:zlib';
import type { Transform } from 'node:stream';

type Z = typeof zlib & {
  createZstdCompress?: (o?: object) => Transform;
  zstdDecompressSync?: (b: Buffer) => Buffer;
};
const z = zlib as Z;

export function zstdInNode(): boolean {
  return typeof z.createZstdCompress === 'function' && typeof z.zstdDecompressSync === 'function';
}

/**
 * Whether a server of `version` compresses its answer (given an Accept-Encoding it knows): the URL's
 * `enable_http_compression` (HTTPHandler reads it with getParsedLast<bool>: 0/1, false/true), else
 * `serverDefault`, else the setting's default for the version (1 from 25.10, http.md §8.1).
 */
export function compressionOn(params: URLSearchParams, version: string, serverDefault?: boolean): boolean {
  const v = params.getAll('enable_http_compression').at(-1)?.trim().toLowerCase();
  if (v === '1' || v === 'true') return true;
  if (v === '0' || v === 'false') return false;
  if (serverDefault !== undefined) return serverDefault;
  const m = /^(\d+)\.(\d+)/.exec(version);
  const [major, minor] = m === null ? [0, 0] : [Number(m[1]), Number(m[2])];
  return major > 25 || (major === 25 && minor >= 10);
}

/** The codec a server of this age answers `Accept-Encoding` with, and its compressor (level 3, ClickHouse's default). */
export function responseCodec(acceptEncoding: string, old: boolean): { name: string; stream: Transform } | undefined {
  const has = (n: string): boolean => acceptEncoding.toLowerCase().includes(n);
  if (!old && has('zstd') && zstdInNode()) return { name: 'zstd', stream: z.createZstdCompress!({ params: { [(zlib.constants as unknown as Record<string, number>)['ZSTD_c_compressionLevel']!]: 3 } }) };
  if (!old && has('br')) return { name: 'br', stream: zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 3 } }) };
  if (has('gzip')) return { name: 'gzip', stream: zlib.createGzip({ level: 3 }) };
  if (has('deflate')) return { name: 'deflate', stream: zlib.createDeflate({ level: 3 }) };
  return undefined;
}

/** A request body decoded per its Content-Encoding; a server error message when the server would refuse it. */
export function decodeRequestBody(encoding: string | undefined, raw: Buffer, old: boolean): Buffer | string {
  switch (encoding) {
    case undefined: case '': return raw;
    case 'gzip': return zlib.gunzipSync(raw);
    case 'deflate': return zlib.inflateSync(raw);
    case 'br': if (!old) return zlib.brotliDecompressSync(raw); break;
    case 'zstd': if (!old && zstdInNode()) return z.zstdDecompressSync!(raw); break;
  }
  return `Code: 89. DB::Exception: Unknown Content-Encoding of HTTP request: ${encoding}. (UNKNOWN_COMPRESSION_METHOD)`;
}
