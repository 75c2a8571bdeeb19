// npm run bench:client — end to end over loopback HTTP (issue 3): chwire against the official
// @clickhouse/client reading the same 200k rows of schema (b) — then (a) and (c) — from the same
// server (cases named by schema; the targets are on (b)).
//
// The rows live in a Memory table on the server (filled once, untimed) and every path runs
// `SELECT * FROM <table>` with max_threads = 1, so all paths read identical bytes of work.
// Paths, alternated:
//   chwire-fetch     client.fetch(sql): all rows as objects
//   chwire-stream    for await (row of client.stream(sql)): rows consumed and dropped
//   chwire-batches   for await (rows of client.stream(sql).batches()), each row consumed and
//                    dropped: the same shape of loop as official-stream (arrays of rows)
//   official-json    @clickhouse/client JSONEachRow, resultSet.json()
//   official-stream  @clickhouse/client JSONEachRow, resultSet.stream(), row.json() per row, dropped
//   drain            the same query's body in the format chwire reads (streamRaw), its chunks kept
//                    and nothing decoded: the physical limit the row paths are judged against
//                    (issue 28: fetch ≤ 2.0×, stream ≤ 1.8×, batches ≤ 1.4× of it)
// chwire reads RowBinaryWithNamesAndTypes where the server has it and Native otherwise (Debian's
// 18.16 has no RowBinaryWithNamesAndTypes): the output says which. Checks before timing:
// chwire-fetch equals the embedded engine's rows of the same SQL (reference decoder); the
// official rows match them by bench/json-check.ts; the streams count every row.
import { decodeNative, decodeRowBinary, decodeRowBinaryReference } from '../src/codec.js';
import { capabilitiesOf } from '../src/client/capabilities.js';
import { parseVersion } from '../src/transport/types.js';
import { engineBytes } from '../test/support/engine.js';
import { Bench } from './harness.js';
import { assertEqual } from './equal.js';
import { spotCheckJson } from './json-check.js';
import { SCHEMA_TITLES, schemaSelect } from './schemas.js';
import { BENCH_URL, benchTable, chwireClient, officialClient, serverReachable } from './remote.js';

const bench = new Bench('client');
const ROWS = bench.config.rows;
const missing = await serverReachable();
if (missing !== undefined) {
  console.error(missing);
  process.exit(1);
}

const chwire = chwireClient();
const official = officialClient();
const settings = { max_threads: 1 };
const version = await chwire.serverVersion();
const format = capabilitiesOf(parseVersion(version)).rowFormat;
bench.note(`server ${BENCH_URL}, ClickHouse ${version}: chwire reads ${format}${format === 'Native' ? ' (this server has no RowBinaryWithNamesAndTypes)' : ''}; the official client reads JSONEachRow`);

try {
  // (a), (b), (c) are deterministic and valid on old servers; (d) draws random strings, (e) needs 26.x types.
  for (const schema of ['b', 'a', 'c']) if (bench.wants(schema)) await schemaCase(schema);
} finally {
  await chwire.close();
  await official.close();
}
bench.finish();

async function schemaCase(schema: string): Promise<void> {
  const table = benchTable(`chwire_bench_client_${schema}`);
  const sql = `SELECT * FROM ${table}`;
  try {
    await chwire.execute(`DROP TABLE IF EXISTS ${table}`);
    await chwire.execute(`CREATE TABLE ${table} ENGINE = Memory AS ${schemaSelect(schema, ROWS)}`);
    // The same SQL on the embedded engine gives the expected rows (the schema is deterministic).
    const bytes = await engineBytes(schemaSelect(schema, ROWS), 'RowBinaryWithNamesAndTypes');
    // The checks' oracle, dropped once every path passed (afterChecks): not part of the timed heap.
    let oracle: { rows: unknown[]; arrays: unknown[][] } | undefined = {
      rows: decodeRowBinaryReference(bytes).rows,
      arrays: decodeRowBinaryReference(bytes, { rows: 'array' }).rows as unknown[][],
    };
    const rowCount = oracle.rows.length;
    const names = Object.keys(oracle.rows[0] as object);
    const countIs = (what: string) => (n: number): void => {
      if (n !== rowCount) throw new Error(`${what} saw ${n} rows, expected ${rowCount}`);
    };

    const result = await bench.run({
      name: schema,
      title: `${SCHEMA_TITLES[schema]} over HTTP from ClickHouse ${version}`,
      rows: rowCount,
      baselines: ['official-json', 'official-stream', 'drain'],
      afterChecks: () => { oracle = undefined; },
      paths: [
        {
          name: 'chwire-fetch',
          run: () => chwire.fetch(sql, { settings }),
          check: (rows: unknown[]) => assertEqual([...rows], oracle!.rows, 'chwire fetch vs engine rows'),
        },
        {
          name: 'chwire-stream',
          run: async () => {
            let n = 0;
            for await (const row of chwire.stream(sql, { settings })) if (row !== undefined) n++;
            return n;
          },
          check: countIs('chwire stream'),
        },
        {
          name: 'chwire-batches',
          run: async () => {
            let n = 0;
            for await (const rows of chwire.stream(sql, { settings }).batches()) {
              for (const row of rows) if (row !== undefined) n++;
            }
            return n;
          },
          check: countIs('chwire batches'),
        },
        {
          name: 'drain',
          run: async () => {
            const kept: Uint8Array[] = [];
            for await (const chunk of chwire.streamRaw(sql, { format, settings })) kept.push(chunk);
            return kept;
          },
          // The kept bytes are the rows: decoded (untimed) they are the engine's.
          check: (kept: Uint8Array[]) => {
            const body = Buffer.concat(kept);
            const rows = format === 'Native' ? decodeNative(body).rows : decodeRowBinary(body).rows;
            assertEqual([...rows], oracle!.rows, 'drained bytes decoded vs engine rows');
          },
        },
        {
          name: 'official-json',
          run: async () => (await official.query({ query: sql, format: 'JSONEachRow', clickhouse_settings: settings })).json<unknown>(),
          check: (rows: unknown[]) => { spotCheckJson(rows, oracle!.arrays, names); },
        },
        {
          name: 'official-stream',
          run: async () => {
            const rs = await official.query({ query: sql, format: 'JSONEachRow', clickhouse_settings: settings });
            let n = 0;
            for await (const rows of rs.stream()) {
              for (const row of rows) if (row.json() !== undefined) n++;
            }
            return n;
          },
          check: countIs('official stream'),
        },
      ],
    });
    if (result !== undefined && schema === 'b') {
      const ratio = (p: string, b: string): number => result.paths.find((x) => x.name === p)!.ratios[b]!;
      const lines = [
        `  chwire-fetch ${ratio('chwire-fetch', 'official-json').toFixed(2)}× official-json (target ≥ 2.5×): ${ratio('chwire-fetch', 'official-json') >= 2.5 ? 'met' : 'NOT met'}`,
        `  chwire-stream ${ratio('chwire-stream', 'official-stream').toFixed(2)}× official-stream (target ≥ 4×): ${ratio('chwire-stream', 'official-stream') >= 4 ? 'met' : 'NOT met'} (a for-await step per row)`,
        `  chwire-batches ${ratio('chwire-batches', 'official-stream').toFixed(2)}× official-stream (target ≥ 4×): ${ratio('chwire-batches', 'official-stream') >= 4 ? 'met' : 'NOT met'} (arrays of rows, like official-stream)`,
      ];
      bench.extra('targets', lines, `\ntargets (issue 3):\n${lines.join('\n')}`);
    }
    if (result !== undefined) {
      // Issue 28 item 1: each row path against the drain of the same bytes (time ÷ drain's time).
      const time = (p: string): number => result.paths.find((x) => x.name === p)!.medianMs;
      const goals: [string, number][] = [['chwire-fetch', 2.0], ['chwire-stream', 1.8], ['chwire-batches', 1.4]];
      const lines = goals.map(([p, goal]) => {
        const r = time(p) / time('drain');
        return `  ${p} ${r.toFixed(2)}× the drain (goal ≤ ${goal.toFixed(1)}×): ${r <= goal ? 'met' : 'NOT met'}`;
      });
      bench.extra(`drain-${schema}`, lines, `\nagainst the drain (issue 28):\n${lines.join('\n')}`);
    }
  } finally {
    await chwire.execute(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
  }
}
