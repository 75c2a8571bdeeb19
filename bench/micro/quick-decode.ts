// Quick sanity figures for the RowBinary decoder against JSON.parse of JSONEachRow lines on the
// issue's schemas (a)-(d). Not the project bench (bench/decode.ts is); a few rounds, medians.
// Run: node --expose-gc dist/bench/micro/quick-decode.js [rows] [schemas, e.g. abd]
import { queryAsync } from 'chdb';
import { decodeRowBinary, decodeRowBinaryReference } from '../../src/codec.js';

const ROWS = Number(process.argv[2] ?? 200000);
const SCHEMAS: Record<string, string> = {
  a: `SELECT number AS a, toUInt32(number * 7) AS b, number / 3 AS c, toInt16(number % 30000) AS d, toDateTime(1700000000 + number, 'UTC') AS e FROM numbers(${ROWS})`,
  b: `SELECT number AS a, concat('user_', toString(number % 1000)) AS s, toDateTime(1700000000 + number, 'UTC') AS t, number / 7 AS f, toInt32(number % 100000) AS i FROM numbers(${ROWS})`,
  c: `SELECT number AS u1, number * 3 AS u2, number * 5 AS u3, number + 7 AS u4, number * 11 AS u5, number / 3 AS f1, number / 5 AS f2, number / 7 AS f3, number / 9 AS f4, number / 11 AS f5 FROM numbers(${ROWS})`,
  d: `SELECT toDateTime(1700000000 + number, 'UTC') AS ts, toLowCardinality(['info','warn','error','debug'][number % 4 + 1]) AS level, toLowCardinality(concat('svc', toString(number % 10))) AS svc, randomPrintableASCII(20 + number % 180) AS msg, randomPrintableASCII(20 + (number * 7) % 180) AS ctx FROM numbers(${ROWS})`,
};

function median(xs: number[]): number { const s = [...xs].sort((x, y) => x - y); return s[s.length >> 1]!; }
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

/** Alternate the paths round by round (the machine is shared and noisy); gc before each run. */
function timeAll(paths: Record<string, () => unknown>, rounds = 7): Record<string, number> {
  const t: Record<string, number[]> = {};
  for (const k of Object.keys(paths)) { t[k] = []; paths[k]!(); }
  for (let r = 0; r < rounds; r++) {
    for (const [k, fn] of Object.entries(paths)) { gc(); const s = performance.now(); fn(); t[k]!.push(performance.now() - s); }
  }
  return Object.fromEntries(Object.entries(t).map(([k, v]) => [k, median(v)]));
}

const only = process.argv[3];
for (const [name, sql] of Object.entries(SCHEMAS)) {
  if (only !== undefined && !only.includes(name)) continue;
  const bin = (await queryAsync(sql, { format: 'RowBinaryWithNamesAndTypes' })).bytes();
  const json = (await queryAsync(sql, { format: 'JSONEachRow' })).text();
  const lines = json.split('\n').filter((l) => l.length > 0);
  const r = timeAll({
    json: () => lines.map((l) => JSON.parse(l) as unknown),
    obj: () => decodeRowBinary(bin),
    arr: () => decodeRowBinary(bin, { rows: 'array' }),
    num: () => decodeRowBinary(bin, { int64: 'number' }),
    ref: () => decodeRowBinaryReference(bin),
  });
  const x = (k: string): string => `${r[k]!.toFixed(1)}ms (${(r.json! / r[k]!).toFixed(2)}x)`;
  console.log(`(${name}) JSON ${r.json!.toFixed(1)}ms | obj ${x('obj')} arr ${x('arr')} int64:number ${x('num')} | ref ${r.ref!.toFixed(1)}ms = ${(r.ref! / r.obj!).toFixed(2)}x slower than obj`);
}
