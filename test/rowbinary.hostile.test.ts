// Hostile schemas: server text (column names, tuple element names, enum labels, time zones) must
// never become code. The generated source may contain a column or tuple name only as a
// property key quoted by jsString (JSON, with U+2028/U+2029 escaped and `*/` broken, so no raw line
// break of any kind reaches the source), labels and zones not at all; "__proto__", "constructor",
// "prototype" and "" must be own properties of plain objects; and rows still decode correctly
// (against the engine for what it can produce, against the reference decoder for the rest).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { decodeRowBinary, decodeRowBinaryReference, compileRowDecoder, parseType, type TypeNode } from '../src/codec.js';
import { writeBody } from './support/rowbinary-writer.js';
import { engineBytes, engineJsonRows } from './support/engine.js';
import { jsString } from '../src/codegen/literal.js';

/** Every string carries the marker "zq" so that any leak into source is easy to find. */
const HOSTILE = [
  'zq"quote', "zq'single", 'zq\\back', 'zq*/ end comment', 'zq/* open', 'zq\nnewline', 'zq\r\ncrlf', 'zq${x}', 'zq`tick',
  'zq\u2028line-sep', 'zq\u2029para', 'zq"}); globalThis.pwned = 1; ({"', "zq'); globalThis.pwned = 1; ('", 'zq\0nul', 'zq</script>',
];
const RESERVED = ['__proto__', 'constructor', 'prototype', '', 'toString', 'hasOwnProperty', '__defineGetter__'];
const LABELS = ['zqL"', "zqL'", 'zqL\\', 'zqL*/', 'zqL\n', 'zqL${a}', 'zqL\u2028', "zqL'); globalThis.pwned = 1; ('"];
const ZONE = 'Asia/Kolkata';

function leaksOutsideKeys(source: string, names: readonly string[]): string {
  let s = source;
  for (const n of [...names].sort((a, b) => b.length - a.length)) s = s.split(jsString(n)).join('KEY');
  return s;
}

function hostileColumns(): { name: string; type: TypeNode }[] {
  const enumType: TypeNode = { kind: 'Enum8', entries: LABELS.map((label, i) => ({ label, value: i - 3 })) };
  const cols: { name: string; type: TypeNode }[] = [];
  HOSTILE.forEach((name, i) => {
    const kinds: TypeNode[] = [
      { kind: 'UInt8' }, { kind: 'String' }, enumType, { kind: 'DateTime', timezone: ZONE },
      { kind: 'Tuple', elements: [{ kind: 'UInt8' }, enumType], names: [HOSTILE[(i + 1) % HOSTILE.length]!, RESERVED[i % RESERVED.length]!] },
      { kind: 'Array', element: { kind: 'Tuple', elements: [{ kind: 'String' }, { kind: 'Nullable', inner: { kind: 'Int64' } }], names: ['__proto__', HOSTILE[i]!] } },
      { kind: 'Map', key: { kind: 'String' }, value: enumType },
    ];
    cols.push({ name, type: kinds[i % kinds.length]! });
  });
  RESERVED.forEach((name, i) => cols.push({ name, type: i % 2 === 0 ? { kind: 'UInt16' } : { kind: 'Nullable', inner: { kind: 'String' } } }));
  return cols;
}

test('hostile names and labels appear in generated source only as quoted keys; labels and zones never', () => {
  const cols = hostileColumns();
  const tupleNames = cols.flatMap((c) => JSON.stringify(c.type).includes('"names"') ? collectNames(c.type) : []);
  for (const rows of ['object', 'array'] as const) {
    const d = compileRowDecoder(cols, { rows });
    const rest = leaksOutsideKeys(d.source, [...cols.map((c) => c.name), ...tupleNames]);
    assert.ok(!rest.includes('zq'), `server text leaked into source:\n${rest.split('\n').filter((l) => l.includes('zq')).join('\n')}`);
    assert.ok(!d.source.includes('zqL'), 'an enum label reached the source');
    assert.doesNotMatch(d.source, /[\r\u2028\u2029]/, 'no line break but LF in the source');
    assert.ok(!d.source.includes('Kolkata'), 'a time zone reached the source');
    if (rows === 'array') assert.ok(!rest.includes('__proto__') && !rest.includes('constructor'), 'array rows need no keys at all');
    assert.match(d.source, /\/\/# sourceURL=chwire\/rowbinary\/[0-9a-f]{16}\.js$/);
  }
});

function collectNames(t: TypeNode): string[] {
  const out: string[] = [];
  const walk = (x: TypeNode): void => {
    if (x.kind === 'Tuple') { out.push(...(x.names ?? [])); x.elements.forEach(walk); }
    if (x.kind === 'Array') walk(x.element);
    if (x.kind === 'Map') { walk(x.key); walk(x.value); }
    if (x.kind === 'Nullable') walk(x.inner);
  };
  walk(t);
  return out;
}

test('hostile schema rows decode: own properties, plain prototypes, same as the reference', () => {
  const cols = hostileColumns();
  const wire = (t: TypeNode, r: number): unknown => {
    switch (t.kind) {
      case 'UInt8': return BigInt(r + 1);
      case 'UInt16': return BigInt(1000 + r);
      case 'String': return new TextEncoder().encode(`s${r}`);
      case 'Enum8': return t.entries[r % t.entries.length]!.value;
      case 'DateTime': return 1700000000 + r;
      case 'Nullable': return r % 2 === 0 ? null : wire(t.inner, r);
      case 'Int64': return -BigInt(r);
      case 'Tuple': return t.elements.map((e) => wire(e, r));
      case 'Array': return [wire(t.element, r), wire(t.element, r + 1)];
      case 'Map': return [[new TextEncoder().encode('__proto__'), wire(t.value, r)], [new TextEncoder().encode('k'), wire(t.value, r + 1)]];
      default: throw new Error(t.kind);
    }
  };
  const rows = [0, 1, 2].map((r) => cols.map((c) => wire(c.type, r)));
  const bytes = writeBody(cols, rows);
  const got = decodeRowBinary(bytes);
  const ref = decodeRowBinaryReference(bytes);
  assert.ok(isDeepStrictEqual(got.rows, ref.rows));
  assert.equal((globalThis as { pwned?: unknown }).pwned, undefined);
  const row = got.rows[1] as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(row), Object.prototype);
  for (const name of RESERVED) assert.ok(Object.prototype.hasOwnProperty.call(row, name), `own property ${JSON.stringify(name)}`);
  assert.equal(Object.getOwnPropertyDescriptor(row, '__proto__')?.value, 1001);
  assert.equal(Object.getOwnPropertyDescriptor(row, 'constructor')?.value, 's1');
  // A named tuple with a "__proto__" element and a map with a "__proto__" key: own properties too.
  const arr = row[HOSTILE[5]!] as Record<string, unknown>[];
  assert.equal(Object.getPrototypeOf(arr[0]), Object.prototype);
  assert.deepEqual(Object.getOwnPropertyDescriptor(arr[0], '__proto__')?.value, 's1');
  const map = row[HOSTILE[6]!] as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(map), Object.prototype);
  assert.equal(Object.getOwnPropertyDescriptor(map, '__proto__')?.value, LABELS[1]);
  // Keys in column order (duplicates keep the first position, last value).
  assert.deepEqual(Object.keys(row), [...new Set(cols.map((c) => c.name))]);
});

test('engine-made bytes with hostile column names, tuple names and enum labels decode like the engine says', async () => {
  const names = ['a"b', "c'd", 'e\\f', 'g*/h', 'i\nj', 'k${l}', 'm\u2028n', '__proto__', 'constructor', 'prototype'];
  const q = (s: string): string => '`' + s.replace(/\\/g, '\\\\').replace(/`/g, '\\`') + '`';
  const lit = (s: string): string => "'" + s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n') + "'";
  const enumDef = `Enum8(${LABELS.map((l, i) => `${lit(l)} = ${i}`).join(', ')})`;
  const sql = `SELECT ${names.map((n, i) => `${i % 3 === 0 ? `CAST(number % 8 AS ${enumDef})` : i % 3 === 1 ? `CAST((number, toString(number)) AS Tuple(${q(names[(i + 1) % names.length]!)} UInt64, ${q('__proto__')} String))` : 'number * 3'} AS ${q(n)}`).join(', ')} FROM numbers(4) ORDER BY number`;
  const bytes = await engineBytes(sql, 'RowBinaryWithNamesAndTypes');
  const json = await engineJsonRows(sql);
  const got = decodeRowBinary(bytes, { rows: 'array', int64: 'string' });
  assert.deepEqual(got.columns.map((c) => c.name), names);
  assert.equal(got.rows.length, 4);
  got.rows.forEach((row, r) => {
    (row as unknown[]).forEach((v, i) => {
      const expected = json[r]![i];
      const t = parseType(got.columns[i]!.type);
      if (t.kind === 'Tuple') {
        const e = expected as Record<string, unknown>;
        assert.deepEqual(Object.entries(v as object).map(([k, x]) => [k, x]), Object.entries(e).map(([k, x]) => [k, x]), `row ${r} col ${i}`);
        assert.equal(Object.getPrototypeOf(v), Object.prototype);
      } else {
        assert.equal(v, expected, `row ${r} col ${i}`);
      }
    });
  });
  const objRows = decodeRowBinary(bytes).rows as Record<string, unknown>[];
  assert.deepEqual(Object.keys(objRows[0]!), names);
  assert.equal(Object.getPrototypeOf(objRows[0]), Object.prototype);
});
