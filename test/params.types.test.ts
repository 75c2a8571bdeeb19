// Query parameters written for their placeholder's declared type (issue 10, parameter errors):
// a JS Date for {d:Date}/{d:Date32} (also inside arrays, tuples, maps, Nullable) is its UTC day,
// which the engine parses; a Date in the last second before 1970 for a DateTime64 whose
// placeholder names its zone is the exact wall-clock text in that zone; the placeholder is found
// in the SQL's tokens, not inside strings or comments. The engine parses every value (chdb://),
// and the expected side is the engine's own conversion of the same instant, in the same query.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createClient, tuple, ChwireConfigError } from '../src/index.js';
import { placeholderTypes } from '../src/client/sql/placeholders.js';
import { printType } from '../src/types/index.js';

const c = createClient({ url: 'chdb://' });
after(() => c.close());

test('a Date for a Date / Date32 parameter is its UTC day (property, engine parses it)', async () => {
  const inRange = (lo: string, hi: string) => fc.date({ min: new Date(lo), max: new Date(hi), noInvalidDate: true });
  await fc.assert(fc.asyncProperty(inRange('1970-01-01T00:00:00Z', '2149-06-06T23:59:59.999Z'), inRange('1900-01-01T00:00:00Z', '2299-12-31T23:59:59.999Z'), async (d, d32) => {
    // The expected days are the engine's own conversion of the same instants (given as seconds).
    const got = await c.fetchOne<Record<string, string>>(
      "SELECT toString({d:Date}) AS a, toString({e:Date32}) AS b, toString(toDate(toDateTime64({ds:Int64}, 0, 'UTC'), 'UTC')) AS ea, toString(toDate32(toDateTime64({es:Int64}, 0, 'UTC'), 'UTC')) AS eb",
      { params: { d, e: d32, ds: Math.floor(d.getTime() / 1000), es: Math.floor(d32.getTime() / 1000) } },
    );
    assert.deepEqual([got!.a, got!.b], [got!.ea, got!.eb]);
  }), { numRuns: 40 });
});

test('Dates inside Array(Date), Nullable(Date32), Tuple and Map parameters', async () => {
  const d1 = new Date(Date.UTC(2024, 2, 10, 23, 59, 59, 999));
  const d2 = new Date(Date.UTC(1969, 11, 31, 0, 0, 0, 1));
  const row = await c.fetchOne<Record<string, unknown>>(
    'SELECT toString({a:Array(Date)}) AS a, toString({n:Nullable(Date32)}) AS n, toString({t:Tuple(Date32, DateTime)}) AS t, toString({m:Map(String, Date)}) AS m',
    { params: { a: [d1, d1], n: d2, t: tuple(d2, d1), m: new Map([['k', d1]]) } },
  );
  // The DateTime element is the instant floored to its second, as inserts store it.
  const dt = await c.fetchValue(`SELECT toString(toDateTime(${Math.floor(d1.getTime() / 1000)}))`);
  assert.deepEqual(row, { a: "['2024-03-10','2024-03-10']", n: '1969-12-31', t: `('1969-12-31','${String(dt)}')`, m: "{'k':'2024-03-10'}" });
  assert.equal(await c.fetchValue('SELECT toUnixTimestamp({p:DateTime})', { params: { p: d1 } }), Math.floor(d1.getTime() / 1000));
});

test('a Date in the last second before 1970 for DateTime64 with a zone is sent exactly (property)', async () => {
  await fc.assert(fc.asyncProperty(fc.integer({ min: -999, max: -1 }), fc.constantFrom('UTC', 'Asia/Tokyo', 'America/New_York', 'Asia/Kolkata'), async (ms, zone) => {
    const got = await c.fetchValue(`SELECT toUnixTimestamp64Milli({p:DateTime64(3, '${zone}')})`, { params: { p: new Date(ms) } });
    assert.equal(got, BigInt(ms));
  }), { numRuns: 25 });
  // Nearby instants keep their exact epoch form, also inside arrays.
  const arr = await c.fetchValue<bigint[]>("SELECT arrayMap(x -> toUnixTimestamp64Milli(x), {a:Array(DateTime64(3, 'UTC'))})", { params: { a: [new Date(-1000), new Date(-1), new Date(0), new Date(-1001)] } });
  assert.deepEqual(arr, [-1000n, -1n, 0n, -1001n]);
});

test('without a zone in the placeholder, that last second is refused with the way out', async () => {
  await assert.rejects(c.fetchValue('SELECT {p:DateTime64(3)}', { params: { p: new Date(-1) } }),
    (e: unknown) => e instanceof ChwireConfigError && /DateTime64\(3, 'UTC'\)/.test(e.message) && /1969-12-31 23:59:59\.999/.test(e.message));
});

test('placeholders are read from tokens: not inside strings or comments', async () => {
  const sql = "SELECT '{d:Date}' AS s, /* {d:Date} */ toUnixTimestamp({d:DateTime}) AS t -- {d:Date}\n";
  assert.equal(printType(placeholderTypes(sql).get('d')!), 'DateTime');
  const d = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));
  assert.deepEqual(await c.fetchOne(sql, { params: { d } }), { s: '{d:Date}', t: d.getTime() / 1000 });
  assert.equal(printType(placeholderTypes("SELECT {x: DateTime64(3, 'Asia/Tokyo') }, {y:Nullable(Date32)}").get('x')!), "DateTime64(3, 'Asia/Tokyo')");
});
