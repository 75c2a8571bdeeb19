// Binary type encoding on fixed byte strings: the engine-made examples of rowbinary.md §6, and
// the errors for bytes that cannot be a type (ChwireDecodeError with the offending byte's offset)
// versus bytes that merely end too early (NEED_MORE).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChwireDecodeError, ChwireTypeError } from '../src/errors.js';
import { isNeedMore } from '../src/io/need-more.js';
import { encodeBinaryType, parseType, printType, readBinaryType } from '../src/types/index.js';

const hex = (s: string): Uint8Array => Uint8Array.from(s.split(' ').filter(Boolean).map((x) => parseInt(x, 16)));
const ascii = (s: string): string => [...s].map((c) => c.charCodeAt(0).toString(16)).join(' ');

test('examples of rowbinary.md §6 decode to the named type and re-encode to the same bytes', () => {
  const cases: [string, string][] = [
    ['17 02 01 62 fe 01 61 01', "Enum8('b' = -2, 'a' = 1)"],
    ['1a 12 02', 'Decimal(18, 2)'],
    ['14 03 03 55 54 43', "DateTime64(3, 'UTC')"],
    ['26 15', 'LowCardinality(String)'],
    ['30 00 80 08 20 00 00 00', 'JSON'],
    ['1e 30 00 80 02 10 00 00 00', 'Array(JSON(max_dynamic_types=16, max_dynamic_paths=256))'],
    ['2b 20', 'Dynamic'],
    ['22 0a', 'IntervalYear'],
    [`25 00 0a ${ascii('groupArray')} 01 01 02 01 01`, 'AggregateFunction(groupArray(2), UInt8)'],
    [`25 00 09 ${ascii('quantiles')} 02 07 00 00 00 00 00 00 e0 3f 07 cd cc cc cc cc cc ec 3f 01 0e`, 'AggregateFunction(quantiles(0.5, 0.9), Float64)'],
    [`25 00 12 ${ascii('groupArrayInsertAt')} 02 02 01 01 03 02 0a 01`, 'AggregateFunction(groupArrayInsertAt(-1, 3), Int64, UInt8)'],
    [`25 01 0e ${ascii('sumMapFiltered')} 01 0d 02 01 01 01 02 02 1e 01 1e 04`, 'AggregateFunction(1, sumMapFiltered([1, 2]), Array(UInt8), Array(UInt64))'],
    ['2e 03 73 75 6d 00 01 04', 'SimpleAggregateFunction(sum, UInt64)'],
    [`2c 08 ${ascii('Geometry')}`, 'Geometry'],
    ['2f 02 01 61 01 03 62 20 63 15', 'Nested(a UInt8, `b c` String)'],
    ['36 31 09', 'QBit(BFloat16, 9)'],
    ['34 06', 'Time64(6)'],
    ['1f 00', 'Tuple()'],
  ];
  for (const [bytes, text] of cases) {
    const b = hex(bytes);
    const r = readBinaryType(b, 0, b.length);
    assert.equal(printType(r.type), text);
    assert.deepStrictEqual(r.type, parseType(text));
    assert.equal(r.offset, b.length);
    assert.deepStrictEqual([...encodeBinaryType(r.type)], [...b], text);
  }
});

test('bytes that cannot be a type: ChwireDecodeError at the offending byte', () => {
  const cases: [string, number, RegExp][] = [
    ['21', 0, /unknown type code 0x21/], // Set: not a column type
    ['1e 1e 99', 2, /unknown type code 0x99/],
    ['13 0a', 1, /precision 10/],
    ['1a 00 00', 0, /invalid Decimal/],
    ['19 0a 02', 0, /another width/], // Decimal(10, 2) needs 8 bytes, not the 4 of Decimal32
    ['22 0b', 1, /interval kind 11/],
    ['30 01', 1, /JSON type encoding version 1/],
    [`2c 03 ${ascii('Foo')}`, 0, /custom type "Foo"/],
    ['16 ff ff ff ff ff ff ff ff ff ff 01', 1, /VarUInt longer than 10 bytes/],
    ['16 00', 0, /FixedString length 0/],
    [`25 00 01 66 01 ee 00`, 5, /parameter tag 0xee/],
    [`2e 01 66 00 02 01 01`, 0, /2 argument types/],
  ];
  for (const [bytes, offset, message] of cases) {
    const b = hex(bytes);
    assert.throws(() => readBinaryType(b, 0, b.length), (e: unknown) => {
      assert.ok(e instanceof ChwireDecodeError, `${bytes}: ${String(e)}`);
      assert.equal(e.offset, offset, `${bytes}: ${e.message}`);
      assert.match(e.message, message);
      return true;
    });
  }
});

test('offsets in errors are indexes in the whole buffer, not relative to the start offset', () => {
  const b = hex('ff ff ff 1e 99');
  assert.throws(() => readBinaryType(b, 3, b.length), (e: unknown) => e instanceof ChwireDecodeError && e.offset === 4);
});

test('ending early is NEED_MORE, also when `end` is before the end of the array', () => {
  const b = hex('14 03 03 55 54 43 15');
  for (let end = 0; end < 6; end++) {
    assert.throws(() => readBinaryType(b, 0, end), (e: unknown) => isNeedMore(e), `end ${end}`);
  }
  assert.deepStrictEqual(readBinaryType(b, 0, 6), { type: { kind: 'DateTime64', precision: 3, timezone: 'UTC' }, offset: 6 });
  assert.deepStrictEqual(readBinaryType(b, 6, 7), { type: { kind: 'String' }, offset: 7 });
});

test('deeply nested encodings are refused, not a stack overflow', () => {
  const b = new Uint8Array(100_000).fill(0x1e);
  assert.throws(() => readBinaryType(b, 0, b.length), (e: unknown) => e instanceof ChwireTypeError && /deeper than 1000 levels/.test(e.message));
});

test('an AggregateFunction whose text has no binary form is a ChwireTypeError when encoding', () => {
  // parseType keeps the arguments raw (the decoder refuses such columns anyway); only encoding
  // needs them structured.
  const t = parseType('AggregateFunction(quantile(level), Float64)');
  assert.equal(t.kind, 'AggregateFunction');
  assert.throws(() => encodeBinaryType(t), (e: unknown) => e instanceof ChwireTypeError && /aggregate function parameter/.test(e.message));
});
