// The HTTP content codings chwire knows, by name, and the `compression` option's values resolved
// to them. No I/O and no `node:` import (the client core validates options with it); whether the
// running platform can make and read a codec is the transport's check (codecs.ts for Node).
import { ChwireConfigError } from '../errors.js';

/** The HTTP content codings chwire sends and reads (names as in Accept-Encoding / Content-Encoding). */
export type Codec = 'gzip' | 'deflate' | 'br' | 'zstd';
export type CompressionChoice = boolean | Codec;

export const CODECS: readonly Codec[] = ['gzip', 'deflate', 'br', 'zstd'];

/**
 * One direction of the `compression` option: false/undefined → none, true → gzip, a codec name →
 * that codec. `where` names the option in messages (`compression.response`).
 */
export function resolveCodec(where: string, v: unknown): Codec | undefined {
  if (v === undefined || v === false) return undefined;
  if (v === true) return 'gzip';
  if (typeof v !== 'string' || !(CODECS as readonly string[]).includes(v)) {
    throw new ChwireConfigError(`option ${where} must be a boolean or one of ${CODECS.map((c) => `'${c}'`).join(', ')}, got ${typeof v === 'string' ? JSON.stringify(v) : typeof v}`);
  }
  return v as Codec;
}
