// An AggregateFunction column is refused, naming the column, on every read path (RowBinary rows,
// Native rows, fetchColumns, streamColumns, the Native codec) against chdb:// bytes: a state has no
// length prefix, so no value after it could be found.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, ChwireTypeError } from '../src/index.js';
import { decodeNative, decodeNativeColumns } from '../src/native/index.js';

const c = createClient({ url: 'chdb://' });
after(() => c.close());

const SQL = 'SELECT 1 AS a, [sumState(number)] AS `the state` FROM numbers(3)';
const named = (e: unknown): boolean => e instanceof ChwireTypeError && e.message.includes('column "the state"') && e.message.includes('AggregateFunction');

test('every read path names the AggregateFunction column it refuses', async () => {
  await assert.rejects(c.fetch(SQL), named, 'fetch (RowBinary)');
  await assert.rejects(c.fetch(SQL, { format: 'Native' }), named, 'fetch (Native)');
  await assert.rejects(c.fetch(SQL, { format: 'Native', rows: 'array', datetime: 'text' }), named, 'fetch (Native, array rows)');
  await assert.rejects(c.fetchColumns(SQL), named, 'fetchColumns');
  await assert.rejects((async () => { for await (const _b of c.streamColumns(SQL)) { /* none */ } })(), named, 'streamColumns');
  const chunks: Uint8Array[] = [];
  for await (const chunk of c.streamRaw(SQL, { format: 'Native' })) chunks.push(chunk as Uint8Array);
  const body = Buffer.concat(chunks);
  assert.throws(() => decodeNative(body), named, 'decodeNative');
  assert.throws(() => decodeNativeColumns(body), named, 'decodeNativeColumns');
});
