// jsonReplacer / toJson: chwire's values (bigint, Map, typed arrays, Date) as a JSON response body,
// checked on values read from the real 18.16 server and the embedded engine and served through
// Fastify, whose default serializer throws on a bigint.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import Fastify from 'fastify';
import { createClient, jsonReplacer, toJson } from '../src/index.js';
import { ChwireConfigError } from '../src/errors.js';
import { REAL_URL, SKIP_REAL } from './support/ch-server.js';

test('bigint as a string by default, as a number by choice; beyond 2^53 − 1 a number is refused naming the key, never rounded', () => {
  fc.assert(fc.property(fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }), (v) => {
    assert.equal(toJson({ id: v }), `{"id":"${v}"}`);
    if (v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER)) {
      assert.equal(toJson({ id: v }, { bigint: 'number' }), `{"id":${v}}`);
    } else {
      assert.throws(() => toJson({ id: v }, { bigint: 'number' }), (e: unknown) => e instanceof RangeError && e.message.includes('key "id"') && !e.message.includes(String(v)));
    }
  }));
});

test('Map as an object, typed arrays as arrays (their bigints by the same rule), Dates as ISO text', () => {
  const value = { m: new Map<unknown, unknown>([['a', 1n], [2n, 'x']]), col: new BigUint64Array([1n, 2n]), f: new Float64Array([0.5]), at: new Date(0) };
  assert.equal(toJson(value), '{"m":{"2":"x","a":"1"},"col":["1","2"],"f":[0.5],"at":"1970-01-01T00:00:00.000Z"}');
  assert.equal(JSON.stringify(value, jsonReplacer({ bigint: 'number' })), '{"m":{"2":"x","a":1},"col":[1,2],"f":[0.5],"at":"1970-01-01T00:00:00.000Z"}');
});

test('unknown or wrong options are refused when the replacer is made', () => {
  assert.throws(() => jsonReplacer({ bigint: 'auto' } as never), ChwireConfigError);
  assert.throws(() => jsonReplacer({ bigInt: 'string' } as never), /unknown option "bigInt"/);
});

test('rows of the embedded engine (UInt64, Int128, Decimal, Map, DateTime) served as JSON, the same values read back', async () => {
  const client = createClient({ url: 'chdb://' });
  after(() => client.close());
  const rows = await client.fetch("SELECT toUInt64('18446744073709551615') AS id, toInt128(-5) AS big, toDecimal64('12345678901234.5678', 4) AS amount, map('k', toUInt64(7)) AS m, toDateTime('2024-01-02 03:04:05', 'UTC') AS at");
  const parsed = JSON.parse(toJson(rows)) as Record<string, unknown>[];
  assert.deepEqual(parsed, [{ id: '18446744073709551615', big: '-5', amount: '12345678901234.5678', m: { k: '7' }, at: '2024-01-02T03:04:05.000Z' }]);
});

test('Fastify: its default serializer throws on a bigint row; with jsonReplacer as the reply serializer the ids arrive exact', { skip: SKIP_REAL }, async () => {
  const client = createClient({ url: REAL_URL });
  const app = Fastify();
  after(async () => { await app.close(); await client.close(); });
  app.get('/plain', async () => client.fetch('SELECT toUInt64(18446744073709551615) AS id'));
  await app.register(async (scoped) => {
    const replacer = jsonReplacer();
    scoped.setReplySerializer((payload) => JSON.stringify(payload, replacer));
    scoped.get('/rows', async () => client.fetch('SELECT toUInt64(18446744073709551615) AS id, number AS n FROM system.numbers LIMIT 2'));
  });
  const plain = await app.inject({ method: 'GET', url: '/plain' });
  assert.equal(plain.statusCode, 500);
  const ok = await app.inject({ method: 'GET', url: '/rows' });
  assert.equal(ok.statusCode, 200);
  assert.deepEqual(ok.json(), [{ id: '18446744073709551615', n: '0' }, { id: '18446744073709551615', n: '1' }]);
});
