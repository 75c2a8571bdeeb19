// Arrow users (issue 13): the documented recipe (streamRaw ArrowStream bytes into apache-arrow's
// RecordBatchReader) read from the loopback server's engine-made bytes equals the rows fetch
// reads, and fetchColumns numeric columns back apache-arrow vectors without a copy (same memory).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { RecordBatchReader, makeVector, makeData, Utf8, Vector } from 'apache-arrow';
import { createClient } from '../src/index.js';
import { startTestServer } from './support/test-server.js';

const server = await startTestServer();
const client = createClient({ url: server.url });
after(async () => { await client.close(); await server.close(); });

const SQL = 'SELECT number AS n, toString(number * 3) AS s, number / 4 AS f FROM numbers(100000) SETTINGS max_block_size = 30000';

test('recipe: streamRaw ArrowStream into RecordBatchReader gives the rows fetch gives', async () => {
  const expected = await client.fetch<{ n: bigint; s: string; f: number }>(SQL);
  // The README recipe, as written there (apache-arrow's JS reader has no LZ4 codec: ask for none).
  const reader = await RecordBatchReader.from(client.streamRaw(SQL, { format: 'ArrowStream', settings: { output_format_arrow_compression_method: 'none' } }));
  let row = 0;
  let batches = 0;
  for await (const batch of reader) {
    batches++;
    const n = batch.getChild('n')!;
    const s = batch.getChild('s')!;
    const f = batch.getChild('f')!;
    for (let i = 0; i < batch.numRows; i++, row++) {
      const e = expected[row]!;
      assert.equal(n.get(i), e.n);
      assert.equal(String(s.get(i)), e.s);
      assert.equal(f.get(i), e.f);
    }
  }
  assert.equal(row, expected.length);
  assert.ok(batches >= 2, `${batches} record batches`);
});

test('fetchColumns numeric columns back apache-arrow vectors without a copy; raw strings build a Utf8 vector', async () => {
  const cols = await client.fetchColumns(SQL, { strings: 'raw' });
  const n = cols.columns[0] as BigUint64Array;
  const f = cols.columns[2] as Float64Array;
  for (const col of [n, f]) {
    const v = makeVector(col);
    assert.equal(v.length, cols.rowCount);
    assert.equal(v.data[0]!.values.buffer, col.buffer, 'the vector is a view of the column memory');
    assert.equal(v.data[0]!.values.byteOffset, col.byteOffset);
  }
  assert.equal(makeVector(f).get(99999), 99999 / 4);
  const s = cols.columns[1];
  assert.ok(s !== undefined && !Array.isArray(s) && !ArrayBuffer.isView(s) && s.kind === 'strings');
  const offsets = new Int32Array(s.offsets.buffer, s.offsets.byteOffset, s.offsets.length); // < 2 GiB: same bits
  const utf8 = new Vector([makeData({ type: new Utf8(), length: cols.rowCount, valueOffsets: offsets, data: s.data })]);
  assert.equal(utf8.get(12345), String(12345 * 3));
  assert.equal(utf8.data[0]!.values.buffer, s.data.buffer);
});
