// Query-parameter serialisation against the embedded engine. Our text reaches the engine's
// `{name:Type}` binder through `SET param_p = '<text>'` (the SQL literal is escaped here,
// independently; its content is our text byte for byte), the same binder HTTP's `param_p=` feeds.
// chdb's own queryBind cannot be used as the oracle: it TSV-escapes string values itself, so it
// would test its escaping, not ours. Each property checks that the engine reads back exactly the
// JS value (compared through hex / Unix timestamps / bit-exact JSON, never through our code).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ChwireConfigError } from '../src/errors.js';
import { formatQueryParam, formatQueryParams, tuple } from '../src/client/sql/params.js';
import { engineJsonRows } from './support/engine.js';

/** SQL string literal (only `\` and `'` need escaping inside it). */
function sqlString(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** The row the engine returns for `select` (using {p:T}) when the parameter text is `text`. */
async function bound(text: string, select: string): Promise<unknown[]> {
  const rows = await engineJsonRows(`SET param_p = ${sqlString(text)}; SELECT ${select}`);
  assert.equal(rows.length, 1);
  return rows[0]!;
}

const utf8Hex = (s: string): string => Buffer.from(s, 'utf8').toString('hex').toUpperCase();
const bytesHex = (b: Uint8Array): string => Buffer.from(b).toString('hex').toUpperCase();

const HOSTILE = ["'); DROP TABLE t; --", '\\', '\\N', 'a\\tb', '\t', '\n', '\r', '\0', '\b', '\f', "'", '"', '`', '\\x41', '{', '[', '😀', 'é', '\u2028', ' '];
/** Full-unicode strings spiced with the characters an escaper can get wrong. */
const hostileText = fc.array(fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ unit: 'binary', maxLength: 4 })), { maxLength: 6 })
  .map((parts) => parts.join(''));

test('strings: any string round-trips through {p:String}', async () => {
  for (const s of ['', ...HOSTILE, 'ends with \\', 'a\\', '\\\\N']) {
    assert.deepEqual(await bound(formatQueryParam(s), 'hex({p:String})'), [utf8Hex(s)], JSON.stringify(s));
  }
  await fc.assert(fc.asyncProperty(hostileText, async (s) => {
    assert.deepEqual(await bound(formatQueryParam(s), 'hex({p:String})'), [utf8Hex(s)]);
  }), { numRuns: 150 });
});

test('strings: the escaping is needed (an unescaped tab or backslash does not round-trip)', async () => {
  // Guards the harness: the raw text path must be one that rejects or alters unescaped input.
  await assert.rejects(bound('a\tb', '{p:String}'), /parsed completely|cannot be parsed/);
  assert.notDeepEqual(await bound('a\\tb', 'hex({p:String})'), [utf8Hex('a\\tb')]);
  assert.equal(formatQueryParam('a\\tb'), 'a\\\\tb');
});

test('bytes: a Uint8Array is sent as the exact bytes of a String', async () => {
  await fc.assert(fc.asyncProperty(fc.uint8Array({ maxLength: 24 }), async (b) => {
    assert.deepEqual(await bound(formatQueryParam(b), 'hex({p:String})'), [bytesHex(b)]);
    assert.deepEqual(await bound(formatQueryParam([b]), 'arrayMap(x -> hex(x), {p:Array(String)})'), [[bytesHex(b)]]);
  }), { numRuns: 60 });
});

test('arrays, nested arrays, nullable elements', async () => {
  await fc.assert(fc.asyncProperty(fc.array(fc.array(fc.option(hostileText), { maxLength: 3 }), { maxLength: 3 }), async (a) => {
    const [got] = await bound(formatQueryParam(a), 'arrayMap(x -> arrayMap(y -> if(isNull(y), NULL, hex(y)), x), {p:Array(Array(Nullable(String)))})');
    assert.deepEqual(got, a.map((x) => x.map((y) => (y === null ? null : utf8Hex(y)))));
  }), { numRuns: 80 });
});

test('typed arrays are arrays of numbers (Uint8Array alone means bytes)', async () => {
  assert.deepEqual(await bound(formatQueryParam(new Int32Array([1, -2, 2147483647])), '{p:Array(Int32)}'), [[1, -2, 2147483647]]);
  assert.deepEqual(await bound(formatQueryParam(new BigInt64Array([-(1n << 63n)])), 'arrayMap(x -> toString(x), {p:Array(Int64)})'), [['-9223372036854775808']]);
  assert.deepEqual(await bound(formatQueryParam(new Float32Array([0.5, -0])), '{p:Array(Float32)}'), [[0.5, -0]]);
});

test('maps from Map and from plain objects', async () => {
  await fc.assert(fc.asyncProperty(fc.uniqueArray(fc.tuple(hostileText, fc.bigInt({ min: 0n, max: (1n << 64n) - 1n })), { maxLength: 4, selector: ([k]) => k }), async (entries) => {
    const expected = [entries.map(([k]) => utf8Hex(k)), entries.map(([, v]) => v.toString())];
    const select = 'arrayMap(k -> hex(k), mapKeys({p:Map(String, UInt64)})), mapValues({p:Map(String, UInt64)})';
    assert.deepEqual(await bound(formatQueryParam(new Map(entries)), select), expected);
    const obj: Record<string, bigint> = {};
    for (const [k, v] of entries) Object.defineProperty(obj, k, { value: v, enumerable: true });
    // Object key order: integer-like keys come first in JS; compare as sets of pairs.
    const [keys, values] = await bound(formatQueryParam(obj), select) as [string[], string[]];
    assert.deepEqual(new Map(keys.map((k, i) => [k, values[i]])), new Map(expected[0]!.map((k, i) => [k, expected[1]![i]])));
  }), { numRuns: 60 });
});

test('tuples, also inside arrays and maps', async () => {
  await fc.assert(fc.asyncProperty(hostileText, fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }), fc.option(fc.boolean()), async (s, n, b) => {
    const [got] = await bound(formatQueryParam(tuple(s, n, b)), 'tuple(hex(tupleElement({p:Tuple(String, Int64, Nullable(Bool))}, 1)), tupleElement({p:Tuple(String, Int64, Nullable(Bool))}, 2), tupleElement({p:Tuple(String, Int64, Nullable(Bool))}, 3))');
    assert.deepEqual(got, [utf8Hex(s), n.toString(), b]);
    const [nested] = await bound(formatQueryParam({ k: [tuple(s, n)] }), "hex(tupleElement({p:Map(String, Array(Tuple(String, Int64)))}['k'][1], 1))");
    assert.equal(nested, utf8Hex(s));
  }), { numRuns: 60 });
  assert.deepEqual(await bound(formatQueryParam(tuple(7)), 'tupleElement({p:Tuple(UInt8)}, 1)'), [7]);
});

test('Dates: DateTime (whole seconds) and DateTime64(3), in any column zone, also inside arrays', async () => {
  const whole = fc.integer({ min: 0, max: 4_294_967_295 }).map((s) => new Date(s * 1000));
  await fc.assert(fc.asyncProperty(whole, async (d) => {
    const secs = String(d.getTime() / 1000);
    assert.deepEqual(await bound(formatQueryParam(d), "toUnixTimestamp({p:DateTime}), toUnixTimestamp({p:DateTime('Asia/Kolkata')})"), [secs, secs].map(Number));
    assert.deepEqual(await bound(formatQueryParam([d, null]), 'arrayMap(x -> toUnixTimestamp(x), {p:Array(Nullable(DateTime))})'), [[Number(secs), null]]);
  }), { numRuns: 40 });
  // DateTime64(3) covers 1900-01-01 … 2299-12-31.
  // (-1000, 0) ms is refused (the server drops the sign of `-0.xxx`); tested below.
  const ms = fc.integer({ min: -2_208_988_800_000, max: 10_413_791_999_999 }).filter((x) => x <= -1000 || x >= 0).map((x) => new Date(x));
  await fc.assert(fc.asyncProperty(ms, async (d) => {
    const want = String(d.getTime());
    assert.deepEqual(await bound(formatQueryParam(d), "toUnixTimestamp64Milli({p:DateTime64(3)}), toUnixTimestamp64Milli({p:DateTime64(3, 'America/New_York')})"), [want, want]);
    assert.deepEqual(await bound(formatQueryParam([d]), 'arrayMap(x -> toUnixTimestamp64Milli(x), {p:Array(DateTime64(3))})'), [[want]]);
    // DateTime64(9) ends at 2262-04-11 23:47:16.854775807 (Int64 nanoseconds).
    const t = d.getTime() <= 9_223_372_036_854 ? 'DateTime64(9)' : 'DateTime64(6)';
    assert.deepEqual(await bound(formatQueryParam(tuple(d)), `toUnixTimestamp64Milli(tupleElement({p:Tuple(${t})}, 1))`), [want]);
  }), { numRuns: 60 });
  for (const d of [new Date(0), new Date(1000), new Date(-1000), new Date(-1001), new Date(999)]) {
    assert.deepEqual(await bound(formatQueryParam(d), 'toUnixTimestamp64Milli({p:DateTime64(3)})'), [String(d.getTime())], d.toISOString());
  }
  // Date and Date32 take 'YYYY-MM-DD' strings.
  assert.deepEqual(await bound(formatQueryParam('2024-01-02'), 'toString({p:Date}), toString({p:Date32})'), ['2024-01-02', '2024-01-02']);
  // A fraction cannot be stored in a DateTime: the server refuses it instead of truncating.
  await assert.rejects(bound(formatQueryParam(new Date(1500)), '{p:DateTime}'), /cannot be parsed/);
});

test('bigints at the limits of every integer width', async () => {
  const widths: [string, bigint, bigint][] = [8, 16, 32, 64, 128, 256].flatMap((w): [string, bigint, bigint][] => [
    [`Int${w}`, -(1n << BigInt(w - 1)), (1n << BigInt(w - 1)) - 1n],
    [`UInt${w}`, 0n, (1n << BigInt(w)) - 1n],
  ]);
  for (const [type, min, max] of widths) {
    for (const v of [min, max, min + 1n, max - 1n]) {
      assert.deepEqual(await bound(formatQueryParam(v), `toString({p:${type}})`), [v.toString()], `${type} ${v}`);
    }
    assert.deepEqual(await bound(formatQueryParam([min, max]), `arrayMap(x -> toString(x), {p:Array(${type})})`), [[min.toString(), max.toString()]]);
  }
});

test('numbers: Float64 bit-exact (incl. nan, inf, -0, subnormals), integers to Int64', async () => {
  await fc.assert(fc.asyncProperty(fc.double(), async (x) => {
    const [top, inArray] = await bound(formatQueryParam(x), '{p:Float64}, 1') as [unknown, unknown];
    void inArray;
    const [[el]] = await bound(formatQueryParam([x]), '{p:Array(Float64)}') as [unknown[]];
    for (const got of [top, el]) {
      const n = got === 'nan' ? NaN : got === 'inf' ? Infinity : got === '-inf' ? -Infinity : got;
      assert.ok(Object.is(n, x), `${x} came back as ${String(got)}`);
    }
  }), { numRuns: 100 });
  await fc.assert(fc.asyncProperty(fc.maxSafeInteger(), async (n) => {
    assert.deepEqual(await bound(formatQueryParam(n), 'toString({p:Int64})'), [String(n)]);
  }), { numRuns: 40 });
});

test('booleans and NULL', async () => {
  assert.deepEqual(await bound(formatQueryParam(true), '{p:Bool}'), [true]);
  assert.deepEqual(await bound(formatQueryParam(false), '{p:Bool}'), [false]);
  assert.deepEqual(await bound(formatQueryParam([true, false, null]), '{p:Array(Nullable(Bool))}'), [[true, false, null]]);
  assert.deepEqual(await bound(formatQueryParam(null), '{p:Nullable(String)}, isNull({p:Nullable(Int64)})'), [null, 1]);
  assert.deepEqual(await bound(formatQueryParam('NULL'), '{p:Nullable(String)}'), ['NULL']);
});

test('what cannot be represented is a ChwireConfigError naming the parameter and path', () => {
  class Point { x = 1; }
  const cyclic: unknown[] = [];
  cyclic.push(cyclic);
  const cases: [unknown, RegExp][] = [
    [undefined, /p: cannot send undefined/],
    [() => 1, /p: cannot send a function/],
    [Symbol('s'), /p: cannot send a symbol/],
    [new Date(NaN), /p: Invalid Date/],
    // The engine reads `-0.001` as +0.001 (engine bug); such instants are refused, not sent wrong.
    [new Date(-1), /last second before 1970/],
    [[new Date(-999)], /p\[0\]: .*last second before 1970/],
    ['a\uD800b', /p: string contains a lone UTF-16 surrogate/],
    [['ok', undefined], /p\[1\]: cannot send undefined/],
    [{ a: { b: [1, () => 0] } }, /p\{value 0\}\{value 0\}\[1\]: cannot send a function/],
    [new Point(), /p: cannot send a Point/],
    [new Set([1]), /p: cannot send a Set/],
    [cyclic, /p\[0\]: the value contains itself/],
    [new Map([['k', 1], ['k2', undefined]]), /p\{value 1\}: cannot send undefined/],
    [new Map([[() => 0, 1]]), /p\{key 0\}: cannot send a function/],
    [{ 'k\uD800': 1 }, /p\{key 0\}: string contains a lone UTF-16 surrogate/],
  ];
  for (const [v, message] of cases) {
    assert.throws(() => formatQueryParams({ p: v }), (e: unknown) => e instanceof ChwireConfigError && message.test(e.message), String(message));
  }
  assert.throws(() => formatQueryParams({ 'a-b': 1 }), /not an identifier/);
  assert.deepEqual(formatQueryParams({ a: 1, b: 'x\ty', c: tuple(1, 'z'), d: new Map([['k', [1n]]]) }), { a: '1', b: 'x\\ty', c: "(1, 'z')", d: "{'k': [1]}" });
});
