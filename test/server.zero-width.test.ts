// Types with few or no bytes per value against the real ClickHouse 18.16 server
// (CHWIRE_TEST_HTTP_URL), read in Native there (18.16 has no RowBinaryWithNamesAndTypes).
// 18.16 has no empty tuple at all (`tuple()` needs an argument); its Nothing-typed results
// (Nullable(Nothing), Array(Nothing), an empty arrayJoin) must keep their exact row counts, and
// its Native placeholder bytes for Nothing ('0' per value) are read like 26.7's for Tuple().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SKIP_REAL as skip, realClient } from './support/ch-server.js';
import { ChwireServerError } from '../src/index.js';
import { decodeNative } from '../src/codec.js';

test('18.16: no empty tuple; Nothing-typed results keep every row', { skip }, async () => {
  const c = realClient();
  try {
    await assert.rejects(c.fetch('SELECT tuple() AS t FROM numbers(3)'), ChwireServerError);
    assert.deepEqual(await c.fetch('SELECT CAST(NULL AS Nullable(Nothing)) AS n FROM numbers(3)'), [{ n: null }, { n: null }, { n: null }]);
    assert.deepEqual(await c.fetch('SELECT [] AS a, NULL AS n FROM numbers(2)'), [{ a: [], n: null }, { a: [], n: null }]);
    assert.deepEqual(await c.fetch('SELECT arrayJoin([]) AS x'), []);
    const cols = await c.fetchColumns('SELECT [[], []] AS a, NULL AS n FROM numbers(4)');
    assert.equal(cols.rowCount, 4);
    // The server's own bytes: one '0' per Nothing value, which the reader consumes.
    const raw: Uint8Array[] = [];
    for await (const b of c.streamRaw('SELECT NULL AS n FROM numbers(3)', { format: 'Native' })) raw.push(b);
    const bytes = Buffer.concat(raw);
    assert.equal(bytes.subarray(bytes.length - 3).toString(), '000');
    assert.deepEqual(decodeNative(bytes).rows, [{ n: null }, { n: null }, { n: null }]);
  } finally {
    await c.close();
  }
});
