// Property: random schemas (scalars, Nullable, Array, LowCardinality, Map, Tuple) and random
// values — extremes, empty strings and arrays, NULL anywhere a Nullable allows — encoded into
// random block sizes are read back by the engine exactly: its JSON equals the input mapped through
// a small, independent expectation (what the engine prints for that JS value). Bounded runtime.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compileNativeEncoder } from '../src/native/write/encoder.js';
import { nativeBlocks } from '../src/native/write/blocks.js';
import { writeNativeFile, engineReadNative, sqlString } from './support/native-engine.js';
import { engineExec, engineJsonRows } from './support/engine.js';
import { shortestFloat32 } from './support/float-json.js';

interface Gen { type: string; value: fc.Arbitrary<unknown>; json: (v: unknown) => unknown }

const pad2 = (n: number) => String(n).padStart(2, '0');
const big = (min: bigint, max: bigint) => fc.oneof(fc.constant(min), fc.constant(max), fc.constant(0n), fc.bigInt(min, max));
const int = (min: number, max: number) => fc.oneof(fc.constant(min), fc.constant(max), fc.integer({ min, max }));
const text = fc.oneof(fc.constant(''), fc.string({ unit: 'binary', maxLength: 12 }), fc.string({ maxLength: 3 }));

/** Decimal(P, S) text of an unscaled integer, the way the engine prints it (no trailing zeros). */
function decimalText(u: bigint, scale: number): string {
  const neg = u < 0n;
  const digits = (neg ? -u : u).toString().padStart(scale + 1, '0');
  const int = digits.slice(0, digits.length - scale);
  const frac = digits.slice(digits.length - scale).replace(/0+$/, '');
  return (neg && u !== 0n ? '-' : '') + int + (frac ? '.' + frac : '');
}

const SCALARS: Gen[] = [
  { type: 'UInt8', value: int(0, 255), json: (v) => v },
  { type: 'Int8', value: int(-128, 127), json: (v) => v },
  { type: 'Int16', value: int(-32768, 32767), json: (v) => v },
  { type: 'UInt32', value: int(0, 4294967295), json: (v) => v },
  { type: 'Int32', value: int(-2147483648, 2147483647), json: (v) => v },
  { type: 'Int64', value: fc.oneof(big(-(2n ** 63n), 2n ** 63n - 1n), fc.maxSafeInteger()), json: (v) => String(v) },
  { type: 'UInt64', value: fc.oneof(big(0n, 2n ** 64n - 1n), fc.maxSafeNat()), json: (v) => String(v) },
  { type: 'Int128', value: big(-(2n ** 127n), 2n ** 127n - 1n), json: (v) => String(v) },
  { type: 'UInt256', value: big(0n, 2n ** 256n - 1n), json: (v) => String(v) },
  {
    type: 'Float64',
    value: fc.double(),
    json: (v) => (Number.isNaN(v) ? 'nan' : v === Infinity ? 'inf' : v === -Infinity ? '-inf' : v),
  },
  { type: 'Float32', value: fc.float({ noNaN: true, noDefaultInfinity: true }), json: (v) => shortestFloat32(v as number) },
  { type: 'Bool', value: fc.boolean(), json: (v) => v },
  { type: 'String', value: text, json: (v) => v },
  { type: 'FixedString(3)', value: fc.string({ maxLength: 3 }), json: (v) => (v as string).padEnd(3, '\u0000') },
  {
    type: 'Decimal(18, 4)',
    value: big(-(10n ** 18n) + 1n, 10n ** 18n - 1n).map((u) => decimalText(u, 4)),
    json: (v) => v,
  },
  { type: 'Date', value: int(0, 65535).map((d) => new Date(d * 86400000)), json: (v) => (v as Date).toISOString().slice(0, 10) },
  {
    type: "DateTime('UTC')",
    value: int(0, 4294967295).map((s) => new Date(s * 1000)),
    json: (v) => { const d = v as Date; return `${d.toISOString().slice(0, 10)} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`; },
  },
  { type: 'UUID', value: fc.uuid(), json: (v) => (v as string).toLowerCase() },
  { type: "Enum8('a' = 1, 'b' = -2, '' = 3)", value: fc.constantFrom('a', 'b', ''), json: (v) => v },
  { type: 'IPv4', value: fc.ipV4(), json: (v) => v },
];

const scalar = fc.constantFrom(...SCALARS);

function nullable(g: Gen): Gen {
  return { type: `Nullable(${g.type})`, value: fc.option(g.value, { nil: null, freq: 3 }), json: (v) => (v === null ? null : g.json(v)) };
}
function array(g: Gen): Gen {
  return { type: `Array(${g.type})`, value: fc.array(g.value, { maxLength: 4 }), json: (v) => (v as unknown[]).map(g.json) };
}
const lowCardinality: Gen[] = [
  { type: 'LowCardinality(String)', value: fc.oneof(fc.constantFrom('x', 'y', ''), text), json: (v) => v },
  { type: 'LowCardinality(Nullable(String))', value: fc.option(fc.constantFrom('x', 'y', ''), { nil: null }), json: (v) => v },
];
const composite: Gen[] = [
  { type: 'Map(String, Nullable(Int32))', value: fc.dictionary(fc.string({ maxLength: 4 }), fc.option(fc.integer(), { nil: null }), { maxKeys: 3, noNullPrototype: true }), json: (v) => v },
  {
    type: 'Tuple(a Int16, b Array(String))',
    value: fc.record({ a: fc.integer({ min: -32768, max: 32767 }), b: fc.array(text, { maxLength: 3 }) }, { noNullPrototype: true }),
    json: (v) => v,
  },
];

const ALL_GENS = new Map<string, Gen>();
function remember(g: Gen): Gen {
  ALL_GENS.set(g.type, g);
  return g;
}
function genOf(type: string): Gen {
  const g = ALL_GENS.get(type);
  if (g === undefined) throw new Error(`no generator for ${type}`);
  return g;
}

const columnGen: fc.Arbitrary<Gen> = fc.oneof(
  { arbitrary: scalar.map(remember), weight: 4 },
  { arbitrary: scalar.map((g) => remember(nullable(g))), weight: 2 },
  { arbitrary: scalar.map((g) => remember(array(g))), weight: 1 },
  { arbitrary: scalar.map((g) => remember(array(nullable(g)))), weight: 1 },
  { arbitrary: fc.constantFrom(...lowCardinality).map(remember), weight: 1 },
  { arbitrary: fc.constantFrom(...lowCardinality).map((g) => remember(array(g))), weight: 1 },
  { arbitrary: fc.constantFrom(...composite).map(remember), weight: 1 },
);

// Counterexamples print the column types, not the generators.
const caseArb = fc.array(columnGen, { minLength: 1, maxLength: 5 }).chain((cols) =>
  fc.record({
    types: fc.constant(cols.map((c) => c.type)),
    rows: fc.array(fc.tuple(...cols.map((c) => c.value)), { minLength: 1, maxLength: 25 }),
    shape: fc.constantFrom('object' as const, 'array' as const),
    blockSize: fc.integer({ min: 0, max: 8 }),
  }));

/** INSERT ... FROM INFILE into a fresh Memory table, read back in insertion order (one thread). */
async function insertAndRead(path: string, structure: string): Promise<unknown[][]> {
  await engineExec('DROP TABLE IF EXISTS h5_prop');
  await engineExec(`CREATE TABLE h5_prop (${structure}) ENGINE = Memory`);
  await engineExec(`INSERT INTO h5_prop FROM INFILE ${sqlString(path)} FORMAT Native`);
  return engineJsonRows('SELECT * FROM h5_prop', { max_threads: 1 });
}

test('encode property: random schemas and values read back by the engine exactly', async () => {
  let n = 0;
  await fc.assert(
    fc.asyncProperty(caseArb, async ({ types, rows, shape, blockSize }) => {
      const cols = types.map(genOf);
      const columns = cols.map((c, k) => ({ name: `c${k}`, type: c.type }));
      const enc = compileNativeEncoder(columns, shape);
      const input = rows.map((r) => (shape === 'array' ? r : Object.fromEntries(r.map((v, k) => [`c${k}`, v]))));
      const blocks: Uint8Array[][] = [];
      for await (const b of nativeBlocks(input, enc, blockSize)) blocks.push(b);
      assert.equal(blocks.length, blockSize === 0 ? 1 : Math.ceil(rows.length / blockSize), 'block count');
      const path = writeNativeFile(blocks);
      const want = rows.map((r) => r.map((v, k) => cols[k]!.json(v)));
      // One reading thread: with several, file() may return the blocks of a multi-block file out of order.
      assert.deepEqual(await engineReadNative(path, undefined, { max_threads: 1 }), want);
      if (n++ % 4 === 0) {
        const got = await insertAndRead(path, columns.map((c) => `${c.name} ${c.type}`).join(', '));
        assert.deepEqual(got, want, 'through INSERT ... FROM INFILE');
      }
    }),
    { numRuns: 60, interruptAfterTimeLimit: 20_000, markInterruptAsFailure: false },
  );
  assert.ok(n >= 10, `ran ${n} cases`);
});
