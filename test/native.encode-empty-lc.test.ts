// Regression for the Native encode property's counterexample (FC_SEED=827569776):
// Array(LowCardinality(Nullable(String))), Array(Int16), Array(UInt32), Float32 with the row
// [[], [], [], -0]. The encoder was right (its bytes equal the engine's own Native bytes); the
// property's oracle expected the engine to print Float32 -0 as 0, while it prints -0. These cases
// pin both: the bytes of empty LowCardinality arrays followed by other columns, in one and several
// blocks, from the generated and the interpreted encoder, against the engine's bytes; and -0 in
// Float32/Float64 read back by the engine as -0, which the shared oracle must expect.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileNativeEncoder, interpretNativeEncoder, type NativeEncoder } from '../src/native/write/encoder.js';
import { nativeBlocks } from '../src/native/write/blocks.js';
import { engineBytes } from './support/engine.js';
import { writeNativeFile, engineReadNative, engineInsertNative } from './support/native-engine.js';
import { shortestFloat32 } from './support/float-json.js';

/** [type, JS value, SQL expression of the same value] per column; every row holds these values. */
type Col = [string, unknown, string];

const TAIL: Col[] = [
  ['Array(Int16)', [], 'CAST([] AS Array(Int16))'],
  ['Array(UInt32)', [], 'CAST([] AS Array(UInt32))'],
  ['Float32', -0, 'toFloat32(-0.)'],
];
const CASES: { name: string; cols: Col[] }[] = [
  { name: 'the counterexample', cols: [['Array(LowCardinality(Nullable(String)))', [], 'CAST([] AS Array(LowCardinality(Nullable(String))))'], ...TAIL] },
  { name: 'LowCardinality(String)', cols: [['Array(LowCardinality(String))', [], 'CAST([] AS Array(LowCardinality(String)))'], ...TAIL] },
  {
    name: 'two empty LowCardinality arrays, then String, Float64 -0, Float32 -0',
    cols: [
      ['Array(LowCardinality(String))', [], 'CAST([] AS Array(LowCardinality(String)))'],
      ['Array(LowCardinality(Nullable(String)))', [], 'CAST([] AS Array(LowCardinality(Nullable(String))))'],
      ['String', 'after', "'after'"],
      ['Float64', -0, '-0.'],
      ['Float32', -0, 'toFloat32(-0.)'],
    ],
  },
];

const ENCODERS: [string, typeof compileNativeEncoder][] = [['generated', compileNativeEncoder], ['interpreted', interpretNativeEncoder]];

async function encode(enc: NativeEncoder, rows: unknown[], blockSize: number): Promise<Uint8Array[][]> {
  const blocks: Uint8Array[][] = [];
  for await (const b of nativeBlocks(rows, enc, blockSize)) blocks.push(b);
  return blocks;
}

for (const { name, cols } of CASES) {
  for (const [rowCount, blockSize] of [[1, 0], [5, 2], [4, 1]] as const) {
    test(`empty LowCardinality arrays then other columns, ${name}: ${rowCount} row(s), block size ${blockSize}`, async () => {
      const columns = cols.map(([type], k) => ({ name: `c${k}`, type }));
      const row = Object.fromEntries(cols.map(([, v], k) => [`c${k}`, v]));
      const rows = Array.from({ length: rowCount }, () => row);
      // The engine's own Native bytes for the same rows, cut into blocks of the same size.
      const select = `SELECT ${cols.map(([, , sql], k) => `${sql} AS c${k}`).join(', ')} FROM numbers(${rowCount})`;
      const want = Buffer.from(await engineBytes(select, 'Native', { max_block_size: blockSize || rowCount, max_threads: 1 }));
      for (const [label, make] of ENCODERS) {
        const blocks = await encode(make(columns, 'object'), rows, blockSize);
        assert.equal(blocks.length, blockSize === 0 ? 1 : Math.ceil(rowCount / blockSize), `${label}: block count`);
        assert.deepEqual(Buffer.concat(blocks.flat()).toString('hex'), want.toString('hex'), `${label}: bytes equal the engine's`);
        const path = writeNativeFile(blocks);
        const read = await engineReadNative(path, undefined, { max_threads: 1 });
        const structure = columns.map((c) => `${c.name} ${c.type}`).join(', ');
        const inserted = await engineInsertNative(path, 'encprop_empty_lc', structure);
        for (const got of [read, inserted]) {
          assert.equal(got.length, rowCount, `${label}: row count`);
          for (const r of got) {
            cols.forEach(([type, v], k) => {
              // The engine keeps the sign of zero; the property's oracle must expect exactly that.
              const expected = type === 'Float32' ? shortestFloat32(v as number) : v;
              assert.deepStrictEqual(r[k], expected, `${label}: column c${k} ${type}`);
            });
          }
        }
      }
    });
  }
}

test('the engine prints Float32 and Float64 -0 as -0 and the Float32 oracle expects it', async () => {
  for (const [type, sql] of [['Float32', 'toFloat32(-0.)'], ['Float64', '-0.']] as const) {
    const columns = [{ name: 'c0', type }];
    for (const [label, make] of ENCODERS) {
      const one = await encode(make(columns, 'array'), [[-0]], 0);
      const want = Buffer.from(await engineBytes(`SELECT ${sql} AS c0`, 'Native'));
      assert.equal(Buffer.concat(one.flat()).toString('hex'), want.toString('hex'), `${label} ${type}: bytes equal the engine's`);
      const got = await engineReadNative(writeNativeFile(await encode(make(columns, 'array'), [[-0], [0]], 0)), undefined, { max_threads: 1 });
      assert.ok(Object.is(got[0]![0], -0), `${label} ${type}: -0 read back as ${String(got[0]![0])}`);
      assert.ok(Object.is(got[1]![0], 0), `${label} ${type}: 0 read back as 0`);
    }
  }
  assert.ok(Object.is(shortestFloat32(-0), -0), 'oracle keeps the sign of Float32 zero');
  assert.ok(Object.is(shortestFloat32(0), 0));
});
