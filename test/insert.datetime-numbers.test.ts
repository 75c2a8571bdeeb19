// A JS number for a Date / Date32 / DateTime / DateTime64 column means what the server makes of
// the same number in JSONEachRow (issue 17, item 4), checked against the engine (26.7): the same
// numbers go in once as JSONEachRow text and once through `insert()` (Native), and the stored
// values must be equal; where the encoder refuses a number, the engine refuses it too or stores
// something other than the number's plain reading (a clamp or a wrap), or it is beyond 2^53.
// The compiled and the interpreted encoders give the same bytes and the same errors.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createClient, ChwireEncodeError } from '../src/index.js';
import { compileNativeEncoder, interpretNativeEncoder } from '../src/native/write/encoder.js';

const c = createClient({ url: 'chdb://' });
after(() => c.close());

/** Per type: SQL giving the stored value as an Int64 of the type's unit (days, seconds, ticks). */
const TYPES: [string, string][] = [
  ['Date', 'toInt64(d)'],
  ['Date32', 'toInt64(d)'],
  ['DateTime', 'toInt64(d)'],
  ["DateTime('America/New_York')", 'toInt64(d)'],
  ['DateTime64(0)', 'reinterpretAsInt64(d)'],
  ['DateTime64(3)', 'reinterpretAsInt64(d)'],
  ["DateTime64(3, 'Asia/Kolkata')", 'reinterpretAsInt64(d)'],
  ['DateTime64(6)', 'reinterpretAsInt64(d)'],
  ['DateTime64(9)', 'reinterpretAsInt64(d)'],
];

const numbers = fc.oneof(
  fc.integer({ min: -30000, max: 130000 }),
  fc.integer({ min: -(2 ** 31), max: 2 ** 32 + 5 }),
  fc.constantFrom(0, -0, 1, -1, 65535, 65536, -25567, -25568, 120529, 120530, 4294967295, 4294967296, 1700000000, 1700000000123, 2 ** 53, 2 ** 53 + 2, -(2 ** 53)),
  fc.double({ min: -1e13, max: 1e13, noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }),
);

let serial = 0;

async function check(type: string, raw: string, values: number[]): Promise<void> {
  const t = `values_dnum_${process.pid}_${serial++}`;
  await c.execute(`CREATE TABLE ${t}_j (k UInt32, d ${type}) ENGINE = Memory`);
  await c.execute(`CREATE TABLE ${t}_n (k UInt32, d ${type}) ENGINE = Memory`);
  try {
    // The engine's reading, one row per number; a row it cannot parse is skipped (allow_errors).
    const json = values.map((v, k) => `{"k":${k},"d":${JSON.stringify(v)}}`).join('\n');
    await c.execute(`INSERT INTO ${t}_j SETTINGS input_format_allow_errors_num = 100000, input_format_allow_errors_ratio = 1 FORMAT JSONEachRow ${json}`);
    const cols = [{ name: 'k', type: 'UInt32' }, { name: 'd', type }];
    const compiled = compileNativeEncoder(cols, 'object');
    const interpreted = interpretNativeEncoder(cols, 'object');
    const accepted: { k: number; d: number }[] = [];
    const refused = new Set<number>();
    for (const [k, v] of values.entries()) {
      const one = [{ k, d: v }];
      let a: unknown;
      let b: unknown;
      try { a = compiled.encodeBlock(one, 0, 1, 0); } catch (e) { a = e; }
      try { b = interpreted.encodeBlock(one, 0, 1, 0); } catch (e) { b = e; }
      if (a instanceof Error) {
        assert.ok(a instanceof ChwireEncodeError, `${type} ${v}: ${String(a)}`);
        assert.ok(b instanceof ChwireEncodeError && b.message === a.message, `${type} ${v}: both encoders refuse it alike`);
        assert.equal(a.column, 'd');
        refused.add(k);
      } else {
        assert.deepEqual(b, a, `${type} ${v}: both encoders give the same bytes`);
        accepted.push({ k, d: v });
      }
    }
    if (accepted.length > 0) await c.insert(`${t}_n`, accepted);
    const read = async (table: string) => new Map((await c.fetch<{ k: number; v: string; s: string }>(`SELECT k, toString(${raw}) AS v, toString(d) AS s FROM ${table}`)).map((r) => [r.k, r]));
    const byJson = await read(`${t}_j`);
    const byNative = await read(`${t}_n`);
    for (const [k, v] of values.entries()) {
      const j = byJson.get(k);
      if (refused.has(k)) {
        // Refused: the server refuses it too, or stores something else than the number, or the
        // number is beyond 2^53 (no longer the integer the caller meant).
        assert.ok(j === undefined || j.v !== String(v) || !Number.isSafeInteger(v), `${type}: ${v} was refused, yet the server stores it as ${j?.s}`);
      } else {
        assert.ok(j !== undefined, `${type}: ${v} was accepted, the server refuses it`);
        assert.equal(byNative.get(k)?.s, j.s, `${type}: ${v}`);
        assert.equal(byNative.get(k)?.v, j.v, `${type}: ${v}`);
      }
    }
  } finally {
    await c.execute(`DROP TABLE ${t}_j`);
    await c.execute(`DROP TABLE ${t}_n`);
  }
}

for (const [type, raw] of TYPES) {
  test(`a number into ${type} is what the server makes of it in JSONEachRow (property, engine)`, async () => {
    await fc.assert(fc.asyncProperty(fc.array(numbers, { minLength: 1, maxLength: 60 }), (values) => check(type, raw, values)), { numRuns: 15 });
  });
}

test('the issue\'s case: Unix seconds into DateTime are that instant, not 1970-01-20', async () => {
  const t = `values_dnum_issue_${process.pid}`;
  await c.execute(`CREATE TABLE ${t} (d DateTime('UTC'), d3 DateTime64(3, 'UTC'), day Date) ENGINE = Memory`);
  try {
    await c.insert(t, [{ d: 1700000000, d3: 1700000000123, day: 19675 }]);
    assert.deepEqual(await c.fetch(`SELECT toString(d) AS d, toString(d3) AS d3, toString(day) AS day FROM ${t}`), [{ d: '2023-11-14 22:13:20', d3: '2023-11-14 22:13:20.123', day: '2023-11-14' }]);
    // A fraction is refused (the server refuses it too), and so are milliseconds for a DateTime.
    await assert.rejects(c.insert(t, [{ d: 1700000000.5, d3: 0, day: 0 }]), (e: unknown) => e instanceof ChwireEncodeError && e.column === 'd' && e.row === 0 && /integer Unix seconds/.test(e.message));
    await assert.rejects(c.insert(t, [{ d: 1700000000123, d3: 0, day: 0 }]), (e: unknown) => e instanceof ChwireEncodeError && e.column === 'd');
    await assert.rejects(c.insert(t, [{ d: 0, d3: 1.5, day: 0 }]), (e: unknown) => e instanceof ChwireEncodeError && e.column === 'd3');
    await assert.rejects(c.insert(t, [{ d: 0, d3: 0, day: Date.UTC(2024, 0, 1) }]), (e: unknown) => e instanceof ChwireEncodeError && e.column === 'day' && /integer days/.test(e.message));
    assert.equal(await c.fetchValue(`SELECT count() FROM ${t}`), 1n);
  } finally {
    await c.execute(`DROP TABLE ${t}`);
  }
});
