// A bigint into a Float32/Float64 column (property, against the embedded engine): taken only when
// the column's float type holds it exactly (an independent bit count decides: significant bits
// within the 24/53-bit significand and the magnitude within the finite range), otherwise a
// ChwireEncodeError naming row and column, never a silently rounded value. The compiled and the
// interpreted (eval-free) encoders give the same bytes or the same error; the bigints taken are
// read back by the engine as the exact stored bits (reinterpretAsUInt32/64), which decode to the
// same integer; and client.insert on chdb:// stores and returns them unchanged.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createClient, ChwireEncodeError } from '../src/index.js';
import { compileNativeEncoder, interpretNativeEncoder } from '../src/native/write/encoder.js';
import { writeNativeFile, sqlString } from './support/native-engine.js';
import { engineJsonRows } from './support/engine.js';

const FLOATS = { Float32: { significand: 24, maxExponent: 128 }, Float64: { significand: 53, maxExponent: 1024 } } as const;
type FloatType = keyof typeof FLOATS;

function bitLength(a: bigint): number {
  return a === 0n ? 0 : a.toString(2).length;
}

/** Whether the float type holds b exactly, by counting bits (no floating-point arithmetic). */
function holdsExactly(type: FloatType, b: bigint): boolean {
  const { significand, maxExponent } = FLOATS[type];
  let a = b < 0n ? -b : b;
  if (a === 0n) return true;
  if (bitLength(a) > maxExponent) return false; // 2^maxExponent and above: beyond the finite range
  while ((a & 1n) === 0n) a >>= 1n;
  return bitLength(a) <= significand;
}

/** The integer a float's bits stand for (the engine's stored bits, as IEEE 754). */
function bitsToBigint(type: FloatType, bits: string): bigint {
  const dv = new DataView(new ArrayBuffer(8));
  if (type === 'Float32') { dv.setUint32(0, Number(bits)); return BigInt(dv.getFloat32(0)); }
  dv.setBigUint64(0, BigInt(bits));
  return BigInt(dv.getFloat64(0));
}

const sign = (b: bigint, neg: boolean) => (neg ? -b : b);
/** Bigints around every edge: exact ones (a short significand shifted), one bit too many, the range ends. */
const bigints = fc.oneof(
  fc.bigInt({ min: -(2n ** 24n), max: 2n ** 24n }),
  fc.tuple(fc.bigInt({ min: 1n, max: 2n ** 53n - 1n }), fc.nat(1000), fc.boolean()).map(([m, s, neg]) => sign(m << BigInt(s), neg)),
  fc.tuple(fc.bigInt({ min: 1n, max: 2n ** 24n - 1n }), fc.nat(140), fc.boolean()).map(([m, s, neg]) => sign(m << BigInt(s), neg)),
  fc.tuple(fc.constantFrom(24n, 25n, 53n, 54n, 64n, 100n), fc.integer({ min: -3, max: 3 }), fc.boolean()).map(([e, k, neg]) => sign(2n ** e + BigInt(k), neg)),
  fc.tuple(fc.bigInt({ min: 2n ** 53n, max: 2n ** 200n }), fc.boolean()).map(([b, neg]) => sign(b, neg)),
  fc.constantFrom(2n ** 128n - 2n ** 104n, 2n ** 128n, 2n ** 128n - 2n ** 103n, 2n ** 1024n - 2n ** 971n, 2n ** 1024n, -(2n ** 1024n), 2n ** 1023n, 2n ** 1023n + 2n ** 970n),
);

const ENCODERS = [compileNativeEncoder, interpretNativeEncoder] as const;

test('a bigint into Float32/Float64: exact ones are stored bit-exact (engine), the others are a ChwireEncodeError (both encoders)', async () => {
  await fc.assert(fc.asyncProperty(fc.constantFrom<FloatType>('Float32', 'Float64'), fc.array(bigints, { minLength: 1, maxLength: 20 }), fc.constantFrom('object' as const, 'array' as const), async (type, values, shape) => {
    const columns = [{ name: 'i', type: 'UInt32' }, { name: 'f', type }];
    const row = (i: number, v: unknown) => (shape === 'object' ? { i, f: v } : [i, v]);
    const exact: bigint[] = [];
    for (const [i, b] of values.entries()) {
      const outcomes = ENCODERS.map((make) => {
        try { return make(columns, shape).encodeBlock([row(i, b)], 0, 1, i); } catch (e) { return e; }
      });
      const [compiled, interpreted] = outcomes;
      if (holdsExactly(type, b)) {
        assert.ok(Array.isArray(compiled), `${type} ${b}: exact, must be taken: ${String(compiled)}`);
        exact.push(b);
      } else {
        assert.ok(compiled instanceof ChwireEncodeError, `${type} ${b}: inexact, must fail`);
        assert.equal(compiled.column, 'f');
        assert.equal(compiled.row, i);
        assert.equal(compiled.value, 'a bigint');
        assert.match(compiled.expected, new RegExp(`bigint that ${type} holds exactly`));
      }
      if (Array.isArray(compiled)) assert.deepEqual(Buffer.concat(interpreted as Uint8Array[]), Buffer.concat(compiled), 'same bytes');
      else assert.equal((interpreted as Error).message, (compiled as Error).message, 'same error');
    }
    if (exact.length === 0) return;
    const enc = compileNativeEncoder(columns, shape);
    const path = writeNativeFile([enc.encodeBlock(exact.map((b, i) => row(i, b)), 0, exact.length, 0)]);
    const bitsOf = type === 'Float32' ? 'reinterpretAsUInt32(f)' : 'reinterpretAsUInt64(f)';
    const got = await engineJsonRows(`SELECT i, toString(${bitsOf}) FROM file(${sqlString(path)}, 'Native', ${sqlString(`i UInt32, f ${type}`)}) ORDER BY i`);
    assert.deepEqual(got.map((r) => bitsToBigint(type, r[1] as string)), exact);
  }), { numRuns: 150 });
});

const c = createClient({ url: 'chdb://' });
const TABLE = `float_bigint_${process.pid}`;
after(async () => { await c.execute(`DROP TABLE IF EXISTS ${TABLE}`); await c.close(); });

test('client.insert on chdb://: exact bigints round-trip; an inexact one fails the insert naming row and column, nothing sent', async () => {
  await c.execute(`CREATE TABLE ${TABLE} (i UInt32, f32 Float32, f64 Float64) ENGINE = Memory`);
  const rows = [
    { i: 0, f32: 2n ** 24n, f64: 2n ** 53n },
    { i: 1, f32: -(2n ** 127n), f64: 2n ** 1023n },
    { i: 2, f32: 3n << 100n, f64: -(9007199254740991n << 900n) },
    { i: 3, f32: 16777215n, f64: -9007199254740991n },
  ];
  await c.insert(TABLE, rows);
  const back = await c.fetch<{ i: number; f32: number; f64: number }>(`SELECT i, f32, f64 FROM ${TABLE} ORDER BY i`);
  assert.deepEqual(back.map((r) => [BigInt(r.f32), BigInt(r.f64)]), rows.map((r) => [r.f32, r.f64]));
  for (const [col, bad] of [['f32', 2n ** 24n + 1n], ['f64', 2n ** 53n + 1n], ['f32', 2n ** 128n], ['f64', 2n ** 1024n]] as const) {
    await assert.rejects(c.insert(TABLE, [{ i: 10, f32: 0n, f64: 0n }, { i: 11, f32: 0n, f64: 0n, [col]: bad }]),
      (e: unknown) => e instanceof ChwireEncodeError && e.column === col && e.row === 1 && e.value === 'a bigint');
  }
  assert.equal(await c.fetchValue(`SELECT count() FROM ${TABLE}`), 4n);
});
