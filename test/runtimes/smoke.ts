// The runtime smoke suite: what every JavaScript runtime must do with chwire (Node, Bun, Deno,
// workerd, Chromium), against the loopback test server (26.x behaviour, stored inserts, CORS, and
// its answers compressed in the codec of whatever Accept-Encoding the runtime's fetch sends, the
// request asking for none: default options must read them, issue 32), and with the entry's compat
// client (chwire/compat, chwire/compat/web).
// Runtime-agnostic: it receives createClient (from `chwire` or `chwire/web`) and uses no Node
// API. Each check returns a canonical text of what it saw (or the error it expects), so the harness
// (run.ts) compares a runtime's results with Node's, check by check.
import type { Client, QueryClient } from '../../src/client/client.js';
import type { insert as insertFn } from '../../src/client/insert/insert-call.js';
import type { fetchColumns as fetchColumnsFn } from '../../src/client/read/columns-call.js';

/** What the suite takes of an entry (`chwire` or `chwire/web`): its module namespace. */
export interface SmokeEntry {
  createClient(o: Record<string, unknown>): Client;
  createQueryClient(o: Record<string, unknown>): QueryClient;
  insert: typeof insertFn;
  fetchColumns: typeof fetchColumnsFn;
  /** The entry's @clickhouse/client-compatible module (chwire/compat, chwire/compat/web). */
  compat: { createClient(o: Record<string, unknown>): CompatClient; ClickHouseError: new (...a: never[]) => Error };
}

/** What the suite uses of a compat client. */
interface CompatClient {
  query(p: { query: string; format: string }): Promise<{ json(): Promise<unknown>; text(): Promise<string> }>;
  close(): Promise<void>;
}

export interface SmokeResult {
  /** Whether `new Function` worked in this runtime (false: the interpreted paths ran). */
  codegen: boolean;
  checks: Record<string, string>;
}

/** A stable text for any decoded value (bigint, Date, bytes, Map, -0, NaN, own `__proto__`). */
export function canon(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'boolean') return String(v);
  if (v instanceof Date) return `Date(${Number.isNaN(v.getTime()) ? 'invalid' : v.toISOString()})`;
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}[${Array.from(v as unknown as ArrayLike<number | bigint>, (x) => String(x)).join(',')}]`;
  if (v instanceof Map) return `Map{${[...v].map(([k, x]) => `${canon(k)}=>${canon(x)}`).join(',')}}`;
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  if (typeof v === 'object') return `{${Object.keys(v).map((k) => `${JSON.stringify(k)}:${canon((v as Record<string, unknown>)[k])}`).join(',')}}`;
  return typeof v;
}

/** One query per type family the decoders know, a few rows each. */
export const FAMILIES = `SELECT number AS n, toInt8(number % 100 - 50) AS i8, toUInt16(number) AS u16, toInt32(-number) AS i32, toInt128(number) - 1000 AS i128, toUInt256(number) AS u256,
  toFloat32(number) / 3 AS f32, toFloat64(number) / 3 AS f64, toString(number * 7) AS s, toFixedString(toString(number % 10), 2) AS fs,
  toDecimal32(number / 7, 3) AS d32, toDecimal64(number / 7, 4) AS d64, toDecimal128(number / 7, 10) AS d128,
  toDate(19000 + number) AS dt, toDate32(-100 + number) AS dt32, toDateTime(1700000000 + number, 'UTC') AS t, toDateTime64(1700000000.123 + number, 3, 'Asia/Tokyo') AS t64,
  toUUID('00112233-4455-6677-8899-aabbccddeeff') AS u, toIPv4('10.0.0.1') AS ip4, toIPv6('::1') AS ip6, number % 2 = 1 AS b,
  CAST(number % 2 AS Enum8('a' = 0, 'b' = 1)) AS e8, toLowCardinality(toString(number % 5)) AS lc, if(number % 3 = 0, NULL, number) AS nul,
  [number, number + 1] AS arr, [[toString(number)], []] AS arr2, map('k', number, 'l', 0) AS m, (number, toString(number)) AS tup,
  CAST((number, 'x') AS Tuple(a UInt64, b String)) AS ntup, [NULL, toNullable(number)] AS narr
  FROM numbers(20)`;

/**
 * Runs the suite. `fetch`: the fetch every client of the run is given (chwire/web's and compat's
 * option `fetch`), else the runtime's own.
 */
export async function runSmoke(entry: SmokeEntry, url: string, tag: string, fetch?: (input: string, init: RequestInit) => Promise<Response>): Promise<SmokeResult> {
  const withFetch = fetch === undefined ? {} : { fetch };
  const createClient = (o: Record<string, unknown>): Client => entry.createClient({ ...o, ...withFetch });
  let codegen: boolean;
  try { codegen = (new Function('return 1') as () => number)() === 1; } catch { codegen = false; }
  const checks: Record<string, string> = {};
  const check = async (name: string, f: () => Promise<string>): Promise<void> => {
    try { checks[name] = await f(); } catch (e) { checks[name] = `UNEXPECTED ${(e as Error)?.name}: ${(e as Error)?.message}`; }
  };
  const expectError = async (f: () => Promise<unknown>): Promise<string> => {
    try { await f(); return 'no error'; } catch (e) {
      const x = e as { name?: string; serverCode?: number };
      return `${x.name}${x.serverCode !== undefined ? ` ${x.serverCode}` : ''}`;
    }
  };
  const c = createClient({ url, requestTimeout: 20_000 });
  try {
    await check('fetch', async () => canon([...await c.fetch('SELECT number AS n, toString(number) AS s FROM numbers(5)')]));
    await check('fetchOne-fetchValue', async () => canon([await c.fetchOne('SELECT 1 AS a, 2 AS b'), await c.fetchValue('SELECT toUInt64(3)'), await c.fetchOne('SELECT 1 FROM numbers(0)')]));
    await check('params', async () => canon(await c.fetchOne('SELECT {a:UInt32} + 1 AS x, {s:String} AS s, {arr:Array(String)} AS arr', { params: { a: 41, s: "quote ' and \\ tab\t", arr: ['x', 'y'] } })));
    await check('stream-rows', async () => {
      let n = 0; let sum = 0n;
      for await (const r of c.stream<{ n: bigint }>('SELECT number AS n FROM numbers(20000)')) { n++; sum += r.n; }
      return `${n} ${sum}`;
    });
    await check('stream-batches', async () => {
      let batches = 0; let rows = 0; let max = 0;
      for await (const b of c.stream('SELECT number AS n FROM numbers(20000)').batches()) { batches++; rows += b.length; max = Math.max(max, b.length); }
      return `${rows} rows, ${batches > 1 ? 'several batches' : 'one batch'}, max ${max <= 1024 ? '<= 1024' : max}`;
    });
    await check('families-rowbinary', async () => canon([...await c.fetch(FAMILIES, { format: 'RowBinaryWithNamesAndTypes' })]));
    await check('families-native', async () => canon([...await c.fetch(FAMILIES, { format: 'Native' })]));
    await check('families-options', async () => canon([...await c.fetch(FAMILIES, { rows: 'array', int64: 'string', decimal: 'number', datetime: 'string', strings: 'bytes', maps: 'Map' })]));
    await check('streamRaw', async () => {
      const parts: Uint8Array[] = [];
      for await (const p of c.streamRaw('SELECT number, toString(number) FROM numbers(3)', { format: 'CSV' })) parts.push(p);
      let text = '';
      const d = new TextDecoder();
      for (const p of parts) text += d.decode(p, { stream: true });
      return JSON.stringify(text + d.decode());
    });
    await check('fetchColumns', async () => {
      const r = await c.fetchColumns('SELECT number AS n, toString(number) AS s FROM numbers(4)');
      return canon([r.names, r.types, r.columns.map((x) => Array.from(x as ArrayLike<unknown>))]);
    });
    await check('insert', async () => {
      const table = `smoke_${tag}`;
      await c.execute(`DROP TABLE IF EXISTS ${table}`);
      await c.execute(`CREATE TABLE ${table} (id UInt32, s String, t DateTime('UTC'), a Array(Nullable(Int64)), d Decimal(18, 4), m Map(String, UInt8)) ENGINE = Memory`);
      const rows = Array.from({ length: 3000 }, (_, i) => ({ id: i, s: `r${i}`, t: new Date(1700000000000 + i * 1000), a: [BigInt(i), null], d: `${i}.5`, m: { k: i % 200 } }));
      await c.insert(table, rows, { blockSize: 1000 });
      const back = await c.fetch(`SELECT * FROM ${table} ORDER BY id`);
      const agg = await c.fetchOne(`SELECT count() AS c, sum(id) AS s FROM ${table}`);
      await c.execute(`DROP TABLE ${table}`);
      return canon([agg, back.slice(0, 3), back[2999]]);
    });
    await check('query-client-functions', async () => {
      // createQueryClient and the call functions (what a small bundle imports): same rows as the methods.
      const q = entry.createQueryClient({ url, requestTimeout: 20_000, ...withFetch });
      const table = `smoke_q_${tag}`;
      try {
        await q.execute(`DROP TABLE IF EXISTS ${table}`);
        await q.execute(`CREATE TABLE ${table} (id UInt32, s String) ENGINE = Memory`);
        const r = await entry.insert(q, table, Array.from({ length: 1500 }, (_, i) => ({ id: i, s: `q${i}` })), { blockSize: 500 });
        const cols = await entry.fetchColumns(q, `SELECT id, s FROM ${table} ORDER BY id`);
        const back = await q.fetch(`SELECT count() AS c, sum(id) AS s FROM ${table}`);
        await q.execute(`DROP TABLE ${table}`);
        return canon(['insert' in q, typeof r.queryId, back[0], cols.rowCount, Array.from(cols.columns[1] as ArrayLike<unknown>).slice(0, 3)]);
      } finally {
        await q.close();
      }
    });
    await check('server-error', async () => expectError(() => c.fetch('SELECT * FROM no_such_table_smoke')));
    // A 307 to another address is never followed (a browser sees an opaque redirect, the others the
    // 3xx): the same typed error everywhere, and the message says so.
    await check('redirect', async () => {
      try { await c.fetch('SELECT 1 /* smoke-redirect */'); return 'no error'; } catch (e) {
        const x = e as { name?: string; message?: string };
        return `${x.name} ${/chwire does not follow redirects/.test(x.message ?? '') ? 'not followed' : x.message}`;
      }
    });
    await check('exception-after-rows', async () => {
      // A tagged exception block after 10 000 rows, then the connection cut (the loopback server's
      // fault): the server's error after every row, with a consumer that falls behind. Uncompressed
      // (enable_http_compression=0): a runtime's decompressor may drop what it had not decoded at
      // the cut (docs/web.md).
      let n = 0;
      let seen = 'no error';
      try {
        for await (const r of c.stream<{ n: bigint }>('SELECT number AS n FROM numbers(20000) /* smoke-cut-exception */', { settings: { enable_http_compression: 0 } })) {
          if (r.n !== BigInt(n)) return `row ${n} is ${canon(r)}`;
          n++;
          if (n % 1000 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
        }
      } catch (e) {
        const x = e as { name?: string; serverCode?: number };
        seen = `${x.name}${x.serverCode !== undefined ? ` ${x.serverCode}` : ''}`;
      }
      return `${seen} after ${n} rows`;
    });
    await check('abort', async () => {
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 150);
      return expectError(() => c.fetch('SELECT number FROM numbers(100000) /* smoke-stall */', { signal: ac.signal, queryId: `smoke-abort-${tag}` }));
    });
    await check('timeout', async () => {
      const t = createClient({ url, requestTimeout: 300 });
      try { return await expectError(() => t.fetch('SELECT number FROM numbers(100000) /* smoke-stall */')); } finally { await t.close(); }
    });
    await check('compression-asked', async () => {
      // compression: true, the runtime's fetch choosing (and decoding) the codec.
      const z = createClient({ url, requestTimeout: 20_000, compression: true });
      try { return canon([...await z.fetch(`SELECT number AS n, toString(number) AS s FROM numbers(3) /* smoke-asked-${tag} */`)]); } finally { await z.close(); }
    });
    await check('compat', async () => {
      const cc = entry.compat.createClient({ url, request_timeout: 20_000, ...withFetch });
      try {
        const rows = await (await cc.query({ query: `SELECT number AS n, toString(number) AS s FROM numbers(1000) /* smoke-compat-${tag} */`, format: 'JSONEachRow' })).json() as unknown[];
        const text = await (await cc.query({ query: 'SELECT number, toString(number) FROM numbers(3)', format: 'CSV' })).text();
        const error = await cc.query({ query: 'SELECT * FROM no_such_table_smoke_compat', format: 'JSONEachRow' }).then(() => 'no error', (e: { code?: string }) => `${e instanceof entry.compat.ClickHouseError ? 'ClickHouseError' : 'another error'} ${e.code}`);
        return canon([rows.length, rows[999], text, error]);
      } finally {
        await cc.close();
      }
    });
    await check('session', async () => {
      const sessionId = `smoke-session-${tag}`;
      const [a, b] = await Promise.all([c.fetchValue('SELECT 1', { sessionId }), c.fetchValue('SELECT 2', { sessionId })]);
      return canon([a, b]);
    });
  } finally {
    await c.close();
  }
  return { codegen, checks };
}
