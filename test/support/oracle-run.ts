// One engine-oracle check: run a query on the embedded engine as RowBinaryWithNamesAndTypes and as
// JSONCompactEachRow (+ aux columns), decode the bytes with every chwire path under the given
// options, and compare each cell with the mapping of test/support/expect.ts.
//
// Invariant: the expected side is built only from the engine's outputs and the options contract;
// the decoder's own output is compared, never used to build expectations (except path-vs-path
// equality: reference == compiled == streamed).
import assert from 'node:assert/strict';
import { decodeRowBinary, decodeRowBinaryReference, createRowBinaryDecoder, type RowBinaryOptions } from '../../src/codec.js';
import { parseType } from '../../src/types/index.js';
import { engineBytes, engineJsonRows } from './engine.js';
import { queryAux, readHeaderIndependently } from './oracle-aux.js';
import { assertRowsMatch, expectedRows, sameRows, type OracleColumn } from './oracle-compare.js';

export interface EngineResult {
  readonly sql: string;
  readonly bytes: Uint8Array;
  readonly json: unknown[][];
  readonly columns: OracleColumn[];
  readonly aux: (unknown[] | undefined)[];
}

/** Everything the oracle needs about one query, from the engine alone. */
export async function engineResult(sql: string, settings: Record<string, string | number> = {}): Promise<EngineResult> {
  const bytes = await engineBytes(sql, 'RowBinaryWithNamesAndTypes', settings);
  const json = await engineJsonRows(sql, settings);
  const columns = readHeaderIndependently(bytes).map((c) => ({ name: c.name, type: parseType(c.type) }));
  const aux = await queryAux(sql, columns, { hex: true }, settings);
  return { sql, bytes, json, columns, aux };
}

/**
 * Decode `r.bytes` under `options` through the compiled, reference and streaming (`chunk`-byte
 * chunks) paths and compare with the engine. Returns the columns NOT compared because options.ts
 * leaves their expectation ambiguous (name → reason), so callers can report them.
 */
export function checkDecode(r: EngineResult, options: RowBinaryOptions, label: string, chunk = 7): Map<string, string> {
  let expected: unknown[];
  let skipped: Map<string, string>;
  try {
    ({ rows: expected, skipped } = expectedRows(r.columns, r.json, r.aux, options));
  } catch (e) {
    throw new Error(`${label}: cannot build expected rows for ${r.sql}: ${(e as Error).message}`, { cause: e });
  }
  const where = `${label} [${r.sql.length > 300 ? `${r.sql.slice(0, 300)}…` : r.sql}]`;
  // Decoded from a copy that is overwritten afterwards: rows must not be views of the input.
  const input = Uint8Array.prototype.slice.call(r.bytes);
  const out = decodeRowBinary(input, options);
  input.fill(0xee);
  assert.deepEqual(out.columns.map((c) => ({ name: c.name, type: c.type })), readHeaderIndependently(r.bytes), `${where}: header`);
  assertRowsMatch(out.rows, expected, r.columns, where);
  const ref = decodeRowBinaryReference(r.bytes, options);
  assertRowsMatch(ref.rows, expected, r.columns, `${where} (reference)`);
  // Streamed in `chunk`-byte copies, each overwritten right after push(): rows must not keep views.
  // Bodies over 64 KiB go in 16 KiB chunks: tiny chunks through megabytes test nothing more than
  // the golden every-split test does, and are slow (see notes/oracle-findings.md F2).
  const size = r.bytes.length > 65536 ? 16384 : chunk;
  const d = createRowBinaryDecoder(options);
  const streamed: unknown[] = [];
  for (let i = 0; i < r.bytes.length; i += size) {
    const piece = Uint8Array.prototype.slice.call(r.bytes, i, i + size);
    streamed.push(...d.push(piece));
    piece.fill(0xee);
  }
  d.end();
  assertRowsMatch(streamed, expected, r.columns, `${where} (streamed in ${size}-byte chunks)`);
  assert.ok(sameRows(streamed, out.rows), `${where}: streamed in ${size}-byte chunks differs from whole`);
  return skipped;
}
