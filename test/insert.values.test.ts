// Values that lost precision or sign on insert (issue 10, item 10), checked against the engine:
// a bigint into a Variant goes to an integer member when one holds it (else to a float member
// only if exact, else refused); -0 stays a Float64 -0 in Dynamic and in JSON.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, ChwireEncodeError } from '../src/index.js';

const c = createClient({ url: 'chdb://' });
after(() => c.close());
const settings = { allow_experimental_variant_type: 1, allow_experimental_dynamic_type: 1, allow_experimental_json_type: 1, allow_suspicious_variant_types: 1 };

const VARIANTS = ['Variant(Float64, Int64)', 'Variant(Float64, UInt64)', 'Variant(Int64, Float32)', 'Variant(Float64, Int32, String)', 'Variant(Float64, String)', 'Variant(Int128, Float64)', 'Variant(Decimal(38, 0), Float64)'];
const BIGINTS = [0n, -5n, 127n, 2n ** 31n, 9007199254740993n, -(2n ** 63n), 2n ** 63n - 1n, 2n ** 64n - 1n, 2n ** 53n, 2n ** 100n, -(2n ** 127n)];

test('a bigint into a Variant: the member the engine stores it in holds it exactly, an integer member when one can', async () => {
  let n = 0;
  for (const vt of VARIANTS) {
    const t = `var_big_${n++}`;
    await c.execute(`CREATE TABLE ${t} (i UInt32, v ${vt}) ENGINE = Memory`, { settings });
    try {
      const members = vt.slice(8, -1).split(/,\s*(?![^()]*\))/);
      for (const [i, b] of BIGINTS.entries()) {
        // The engine's own answer: which members hold the value exactly.
        const holds: string[] = [];
        for (const m of members) {
          if (m === 'String') continue; // a bigint is no string
          // Floats: exact when the IEEE value equals the integer (the engine's accurate cast is
          // stricter near the range ends, e.g. it refuses -2^127 though Float64 holds it).
          if (m.startsWith('Float')) {
            const f = m === 'Float64' ? Number(b) : Math.fround(Number(b));
            if (Number.isFinite(f) && BigInt(f) === b) holds.push(m);
            continue;
          }
          const r = await c.fetchValue<number>(`SELECT coalesce(toString(accurateCastOrNull('${b}', '${m}')) = '${b}', 0)`, { settings });
          if (r === 1) holds.push(m);
        }
        const integer = holds.filter((m) => /^U?Int/.test(m));
        try {
          await c.insert(t, [{ i, v: b }]);
        } catch (e) {
          assert.ok(e instanceof ChwireEncodeError, String(e));
          assert.deepEqual(holds, [], `${vt} refused ${b} though ${holds.join(', ')} holds it`);
          continue;
        }
        const row = await c.fetchOne<{ ty: string; s: string }>(`SELECT variantType(v) AS ty, toString(v) AS s FROM ${t} WHERE i = ${i}`, { settings });
        assert.ok(row !== undefined);
        assert.ok(holds.includes(row.ty), `${vt}: ${b} stored as ${row.ty}; members holding it: ${holds.join(', ')}`);
        if (integer.length > 0) assert.ok(integer.includes(row.ty), `${vt}: ${b} stored as ${row.ty}, not in an integer member`);
      }
    } finally {
      await c.execute(`DROP TABLE ${t}`);
    }
  }
});

test('-0 stays a Float64 -0 in Dynamic and in JSON (as reads give it back)', async () => {
  await c.execute('CREATE TABLE negz (i UInt8, d Dynamic, j JSON) ENGINE = Memory', { settings });
  try {
    await c.insert('negz', [{ i: 1, d: -0, j: { n: -0, a: [1, -0] } }, { i: 2, d: 0, j: { n: 0 } }]);
    const rows = await c.fetch<{ i: number; dt: string; ds: string; jt: string; js: string }>(
      "SELECT i, dynamicType(d) AS dt, toString(d) AS ds, dynamicType(j.n) AS jt, toString(j.n) AS js FROM negz ORDER BY i", { settings });
    assert.deepEqual(rows.map((r) => ({ ...r })), [
      { i: 1, dt: 'Float64', ds: '-0', jt: 'Float64', js: '-0' },
      { i: 2, dt: 'Int64', ds: '0', jt: 'Int64', js: '0' },
    ]);
    const back = await c.fetch<{ d: unknown; j: { n: unknown } }>('SELECT d, j FROM negz ORDER BY i', { settings });
    assert.ok(Object.is(back[0]!.d, -0) && Object.is(back[0]!.j.n, -0));
  } finally {
    await c.execute('DROP TABLE negz');
  }
});

test('text numbers and IPv4 are read as the engine reads them (to<Type>OrNull is the reference): no surrounding whitespace, a sign allowed', async () => {
  const cases: [string, string, string][] = [
    // [column type, engine function, text]
    ['Float64', 'toFloat64OrNull', ' 1'], ['Float64', 'toFloat64OrNull', '1 '], ['Float64', 'toFloat64OrNull', '+1'], ['Float64', 'toFloat64OrNull', '1e3'],
    ['Float64', 'toFloat64OrNull', '.5'], ['Float64', 'toFloat64OrNull', '5.'], ['Float64', 'toFloat64OrNull', 'inf'], ['Float64', 'toFloat64OrNull', ' inf'],
    ['Decimal(10, 2)', 'toDecimal64OrNull', ' 1.5'], ['Decimal(10, 2)', 'toDecimal64OrNull', '+1.50'], ['Decimal(10, 2)', 'toDecimal64OrNull', '1.5 '], ['Decimal(10, 2)', 'toDecimal64OrNull', '-0.25'],
    ['IPv4', 'toIPv4OrNull', '01.2.3.4'], ['IPv4', 'toIPv4OrNull', '1.2.3.4'], ['IPv4', 'toIPv4OrNull', ' 1.2.3.4'],
    ['Int32', 'toInt32OrNull', ' 12 '], ['Int32', 'toInt32OrNull', ' 12'], ['Int32', 'toInt32OrNull', '+12'], ['Int32', 'toInt32OrNull', '-7'],
    ['Int64', 'toInt64OrNull', ' 12'], ['Int64', 'toInt64OrNull', '+12'], ['UInt8', 'toUInt8OrNull', '12 '],
  ];
  for (const [type, fn, text] of cases) {
    const arg = fn === 'toDecimal64OrNull' ? `'${text}', 2` : `'${text}'`;
    const engine = await c.fetchValue<string | null>(`SELECT toString(${fn}(${arg}))`);
    await c.execute(`CREATE TABLE lenient (v ${type}) ENGINE = Memory`);
    try {
      let ours: string | null;
      try {
        await c.insert('lenient', [{ v: text }]);
        ours = (await c.fetchValue<string>('SELECT toString(v) FROM lenient'))!;
      } catch (e) {
        assert.ok(e instanceof ChwireEncodeError, String(e));
        ours = null;
      }
      assert.equal(ours, engine ?? null, `${type} ${JSON.stringify(text)}: engine ${String(engine)}, chwire ${String(ours)}`);
    } finally {
      await c.execute('DROP TABLE lenient');
    }
  }
});
