// The Native row decoder judged by the engine: engine-made Native (the golden fixtures and fresh
// engine output) must decode to what the engine's JSON of the same query maps to under the
// options contract (test/support/expect.ts), and to the same rows as the RowBinary decoder. Also
// every split point of the body, truncation at every prefix, and random schemas (fast-check).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeOptionsArb } from './support/options-arb.js';
import { ChwireDecodeError, ChwireTypeError } from '../src/errors.js';
import { createNativeDecoder, decodeNative, decodeNativeColumns } from '../src/native/index.js';
import { decodeRowBinary } from '../src/codec.js';
import type { DecodeOptions } from '../src/plan/options.js';
import { engineBytes, engineExec, engineText } from './support/engine.js';
import { printType } from '../src/types/print.js';
import { fixtureIndex, fixtureBytes } from './support/fixtures.js';
import { engineResult } from './support/oracle-run.js';
import { assertRowsMatch, expectedRows, sameRows } from './support/oracle-compare.js';
import { queryArb } from './support/oracle-gen.js';

/** Fixtures whose types the Native reader refuses on purpose (ChwireTypeError), with the reason. */
const REFUSED: Record<string, string> = {
  aggregate_function_state: 'AggregateFunction states carry no length',
};

const OPTION_SETS: DecodeOptions[] = [
  {},
  { rows: 'array', int64: 'string', int128: 'number', decimal: 'number', datetime: 'string', date: 'string', time: 'number', strings: 'bytes', uuid: 'bytes', maps: 'Map' },
  { int64: 'number', datetime: 'number', columns: { n: { int64: 'string' } } },
];

/** The engine's JSONCompactEachRow with plain numbers, parsed (what JSON.parse of JSON text yields). */
async function engineJsonText(sql: string, settings: Record<string, string | number>): Promise<unknown[]> {
  const text = await engineText(sql, 'JSONCompactEachRow', { ...settings, output_format_json_quote_64bit_integers: 0 });
  return text.split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l) as unknown);
}

function streamed(bytes: Uint8Array, chunk: number, options?: DecodeOptions): unknown[] {
  const d = createNativeDecoder(options);
  const rows: unknown[] = [];
  for (let i = 0; i < bytes.length; i += chunk) rows.push(...d.push(bytes.slice(i, i + chunk)));
  d.end();
  return rows;
}

for (const fx of fixtureIndex().cases) {
  test(`native decode fixture ${fx.name}`, async () => {
    for (const s of fx.setup) await engineExec(s);
    const native = fixtureBytes(fx.name, 'native');
    const binaryTypes = fx.settings.output_format_native_encode_types_in_binary_format === 1;
    if (REFUSED[fx.name] !== undefined) {
      assert.throws(() => decodeNative(native), ChwireTypeError);
      return;
    }
    // With binary types the oracle reads the same query with text types (the values are the same).
    const settings = { ...fx.settings };
    delete settings.output_format_native_encode_types_in_binary_format;
    delete settings.output_format_binary_encode_types_in_binary_format;
    const r = await engineResult(fx.query, settings);
    if (fx.name === 'json_as_string') {
      // JSON sent as text: values are what JSON.parse gives (Int64 paths become numbers, not bigints).
      const text = (await engineJsonText(fx.query, fx.settings)) as unknown[][];
      const rows = decodeNative(native, { rows: 'array' }).rows as unknown[][];
      assert.deepEqual(rows.map((row) => row[1]), text.map((row) => row[1]));
      return;
    }
    for (const options0 of OPTION_SETS) {
      const options = { ...options0, binaryTypes };
      const { rows: expected } = expectedRows(r.columns, r.json, r.aux, options0);
      const got = decodeNative(native, options);
      assert.equal(got.rows.length, r.json.length);
      if (r.json.length > 0) assert.deepEqual(got.columns.map((c) => c.name), r.columns.map((c) => c.name));
      if (binaryTypes) assert.deepEqual(got.columns.map((c) => c.type), r.columns.map((c) => printType(c.type)), 'binary header types printed as text');
      assertRowsMatch(got.rows, expected, r.columns, `${fx.name} ${JSON.stringify(options)}`);
      // Same rows as the RowBinary decoder for the same query and options.
      assert.ok(sameRows(got.rows, decodeRowBinary(r.bytes, options0).rows), `${fx.name}: Native rows equal RowBinary rows`);
      assert.ok(sameRows(streamed(native, 5, options), got.rows), `${fx.name}: 5-byte chunks`);
    }
  });
}

test('native decode: every split point into two chunks gives the same rows', async () => {
  for (const name of ['nullable', 'lowcardinality', 'arrays', 'maps', 'multi_block', 'variant', 'deep_nesting']) {
    const bytes = fixtureBytes(name, 'native');
    const whole = decodeNative(bytes).rows;
    for (let cut = 0; cut <= bytes.length; cut++) {
      const d = createNativeDecoder();
      const rows = [...d.push(bytes.slice(0, cut)), ...d.push(bytes.slice(cut))];
      d.end();
      assert.ok(sameRows(rows, whole), `${name} cut at ${cut}`);
    }
  }
});

test('native decode: a body cut inside a block is a ChwireDecodeError naming column and offset', () => {
  const bytes = fixtureBytes('multi_block', 'native');
  // Block boundaries: where a decoder fed the whole prefix has consumed everything.
  let complete = 0;
  for (let cut = 1; cut < bytes.length; cut++) {
    const d = createNativeDecoder();
    d.push(bytes.subarray(0, cut));
    let err: unknown;
    try { d.end(); } catch (e) { err = e; }
    if (err === undefined) { complete++; continue; }
    assert.ok(err instanceof ChwireDecodeError, `cut ${cut}`);
    assert.equal(err.offset, cut);
    assert.throws(() => decodeNative(bytes.subarray(0, cut)), ChwireDecodeError);
  }
  assert.equal(complete, 3, 'multi_block has 4 blocks: 3 inner boundaries');
  const d = createNativeDecoder();
  const head = bytes.subarray(0, 14);
  d.push(head);
  assert.throws(() => d.end(), (e: unknown) => e instanceof ChwireDecodeError && e.column !== undefined && /column "[ns]"/.test(e.message));
});

test('native decode: corrupt values are ChwireDecodeErrors, not wrong rows', async () => {
  const b = await engineBytes('SELECT true AS b', 'Native');
  const bad = b.slice();
  bad[bad.length - 1] = 2;
  assert.throws(() => decodeNative(bad), (e: unknown) => e instanceof ChwireDecodeError && e.column === 'b' && e.offset === bad.length - 1);
  const e8 = await engineBytes("SELECT CAST('a' AS Enum8('a' = 1)) AS e", 'Native');
  const badE = e8.slice();
  badE[badE.length - 1] = 9;
  assert.throws(() => decodeNative(badE), (e: unknown) => e instanceof ChwireDecodeError && e.column === 'e');
  const arr = await engineBytes('SELECT [1, 2]::Array(UInt8) AS a FROM numbers(2)', 'Native');
  const badA = arr.slice();
  badA.set([9, 0, 0, 0, 0, 0, 0, 0], badA.length - 4 - 16); // first offset 9 > second offset 4 (2 rows: 16 offset bytes, 4 values)
  assert.throws(() => decodeNative(badA), ChwireDecodeError);
  // Absurd counts must fail as decode errors before anything of that size is allocated.
  const big = await engineBytes("SELECT ['a', 'b']::Array(String) AS a, toLowCardinality('x') AS l", 'Native');
  const offsetAt = big.indexOf(0x29) + 1; // just after "Array(String)"
  for (const [at, what] of [[offsetAt + 4, 'array offset'], [big.length - 1 - 8 - 2 - 8, 'dictionary size']] as const) {
    const bad = big.slice();
    bad[at] = 0x10;
    assert.throws(() => decodeNative(bad), ChwireDecodeError, what);
    assert.throws(() => decodeNativeColumns(bad), ChwireDecodeError, what);
    const d = createNativeDecoder();
    assert.throws(() => { d.push(bad); d.end(); }, ChwireDecodeError, what);
  }
  const s = await engineBytes("SELECT 'abc' AS s", 'Native');
  const badS = s.slice();
  badS.set([0xff, 0xff, 0xff, 0x7f], badS.length - 4); // a 268 MB string length in a 60-byte body
  assert.throws(() => decodeNative(badS), ChwireDecodeError);
});

test('native decode: an empty body is an empty result; rows of several blocks keep their order', async () => {
  assert.deepEqual(decodeNative(new Uint8Array(0)), { columns: [], rows: [] });
  const d = createNativeDecoder();
  assert.equal(d.columns, undefined);
  d.end();
  const bytes = await engineBytes('SELECT number AS n FROM numbers(10)', 'Native', { max_block_size: 3 });
  assert.deepEqual(decodeNative(bytes, { rows: 'array', int64: 'number' }).rows, Array.from({ length: 10 }, (_, i) => [i]));
});


test('native decode property: random schemas decode like the engine prints them', async () => {
  await fc.assert(
    fc.asyncProperty(queryArb(2), decodeOptionsArb, fc.integer({ min: 1, max: 97 }), async (q, options, chunk) => {
      const r = await engineResult(q.sql, q.settings);
      const native = await engineBytes(q.sql, 'Native', q.settings);
      const { rows: expected } = expectedRows(r.columns, r.json, r.aux, options);
      let got;
      try {
        got = decodeNative(native, options);
      } catch (e) {
        if (e instanceof ChwireTypeError) return; // a type the Native reader refuses (reported as a gap)
        throw e;
      }
      assertRowsMatch(got.rows, expected, r.columns, q.sql);
      assert.ok(sameRows(streamed(native, chunk, options), got.rows), `streamed in ${chunk}-byte chunks`);
    }),
    { numRuns: 25, interruptAfterTimeLimit: 15_000, markInterruptAsFailure: false },
  );
});
