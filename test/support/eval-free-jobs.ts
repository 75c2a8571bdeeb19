// The work both sides of the eval-free property test do on the same inputs: decode RowBinary,
// encode rows to Native, decode Native (rows, and lazy row sources for streams). The parent runs it
// with generated code, a child under `node --disallow-code-generation-from-strings` runs it on the
// interpreted paths; results (or errors, as plain fields) travel as v8-serialized values.
import { decodeRowBinary } from '../../src/rowbinary/decode.js';
import { compileNativeEncoder } from '../../src/native/write/encoder.js';
import { createNativeDecoder, decodeNative } from '../../src/native/index.js';
import { concatBytes } from '../../src/io/bytes.js';
import type { DecodeOptions } from '../../src/plan/options.js';

export interface Job {
  rowbinary: { body: Uint8Array; options: DecodeOptions };
  encode: { columns: { name: string; type: string }[]; shape: 'object' | 'array'; rows: unknown[] };
  nativeOptions: DecodeOptions;
}

export type Outcome = { ok: unknown } | { error: Record<string, unknown> };

function attempt(f: () => unknown): Outcome {
  try {
    return { ok: f() };
  } catch (e) {
    const x = e as Record<string, unknown> & Error;
    return { error: { name: x.name, message: x.message, code: x['code'], column: x['column'], row: x['row'], offset: x['offset'] } };
  }
}

export function runJob(job: Job): Outcome[] {
  const rb = attempt(() => decodeRowBinary(job.rowbinary.body, job.rowbinary.options).rows);
  const enc = attempt(() => concatBytes(compileNativeEncoder(job.encode.columns, job.encode.shape).encodeBlock(job.encode.rows, 0, job.encode.rows.length, 0)));
  let native: Outcome = { ok: null };
  let lazy: Outcome = { ok: null };
  if ('ok' in enc && (enc.ok as Uint8Array).length > 0) {
    const bytes = enc.ok as Uint8Array;
    native = attempt(() => decodeNative(bytes, job.nativeOptions).rows);
    lazy = attempt(() => {
      const d = createNativeDecoder(job.nativeOptions);
      const out: unknown[] = [];
      for (const s of d.pushSources!(bytes)) for (let i = 0; i < s.length; i++) out.push(s.row(i));
      d.end();
      return out;
    });
  }
  return [rb, enc, native, lazy];
}
