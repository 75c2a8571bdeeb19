// createQueryClient and the call functions (insert, fetchColumns, streamColumns, refreshSchema)
// over it, on the real 18.16 server (node:http), the same server over chwire/web (fetch), and the
// embedded engine: the functions do exactly what the Client methods of the same names do (same
// rows stored, same columns read, same schema refresh), share the client's lifecycle (close
// refuses them, destroy cancels them), and refuse anything that is not a chwire client by name.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, createQueryClient, insert, fetchColumns, streamColumns, refreshSchema, ChwireAbortError, ChwireConfigError, type QueryClient } from '../src/index.js';
import * as web from '../src/web.js';
import { REAL_URL, SKIP_REAL, AUTH_USER, AUTH_PASSWORD, uniqueName } from './support/ch-server.js';
import { channelEvents } from './support/query-channel.js';

const clients: { close(): Promise<void> }[] = [];
after(async () => { for (const c of clients) await c.close(); });

const ROWS = Array.from({ length: 2500 }, (_, i) => ({ id: i, s: `r${i}`, t: new Date(Date.UTC(2024, 0, 1) + i * 1000), a: [i, i + 1] }));
const DDL = (t: string) => `CREATE TABLE ${t} (id UInt32, s String, t DateTime('UTC'), a Array(UInt16)) ENGINE = MergeTree ORDER BY id`;

/** Inserts ROWS with the function over `q` and with the method of a full client; both tables must read back the same. */
async function sameAsMethods(q: QueryClient, full: ReturnType<typeof createClient> | ReturnType<typeof web.createClient>, cachesSchemas: boolean): Promise<void> {
  const a = uniqueName('qc_fn');
  const b = uniqueName('qc_method');
  for (const t of [a, b]) await q.execute(DDL(t));
  try {
    const r = await insert(q, a, ROWS, { blockSize: 1000 });
    await full.insert(b, ROWS, { blockSize: 1000 });
    assert.equal(typeof r.queryId, 'string');
    const got = await q.fetch(`SELECT * FROM ${a} ORDER BY id`);
    const want = await full.fetch(`SELECT * FROM ${b} ORDER BY id`);
    assert.equal(got.length, ROWS.length);
    assert.deepEqual([...got], [...want]);
    assert.deepEqual(got[7], { id: 7, s: 'r7', t: ROWS[7]!.t, a: [7, 8] });
    // Columns: the function and the method read the same typed arrays.
    const colsF = await fetchColumns(q, `SELECT id, s FROM ${a} ORDER BY id`);
    const colsM = await full.fetchColumns(`SELECT id, s FROM ${a} ORDER BY id`);
    assert.deepEqual(colsF.names, colsM.names);
    assert.deepEqual(colsF.columns.map((c) => Array.from(c as ArrayLike<unknown>)), colsM.columns.map((c) => Array.from(c as ArrayLike<unknown>)));
    assert.equal(colsF.rowCount, ROWS.length);
    let n = 0;
    for await (const batch of streamColumns(q, `SELECT id FROM ${a} ORDER BY id`)) n += batch.rowCount;
    assert.equal(n, ROWS.length);
    if (cachesSchemas) {
      // refreshSchema: the schema read by the insert above is cached (servers that check a block's
      // types); refreshSchema of another table keeps it, of this table drops it (one DESCRIBE more).
      const describes = async (run: () => Promise<unknown>): Promise<number> => {
        const ch = channelEvents();
        try { await run(); } finally { ch.stop(); }
        return ch.events.filter((e) => e['kind'] === 'describe').length;
      };
      const one = [{ id: 9999, s: 'x', t: new Date(0), a: [] }];
      assert.equal(await describes(() => insert(q, a, one)), 0, 'the schema is cached');
      refreshSchema(q, `${a}_other`);
      assert.equal(await describes(() => insert(q, a, one)), 0, 'another table\'s refresh keeps it');
      refreshSchema(q, a);
      assert.equal(await describes(() => insert(q, a, one)), 1, 'refreshSchema(client, table) drops it');
      refreshSchema(q);
      assert.equal(await describes(() => insert(q, a, one)), 1, 'refreshSchema(client) drops every table\'s');
      assert.equal(await q.fetchValue(`SELECT count() FROM ${a} WHERE id = 9999`), 4n);
    }
  } finally {
    for (const t of [a, b]) await q.execute(`DROP TABLE IF EXISTS ${t}`);
  }
}

test('18.16 over node:http: createQueryClient reads, and insert / fetchColumns / streamColumns / refreshSchema over it equal the Client methods', { skip: SKIP_REAL }, async () => {
  const o = { url: REAL_URL!, username: AUTH_USER, password: AUTH_PASSWORD };
  const q = createQueryClient(o);
  const full = createClient(o);
  clients.push(q, full);
  assert.equal('insert' in q, false, 'a query client has no insert method');
  assert.equal(typeof (full as unknown as { insert: unknown }).insert, 'function');
  await sameAsMethods(q, full, false);
  // A full client is a query client too: the functions take it.
  const t = uniqueName('qc_full');
  await full.execute(DDL(t));
  try {
    await insert(full, t, ROWS.slice(0, 10));
    assert.equal(await full.fetchValue(`SELECT count() FROM ${t}`), 10n);
  } finally {
    await full.execute(`DROP TABLE ${t}`);
  }
});

test('18.16 over fetch (chwire/web): the same', { skip: SKIP_REAL }, async () => {
  const o = { url: REAL_URL!, username: AUTH_USER, password: AUTH_PASSWORD };
  const q = web.createQueryClient(o);
  const full = web.createClient(o);
  clients.push(q, full);
  await sameAsMethods(q, full, false);
});

test('embedded engine (chdb://): the same', async () => {
  const q = createQueryClient({ url: 'chdb://' });
  const full = createClient({ url: 'chdb://' });
  clients.push(q, full);
  await sameAsMethods(q, full, true);
});

test('the functions refuse what is not a chwire client, by name, before anything is sent', async () => {
  const notClients: unknown[] = [{}, null, { fetch: () => [] }, 'chdb://'];
  for (const x of notClients) {
    await assert.rejects(insert(x as QueryClient, 't', [{ a: 1 }]), (e: unknown) => e instanceof ChwireConfigError && /^insert\(\) takes a client made by createClient or createQueryClient/.test(e.message));
    await assert.rejects(fetchColumns(x as QueryClient, 'SELECT 1'), (e: unknown) => e instanceof ChwireConfigError && /^fetchColumns\(\) takes a client/.test(e.message));
    assert.throws(() => streamColumns(x as QueryClient, 'SELECT 1'), (e: unknown) => e instanceof ChwireConfigError && /^streamColumns\(\) takes a client/.test(e.message));
    assert.throws(() => refreshSchema(x as QueryClient), (e: unknown) => e instanceof ChwireConfigError && /^refreshSchema\(\) takes a client/.test(e.message));
  }
  // Options are checked as the methods check them.
  const q = createQueryClient({ url: 'chdb://' });
  clients.push(q);
  await assert.rejects(insert(q, 't', [{ a: 1 }], { abort_signal: undefined } as never), (e: unknown) => e instanceof ChwireConfigError && /abort_signal/.test(e.message));
  await assert.rejects(fetchColumns(q, 'SELECT 1 FORMAT JSON'), ChwireConfigError);
});

test('the functions share the client\'s lifecycle: destroy() cancels an insert in flight; after close() they are refused', async () => {
  const q = createQueryClient({ url: 'chdb://' });
  const t = uniqueName('qc_life');
  await q.execute(DDL(t));
  // An endless input: the insert is in flight until destroy() cancels it.
  async function* endless() { for (let i = 0; ; i++) { yield { id: i, s: 's', t: new Date(0), a: [] }; if (i % 1000 === 0) await new Promise((r) => setTimeout(r, 1)); } }
  const running = insert(q, t, endless(), { blockSize: 1000 }).then(() => 'resolved', (e: unknown) => e);
  await new Promise((r) => setTimeout(r, 50));
  await q.destroy();
  const e = await running;
  assert.ok(e instanceof ChwireAbortError, String(e));
  assert.match(e.message, /^call cancelled by client\.destroy\(\)/);
  await assert.rejects(insert(q, t, [{ id: 1 }]), (e: unknown) => e instanceof ChwireConfigError && /the client is closed/.test(e.message));
  await assert.rejects(fetchColumns(q, 'SELECT 1'), (e: unknown) => e instanceof ChwireConfigError && /the client is closed/.test(e.message));
});
