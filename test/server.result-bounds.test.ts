// The bounds of buffered results (maxResultBytes, maxResultRows) against the real 18.16 server:
// a result past the client's bound fails with ChwireLimitError naming it, and a bound raised for
// one call lets that call read the whole result; streamRaw's text()/json() hold the same bounds
// (client-wide and per call); compat's text()/json() take max_result_bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChwireLimitError, fetchColumns } from '../src/index.js';
import { createClient as createCompatClient } from '../src/compat.js';
import { REAL_URL, SKIP_REAL as skip, realClient } from './support/ch-server.js';

// 100 000 rows of a 100-byte String: ~10 MB of RowBinary body.
const SQL = `SELECT '${'x'.repeat(100)}' AS s, number AS n FROM system.numbers LIMIT 100000`;

test('real server: fetch, fetchValue and fetchColumns past maxResultBytes fail with ChwireLimitError; a per-call bound lets them through', { skip }, async () => {
  const c = realClient({ maxResultBytes: 1 << 20 });
  try {
    for (const call of [() => c.fetch(SQL), () => c.fetchValue(SQL), () => fetchColumns(c, SQL)]) {
      await assert.rejects(call(), (e: unknown) => {
        assert.ok(e instanceof ChwireLimitError, String(e));
        assert.equal(e.limit, 'maxResultBytes');
        assert.equal(e.bound, 1 << 20);
        assert.match(e.message, /larger than maxResultBytes \(1048576 bytes/);
        return true;
      });
    }
    const rows = await c.fetch(SQL, { maxResultBytes: 64 << 20 });
    assert.equal(rows.length, 100_000);
    assert.equal((rows[99_999] as { n: bigint }).n, 99_999n);
    const cols = await fetchColumns(c, SQL, { maxResultBytes: 0 });
    assert.equal(cols.rowCount, 100_000);
    // The client is still usable after a call it cut.
    assert.equal(await c.fetchValue('SELECT 1 + 1', { int64: 'number' }), 2);
  } finally {
    await c.close();
  }
});

test('real server: maxResultRows, client-wide and per call', { skip }, async () => {
  const c = realClient({ maxResultRows: 1000 });
  try {
    await assert.rejects(c.fetch(SQL), (e: unknown) => e instanceof ChwireLimitError && e.limit === 'maxResultRows' && /maxResultRows \(1000 rows\)/.test(e.message));
    assert.equal((await c.fetch(SQL, { maxResultRows: 100_000 })).length, 100_000);
    assert.equal((await c.fetch('SELECT number FROM system.numbers LIMIT 1000')).length, 1000);
  } finally {
    await c.close();
  }
});

test('real server: compat text() and json() past max_result_bytes fail with ChwireLimitError', { skip }, async () => {
  const small = createCompatClient({ url: REAL_URL, max_result_bytes: 1 << 20 });
  const big = createCompatClient({ url: REAL_URL });
  try {
    for (const read of ['text', 'json'] as const) {
      const rs = await small.query({ query: SQL, format: 'JSONEachRow' });
      await assert.rejects(read === 'text' ? rs.text() : rs.json(), (e: unknown) => e instanceof ChwireLimitError && /max_result_bytes \(1048576 bytes/.test(e.message));
    }
    const rows = await (await big.query({ query: SQL, format: 'JSONEachRow' })).json<unknown[]>();
    assert.equal(rows.length, 100_000);
  } finally {
    await small.close();
    await big.close();
  }
});

test('real server: streamRaw text() and json() past maxResultBytes fail with ChwireLimitError; a per-call bound lets them through', { skip }, async () => {
  const c = realClient({ maxResultBytes: 1 << 20 });
  try {
    for (const read of ['text', 'json'] as const) {
      const s = c.streamRaw(SQL, { format: 'JSONEachRow' });
      await assert.rejects(read === 'text' ? s.text() : s.json(), (e: unknown) => e instanceof ChwireLimitError && e.limit === 'maxResultBytes' && /streamRaw is larger than maxResultBytes \(1048576 bytes/.test(e.message));
    }
    const rows = await c.streamRaw(SQL, { format: 'JSONEachRow', maxResultBytes: 64 << 20 }).json<{ n: string }[]>();
    assert.equal(rows.length, 100_000);
    assert.equal(rows[99_999]!.n, '99999');
    await assert.rejects(c.streamRaw(SQL, { format: 'JSONEachRow', maxResultBytes: 0, maxResultRows: 1000 }).json(), (e: unknown) => e instanceof ChwireLimitError && e.limit === 'maxResultRows');
    assert.equal((await c.streamRaw('SELECT 1 AS x', { format: 'JSONEachRow' }).text()), '{"x":1}\n');
  } finally {
    await c.close();
  }
});
