// npm run bench:columns — columnar reads (issue 4): Native bytes → typed-array columns, against a
// plain copy of the same bytes (the floor: touching every byte once) and against row decoding.
//
// Payload: schema (c), 5×UInt64 + 5×Float64, made by the embedded engine as Native (several
// blocks of up to 65 536 rows, as a server sends them) and as RowBinaryWithNamesAndTypes.
// Paths, alternated:
//   copy            Uint8Array.prototype.slice of the Native body
//   columns         decodeNativeColumns (what client.fetchColumns does with the body)
//   native-rows     decodeNative: rows as objects (client.fetch against a Native-only server)
//   rowbinary-rows  decodeRowBinary: rows as objects (client.fetch against a modern server)
// Checks before timing: the copy equals the body; both row paths equal the reference RowBinary
// decoder's rows; every column value equals the same cell of those rows.
// Case c-http (only when a server answers at CHWIRE_BENCH_URL): the same rows from a server table,
// end to end: client.fetchColumns, client.fetch, and the body read over a keep-alive node:http
// agent and copied into one buffer (the transport floor).
import { decodeRowBinary, decodeRowBinaryReference, clearCompiledCache } from '../src/codec.js';
import { decodeNativeColumns, decodeNative, type NativeColumns } from '../src/native/index.js';
import { engineBytes, engineExec } from '../test/support/engine.js';
import { Bench } from './harness.js';
import { assertEqual } from './equal.js';
import { SCHEMA_TITLES, fillEngineTable, plain, schemaSelect, selectAll } from './schemas.js';
import { closeHttpBodyAgent, httpBody } from './http-body.js';
import { BENCH_URL, benchTable, chwireClient, serverReachable } from './remote.js';

const bench = new Bench('columns');
const ROWS = bench.config.rows;
const table = 'bench_columns_c';
await fillEngineTable(engineExec, table, 'c', ROWS);
const native = plain(await engineBytes(selectAll(table), 'Native'));
const rowBinary = plain(await engineBytes(selectAll(table), 'RowBinaryWithNamesAndTypes'));
await engineExec(`DROP TABLE ${table}`);

const reference = decodeRowBinaryReference(rowBinary);

function checkColumns(c: NativeColumns): void {
  const rows = reference.rows as Record<string, unknown>[];
  if (c.rowCount !== rows.length) throw new Error(`columns: ${c.rowCount} rows, reference ${rows.length}`);
  assertEqual(c.names, reference.columns.map((x) => x.name), 'column names');
  c.columns.forEach((col, k) => {
    if (!ArrayBuffer.isView(col)) throw new Error(`column ${c.names[k]} is not a typed array`);
    const values = col as unknown as ArrayLike<unknown>;
    const name = c.names[k]!;
    for (let i = 0; i < rows.length; i++) {
      if (!Object.is(values[i], rows[i]![name])) throw new Error(`column ${name}, row ${i}: ${String(values[i])} != ${String(rows[i]![name])}`);
    }
  });
}

const result = await bench.run({
  name: 'c',
  title: `${SCHEMA_TITLES['c']}: ${(native.length / 2 ** 20).toFixed(1)} MiB Native`,
  rows: reference.rows.length,
  baselines: ['copy'],
  paths: [
    { name: 'copy', run: () => native.slice(), check: (r: Uint8Array) => assertEqual(r, native, 'copy') },
    { name: 'columns', run: () => decodeNativeColumns(native), check: checkColumns },
    { name: 'native-rows', run: () => decodeNative(native), check: (r) => assertEqual(r.rows, reference.rows, 'native rows vs reference') },
    {
      name: 'rowbinary-rows', before: clearCompiledCache, run: () => decodeRowBinary(rowBinary),
      check: (r) => assertEqual(r, reference, 'rowbinary rows vs reference'),
    },
  ],
});
if (result !== undefined) {
  const cols = result.paths.find((p) => p.name === 'columns')!;
  const times = cols.medianMs / result.paths.find((p) => p.name === 'copy')!.medianMs;
  bench.extra('target', { columnsOverCopy: times },
    `\ntarget (issue 4): columns take ${times.toFixed(2)}× the time of a plain copy (target ≤ 2×): ${times <= 2 ? 'met' : 'NOT met'}`);
}
if (bench.wants('c-http')) {
  const missing = await serverReachable();
  if (missing === undefined) await httpCase();
  else bench.note(`c-http skipped: ${missing}`);
}
bench.finish();

async function httpCase(): Promise<void> {
  const client = chwireClient();
  const t = benchTable('chwire_bench_columns_c');
  const sql = `SELECT * FROM ${t}`;
  const settings = { max_threads: 1 };
  try {
    const version = await client.serverVersion();
    await client.execute(`DROP TABLE IF EXISTS ${t}`);
    await client.execute(`CREATE TABLE ${t} ENGINE = Memory AS ${schemaSelect('c', ROWS)}`);
    const nativeFromServer = await httpBody(BENCH_URL, `${sql} FORMAT Native`, settings);
    const expected = decodeNative(nativeFromServer).rows;
    assertEqual(expected, reference.rows, 'server rows vs engine rows');
    await bench.run({
      name: 'c-http',
      title: `${SCHEMA_TITLES['c']} over HTTP from ClickHouse ${version}: ${(nativeFromServer.length / 2 ** 20).toFixed(1)} MiB Native`,
      rows: expected.length,
      baselines: ['http-copy'],
      paths: [
        { name: 'http-copy', run: () => httpBody(BENCH_URL, `${sql} FORMAT Native`, settings), check: (r: Uint8Array) => assertEqual(r, nativeFromServer, 'body') },
        { name: 'fetchColumns', run: () => client.fetchColumns(sql, { settings }), check: (r: NativeColumns) => checkColumns(r) },
        { name: 'fetch', run: () => client.fetch(sql, { settings }), check: (r: unknown[]) => assertEqual([...r], expected, 'fetch rows') },
      ],
    });
  } finally {
    await client.execute(`DROP TABLE IF EXISTS ${t}`).catch(() => undefined);
    await client.close();
    closeHttpBodyAgent();
  }
}
