// parseType remembers the ASTs of the type texts it has parsed (a header's types are read on
// every call; small calls repeat the same few): a text parses to the same AST every time, a text
// that fails to parse fails every time, and what is remembered is bounded (a flood of distinct
// texts, or one very long text, parses as before).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseType, printType, ChwireTypeError } from '../src/codec.js';

test('a repeated type text gives an equal AST, and print(parse(x)) is unchanged', () => {
  for (const t of ['UInt64', "DateTime('UTC')", 'Array(Nullable(String))', "Enum8('a' = 1, 'b' = 2)", 'Tuple(a UInt8, b Map(String, Array(Decimal(18, 4))))']) {
    const a = parseType(t);
    const b = parseType(t);
    assert.deepEqual(b, a);
    assert.equal(printType(b), printType(a));
  }
});

test('a text that fails to parse fails again, with the same error', () => {
  for (let i = 0; i < 3; i++) assert.throws(() => parseType('Array(UInt8'), ChwireTypeError);
  assert.throws(() => parseType('NoSuchType'), ChwireTypeError);
});

test('many distinct texts and long texts parse as before (the memory of texts is bounded)', () => {
  for (let i = 0; i < 3000; i++) assert.deepEqual(parseType(`FixedString(${i + 1})`), { kind: 'FixedString', length: i + 1 });
  const wide = `Tuple(${Array.from({ length: 200 }, (_, k) => `c${k} UInt8`).join(', ')})`;
  assert.equal(printType(parseType(wide)), wide);
  assert.equal(printType(parseType(wide)), wide);
});
