// streamRaw(...).text() and .json() on chdb:// and the real 18.16 server: text() is exactly the
// bytes a loop over the stream gives (UTF-8), json() parses a document format whole and a
// line-per-row format line by line, a non-JSON format is refused before anything is sent, and a
// server error mid-result rejects as it does for a loop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChwireConfigError, ChwireServerError, createClient, type Client } from '../src/index.js';
import { SKIP_REAL, realClient } from './support/ch-server.js';

const SQL = "SELECT number AS n, toString(number * 3) AS s, 'é\\'\"\\\\' AS t FROM system.numbers LIMIT 2000";

async function bytesOf(c: Client, format: string): Promise<string> {
  const parts: Uint8Array[] = [];
  for await (const b of c.streamRaw(SQL, { format })) parts.push(b);
  return Buffer.concat(parts).toString('utf8');
}

/** `modern`: the server has the JSONCompactEachRow family (18.16 has not). */
async function check(c: Client, modern: boolean): Promise<void> {
  // Not JSON: its statistics (elapsed) differ from run to run.
  for (const format of ['TSV', 'CSVWithNames', 'JSONEachRow']) {
    assert.equal(await c.streamRaw(SQL, { format }).text(), await bytesOf(c, format), format);
  }
  const lines = (await bytesOf(c, 'JSONEachRow')).split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown);
  assert.equal(lines.length, 2000);
  assert.deepEqual(await c.streamRaw(SQL, { format: 'JSONEachRow' }).json(), lines);
  if (modern) assert.deepEqual(await c.streamRaw(SQL, { format: 'JSONCompactEachRow' }).json<unknown[][]>().then((r) => r.length), 2000);
  assert.deepEqual(await c.streamRaw(SQL, { format: 'JSONCompact' }).json<{ data: unknown[][] }>().then((r) => r.data.length), 2000);
  const doc = await c.streamRaw(SQL, { format: 'JSON' }).json<{ data: unknown[]; rows: number }>();
  assert.equal(doc.rows, 2000);
  assert.deepEqual(doc.data, lines);
  if (modern) {
    const withNames = await c.streamRaw(SQL, { format: 'JSONCompactEachRowWithNames' }).json<unknown[][]>();
    assert.deepEqual(withNames[0], ['n', 's', 't']);
    assert.equal(withNames.length, 2001);
  }
  await assert.rejects(c.streamRaw(SQL, { format: 'CSV' }).json(), (e: unknown) => e instanceof ChwireConfigError && /json\(\) needs a JSON output format.*CSV.*use text\(\)/.test((e as Error).message));
  // A failure after rows were sent rejects, as a loop does.
  await assert.rejects(c.streamRaw('SELECT throwIf(number = 150000) AS x, number FROM system.numbers LIMIT 200000', { format: 'JSONEachRow', settings: { max_block_size: 1000 } }).json(), ChwireServerError);
}

test('streamRaw text() and json() on chdb://', { timeout: 120_000 }, async () => {
  const c = createClient({ url: 'chdb://' });
  try { await check(c, true); } finally { await c.close(); }
});

test('streamRaw text() and json() on 18.16', { skip: SKIP_REAL, timeout: 120_000 }, async () => {
  const c = realClient();
  try { await check(c, false); } finally { await c.close(); }
});
