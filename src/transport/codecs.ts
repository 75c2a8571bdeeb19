// HTTP compression codecs for Node: the node:zlib streams that compress a request body or
// decompress a response body, and whether this Node has a codec at all.
// Invariant: a codec is only ever chosen when the running Node can both make and read it (zstd
// is feature-detected: node:zlib has it from Node 22.15 / 23.8); otherwise the client is not
// created (ChwireConfigError), so no request ever asks for bytes the client cannot decode.
import type * as Zlib from 'node:zlib';
import type { Transform } from 'node:stream';
import { ChwireConfigError } from '../errors.js';
import type { Codec } from './codec-names.js';
import { lazyBuiltin } from './node-builtin.js';

export type { Codec } from './codec-names.js';

type ZstdZlib = {
  createZstdCompress?: (o?: object) => Transform;
  createZstdDecompress?: (o?: object) => Transform;
  constants: Record<string, number>;
};
// node:zlib only once a body is compressed or decompressed (or zstd is asked about).
const zlibModule = lazyBuiltin<typeof Zlib & ZstdZlib>('node:zlib');

/** Whether this Node's node:zlib has zstd (22.15+ / 23.8+). */
export function zstdAvailable(): boolean {
  return typeof zlibModule().createZstdCompress === 'function' && typeof zlibModule().createZstdDecompress === 'function';
}

/** Throws when this Node cannot make and read `codec` (zstd before 22.15 / 23.8). */
export function checkCodecAvailable(where: string, codec: Codec | false | undefined): void {
  if (codec === 'zstd' && !zstdAvailable()) {
    throw new ChwireConfigError(`option ${where}: 'zstd' needs node:zlib zstd support, which Node has from 22.15 (22.x) and 23.8 on; this is Node ${process.versions.node} (use 'gzip', 'deflate' or 'br', or a newer Node)`);
  }
}

/**
 * A compressor for a request body. Fast settings: the body is compressed on the event loop while
 * it streams, so speed matters more than ratio (gzip/deflate level 1, brotli quality 1, zstd 1).
 */
export function compressor(codec: Codec): Transform {
  const zlib = zlibModule();
  const z: ZstdZlib = zlib;
  switch (codec) {
    case 'gzip': return zlib.createGzip({ level: zlib.constants.Z_BEST_SPEED });
    case 'deflate': return zlib.createDeflate({ level: zlib.constants.Z_BEST_SPEED });
    case 'br': return zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } });
    case 'zstd': return z.createZstdCompress!({ params: { [z.constants['ZSTD_c_compressionLevel']!]: 1 } });
  }
}

/**
 * A decompressor for a response's Content-Encoding, or undefined when the body is not encoded (or
 * encoded with something this client never asks for: then the bytes are passed on as they are and
 * the decoder reports what it finds). ClickHouse's `deflate` is zlib-wrapped deflate.
 */
export function decompressorFor(contentEncoding: string): Transform | undefined {
  const codec = contentEncoding.trim().toLowerCase();
  // (Checked before node:zlib is loaded: an unencoded body, the common case, never loads it.)
  if (codec !== 'gzip' && codec !== 'deflate' && codec !== 'br' && codec !== 'zstd') return undefined;
  const zlib = zlibModule();
  const z: ZstdZlib = zlib;
  switch (codec) {
    case 'gzip': return zlib.createGunzip();
    case 'deflate': return zlib.createInflate();
    case 'br': return zlib.createBrotliDecompress();
    case 'zstd': return zstdAvailable() ? z.createZstdDecompress!() : undefined;
  }
}
