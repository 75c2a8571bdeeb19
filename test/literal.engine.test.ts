// sqlLiteral (a value and its ClickHouse type → SQL literal) against the engine's parser and the
// real 18.16 server: `SELECT <literal>` gives back exactly the value, for hostile strings (quotes,
// backslashes, control characters, every Unicode plane), raw bytes, numbers at their extremes,
// Dates, NULL and composites; the literal never lets a value out of its quotes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ChwireConfigError, createClient, sqlLiteral, tuple, type Client } from '../src/index.js';
import { SKIP_REAL, realClient } from './support/ch-server.js';

const HOSTILE = ["'", "\\", "\\'", "''", '\n', '\r', '\t', '\0', '\b', '\f', '`', '"', ';', '--', '/*', '*/', ' FORMAT JSON', '{x:String}', '\u2028', '😀', '\u00e9', '\x7f', '\x1b'];
const hostile = fc.array(fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ unit: 'binary', maxLength: 8 })), { maxLength: 12 }).map((a) => a.join(''));

async function roundTrip(c: Client, items: { value: unknown; type: string }[], opts: Record<string, unknown> = {}): Promise<unknown[]> {
  const sql = `SELECT ${items.map((it, i) => `${sqlLiteral(it.value as never, it.type)} AS c${i}`).join(', ')}`;
  const rows = await c.fetch(sql, { rows: 'array', ...opts });
  return rows[0] as unknown[];
}

test('sqlLiteral: hostile strings, bytes, numbers, dates and composites round-trip through the engine', { timeout: 300_000 }, async () => {
  const c = createClient({ url: 'chdb://' });
  try {
    await fc.assert(fc.asyncProperty(fc.array(hostile, { minLength: 1, maxLength: 30 }), async (strings) => {
      assert.deepEqual(await roundTrip(c, strings.map((value) => ({ value, type: 'String' }))), strings);
      assert.deepEqual(await roundTrip(c, [{ value: strings, type: 'Array(String)' }, { value: tuple(strings[0]!, 7n), type: 'Tuple(String, Int64)' },
        { value: new Map(strings.map((s, i) => [s, i])), type: 'Map(String, UInt32)' }]),
      [strings, [strings[0], 7n], Object.fromEntries(strings.map((s, i) => [s, i]))]);
    }), { numRuns: 40 });
    await fc.assert(fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 40 }), { minLength: 1, maxLength: 20 }), async (blobs) => {
      const got = await roundTrip(c, blobs.map((value) => ({ value, type: 'String' })), { strings: 'bytes' });
      assert.deepEqual(got.map((b) => Buffer.from(b as Uint8Array)), blobs.map((b) => Buffer.from(b)));
    }), { numRuns: 30 });
    await fc.assert(fc.asyncProperty(
      fc.double(), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.integer({ min: -128, max: 127 }),
      fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2262-04-11T00:00:00Z'), noInvalidDate: true }),
      async (d, i64, u64, i8, date) => {
        // The last second before 1970 has no zone-free spelling (docs/client.md "Parameters"): UTC named.
        const got = await roundTrip(c, [{ value: d, type: 'Float64' }, { value: i64, type: 'Int64' }, { value: u64, type: 'UInt64' }, { value: i8, type: 'Int8' },
          { value: date, type: "DateTime64(3, 'UTC')" }, { value: null, type: 'Nullable(String)' }, { value: [d, -0], type: 'Array(Float64)' }]);
        assert.ok(Object.is(got[0], d) || (Number.isNaN(d) && Number.isNaN(got[0])), `Float64 ${d}`);
        assert.deepEqual(got.slice(1, 4), [i64, u64, i8]);
        assert.equal((got[4] as Date).getTime(), date.getTime());
        assert.equal(got[5], null);
        assert.ok(Object.is((got[6] as number[])[1], -0));
      }), { numRuns: 60 });
  } finally {
    await c.close();
  }
});

test('sqlLiteral: the type is parsed and printed by chwire; what cannot be carried is refused without its value', () => {
  assert.throws(() => sqlLiteral('x', 'String) FROM system.one; DROP TABLE t; SELECT CAST(1 AS String'), (e: unknown) => (e as Error).name === 'ChwireTypeError');
  assert.throws(() => sqlLiteral('secret\uD800', 'String'), (e: unknown) => e instanceof ChwireConfigError && !/secret/.test((e as Error).message));
  assert.throws(() => sqlLiteral((() => 1) as never, 'String'), ChwireConfigError);
  assert.equal(sqlLiteral("it's", 'String'), "CAST('it\\'s' AS String)");
});

test('sqlLiteral on 18.16 (no query parameters): hostile strings and values round-trip', { skip: SKIP_REAL, timeout: 120_000 }, async () => {
  const c = realClient();
  try {
    // 18.16's parser reads no subnormal double (1e-310 is a syntax error; docs/client.md).
    const normal = fc.double().filter((x) => (x === 0 || !Number.isFinite(x) || Math.abs(x) >= 2.2250738585072014e-308));
    await fc.assert(fc.asyncProperty(fc.array(hostile, { minLength: 1, maxLength: 20 }), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), normal, async (strings, i64, d) => {
      const got = await roundTrip(c, [...strings.map((value) => ({ value, type: 'String' })), { value: strings, type: 'Array(String)' }, { value: i64, type: 'Int64' }, { value: d, type: 'Float64' }]);
      assert.deepEqual(got.slice(0, strings.length + 2), [...strings, strings, i64]);
      const f = got[strings.length + 2];
      assert.ok(Object.is(f, d) || (Number.isNaN(d) && Number.isNaN(f)), `Float64 ${d}`);
    }), { numRuns: 40 });
  } finally {
    await c.close();
  }
});
