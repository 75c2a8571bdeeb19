// JSON values enumerate their keys in the engine's order on every read path (issue 10, item 11):
// RowBinary compiled, reference and streamed, Native rows and Native columns give objects whose
// JSON.stringify is the same, and whose keys (nested too) come in the order of the engine's own
// JSON output of the value: typed paths, dynamic paths and shared data merged, sorted by path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeRowBinary, decodeRowBinaryReference, createRowBinaryDecoder, decodeNative, decodeNativeColumns } from '../src/codec.js';
import { engineBytes, engineText } from './support/engine.js';

const SETTINGS = { allow_experimental_json_type: 1, output_format_json_quote_64bit_integers: 0 };

/** Keys (recursively) of a value: what enumeration order a JSON object has, values left out. */
function skeleton(v: unknown): unknown {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof Uint8Array || v instanceof Date) return null;
  return Object.entries(v).map(([k, x]) => [k, skeleton(x)]);
}

const stringify = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x));

async function checkOrder(expr: string): Promise<void> {
  const sql = `SELECT ${expr} AS j`;
  const engine = (JSON.parse(await engineText(sql, 'JSONEachRow', SETTINGS)) as { j: unknown }).j;
  const rb = await engineBytes(sql, 'RowBinaryWithNamesAndTypes', SETTINGS);
  const nat = await engineBytes(sql, 'Native', SETTINGS);
  const streamed = createRowBinaryDecoder();
  const srows = [...streamed.push(rb.slice(0, 3)), ...streamed.push(rb.slice(3))] as Record<string, unknown>[];
  streamed.end();
  const got: [string, unknown][] = [
    ['rowbinary compiled', (decodeRowBinary(rb).rows[0] as Record<string, unknown>).j],
    ['rowbinary reference', (decodeRowBinaryReference(rb).rows[0] as Record<string, unknown>).j],
    ['rowbinary streamed', srows[0]!.j],
    ['native rows', (decodeNative(nat).rows[0] as Record<string, unknown>).j],
    ['native columns', (decodeNativeColumns(nat).columns[0] as unknown[])[0]],
  ];
  const first = stringify(got[0]![1]);
  for (const [path, v] of got) {
    assert.deepEqual(skeleton(v), skeleton(engine), `${path}: key order of ${expr}`);
    assert.equal(stringify(v), first, `${path} and ${got[0]![0]} differ on ${expr}`);
  }
}

const CASES = [
  // The issue's reproduction: RowBinary gave { b: '2', a: 1 }.
  `CAST('{"a":"1","b":2}', 'JSON(a UInt32, b String)')`,
  `CAST('{"z":1,"a":{"y":2,"b":3},"m":"x"}', 'JSON')`,
  `CAST('{"z":1,"a":{"y":2,"b":3},"m":"x"}', 'JSON(m String, a.y UInt8)')`,
  `CAST('{"a.b":1,"a-x":2,"a2":3,"a":{"c":4},"é":5,"z":6,"\\\\uFFFD":7,"\\\\uD83D\\\\uDE00":8}', 'JSON(z UInt8, a.c String)')`,
  // Shared data (paths beyond max_dynamic_paths) merged with dynamic and typed paths.
  `CAST('{"q":1,"b":2,"k":3,"a":{"z":1,"b":2},"c":[1,2]}', 'JSON(max_dynamic_paths=1, k UInt8)')`,
  `CAST('{"q":1,"b":2,"k":3,"a":{"z":1,"b":2},"c":[1,2]}', 'JSON(max_dynamic_paths=0)')`,
  // Typed paths holding NULL are kept, in their place.
  `CAST('{"y":1}', 'JSON(x Nullable(String), z Nullable(UInt8))')`,
];

for (const expr of CASES) {
  test(`JSON key order is the engine's on every path: ${expr}`, async () => {
    await checkOrder(expr);
  });
}

test('JSON key order: random objects, typed paths and dynamic-path limits (property)', async () => {
  const key = fc.constantFrom('a', 'b', 'z', 'a2', 'a-b', 'é', 'M', '_');
  const leaf = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom('s', 'é'), fc.boolean());
  const obj = fc.letrec<{ node: Record<string, unknown> }>((tie) => ({
    node: fc.dictionary(key, fc.oneof({ weight: 3, arbitrary: leaf }, { weight: 1, arbitrary: tie('node') }), { minKeys: 1, maxKeys: 4 }),
  })).node;
  await fc.assert(fc.asyncProperty(obj, fc.subarray(['a', 'b', 'z', 'M']), fc.constantFrom('', 'max_dynamic_paths=1', 'max_dynamic_paths=0'), async (o, typedPaths, limit) => {
    const params = [limit, ...typedPaths.map((p) => `${p} Nullable(String)`)].filter((x) => x !== '');
    const text = JSON.stringify(o).replace(/\\/g, '\\\\').replace(/'/g, "\\'");
    await checkOrder(`CAST('${text}', 'JSON${params.length > 0 ? `(${params.join(', ')})` : ''}')`);
  }), { numRuns: 40 });
});
