// json() of a query sent by the fast path: the binary body decoded by chwire's compiled decoder
// for the result's schema (Native or RowBinaryWithNamesAndTypes, with the decode options of
// plan.ts), each row then fixed by the converters chosen once for that schema.
//
// Invariant: resolves to the rows JSON.parse would give for the server's JSON of the same result,
// or to undefined as soon as the header names a column outside the fast path (the body is then
// destroyed, no row having been handed out); a truncated or corrupt body rejects with the
// decoder's typed error, never a short result. Bytes are counted against `count` as they arrive.
import type { Readable } from 'node:stream';
import { createNativeDecoder } from '../../native/read/row-decoder.js';
import { createRowBinaryDecoder } from '../../rowbinary/decode.js';
import type { RowStreamDecoder } from '../../stream-decoder.js';
import { decodeOptionsOf, rowFixOf, type FastPlan, type RowFix } from './plan.js';

function decoderOf(plan: FastPlan): RowStreamDecoder<Record<string, unknown>> {
  const options = decodeOptionsOf(plan);
  // Only UTC date-times are served (plan.ts): the decoders' default zone for zone-less ones.
  return (plan.wireFormat === 'Native' ? createNativeDecoder(options) : createRowBinaryDecoder(options)) as unknown as RowStreamDecoder<Record<string, unknown>>;
}

export async function readFast(body: Readable, plan: FastPlan, count: (bytes: number) => void): Promise<unknown[] | undefined> {
  const decoder = decoderOf(plan);
  let fix: RowFix | undefined;
  // The decoder's arrays of rows, joined once at the end (one copy in native code, no per-row push).
  const parts: unknown[][] = [];
  try {
    for await (const chunk of body) {
      count((chunk as Uint8Array).byteLength);
      const rows = decoder.push(chunk as Uint8Array);
      if (fix === undefined) {
        const columns = decoder.columns;
        if (columns === undefined) continue;
        fix = rowFixOf(columns, plan);
        if (fix === undefined) {
          body.destroy();
          return undefined;
        }
      }
      for (let i = 0; i < rows.length; i++) fix(rows[i]!);
      if (rows.length > 0) parts.push(rows);
    }
    decoder.end();
  } catch (e) {
    body.destroy();
    throw e;
  }
  return parts.length === 1 ? parts[0]! : parts.flat();
}
