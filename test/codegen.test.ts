// The code generation layer: emitter holes, the bounded compiled-decoder cache, the plan key,
// and golden snapshots of generated source (regenerate with UPDATE_SNAPSHOTS=1 and review the
// diff: it shows exactly what a codegen change does to the emitted loops).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { Emitter } from '../src/codegen/emitter.js';
import { BoundedCache } from '../src/codegen/compile.js';
import { compileRowDecoder, compiledCacheSize, clearCompiledCache, parseType, type DecodeOptions, ChwireConfigError, ChwireTypeError } from '../src/codec.js';
import { resolvePlan } from '../src/plan/resolve.js';

const SNAP_DIR = fileURLToPath(new URL('../../test/snapshots/', import.meta.url));

test('emitter: integers only through a checked hole; keys quoted; __proto__ computed', () => {
  const e = new Emitter();
  assert.equal(e.int(42), '42');
  for (const bad of [1.5, NaN, Infinity, 2 ** 60, '1; evil()' as unknown as number]) assert.throws(() => e.int(bad));
  assert.equal(e.key('a"b'), '"a\\"b"');
  assert.equal(e.key('__proto__'), '["__proto__"]');
  assert.equal(e.key(''), '""');
  const k1 = e.konst([1]);
  const arr = [2];
  assert.equal(e.konst(arr), 'k1');
  assert.equal(e.konst(arr), 'k1', 'constants are deduplicated by identity');
  assert.equal(k1, 'k0');
  assert.throws(() => e.finish('rowbinary', 'xyz'), /bad source name/);
  assert.match(e.finish('rowbinary', 'abcdef'), /\/\/# sourceURL=chwire\/rowbinary\/abcdef\.js$/);
});

test('bounded cache: at most `limit` entries, least recently used evicted', () => {
  const c = new BoundedCache<number>(3);
  c.set('a', 1); c.set('b', 2); c.set('c', 3);
  assert.equal(c.get('a'), 1); // a is now the most recent
  c.set('d', 4);
  assert.equal(c.get('b'), undefined);
  assert.equal(c.get('a'), 1);
  assert.equal(c.size, 3);
});

test('compiled decoders are cached per (schema, options) and the cache is bounded at 256', () => {
  clearCompiledCache();
  const cols = [{ name: 'a', type: parseType('UInt64') }];
  const d1 = compileRowDecoder(cols);
  const d2 = compileRowDecoder(cols, {});
  assert.equal(compiledCacheSize(), 1);
  assert.equal(d1.source, d2.source);
  compileRowDecoder(cols, { int64: 'number' });
  compileRowDecoder(cols, { rows: 'array' });
  compileRowDecoder(cols, { columns: { a: { int64: 'string' } } });
  assert.equal(compiledCacheSize(), 4);
  compileRowDecoder(cols, { columns: { other: { int64: 'string' } } });
  assert.equal(compiledCacheSize(), 4, 'an override of a column not in the schema changes nothing');
  for (let i = 0; i < 300; i++) compileRowDecoder([{ name: `c${i}`, type: parseType('UInt8') }]);
  assert.equal(compiledCacheSize(), 256);
});

test('options: invalid values and unknown keys are errors, not silently ignored', () => {
  const cols = [{ name: 'a', type: parseType('UInt64') }];
  assert.throws(() => compileRowDecoder(cols, { int64: 'float' } as unknown as DecodeOptions), ChwireConfigError);
  assert.throws(() => compileRowDecoder(cols, { rows: 'tuple' } as unknown as DecodeOptions), ChwireConfigError);
  assert.throws(() => compileRowDecoder(cols, { bigints: true } as unknown as DecodeOptions), ChwireConfigError);
  assert.throws(() => compileRowDecoder(cols, { columns: { a: { strings: 'latin1' } } } as unknown as DecodeOptions), ChwireConfigError);
  // Per-column overrides are matched by own property only.
  const plan = resolvePlan([{ name: 'toString', type: parseType('UInt64'), typeText: 'UInt64' }], { columns: {} });
  assert.equal(plan.columns[0]!.opts.int64, 'bigint');
});

test('AggregateFunction is refused at compile time, naming the column', () => {
  assert.throws(() => compileRowDecoder([{ name: 'st"ate', type: parseType('Array(AggregateFunction(sum, UInt64))') }]),
    (e: unknown) => e instanceof ChwireTypeError && e.message.includes('st\\"ate'));
});

const SNAPSHOTS: { file: string; columns: [string, string][]; options: DecodeOptions }[] = [
  { file: 'rowbinary-b-default.js', columns: [['id', 'UInt64'], ['name', 'String'], ['ts', "DateTime('UTC')"], ['score', 'Float64'], ['n', 'Int32']], options: {} },
  {
    file: 'rowbinary-composite-array-rows.js',
    columns: [['__proto__', 'Nullable(String)'], ['m', 'Map(String, Array(Tuple(a UInt8, b Nullable(String))))'], ['v', 'Variant(String, UInt64)'], ['e', "Enum8('a' = 1, 'b' = 2)"], ['d', 'Dynamic']],
    options: { rows: 'array', int64: 'number' },
  },
  {
    file: 'rowbinary-deep-and-options.js',
    columns: [['deep', 'Array(Array(Array(Array(Array(UInt8)))))'], ['dec', 'Decimal(18, 4)'], ['u', 'UUID'], ['t64', "DateTime64(6, 'UTC')"], ['p', 'Point'], ['j', 'JSON(a UInt32)']],
    options: { decimal: 'number', datetime: 'string', columns: { u: { uuid: 'bytes' } } },
  },
];

for (const s of SNAPSHOTS) {
  test(`generated source snapshot ${s.file}`, () => {
    const source = compileRowDecoder(s.columns.map(([name, t]) => ({ name, type: parseType(t) })), s.options).source;
    const path = join(SNAP_DIR, s.file);
    if (process.env.UPDATE_SNAPSHOTS === '1' || !existsSync(path)) writeFileSync(path, source);
    assert.equal(source, readFileSync(path, 'utf8'), `generated source changed; review and rerun with UPDATE_SNAPSHOTS=1`);
  });
}
