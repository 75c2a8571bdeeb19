// An abort through `signal` ends a stream's loop at its next step (issue 17, item 7): rows already
// buffered or decoded are not handed over, the loop throws ChwireAbortError. Before, a `.batches()`
// loop aborted at 16 384 rows kept receiving the buffered rows (184 396 more in the run).
// Both entries (Node http, web fetch), against the loopback test server (whose whole body is
// written at once, so it is all buffered) and the real 18.16 server; rows, batches and columns.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient as createNodeClient, ChwireAbortError, type Client } from '../src/index.js';
import { createClient as createWebClient } from '../src/web.js';
import { startTestServer } from './support/test-server.js';
import { REAL_URL, SKIP_REAL } from './support/ch-server.js';

const server = await startTestServer();
after(() => server.close());

const SQL = 'SELECT number, toString(number) AS s FROM system.numbers LIMIT 300000';
const AT = 16384;

type Mode = 'rows' | 'batches' | 'columns';

/** Rows received after the abort, and the error the loop ended with. */
async function abortAt(c: Client, mode: Mode): Promise<{ after: number; error: unknown }> {
  const ac = new AbortController();
  let seen = 0;
  let afterAbort = 0;
  const count = (n: number): void => {
    if (ac.signal.aborted) afterAbort += n;
    seen += n;
    if (seen >= AT && !ac.signal.aborted) ac.abort();
  };
  try {
    if (mode === 'rows') for await (const _ of c.stream(SQL, { signal: ac.signal })) count(1);
    else if (mode === 'batches') for await (const b of c.stream(SQL, { signal: ac.signal }).batches()) count(b.length);
    else for await (const b of c.streamColumns(SQL, { signal: ac.signal })) count(b.rowCount);
  } catch (e) {
    return { after: afterAbort, error: e };
  }
  return { after: afterAbort, error: undefined };
}

const ENTRIES: [string, (url: string) => Client][] = [
  ['node', (url) => createNodeClient({ url })],
  ['web', (url) => createWebClient({ url }) as unknown as Client],
];

for (const [entry, make] of ENTRIES) {
  for (const mode of ['rows', 'batches', 'columns'] as const) {
    test(`${entry} entry, ${mode}: an abort ends the loop at its next step (test server)`, async () => {
      const c = make(server.url);
      try {
        const r = await abortAt(c, mode);
        assert.ok(r.error instanceof ChwireAbortError, `ends with ChwireAbortError, got ${String(r.error)}`);
        assert.equal(r.after, 0, 'no row after the abort');
        // The client is still usable.
        assert.equal((await c.fetch('SELECT 1 AS x')).length, 1);
      } finally {
        await c.close();
      }
    });

    test(`${entry} entry, ${mode}: an abort ends the loop at its next step (18.16)`, { skip: SKIP_REAL }, async () => {
      const c = make(REAL_URL!);
      try {
        const r = await abortAt(c, mode);
        assert.ok(r.error instanceof ChwireAbortError, `ends with ChwireAbortError, got ${String(r.error)}`);
        assert.equal(r.after, 0, 'no row after the abort');
      } finally {
        await c.close();
      }
    });
  }
}

test('cancel() still ends the loop quietly, and an abort after the end changes nothing', async () => {
  const c = createNodeClient({ url: server.url });
  try {
    const ac = new AbortController();
    const s = c.stream(SQL, { signal: ac.signal });
    let n = 0;
    for await (const b of s.batches()) { n += b.length; if (n >= AT) s.cancel(); }
    assert.ok(n >= AT && n < AT + 1024, `${n} rows: none after the batch that reached ${AT}`);
    const rows = await c.fetch('SELECT 1 AS x', { signal: ac.signal });
    ac.abort();
    assert.equal(rows.length, 1);
  } finally {
    await c.close();
  }
});
