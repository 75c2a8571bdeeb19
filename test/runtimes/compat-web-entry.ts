// The side-by-side page of test/compat-web.chromium.test.ts (bundled by it with esbuild): the same
// calls through the official @clickhouse/client-web and through chwire/compat/web, in that order,
// against the server this page's origin forwards to. The page `compat.html?target=<18|loop>&tag=<t>`
// leaves `{ official, compat }` (each a record of step → JSON-able outcome) in `window.__compat`.
import * as official from '@clickhouse/client-web';
import * as compat from '../../src/compat-web.js';

interface ResultSetLike {
  json(): Promise<unknown>;
  text(): Promise<string>;
  stream(): ReadableStream<{ text: string; json(): unknown }[]>;
  query_id: string;
  response_headers: Record<string, unknown>;
}
interface ClientLike {
  query(p: Record<string, unknown>): Promise<ResultSetLike>;
  exec(p: Record<string, unknown>): Promise<{ stream: ReadableStream<Uint8Array>; query_id: string }>;
  command(p: Record<string, unknown>): Promise<{ query_id: string }>;
  insert(p: Record<string, unknown>): Promise<{ executed: boolean; query_id: string }>;
  ping(): Promise<{ success: boolean; error?: Error }>;
  close(): Promise<void>;
}
interface Lib { createClient(o: Record<string, unknown>): unknown; ClickHouseError: new (...a: never[]) => Error }

const w = globalThis as unknown as { location: { search: string; origin: string }; __compat?: unknown };
const q = new URLSearchParams(w.location.search);
const target = q.get('target')!;
const tag = q.get('tag')!;

/** An error as the steps compare it: its class name, message, official fields, and whether it is the library's ClickHouseError. */
function described(e: unknown, lib: Lib): unknown {
  if (!(e instanceof Error)) return { thrownNonError: String(e) };
  const f = e as Error & { code?: unknown; type?: unknown };
  return { thrown: f.name, message: f.message, code: f.code, type: f.type, clickHouseError: e instanceof lib.ClickHouseError };
}

async function bodyText(s: ReadableStream<Uint8Array>): Promise<string> {
  const r = s.getReader();
  const d = new TextDecoder();
  let out = '';
  for (;;) {
    const { done, value } = await r.read();
    if (done) return out + d.decode();
    out += d.decode(value, { stream: true });
  }
}

async function scenario(lib: Lib, who: string): Promise<Record<string, unknown>> {
  const c = lib.createClient({ url: w.location.origin, request_timeout: 30_000 }) as ClientLike;
  const out: Record<string, unknown> = {};
  const step = async (name: string, f: () => Promise<unknown>): Promise<void> => {
    try { out[name] = await f(); } catch (e) { out[name] = described(e, lib); }
  };
  const table = `compat_web_${tag}_${who}`;
  const numbers = (n: number): string => `SELECT number AS n, toString(number) AS s, number * 1.5 AS f FROM system.numbers LIMIT ${n}`;

  await step('json JSONEachRow', async () => (await c.query({ query: numbers(5), format: 'JSONEachRow' })).json());
  await step('json JSONCompactEachRow', async () => (await c.query({ query: numbers(5), format: 'JSONCompactEachRow' })).json());
  await step('json JSON (data, meta, rows)', async () => {
    const doc = await (await c.query({ query: numbers(3), format: 'JSON' })).json() as { data: unknown; meta: unknown; rows: unknown };
    return { data: doc.data, meta: doc.meta, rows: doc.rows };
  });
  await step('json default format (JSON)', async () => ((await (await c.query({ query: 'SELECT 1 AS one' })).json()) as { data: unknown }).data);
  await step('text TabSeparated', async () => (await c.query({ query: numbers(4), format: 'TabSeparated' })).text());
  await step('text CSVWithNames', async () => (await c.query({ query: numbers(3), format: 'CSVWithNames' })).text());
  await step('stream JSONEachRow (20000 rows)', async () => {
    const rs = await c.query({ query: numbers(20_000), format: 'JSONEachRow' });
    const s = rs.stream();
    const reader = s.getReader();
    let batches = 0;
    let arrays = true;
    const texts: string[] = [];
    let sum = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      batches++;
      arrays &&= Array.isArray(value);
      for (const row of value) { texts.push(row.text); sum += Number((row.json() as { n: string }).n); }
    }
    return { readable: s instanceof ReadableStream, arrays, someBatches: batches >= 1, rows: texts.length, first: texts[0], last: texts[texts.length - 1], sum };
  });
  await step('stream of a document format', async () => { (await c.query({ query: numbers(1), format: 'JSON' })).stream(); return 'no error'; });
  await step('json of a raw format', async () => (await c.query({ query: numbers(1), format: 'CSV' })).json());
  await step('read twice', async () => { const rs = await c.query({ query: numbers(1), format: 'JSONEachRow' }); await rs.text(); return rs.text(); });
  await step('response_headers (names; the query id)', async () => {
    const rs = await c.query({ query: 'SELECT 1 AS x', format: 'JSONEachRow', query_id: `hdr-${tag}-${who}` });
    await rs.text();
    return { names: Object.keys(rs.response_headers).sort(), queryId: rs.response_headers['x-clickhouse-query-id'] === `hdr-${tag}-${who}` };
  });
  await step('query_id given', async () => (await c.query({ query: 'SELECT 1', format: 'JSONEachRow', query_id: `qid-${tag}-${who}` })).query_id === `qid-${tag}-${who}`);
  await step('exec', async () => {
    const r = await c.exec({ query: 'SELECT 41 + 1 AS x FORMAT TabSeparatedWithNames' });
    return { keys: Object.keys(r).sort(), status: (r as { http_status_code?: unknown }).http_status_code, readable: r.stream instanceof ReadableStream, text: await bodyText(r.stream), queryId: typeof r.query_id };
  });
  await step('command DROP/CREATE', async () => {
    await c.command({ query: `DROP TABLE IF EXISTS ${table}` });
    const r = await c.command({ query: `CREATE TABLE ${table} (id UInt32, name String) ENGINE = Memory` });
    return { keys: Object.keys(r).sort(), status: (r as { http_status_code?: unknown }).http_status_code, queryId: typeof r.query_id };
  });
  await step('insert JSONEachRow', async () => {
    const r = await c.insert({ table, values: [{ id: 1, name: 'a' }, { id: 2, name: 'b\nc' }], format: 'JSONEachRow' });
    return { keys: Object.keys(r).sort(), status: (r as { http_status_code?: unknown }).http_status_code, executed: r.executed, queryId: typeof r.query_id };
  });
  await step('insert of no rows', async () => c.insert({ table, values: [], format: 'JSONEachRow' }));
  await step('insert read back', async () => (await c.query({ query: `SELECT id, name FROM ${table} ORDER BY id`, format: 'JSONEachRow' })).json());
  await step('ping', async () => c.ping());
  await step('server error', async () => (await c.query({ query: 'SELECT nope_column', format: 'JSONEachRow' })).json());
  await step('server error of command', async () => c.command({ query: 'DROP TABLE nope_db_compat_web.nope' }));
  await step('abort before the response', async () => {
    const ctl = new AbortController();
    const sql = target === 'loop' ? 'SELECT 1 /* cw-hold */' : 'SELECT sleep(3)';
    const p = c.query({ query: sql, format: 'JSONEachRow', abort_signal: ctl.signal });
    setTimeout(() => ctl.abort(), 300);
    return (await p).text();
  });
  if (target === 'loop') {
    await step('abort while reading', async () => {
      const ctl = new AbortController();
      const rs = await c.query({ query: 'SELECT number FROM system.numbers LIMIT 100000 /* cw-stall */', format: 'JSONEachRow', abort_signal: ctl.signal });
      setTimeout(() => ctl.abort(), 300);
      return rs.text();
    });
    await step('query_params', async () => (await c.query({ query: 'SELECT {n:UInt8} + 1 AS x, {s:String} AS s', format: 'JSONEachRow', query_params: { n: 41, s: 'abc' } })).json());
  }
  await c.close();
  return out;
}

(async () => {
  const o = await scenario(official as unknown as Lib, 'official');
  const cw = await scenario(compat as unknown as Lib, 'compat');
  w.__compat = { official: o, compat: cw };
})().catch((e: Error) => { w.__compat = { error: `${e.name}: ${e.message}` }; });
