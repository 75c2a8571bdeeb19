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
// Cases floor-numeric and floor-dt-string (issue 13's floors; server at CHWIRE_BENCH_URL,
// BENCH_HTTP_ROWS rows, default 1M, from a Memory table): client.fetchColumns against draining
// client.streamRaw(sql, { format: 'Native' }) of the same query (the bytes only, not kept), for
// five numeric columns and for a DateTime + String result. Floor: fetchColumns <= 1.25x the drain.
// Checks: fetchColumns equals decodeNativeColumns of the body the drain read (kept for the check
// run only); streamColumns's batches joined equal it too.
// Issue 21 adds, in the same cases: copy-drain, the drain copying the bytes it reads, in order,
// into new arrays of the result's column sizes (the physical floor of "receive and keep": floor
// fetchColumns <= 1.25x copy-drain), and fetchColumns+toArrow (chwire/arrow; its added cost on
// the numeric result: floor <= 10 %). The load average is printed with each case.
import { decodeRowBinary, decodeRowBinaryReference, clearCompiledCache } from '../src/codec.js';
import { decodeNativeColumns, decodeNative, type NativeColumns } from '../src/native/index.js';
import { engineBytes, engineExec } from '../test/support/engine.js';
import { Bench } from './harness.js';
import { assertEqual } from './equal.js';
import { SCHEMA_TITLES, fillEngineTable, plain, schemaSelect, selectAll } from './schemas.js';
import { closeHttpBodyAgent, httpBody } from './http-body.js';
import { BENCH_URL, benchTable, chwireClient, serverReachable } from './remote.js';
import { loadavg } from 'node:os';
import { toArrow } from '../src/arrow/index.js';

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
if (bench.wants('floor-numeric') || bench.wants('floor-dt-string')) {
  const missing = await serverReachable();
  if (missing === undefined) await floorCases();
  else bench.note(`floor cases skipped: ${missing}`);
}
bench.finish();

async function floorCases(): Promise<void> {
  const client = chwireClient();
  const rows = Number(process.env['BENCH_HTTP_ROWS'] ?? 1_000_000);
  const cases = [
    {
      name: 'floor-numeric', title: 'five numeric columns (UInt64, Int32, UInt32, Float64, Float32)',
      select: `SELECT number AS n, toInt32(number * 7 - 5000000) AS i, toUInt32(number * 3) AS u, number / 7 AS f, toFloat32(number / 3) AS g FROM system.numbers LIMIT ${rows}`,
    },
    {
      name: 'floor-dt-string', title: 'a DateTime and a String column',
      select: `SELECT toDateTime(1700000000 + number) AS t, toString(number * 7) AS s FROM system.numbers LIMIT ${rows}`,
    },
  ];
  const version = await client.serverVersion();
  try {
    for (const k of cases) {
      if (!bench.wants(k.name)) continue;
      const t = benchTable(`chwire_bench_${k.name.replace('-', '_').replace('-', '_')}`);
      const sql = `SELECT * FROM ${t}`;
      const settings = { max_threads: 1 };
      await client.execute(`DROP TABLE IF EXISTS ${t}`);
      await client.execute(`CREATE TABLE ${t} ENGINE = Memory AS ${k.select}`);
      try {
        let body: Uint8Array[] | undefined = [];
        const drain = async (keep: boolean): Promise<number> => {
          let n = 0;
          for await (const b of client.streamRaw(sql, { format: 'Native', settings })) {
            n += b.length;
            if (keep) body!.push(Uint8Array.prototype.slice.call(b));
          }
          return n;
        };
        const total = await drain(true);
        const expected = decodeNativeColumns(body);
        body = undefined;
        // The result's own sizes: one new array per typed column, one more for the rest (strings).
        const sizes = expected.columns.map((c) => (ArrayBuffer.isView(c) ? c.byteLength : 0)).filter((n) => n > 0);
        const rest = total - sizes.reduce((a, b) => a + b, 0);
        if (rest > 0) sizes.push(rest);
        const copyDrain = async (): Promise<number> => {
          const out = sizes.map((n) => new Uint8Array(n));
          let k = 0;
          let at = 0;
          let n = 0;
          for await (const b of client.streamRaw(sql, { format: 'Native', settings })) {
            n += b.length;
            let from = 0;
            while (from < b.length && k < out.length) {
              const take = Math.min(b.length - from, out[k]!.length - at);
              out[k]!.set(b.subarray(from, from + take), at);
              from += take;
              at += take;
              if (at === out[k]!.length) { k++; at = 0; }
            }
          }
          return n;
        };
        const numeric = expected.columns.every((c) => ArrayBuffer.isView(c));
        /** toArrow alone, timed inside its path (less exposed to the network's spread than a difference of medians). */
        const toArrowMs: number[] = [];
        const same = (r: NativeColumns, what: string): void => {
          if (r.rowCount !== rows) throw new Error(`${what}: ${r.rowCount} rows, expected ${rows}`);
          assertEqual(r.columns, expected.columns, what);
        };
        const result = await bench.run({
          name: k.name,
          title: `${k.title}, ${rows} rows over HTTP from ClickHouse ${version} (${(total / 2 ** 20).toFixed(1)} MiB Native)`,
          rows,
          baselines: ['streamRaw-drain'],
          paths: [
            { name: 'streamRaw-drain', run: () => drain(false), check: (n: number) => { if (n !== total) throw new Error(`drained ${n} bytes, expected ${total}`); } },
            { name: 'copy-drain', run: copyDrain, check: (n: number) => { if (n !== total) throw new Error(`copy-drained ${n} bytes, expected ${total}`); } },
            { name: 'fetchColumns', run: () => client.fetchColumns(sql, { settings }), check: (r: NativeColumns) => same(r, 'fetchColumns') },
            ...(numeric ? [{
              name: 'fetchColumns+toArrow', run: async () => {
                const r = await client.fetchColumns(sql, { settings });
                const t0 = performance.now();
                const table = toArrow(r);
                toArrowMs.push(performance.now() - t0);
                return table;
              },
              check: (t: ReturnType<typeof toArrow>) => {
                if (t.numRows !== rows) throw new Error('toArrow: row count');
                expected.columns.forEach((c, j) => {
                  const v = t.getChildAt(j)!;
                  const a = c as unknown as ArrayLike<unknown>;
                  for (const i of [0, 1, rows >> 1, rows - 1]) if (!Object.is(v.get(i), a[i])) throw new Error(`toArrow: column ${j}, row ${i}`);
                });
              },
            }] : []),
            {
              name: 'streamColumns', run: async () => { const out: NativeColumns[] = []; for await (const b of client.streamColumns(sql, { settings })) out.push(b); return out; },
              check: (bs: NativeColumns[]) => { if (bs.reduce((a, b) => a + b.rowCount, 0) !== rows) throw new Error('streamColumns: row count'); },
            },
          ],
        });
        if (result !== undefined) {
          const median = (n: string) => result.paths.find((p) => p.name === n)!.medianMs;
          const ratio = median('fetchColumns') / median('streamRaw-drain');
          const physical = median('fetchColumns') / median('copy-drain');
          const sorted = [...toArrowMs].sort((a, b) => a - b);
          const arrow = numeric ? sorted[sorted.length >> 1]! / median('fetchColumns') : undefined;
          const load = loadavg().map((x) => x.toFixed(2)).join(' ');
          bench.extra(`floor:${k.name}`, { fetchColumnsOverDrain: ratio, fetchColumnsOverCopyDrain: physical, toArrowAdded: arrow, loadavg: load },
            `\nfloor (issue 13): fetchColumns takes ${ratio.toFixed(2)}x the time of draining streamRaw Native (floor <= 1.25x): ${ratio <= 1.25 ? '✓ met' : '✗ NOT met'}` +
            `\nfloor (issue 21): fetchColumns takes ${physical.toFixed(2)}x a drain that copies the bytes into new arrays of the result's size (floor <= 1.25x): ${physical <= 1.25 ? '✓ met' : '✗ NOT met'}` +
            (arrow === undefined ? '' : `\nfloor (issue 21): toArrow adds ${(100 * arrow).toFixed(1)} % to fetchColumns (its own median, ${sorted[sorted.length >> 1]!.toFixed(2)} ms, over fetchColumns' median; floor <= 10 %): ${arrow <= 0.1 ? '✓ met' : '✗ NOT met'}`) +
            `\nload average: ${load}`);
        }
      } finally {
        await client.execute(`DROP TABLE IF EXISTS ${t}`).catch(() => undefined);
      }
    }
  } finally {
    await client.close();
  }
}

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
