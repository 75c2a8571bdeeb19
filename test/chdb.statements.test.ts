// Statements the embedded engine cannot stream (SHOW, DESCRIBE, SHOW CREATE, EXISTS, EXPLAIN)
// read through fetch like any other (issue 10, item 6): the transport runs them single-shot,
// chosen by statement kind or, for any other kind, by the engine's refusal before any row. And
// engine errors read once: a rethrown exception's repeated `Code: N. DB::Exception:` is folded.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, ChwireServerError } from '../src/index.js';
import { foldEngineMessage } from '../src/transport/chdb-errors.js';

const c = createClient({ url: 'chdb://' });
after(() => c.close());

test('fetch, stream and fetchColumns of SHOW, DESCRIBE, SHOW CREATE, EXISTS and EXPLAIN', async () => {
  await c.execute('CREATE TABLE st_t (id UInt32, s String) ENGINE = MergeTree ORDER BY id');
  assert.deepEqual((await c.fetch<{ name: string }>("SHOW TABLES LIKE 'st_%'")).map((r) => r.name), ['st_t']);
  const described = await c.fetch<{ name: string; type: string }>('DESCRIBE TABLE st_t');
  assert.deepEqual(described.map((r) => [r.name, r.type]), [['id', 'UInt32'], ['s', 'String']]);
  const created = await c.fetchValue<string>('SHOW CREATE TABLE st_t');
  assert.match(created!, /^CREATE TABLE default\.st_t\s*\(\s*`id` UInt32,\s*`s` String\s*\)\s*ENGINE = MergeTree/);
  assert.deepEqual(await c.fetch('EXISTS TABLE st_t'), [{ result: 1 }]);
  assert.deepEqual(await c.fetch('EXISTS TABLE st_missing'), [{ result: 0 }]);
  const plan = await c.fetch<{ explain: string }>('EXPLAIN SELECT id FROM st_t');
  assert.ok(plan.some((r) => /^Output: id/.test(r.explain)), JSON.stringify(plan));
  // Led by a comment, the statement kind is not recognised: the engine's refusal decides.
  assert.deepEqual((await c.fetch<{ name: string }>("-- which tables\nSHOW TABLES LIKE 'st_%'")).map((r) => r.name), ['st_t']);
  const streamed: unknown[] = [];
  for await (const r of c.stream<{ name: string }>('/* cols */ DESCRIBE TABLE st_t')) streamed.push(r.name);
  assert.deepEqual(streamed, ['id', 's']);
  const cols = await c.fetchColumns('DESCRIBE TABLE st_t');
  assert.deepEqual(cols.columns[0], ['id', 's']);
  // In a session too; the session's temporary table is what it lists.
  await c.execute('CREATE TEMPORARY TABLE st_tmp (x UInt8)', { sessionId: 'st' });
  assert.deepEqual((await c.fetch<{ name: string }>('DESCRIBE TABLE st_tmp', { sessionId: 'st' })).map((r) => r.name), ['x']);
});

test('engine errors carry their text once (a rethrown exception is folded)', async () => {
  await c.execute('CREATE TABLE st_i (a UInt8) ENGINE = Memory');
  await assert.rejects(c.insert('st_i', ['{"a":"x"}\n'], { format: 'JSONEachRow' }), (e: unknown) => {
    assert.ok(e instanceof ChwireServerError);
    assert.equal(e.serverCode, 27);
    assert.equal(e.message.match(/Code: 27\. DB::Exception:/g)?.length, 1, e.message);
    assert.equal(e.message.match(/\(CANNOT_PARSE_INPUT_ASSERTION_FAILED\)/g)?.length, 1, e.message);
    assert.equal(e.serverName, 'CANNOT_PARSE_INPUT_ASSERTION_FAILED');
    return true;
  });
  // The engine's own text of such an error, and of one raised once.
  const twice = "Code: 395. DB::Exception: Code: 395. DB::Exception: Value passed to 'throwIf' function is non-zero: while executing 'FUNCTION throwIf(1_UInt8 :: 1) -> throwIf(1_UInt8) UInt8 : 2'. (FUNCTION_THROW_IF_VALUE_IS_NON_ZERO) (version 26.7.2.1). (FUNCTION_THROW_IF_VALUE_IS_NON_ZERO)";
  assert.equal(foldEngineMessage(twice), "Code: 395. DB::Exception: Value passed to 'throwIf' function is non-zero: while executing 'FUNCTION throwIf(1_UInt8 :: 1) -> throwIf(1_UInt8) UInt8 : 2'. (FUNCTION_THROW_IF_VALUE_IS_NON_ZERO)");
  await assert.rejects(c.fetch('SELECT throwIf(1)'), (e: unknown) => e instanceof ChwireServerError && e.message.match(/Code: 395/g)?.length === 1);
});
