// The benchmark harness's own guarantees: the equality used to accept a path's result is strict
// where the bytes are (bigint, -0, Date, typed arrays, key order), the JSON normalisation catches
// a wrong cell, a wrong path stops the bench before anything is timed, and rounds rotate the
// order of paths. (The benches themselves are run by `npm run bench:*`, not by the tests.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { firstDifference } from '../bench/equal.js';
import { spotCheckJson, parseJsonLines } from '../bench/json-check.js';
import { Bench, median } from '../bench/harness.js';
import { decodeRowBinaryReference } from '../src/codec.js';
import { engineBytes, engineText } from './support/engine.js';

test('firstDifference: equal values, including what === gets wrong', () => {
  assert.equal(firstDifference(NaN, NaN), undefined);
  assert.equal(firstDifference(2n ** 64n - 1n, 2n ** 64n - 1n), undefined);
  assert.equal(firstDifference(new Date(5), new Date(5)), undefined);
  assert.equal(firstDifference(new BigInt64Array([1n, -1n]), new BigInt64Array([1n, -1n])), undefined);
  assert.equal(firstDifference(new Map([[1, { a: [1] }]]), new Map([[1, { a: [1] }]])), undefined);
  assert.equal(firstDifference({ a: 1, b: [new Uint8Array([1])] }, { a: 1, b: [new Uint8Array([1])] }), undefined);
});

test('firstDifference: names the first difference', () => {
  assert.match(firstDifference(0, -0)!, /\$: 0 != 0/);
  assert.match(firstDifference(1n, 1)!, /1n != 1/);
  assert.match(firstDifference(new Date(1), new Date(2))!, /Date\(1970-01-01T00:00:00\.001Z\)/);
  assert.match(firstDifference([{ x: 1 }, { x: 2 }], [{ x: 1 }, { x: 3 }])!, /\$\[1\]\.x: 2 != 3/);
  assert.match(firstDifference({ a: 1, b: 2 }, { b: 2, a: 1 })!, /keys/); // row shape = key order
  assert.match(firstDifference(new Int32Array([1]), new Uint32Array([1]))!, /Int32Array != Uint32Array/);
  assert.match(firstDifference(new Uint8Array([1, 2]), new Uint8Array([1, 3]))!, /byte 1/);
  assert.match(firstDifference(new Map([[1, 2]]), new Map([[1, 3]]))!, /Map/);
  assert.match(firstDifference([1], [1, 2])!, /length 1 != 2/);
});

test('firstDifference agrees with structuredClone copies and finds any single change (property)', () => {
  const value = fc.letrec((tie) => ({
    leaf: fc.oneof(fc.integer(), fc.bigInt(), fc.string(), fc.boolean(), fc.constant(null), fc.date({ noInvalidDate: true })),
    node: fc.oneof({ depthSize: 'small' }, tie('leaf'), fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(fc.string({ minLength: 1 }), tie('node'), { maxKeys: 4, noNullPrototype: true })),
  })).node;
  fc.assert(fc.property(value, (v) => {
    assert.equal(firstDifference(v, structuredClone(v)), undefined);
    assert.notEqual(firstDifference([v], [v, 0]), undefined);
    assert.notEqual(firstDifference({ k: v }, { k: [v] }), undefined);
  }), { numRuns: 200 });
});

test('median of odd and even samples', () => {
  assert.equal(median([5, 1, 3]), 3);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.ok(Number.isNaN(median([])));
});

test('spotCheckJson accepts the engine\'s JSON of the same rows and rejects a changed cell', async () => {
  const sql = "SELECT number * 1000000007 AS u, toFloat32(number / 3) AS f, toDateTime64(1700000000.123 + number, 3, 'UTC') AS t, toDate(19000 + number) AS d, concat('s', toString(number)) AS s, if(number % 2 = 0, NULL, number) AS n FROM numbers(50)";
  const ours = decodeRowBinaryReference(await engineBytes(sql, 'RowBinaryWithNamesAndTypes'), { rows: 'array' });
  const names = ours.columns.map((c) => c.name);
  const json = parseJsonLines(new TextEncoder().encode(await engineText(sql, 'JSONEachRow')), new TextDecoder());
  const s = spotCheckJson(json, ours.rows as unknown[][], names);
  assert.deepEqual(s, { rows: 50, checkedCells: 300, skippedCells: 0 });
  const changed = json.map((r) => ({ ...(r as object) })) as Record<string, unknown>[];
  changed[7]!['s'] = 'x';
  assert.throws(() => spotCheckJson(changed, ours.rows as unknown[][], names), /row 7, column s/);
  changed[7]!['s'] = 's7';
  changed[9]!['t'] = '2023-11-14 22:13:29.124';
  assert.throws(() => spotCheckJson(changed, ours.rows as unknown[][], names), /row 9, column t/);
  assert.throws(() => spotCheckJson(json.slice(1), ours.rows as unknown[][], names), /49 rows, chwire 50/);
});

test('parseJsonLines: one value per non-empty line, with or without a final newline', () => {
  const enc = new TextEncoder();
  assert.deepEqual(parseJsonLines(enc.encode('{"a":1}\n{"a":"é"}\n'), new TextDecoder()), [{ a: 1 }, { a: 'é' }]);
  assert.deepEqual(parseJsonLines(enc.encode('[1]\n[2]'), new TextDecoder()), [[1], [2]]);
  assert.deepEqual(parseJsonLines(enc.encode(''), new TextDecoder()), []);
});

test('Bench.run: checks before timing, rotates the order, ratios against the baseline', async (t) => {
  const saved = { ...process.env };
  t.after(() => { process.env = saved; });
  Object.assign(process.env, { BENCH_ROUNDS: '3', BENCH_WARMUP: '1', BENCH_ONLY: '' });
  t.mock.method(console, 'log', () => undefined);
  const bench = new Bench('harness-test');
  const calls: string[] = [];
  const path = (name: string, value: number) => ({ name, run: () => { calls.push(name); return value; } });

  // A path with a wrong result fails the case before any timed run.
  await assert.rejects(bench.run({ name: 'wrong', title: '', rows: 1, baselines: ['a'], expected: 1, paths: [path('a', 1), path('b', 2)] }), /path b.*\$: 2 != 1/);
  assert.deepEqual(calls, ['a', 'b']);

  calls.length = 0;
  const r = await bench.run({ name: 'ok', title: '', rows: 10, baselines: ['a'], expected: 1, paths: [path('a', 1), path('b', 1), path('c', 1)] });
  // Check run, then 4 rounds (1 warm-up + 3) rotated: abc, bca, cab, abc.
  assert.deepEqual(calls.join(''), 'abc' + 'abc' + 'bca' + 'cab' + 'abc');
  assert.equal(r!.paths.length, 3);
  for (const p of r!.paths) {
    assert.equal(p.samplesMs.length, 3);
    assert.ok(p.minMs <= p.medianMs && p.medianMs <= p.maxMs);
  }
  assert.equal(r!.paths[0]!.ratios['a'], 1);

  // BENCH_ONLY skips other cases without running them.
  process.env['BENCH_ONLY'] = 'other';
  calls.length = 0;
  const only = new Bench('harness-test');
  assert.equal(await only.run({ name: 'ok', title: '', rows: 1, baselines: ['a'], expected: 1, paths: [path('a', 1)] }), undefined);
  assert.deepEqual(calls, []);
});
