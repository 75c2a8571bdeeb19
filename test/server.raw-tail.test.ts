// streamRaw from Debian's 18.16, which appends an exception as plain text after the data it has
// sent and ends the body cleanly (same chunked ending, same keep-alive: no signal on the wire tells
// the two apart). A last row that reads like such an exception is therefore either raised with a
// message that says so and names the remedy ('detect', the default), or exact with
// appendedExceptions: 'wait' (wait_end_of_query: an exception then comes as HTTP 500 before the body).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChwireConfigError, ChwireServerError } from '../src/index.js';
import { SKIP_REAL, realClient } from './support/ch-server.js';

const skip = SKIP_REAL;
const LOOKALIKE = 'Code: 60, e.displayText() = DB::Exception: Table default.x does not exist, e.what() = DB::Exception';
const SQL = `SELECT arrayJoin(['first row', 'second row', '${LOOKALIKE}']) AS line`;

async function collect(it: AsyncIterable<Uint8Array>): Promise<string> {
  const parts: Uint8Array[] = [];
  for await (const b of it) parts.push(b);
  return Buffer.concat(parts).toString('utf8');
}

test("streamRaw TSV: a last row that reads like an old server's exception", { skip }, async () => {
  const c = realClient();
  try {
    for (const format of ['TSV', 'TSVRaw', 'TabSeparated']) {
      // 'wait': every row, the look-alike included, exactly as the server wrote it.
      assert.equal(await collect(c.streamRaw(SQL, { format, appendedExceptions: 'wait' })), `first row\nsecond row\n${LOOKALIKE}\n`, format);
      // 'detect' (default): never a silent success without the row; the error says why and what to do.
      await assert.rejects(collect(c.streamRaw(SQL, { format })), (e: unknown) => e instanceof ChwireServerError
        && /if that line is a row of your data, pass appendedExceptions: 'wait'/.test(e.message));
    }
    // A real exception after data with 'wait': an HTTP error before any byte, never data.
    const got: string[] = [];
    await assert.rejects((async () => {
      for await (const b of c.streamRaw('SELECT throwIf(number = 150000) AS x, number FROM system.numbers LIMIT 200000', { format: 'TSV', settings: { max_block_size: 1000 }, appendedExceptions: 'wait' })) got.push(Buffer.from(b).toString());
    })(), (e: unknown) => e instanceof ChwireServerError && e.serverCode === 395 && e.status === 500);
    assert.deepEqual(got, []);
    // A large export with 'wait' arrives whole.
    const big = await collect(c.streamRaw('SELECT number FROM system.numbers LIMIT 300000', { format: 'TSV', appendedExceptions: 'wait' }));
    assert.equal(big.split('\n').length, 300001);
    assert.throws(() => c.streamRaw('SELECT 1', { format: 'TSV', appendedExceptions: 'never' as never }), ChwireConfigError);
  } finally {
    await c.close();
  }
});
