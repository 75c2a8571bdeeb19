// Robustness of the Native codec: hostile column names on the read side, a time-boxed byte fuzz
// (mutated engine payloads give rows or a ChwireError, never a crash, hang or other exception),
// and golden snapshots of generated encoder source so reviews see codegen changes
// (regenerate with UPDATE_SNAPSHOTS=1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import fc from 'fast-check';
import { isChwireError } from '../src/errors.js';
import { compileNativeEncoder, createNativeDecoder, decodeNative, decodeNativeColumns } from '../src/native/index.js';
import { engineBytes } from './support/engine.js';
import { fixtureBytes } from './support/fixtures.js';
import type { RowSource } from '../src/stream-decoder.js';

test('native rows: hostile column names become own properties, never code', async () => {
  const bytes = await engineBytes("SELECT 1 AS `__proto__`, 2 AS `constructor`, 3 AS `a\"b`, 4 AS `*/x`, 5 AS `${x}`, 6 AS `\\n`", 'Native');
  const { rows } = decodeNative(bytes);
  const row = rows[0] as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(row), Object.prototype);
  assert.ok(Object.prototype.hasOwnProperty.call(row, '__proto__'));
  assert.deepEqual(Object.keys(row), ['__proto__', 'constructor', 'a"b', '*/x', '${x}', '\n']);
  assert.deepEqual(Object.values(row), [1, 2, 3, 4, 5, 6]);
});

test('native fuzz: mutated payloads decode or fail with a ChwireError (whole, columns, chunked, lazy sources)', () => {
  const bodies = ['nullable', 'lowcardinality', 'arrays', 'maps', 'variant', 'dynamic', 'json', 'deep_nesting', 'multi_block', 'strings']
    .map((n) => fixtureBytes(n, 'native'));
  const deadline = Date.now() + 3000;
  let runs = 0;
  fc.assert(
    fc.property(fc.nat(bodies.length - 1), fc.array(fc.tuple(fc.nat(), fc.nat(255)), { minLength: 1, maxLength: 4 }), fc.nat(), (b, edits, cut) => {
      if (Date.now() > deadline) return;
      runs++;
      const bytes = bodies[b]!.slice();
      for (const [at, v] of edits) bytes[at % bytes.length] = v;
      const body = bytes.subarray(0, bytes.length - (cut % 3 === 0 ? cut % bytes.length : 0));
      for (const decode of [() => decodeNative(body), () => decodeNativeColumns(body), () => {
        const d = createNativeDecoder();
        for (let i = 0; i < body.length; i += 13) d.push(body.subarray(i, i + 13));
        d.end();
      }, () => {
        // The streams' lazy path: sources kept, their rows built only after the whole body.
        const d = createNativeDecoder();
        const kept: RowSource<unknown>[] = [];
        for (let i = 0; i < body.length; i += 13) kept.push(...d.pushSources!(body.subarray(i, i + 13)));
        d.end();
        for (const s of kept) for (let r = 0; r < s.length; r++) s.row(r);
      }]) {
        try {
          decode();
        } catch (e) {
          if (!isChwireError(e)) throw e;
        }
      }
    }),
    { numRuns: 5000 },
  );
  assert.ok(runs > 50, `ran ${runs} mutations`);
});

const SNAPSHOT_DIR = fileURLToPath(new URL('../../test/snapshots/', import.meta.url));
const SNAPSHOTS: [string, { name: string; type: string }[], 'object' | 'array'][] = [
  ['native-encoder-mixed-object', [
    { name: 'id', type: 'UInt64' }, { name: 's', type: 'String' }, { name: 't', type: "DateTime('UTC')" },
    { name: 'f', type: 'Float64' }, { name: 'i', type: 'Int32' }, { name: 'lc', type: 'LowCardinality(Nullable(String))' },
  ], 'object'],
  ['native-encoder-hostile-array', [
    { name: '__proto__', type: 'UInt8' }, { name: 'a"b', type: 'Array(String)' }, { name: '*/', type: 'DateTime64(3)' }, { name: 'ok', type: 'Bool' },
  ], 'array'],
  ['native-encoder-hostile-object', [{ name: '__proto__', type: 'Int8' }, { name: "it's\n", type: 'Nullable(Int64)' }, { name: 'constructor', type: 'String' }], 'object'],
];

for (const [name, columns, shape] of SNAPSHOTS) {
  test(`native encoder source snapshot ${name}`, () => {
    const source = compileNativeEncoder(columns, shape).source;
    const file = join(SNAPSHOT_DIR, `${name}.js`);
    if (process.env.UPDATE_SNAPSHOTS === '1') {
      mkdirSync(SNAPSHOT_DIR, { recursive: true });
      writeFileSync(file, source);
    }
    assert.ok(existsSync(file), `missing snapshot ${file} (run with UPDATE_SNAPSHOTS=1)`);
    assert.equal(source, readFileSync(file, 'utf8'));
  });
}
