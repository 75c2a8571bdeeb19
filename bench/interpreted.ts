// npm run bench:interpreted — what decoding and encoding cost where code generation from strings is
// refused (workerd, a strict CSP, node --disallow-code-generation-from-strings: docs/web.md).
// There the client takes its interpreted paths: RowBinary rows through the reference decoder
// (exactly what decodeRowBinaryReference runs), Native blocks through the interpreted encoder.
// For schemas (a)–(e) (BENCH_ROWS rows, default 200k), alternated in this one process:
//   rb-compiled     decodeRowBinary (generated code; cold compiled-decoder cache each run)
//   rb-interpreted  the reference decoder (the fallback)
//   enc-compiled    compileNativeEncoder(...).encodeBlock of the rows decoded above, one block
//   enc-interpreted interpretNativeEncoder (the fallback), same rows
// Checks before timing: interpreted rows deep-equal compiled rows; the two encoders' bytes equal.
// (Native row building, the only generated part of Native decoding, is not timed here.)
import { decodeRowBinary, decodeRowBinaryReference, clearCompiledCache, type DecodedRows } from '../src/codec.js';
import { compileNativeEncoder, interpretNativeEncoder } from '../src/native/write/encoder.js';
import { concatBytes } from '../src/io/bytes.js';
import { engineBytes, engineExec } from '../test/support/engine.js';
import { Bench } from './harness.js';
import { assertEqual } from './equal.js';
import { SCHEMA_TITLES, fillEngineTable, plain, selectAll } from './schemas.js';

const bench = new Bench('interpreted');
const ROWS = bench.config.rows;

for (const schema of ['a', 'b', 'c', 'd', 'e']) {
  if (!bench.wants(schema)) continue;
  const table = `bench_interp_${schema}`;
  await fillEngineTable(engineExec, table, schema, ROWS);
  const bin = plain(await engineBytes(selectAll(table), 'RowBinaryWithNamesAndTypes'));
  await engineExec(`DROP TABLE ${table}`);
  let oracle: DecodedRows | undefined = decodeRowBinary(bin);
  const columns = oracle.columns.map((c) => ({ name: c.name, type: c.type }));
  const rows = oracle.rows as unknown[];
  let encodable = true;
  let expectedBlock: Uint8Array | undefined;
  try {
    expectedBlock = concatBytes(compileNativeEncoder(columns, 'object').encodeBlock(rows, 0, rows.length, 0));
  } catch (e) {
    encodable = false;
    bench.note(`(${schema}) the decoded rows do not encode as is (${(e as Error).message.slice(0, 80)}): encoder paths skipped`);
  }
  await bench.run({
    name: `${schema}-decode`,
    title: `${SCHEMA_TITLES[schema]}: RowBinary → rows`,
    rows: rows.length,
    baselines: ['rb-interpreted'],
    afterChecks: () => { oracle = undefined; },
    paths: [
      { name: 'rb-compiled', before: clearCompiledCache, run: () => decodeRowBinary(bin), check: (r) => assertEqual(r, oracle!, `(${schema}) compiled`) },
      { name: 'rb-interpreted', run: () => decodeRowBinaryReference(bin), check: (r) => assertEqual(r, oracle!, `(${schema}) interpreted`) },
    ],
  });
  if (!encodable) continue;
  await bench.run({
    name: `${schema}-encode`,
    title: `${SCHEMA_TITLES[schema]}: rows → one Native block`,
    rows: rows.length,
    baselines: ['enc-interpreted'],
    paths: [
      { name: 'enc-compiled', run: () => compileNativeEncoder(columns, 'object').encodeBlock(rows, 0, rows.length, 0), check: (c) => assertEqual(concatBytes(c), expectedBlock!, `(${schema}) compiled block`) },
      { name: 'enc-interpreted', run: () => interpretNativeEncoder(columns, 'object').encodeBlock(rows, 0, rows.length, 0), check: (c) => assertEqual(concatBytes(c), expectedBlock!, `(${schema}) interpreted block`) },
    ],
  });
}
bench.finish();
