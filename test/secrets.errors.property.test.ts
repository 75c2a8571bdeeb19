// Insert values and query-parameter values never reach an error (property): secret-looking
// strings, numbers, bigints and Dates are put where they must fail (wrong type, out of range, too
// long for a FixedString, not an enum label, bad UUID/IPv4/IPv6 text, not JSON, nested inside
// arrays, tuples and maps, as a whole row, under an unknown key) in both Native encoders (compiled
// and interpreted) and through client.insert on the embedded engine; and into query parameters that
// must fail (formatQueryParam, and the engine refusing them through client calls). The secret's text
// is looked for in String(e), e.stack, JSON.stringify(e), util.inspect(e, { showHidden: true,
// depth: 10 }) and every own property, for the error and every `cause` in its chain.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { createClient, ChwireConfigError, ChwireEncodeError, isChwireError } from '../src/index.js';
import { compileNativeEncoder, interpretNativeEncoder } from '../src/native/write/encoder.js';
import { formatQueryParams, tuple } from '../src/client/sql/params.js';

/** Every text of an error a caller could print, ship or serialise, and of its causes. */
function errorTexts(e: unknown): string[] {
  const out: string[] = [];
  const seen = new Set<unknown>();
  for (let cur = e; cur !== null && cur !== undefined && !seen.has(cur); cur = (cur as { cause?: unknown }).cause) {
    seen.add(cur);
    const err = cur as Error;
    out.push(String(err), String(err.stack), JSON.stringify(err) ?? '', inspect(err, { showHidden: true, depth: 10 }));
    if (typeof err === 'object') {
      for (const k of Object.getOwnPropertyNames(err)) {
        const v = (err as unknown as Record<string, unknown>)[k];
        out.push(typeof v === 'string' ? v : inspect(v, { showHidden: true, depth: 10 }));
      }
      const earlier = (err as { earlierAttempts?: unknown[] }).earlierAttempts;
      if (earlier !== undefined) for (const x of earlier) out.push(...errorTexts(x));
    }
  }
  return out;
}

/** The texts a secret value may be recognised by. */
function secretTexts(v: unknown): string[] {
  if (typeof v === 'string') return [v, v.slice(0, 10)];
  if (typeof v === 'number' || typeof v === 'bigint') return [String(v)];
  if (v instanceof Date) return [v.toISOString(), v.toISOString().slice(0, 19).replace('T', ' '), String(v.getTime()), String(Math.floor(v.getTime() / 1000))];
  return [];
}

function assertNoSecret(e: unknown, secret: unknown, where: string): void {
  const texts = errorTexts(e);
  for (const s of secretTexts(secret)) {
    for (const t of texts) assert.ok(!t.includes(s), `${where}: ${JSON.stringify(s)} appears in ${JSON.stringify(t.slice(0, 400))}`);
  }
}

// Secret-looking values: long enough that their text cannot appear in a message by chance.
const word = fc.stringMatching(/^[A-Za-z0-9]{6,40}$/);
const secretString = word.map((w) => `Sq${w}x`); // always a letter: never a number's text
const secretNumber = fc.oneof(
  fc.integer({ min: 10_000_000_000, max: Number.MAX_SAFE_INTEGER }).map((n) => n * (n % 2 === 0 ? 1 : -1)),
  fc.double({ min: 1e6, max: 1e15, noNaN: true }).filter((d) => !Number.isInteger(d)),
);
const secretBigint = fc.bigInt({ min: 10n ** 40n, max: 10n ** 60n }).map((b) => (b % 2n === 0n ? b : -b));
const secretDate = fc.integer({ min: Date.UTC(2150, 0, 1), max: Date.UTC(2260, 0, 1) }).map((ms) => new Date(ms + 123));

type Case = { type: string; value: unknown; secret: unknown };

/** Columns where each kind of secret must fail, and how it is placed there. */
const cases: fc.Arbitrary<Case> = fc.oneof(
  fc.tuple(secretString, fc.constantFrom(
    'UInt8', 'Int32', 'Int64', 'UInt128', 'Int256', 'Float32', 'Float64', 'BFloat16', 'Decimal(9, 2)', 'Decimal(38, 4)', 'Bool', 'Date', 'Date32',
    'DateTime', "DateTime64(3, 'UTC')", 'DateTime64(6)', 'Time', 'UUID', 'IPv4', 'IPv6', "Enum8('a' = 1, 'b' = 2)", "Enum16('x' = 1000)",
    'FixedString(4)', 'JSON', 'Array(UInt8)', 'Map(String, UInt8)', 'Tuple(UInt8, String)', 'Nullable(Int32)', 'LowCardinality(FixedString(3))',
    'Variant(UInt64, Bool)',
  )).map(([s, type]) => ({ type, value: s, secret: s })),
  fc.tuple(secretNumber, fc.constantFrom('UInt8', 'Int16', 'UInt32', 'Int32', 'Bool', 'String', 'FixedString(8)', 'UUID', 'IPv6', "Enum8('a' = 1)", 'Decimal(5, 1)', 'Array(Int8)'))
    .map(([n, type]) => ({ type, value: n, secret: n })),
  fc.tuple(secretBigint, fc.constantFrom('UInt8', 'Int64', 'UInt64', 'Int128', 'Float32', 'Float64', 'Decimal(18, 2)', 'String', 'Bool', 'Date', 'DateTime', 'IPv4', 'UUID', 'Variant(Int32, String)'))
    .map(([b, type]) => ({ type, value: b, secret: b })),
  fc.tuple(secretDate, fc.constantFrom('Date', 'DateTime', 'Int32', 'String', 'UUID', 'Decimal(9, 2)', 'Float64', 'Bool', 'IPv4'))
    .map(([d, type]) => ({ type, value: d, secret: d })),
);

/** The secret placed at the top of the column, or nested inside a composite of it. */
const placed: fc.Arbitrary<Case> = fc.tuple(cases, fc.nat(6)).map(([c, how]) => {
  switch (how) {
    case 0: return { ...c, type: `Array(${c.type})`, value: [c.value] };
    case 1: return { ...c, type: `Tuple(a UInt8, b ${c.type})`, value: { a: 1, b: c.value } };
    case 2: return { ...c, type: `Map(String, ${c.type})`, value: { k: c.value } };
    case 3: return c.type.startsWith('Nullable') || c.type.startsWith('LowCardinality') || c.type.startsWith('Variant') || c.type === 'JSON' || c.type.startsWith('Map') || c.type.startsWith('Array') || c.type.startsWith('Tuple')
      ? c : { ...c, type: `Nullable(${c.type})` };
    default: return c;
  }
});

const ENCODERS = [['compiled', compileNativeEncoder], ['interpreted', interpretNativeEncoder]] as const;

test('a value that does not fit: the error names row, column and kind, never the value (both encoders, every placement)', () => {
  fc.assert(fc.property(placed, fc.constantFrom('object' as const, 'array' as const), fc.nat(3), ({ type, value, secret }, shape, row) => {
    for (const [name, make] of ENCODERS) {
      const enc = make([{ name: 'id', type: 'UInt32' }, { name: 'c', type }], shape);
      const rows = [shape === 'object' ? { id: 7, c: value } : [7, value]];
      let caught: unknown;
      try { enc.encodeBlock(rows, 0, 1, 40 + row); } catch (e) { caught = e; }
      assert.ok(caught instanceof ChwireEncodeError, `${name} ${type}: must fail, got ${String(caught)}`);
      assert.equal(caught.column, 'c');
      assert.equal(caught.row, 40 + row);
      assertNoSecret(caught, secret, `${name} ${type}`);
    }
  }), { numRuns: 400 });
});

test('a row that is no row, and an unknown key: the error never quotes the row or the value', () => {
  fc.assert(fc.property(fc.oneof(secretString, secretNumber, secretBigint, secretDate), (secret) => {
    for (const [name, make] of ENCODERS) {
      for (const shape of ['object', 'array'] as const) {
        const enc = make([{ name: 'id', type: 'UInt32' }], shape);
        assert.throws(() => enc.encodeBlock([secret], 0, 1, 0), (e: unknown) => { assertNoSecret(e, secret, `${name} ${shape} row`); return e instanceof ChwireEncodeError; });
        assert.throws(() => enc.encodeBlock([[secret, secret]], 0, 1, 0), (e: unknown) => { assertNoSecret(e, secret, `${name} ${shape} array row`); return e instanceof ChwireEncodeError; });
      }
      const enc = make([{ name: 'id', type: 'UInt32' }], 'object');
      assert.throws(() => enc.encodeBlock([{ id: 1 }, { id: 2, extra: secret }], 0, 2, 0), (e: unknown) => {
        assertNoSecret(e, secret, `${name} unknown key`);
        return e instanceof ChwireEncodeError && e.column === 'extra' && e.row === 1;
      });
    }
  }), { numRuns: 100 });
});

test('parameters that cannot be sent: the error names the parameter and the place, never the value', () => {
  const unsendable = fc.constantFrom<unknown>(undefined, () => 0, Symbol('s'), new Date(NaN), new Set([1]));
  fc.assert(fc.property(fc.oneof(secretString, secretNumber, secretBigint, secretDate), unsendable, fc.nat(5), (secret, bad, how) => {
    const values: unknown[] = [
      new Map<unknown, unknown>([[secret, 1], ['k', bad]]),
      new Map<unknown, unknown>([[secret, bad]]),
      { [String(secret)]: bad },
      [secret, bad],
      tuple(secret, [bad]),
      typeof secret === 'string' ? `${secret}\uD800` : { a: [secret, bad] },
    ];
    assert.throws(() => formatQueryParams({ p: values[how] }), (e: unknown) => {
      assertNoSecret(e, secret, `param ${how}`);
      if (typeof secret === 'string') assert.ok(!errorTexts(e).some((t) => t.includes(String(secret))));
      return e instanceof ChwireConfigError && /query parameter p/.test(e.message);
    });
  }), { numRuns: 200 });
  // A Date in the last second before 1970 (refused for a DateTime64 without a zone): no digits of it.
  fc.assert(fc.property(fc.integer({ min: -999, max: -1 }), (ms) => {
    const d = new Date(ms);
    assert.throws(() => formatQueryParams({ p: d }), (e: unknown) => {
      for (const t of errorTexts(e)) assert.ok(!t.includes(d.toISOString()), t);
      return e instanceof ChwireConfigError;
    });
  }), { numRuns: 50 });
});

const c = createClient({ url: 'chdb://' });
const TABLE = `secrets_prop_${process.pid}`;
await c.execute(`CREATE TABLE ${TABLE} (id UInt32, u UInt8, s FixedString(3), e Enum8('a' = 1), d Date, f Float32) ENGINE = Memory`);
after(async () => { await c.execute(`DROP TABLE IF EXISTS ${TABLE}`); await c.close(); });

test('client.insert and client calls on the embedded engine: no secret in the error (insert values, parameters the engine refuses)', async () => {
  await fc.assert(fc.asyncProperty(fc.oneof(secretString, secretNumber, secretBigint, secretDate), fc.constantFrom('u', 's', 'e', 'd', 'f', 'zz', 'row'), async (secret, col) => {
    const good = { id: 1, u: 1, s: 'abc', e: 'a', d: '2024-01-01', f: 0.5 };
    const rows: unknown[] = col === 'row' ? [good, secret] : [good, { ...good, [col]: secret }];
    let caught: unknown;
    try { await c.insert(TABLE, rows as object[]); } catch (e) { caught = e; }
    // A number or Date may fit some columns (a Float32 takes any number); then nothing to check.
    if (caught === undefined) return;
    assert.ok(isChwireError(caught), String(caught));
    assertNoSecret(caught, secret, `insert ${col}`);
    // Parameters the engine cannot use (it quotes them in its message): redacted before the caller sees them.
    // (The engine wraps a number or bigint too large for UInt8 without complaint: only a failure is checked.)
    let perr: unknown;
    try { await c.fetchValue('SELECT {p:UInt8} + 1', { params: { p: secret } }); } catch (e) { perr = e; }
    if (typeof secret === 'string' || secret instanceof Date) assert.ok(isChwireError(perr), String(perr));
    if (perr !== undefined) assertNoSecret(perr, secret, 'param on the engine');
  }), { numRuns: 40 });
  await c.execute(`TRUNCATE TABLE ${TABLE}`);
});
