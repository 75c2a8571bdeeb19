// Results of empty tuples through the client: on the embedded engine a RowBinary read of rows
// that take no bytes is refused (ChwireTypeError naming format: 'Native'), a Native read gives
// every row and an insert writes Native's byte per empty tuple; a hostile server's few-byte bodies that announce millions of empty tuples fail with
// a typed error at once and never hold the event loop.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, ChwireDecodeError, ChwireTypeError } from '../src/index.js';
import { worstGap } from './support/loop-gap.js';

const c = createClient({ url: 'chdb://' });
after(() => c.close());

test('chdb: rows of only empty tuples are refused in RowBinary and all come back in Native', async () => {
  await assert.rejects(c.fetch('SELECT tuple() AS t FROM numbers(5)'),
    (e: unknown) => e instanceof ChwireTypeError && /format: 'Native'/.test(e.message));
  assert.deepEqual(await c.fetch('SELECT tuple() AS t FROM numbers(5)', { format: 'Native' }), [{ t: [] }, { t: [] }, { t: [] }, { t: [] }, { t: [] }]);
  const rows: unknown[] = [];
  for await (const r of c.stream('SELECT tuple() AS t FROM numbers(3)', { format: 'Native' })) rows.push(r);
  assert.equal(rows.length, 3);
  for (const format of ['RowBinaryWithNamesAndTypes', 'Native'] as const) {
    assert.deepEqual(await c.fetch('SELECT [(), ()] AS a, tuple() AS t, number AS n FROM numbers(2)', { format, int64: 'number' }),
      [{ a: [[], []], t: [], n: 0 }, { a: [[], []], t: [], n: 1 }]);
  }
  const cols = await c.fetchColumns('SELECT tuple() AS t FROM numbers(4)');
  assert.equal(cols.rowCount, 4);
});

test('chdb: inserting empty tuples writes the byte per value the engine reads (the next column stays aligned)', async () => {
  const table = `zw_insert_${process.pid}`;
  await c.execute(`CREATE TABLE ${table} (a Tuple(), b UInt8, s String, z Array(Tuple()), t Tuple(Tuple(), UInt8)) ENGINE = Memory`);
  try {
    await c.insert(table, [{ a: [], b: 7, s: 'x', z: [[], []], t: [[], 1] }, { a: [], b: 8, s: 'y', z: [], t: [[], 2] }]);
    assert.deepEqual(await c.fetch(`SELECT toString(a) AS a, b, s, toUInt8(length(z)) AS z, toString(t) AS t FROM ${table} ORDER BY b`),
      [{ a: '()', b: 7, s: 'x', z: 2, t: '((),1)' }, { a: '()', b: 8, s: 'y', z: 0, t: '((),2)' }]);
  } finally {
    await c.execute(`DROP TABLE ${table}`);
  }
});

function varUInt(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) { out.push((n % 0x80) | 0x80); n = Math.floor(n / 0x80); }
  out.push(n);
  return out;
}
const text = (s: string): number[] => [...varUInt(s.length), ...Buffer.from(s)];

/** A server that answers the version probe as 26.7 and every query with `body` in the format asked. */
async function hostile(body: Uint8Array): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const sql = Buffer.concat(chunks).toString() + (url.searchParams.get('query') ?? '');
      if (sql.includes('version()')) {
        res.writeHead(200, { 'X-ClickHouse-Format': 'TabSeparated' });
        res.end('26.7.1.1\tUTC\n');
        return;
      }
      res.writeHead(200, { 'X-ClickHouse-Format': url.searchParams.get('default_format') ?? (sql.includes('Native') ? 'Native' : 'RowBinaryWithNamesAndTypes') });
      res.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

test('hostile server: 22 bytes of Array(Tuple()) × 2^24, or a 15-byte Native block of 2^24 rows, fail at once without holding the event loop', async () => {
  const cases: [Uint8Array, 'RowBinaryWithNamesAndTypes' | 'Native'][] = [
    [Uint8Array.from([1, ...text('a'), ...text('Array(Tuple())'), ...varUInt(2 ** 24)]), 'RowBinaryWithNamesAndTypes'],
    [Uint8Array.from([1, ...text('a'), ...text('Array(Tuple())'), ...varUInt(2 ** 28)]), 'RowBinaryWithNamesAndTypes'],
    [Uint8Array.from([1, ...varUInt(2 ** 24), ...text('t'), ...text('Tuple()')]), 'Native'],
    [Uint8Array.from([1, ...varUInt(2 ** 28), ...text('t'), ...text('Tuple()')]), 'Native'],
  ];
  assert.equal(cases[0]![0].length, 22);
  assert.equal(cases[2]![0].length, 15);
  for (const [body, format] of cases) {
    const srv = await hostile(body);
    const h = createClient({ url: srv.url, requestTimeout: 5000 });
    try {
      const t0 = performance.now();
      const { result, gapMs } = await worstGap(async () => {
        try { await h.fetch('SELECT a FROM t', { format }); return undefined; } catch (e) { return e; }
      });
      const took = performance.now() - t0;
      assert.ok(result instanceof ChwireDecodeError, `${format}: expected a ChwireDecodeError, got ${String(result)}`);
      assert.ok(took < 1500, `${format}: failed after ${Math.round(took)} ms`);
      assert.ok(gapMs < 500, `${format}: the event loop was held ${Math.round(gapMs)} ms`);
    } finally {
      await h.close();
      await srv.close();
    }
  }
});
