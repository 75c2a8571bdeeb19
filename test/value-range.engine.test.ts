// Values that do not fit their declared type are refused before they reach SQL or a parameter
// (issue 25, items 8 and 9): the server would wrap, cut or round them (`CAST(-5 AS UInt64)` is
// 2^64 - 5, `{p:UInt8}` = 300 reads 44), so sqlLiteral and query parameters run the insert
// encoders' own checks. Values that fit still read back exactly on the engine (26.7) and on 18.16;
// sqlInteger's bare digits are what LIMIT/OFFSET take on 18.16. A plain object for a JSON
// placeholder is sent as JSON text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ChwireConfigError, ChwireServerError, createClient, sqlInteger, sqlLiteral, tuple, type Client } from '../src/index.js';
import { SKIP_REAL, realClient } from './support/ch-server.js';

const INTS: { type: string; min: bigint; max: bigint }[] = [8, 16, 32, 64, 128, 256].flatMap((bits) => {
  const b = BigInt(bits);
  return [
    { type: `UInt${bits}`, min: 0n, max: (1n << b) - 1n },
    { type: `Int${bits}`, min: -(1n << (b - 1n)), max: (1n << (b - 1n)) - 1n },
  ];
});

/** A value in range of the type, as a bigint, a number when safe, or decimal text. */
const inRange = fc.constantFrom(...INTS).chain((t) => fc.tuple(fc.constant(t), fc.oneof(
  fc.constantFrom(t.min, t.max, 0n),
  fc.bigInt({ min: t.min, max: t.max }),
), fc.nat(2)));

/** A value the type cannot hold: past either end, or a fraction, or 2^53 and beyond as a number. */
const outOfRange = fc.constantFrom(...INTS).chain((t) => fc.oneof(
  fc.bigInt({ min: 1n, max: 1n << 300n }).map((d) => ({ t, value: (d % 2n === 0n ? t.max + d : t.min - d) as unknown })),
  fc.bigInt({ min: 1n, max: 1n << 300n }).map((d) => ({ t, value: (d % 2n === 0n ? t.max + d : t.min - d).toString() as unknown })),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }).filter((x) => !Number.isInteger(x)).map((x) => ({ t, value: x as unknown })),
  fc.constantFrom(NaN, Infinity, -Infinity, 2 ** 64, -(2 ** 63) - 4096).map((x) => ({ t, value: x as unknown })),
).filter(({ value }) => !(typeof value === 'number' && Number.isInteger(value) && BigInt(value) >= t.min && BigInt(value) <= t.max && Number.isSafeInteger(value))));

function asValue(b: bigint, how: number): number | bigint | string {
  if (how === 0 && b >= BigInt(Number.MIN_SAFE_INTEGER) && b <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(b);
  return how === 1 ? b.toString() : b;
}

/** The refusal names the type and never prints the value's digits. */
function refusedNaming(type: string, value: unknown): (e: unknown) => boolean {
  return (e) => {
    assert.ok(e instanceof ChwireConfigError, String(e));
    assert.ok(e.message.includes(type), e.message);
    const finite = typeof value === 'bigint' || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
    const digits = finite ? String(value).replace(/^-/, '') : '';
    if (digits.length >= 4) assert.ok(!e.message.includes(digits) && !String(e.stack).includes(digits), e.message);
    return true;
  };
}

test('the values of issue 25: refused by sqlLiteral, and the engine would have read them as something else', async () => {
  const c = createClient({ url: 'chdb://' });
  try {
    for (const [value, type, text] of [[-5n, 'UInt64', '-5'], [300, 'UInt8', '300'], [1.5, 'UInt32', '1.5'], [2 ** 64, 'UInt64', '18446744073709551616']] as const) {
      assert.throws(() => sqlLiteral(value, type), refusedNaming(type, value));
      // What the CAST chwire used to write reads back as another number (why it is refused).
      const rows = await c.fetch(`SELECT toString(CAST(${text} AS ${type})) AS s`, { rows: 'array' });
      assert.notEqual((rows[0] as string[])[0], text);
    }
    await assert.rejects(c.fetch('SELECT {p:UInt8} AS x', { params: { p: 300 } }), refusedNaming('UInt8', 300));
    await assert.rejects(c.fetch('SELECT {p:UInt64} AS x', { params: { p: 2n ** 64n } }), refusedNaming('UInt64', 2n ** 64n));
  } finally {
    await c.close();
  }
});

test('integers: out of range or not whole is refused by sqlLiteral and by parameters, at any depth, never printing the value', () => {
  fc.assert(fc.property(outOfRange, fc.nat(4), ({ t, value }, how) => {
    const [type, v] = [
      [t.type, value], [`Nullable(${t.type})`, value], [`Array(${t.type})`, [value]],
      [`Tuple(String, ${t.type})`, tuple('a', value)], [`Map(String, Array(Nullable(${t.type})))`, new Map([['k', [null, value]]])],
    ][how] as [string, never];
    assert.throws(() => sqlLiteral(v, type), refusedNaming(t.type, value));
  }), { numRuns: 400 });
});

test('integers in range: sqlLiteral and parameters read back exactly on the engine, nested too', { timeout: 300_000 }, async () => {
  const c = createClient({ url: 'chdb://' });
  try {
    await fc.assert(fc.asyncProperty(inRange, async ([t, b, how]) => {
      // Decimal text only at the top: inside an array the server reads a quoted number as no number.
      const v = asValue(b, how);
      const n = asValue(b, how === 1 ? 2 : how);
      const rows = await c.fetch(`SELECT toString(${sqlLiteral(v, t.type)}) AS a, toString({p:${t.type}}) AS b, toString({q:Array(Nullable(${t.type}))}) AS c, toString({m:Map(String, ${t.type})}) AS d`,
        { rows: 'array', params: { p: v, q: [null, n], m: { k: n } } });
      assert.deepEqual(rows, [[b.toString(), b.toString(), `[NULL,${b}]`, `{'k':${b}}`]]);
    }), { numRuns: 80 });
  } finally {
    await c.close();
  }
});

test('parameters: out-of-range integers are refused before sending, nested in Array, Tuple, Map and Nullable', { timeout: 120_000 }, async () => {
  const c = createClient({ url: 'chdb://' });
  try {
    await fc.assert(fc.asyncProperty(outOfRange, fc.nat(3), async ({ t, value }, how) => {
      const [decl, v] = [
        [`Nullable(${t.type})`, value], [`Array(${t.type})`, [value]],
        [`Tuple(String, ${t.type})`, tuple('a', value)], [`Map(String, ${t.type})`, { k: value }],
      ][how] as [string, never];
      await assert.rejects(c.fetch(`SELECT {p:${decl}} AS x`, { params: { p: v } }), refusedNaming(t.type, value));
    }), { numRuns: 100 });
  } finally {
    await c.close();
  }
});

test('Decimal digits, Date ranges, Enum labels, FixedString lengths: refused as an insert refuses them', async () => {
  const cases: [unknown, string][] = [
    [1.239, 'Decimal(10, 2)'], ['1.239', 'Decimal(10, 2)'], [12345678901n, 'Decimal(10, 2)'], ['1e9', 'Decimal(9, 0)'],
    [new Date(Date.UTC(2200, 0, 1)), 'Date'], [new Date(Date.UTC(1960, 0, 1)), 'DateTime'], [-5, 'DateTime'], [2 ** 32, 'DateTime'],
    [70000, 'Date'], ['c', "Enum8('a' = 1, 'b' = 2)"], [3, "Enum8('a' = 1, 'b' = 2)"], ['abc', 'FixedString(2)'], ['é', 'FixedString(1)'],
    [2, 'Bool'], [2n ** 53n + 1n, 'Float64'],
  ];
  for (const [v, type] of cases) assert.throws(() => sqlLiteral(v as never, type), refusedNaming(type, v), `${String(v)} ${type}`);
  const c = createClient({ url: 'chdb://' });
  try {
    for (const [v, type] of cases) {
      if (type === 'Date' && typeof v === 'number') continue; // digits for {p:Date} are date text to the server (20240101)
      await assert.rejects(c.fetch(`SELECT {p:${type}} AS x`, { params: { p: v as never } }), refusedNaming(type, v), `${String(v)} ${type}`);
    }
    // What fits is still sent and read back.
    const rows = await c.fetch("SELECT toString({a:Decimal(10, 2)}) AS a, toString({b:Enum8('a' = 1, 'b' = 2)}) AS b, hex({c:FixedString(3)}) AS c, toString({d:Date}) AS d",
      { rows: 'array', params: { a: '12345678.99', b: 'b', c: 'ab', d: 20240101 } });
    assert.deepEqual(rows, [['12345678.99', 'b', '616200', '2024-01-01']]);
  } finally {
    await c.close();
  }
});

test('JSON placeholders: a plain object is sent as its JSON text (not a map literal)', async () => {
  const c = createClient({ url: 'chdb://' });
  try {
    const rows = await c.fetch("SELECT toJSONString({j:JSON}) AS a, {j:JSON}.k AS b, toJSONString({l:Array(JSON)}) AS c", {
      rows: 'array', params: { j: { k: "it's \\ \t", n: { x: 1 } }, l: [{ a: 1 }] },
    });
    const [a, b, cc] = rows[0] as [string, unknown, string];
    assert.deepEqual(JSON.parse(a), { k: "it's \\ \t", n: { x: 1 } });
    assert.equal(String(b), "it's \\ \t");
    assert.equal(JSON.parse(cc).length, 1);
    assert.equal(sqlLiteral({ k: 1 }, 'JSON'), `CAST('{"k":1}' AS JSON)`);
  } finally {
    await c.close();
  }
});

test('sqlInteger: bare checked digits, which LIMIT and OFFSET take on the engine', async () => {
  assert.equal(sqlInteger(100), '100');
  assert.equal(sqlInteger(2n ** 64n - 1n), '18446744073709551615');
  assert.equal(sqlInteger('007', 'UInt8'), '7');
  assert.equal(sqlInteger(-3, 'Int64'), '-3');
  for (const [v, type] of [[-1, 'UInt64'], [1.5, 'UInt64'], [2n ** 64n, 'UInt64'], ['300', 'UInt8'], ['1e3', 'UInt32']] as const) {
    assert.throws(() => sqlInteger(v, type), refusedNaming(type, v));
  }
  assert.throws(() => sqlInteger(1, 'String'), /not an integer type/);
  const c = createClient({ url: 'chdb://' });
  try {
    assert.deepEqual(await c.fetch(`SELECT number FROM system.numbers LIMIT ${sqlInteger(3)} OFFSET ${sqlInteger(2)}`, { rows: 'array' }), [[2n], [3n], [4n]]);
  } finally {
    await c.close();
  }
});

test('on 18.16: LIMIT takes sqlInteger (not a CAST), and values that fit read back through sqlLiteral', { skip: SKIP_REAL, timeout: 120_000 }, async () => {
  const c: Client = realClient();
  try {
    await assert.rejects(c.fetch(`SELECT number FROM system.numbers LIMIT ${sqlLiteral(3, 'UInt32')}`), ChwireServerError);
    assert.deepEqual(await c.fetch(`SELECT number FROM system.numbers LIMIT ${sqlInteger(3, 'UInt32')} OFFSET ${sqlInteger(2)}`, { rows: 'array' }), [[2n], [3n], [4n]]);
    const small = INTS.filter((t) => !t.type.endsWith('128') && !t.type.endsWith('256'));
    await fc.assert(fc.asyncProperty(fc.constantFrom(...small).chain((t) => fc.tuple(fc.constant(t), fc.bigInt({ min: t.min, max: t.max }), fc.nat(2))), async ([t, b, how]) => {
      const rows = await c.fetch(`SELECT toString(${sqlLiteral(asValue(b, how), t.type)}) AS a`, { rows: 'array' });
      assert.deepEqual(rows, [[b.toString()]]);
    }), { numRuns: 40 });
    // -5 as UInt64 is refused (18.16 would read 18446744073709551611).
    assert.throws(() => sqlLiteral(-5n, 'UInt64'), ChwireConfigError);
    assert.deepEqual(await c.fetch('SELECT toString(CAST(-5 AS UInt64)) AS s', { rows: 'array' }), [['18446744073709551611']]);
  } finally {
    await c.close();
  }
});
