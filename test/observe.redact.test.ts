// redact.ts: parameter texts out of error messages. Property: whatever text surrounds them, no
// parameter text (of the length looked for) survives, nor a cut prefix of 8+ characters of one; a
// message that contains none of them is returned unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { redactError, redactText, secretTexts, spelledTexts } from '../src/client/observe/redact.js';
import { ChwireServerError } from '../src/errors.js';
import { tuple } from '../src/index.js';

const secret = fc.string({ minLength: 4, maxLength: 30, unit: 'grapheme-ascii' });
const filler = fc.string({ maxLength: 40, unit: 'grapheme-ascii' });

test('no secret, nor an 8+ character prefix of one, survives redaction; other text is kept', () => {
  fc.assert(fc.property(fc.array(secret, { minLength: 1, maxLength: 3 }), fc.array(fc.tuple(filler, fc.nat(2), fc.boolean())), (secrets, parts) => {
    const texts = secretTexts({ ...Object.fromEntries(secrets.map((s, i) => [`p${i}`, s])) });
    let msg = '';
    for (const [f, k, cut] of parts) msg += f + (cut && secrets[k % secrets.length]!.length > 8 ? secrets[k % secrets.length]!.slice(0, 8) : secrets[k % secrets.length]!);
    const out = redactText(msg, texts);
    for (const s of secrets) {
      assert.ok(!out.includes(s), `${JSON.stringify(s)} in ${JSON.stringify(out)}`);
    }
    const clean = parts.map(([f]) => f).join('');
    if (!texts.some((s) => clean.includes(s.slice(0, Math.min(8, s.length))))) assert.equal(redactText(clean, texts), clean);
  }));
});

test('secretTexts finds strings inside arrays, maps, objects and tuples; redactError walks the cause chain', () => {
  const texts = secretTexts({ a: ['alpha-1', 'x'], m: new Map([['key-one', 'value-one']]), o: { k: 'nested-v' }, t: tuple(1, 'tuple-s'), n: 123456, short: 'abc' });
  for (const s of ['alpha-1', 'key-one', 'value-one', 'nested-v', 'tuple-s', '123456']) assert.ok(texts.includes(s), s);
  assert.ok(!texts.includes('abc') && !texts.includes('x'));
  assert.ok(!texts.includes('values'), 'a tuple\'s field name is no secret');
  const inner = new Error('engine says value-one is bad');
  const e = new ChwireServerError('Code: 457. Value value-one cannot be parsed', { serverCode: 457 }, { cause: inner });
  redactError(e, texts);
  assert.equal(e.message, 'Code: 457. Value ‹param› cannot be parsed');
  assert.equal(e.serverMessage, 'Code: 457. Value ‹param› cannot be parsed');
  assert.ok(!String(e.stack).includes('value-one'));
  assert.equal(inner.message, 'engine says ‹param› is bad');
});

test('every spelling the server prints a value in is masked whole: escaped, quoted (escaped or doubled quote), backquoted, JSON, twice, and bytes as sent', () => {
  const s = "Sq'a\\b\tc\nd`e\"f";
  const sent = "Sq'a\\\\b\\tc\\nd`e\"f";
  const spellings = [
    s, sent,
    "Sq\\'a\\\\b\\tc\\nd`e\"f", "Sq''a\\\\b\\tc\\nd`e\"f", // string literal
    "Sq\\'a\\\\\\\\b\\\\tc\\\\nd`e\"f", "Sq''a\\\\\\\\b\\\\tc\\\\nd`e\"f", // string literal of the text sent
    "Sq'a\\\\\\\\b\\\\tc\\\\nd\\`e\"f", // identifier of the text sent
    JSON.stringify(s).slice(1, -1), JSON.stringify(sent).slice(1, -1),
  ];
  const texts = spelledTexts(secretTexts({ p: s }));
  for (const sp of spellings) {
    assert.equal(redactText(`value ${sp} cannot be parsed`, texts), 'value ‹param› cannot be parsed', JSON.stringify(sp));
    // A cut spelling (10+ characters) is masked too, and nothing of it is left.
    assert.equal(redactText(`before: '${sp.slice(0, 10)}'`, texts), "before: '‹param›'", JSON.stringify(sp.slice(0, 10)));
  }
  const bytes = new Uint8Array([0x53, 0x71, 0x01, 0xff, 0x41, 0x5c, 0x42, 0x43, 0x44]);
  assert.equal(redactText('value Sq\\x01\\xffA\\\\BCD cannot be parsed', spelledTexts(secretTexts({ b: bytes }))), 'value ‹param› cannot be parsed');
  // Through redactError, which adds the spellings itself.
  const e = new ChwireServerError(`Code: 6. Cannot parse string '${spellings[2]}' as UInt8`, { serverCode: 6 });
  redactError(e, secretTexts({ p: s }));
  assert.equal(e.serverMessage, "Code: 6. Cannot parse string '‹param›' as UInt8");
});

test('many values sharing their first characters (an array parameter): each is masked whole, in its own spelling, quickly', () => {
  const values = Array.from({ length: 20_000 }, (_, i) => `it's-${i}\tx`);
  const e = new ChwireServerError(`Code: 6. Cannot parse ${values.slice(0, 3000).map((v, i) => (i % 2 === 0 ? v.replace(/'/g, "\\'").replace(/\t/g, '\\t') : v)).join(', ')}, it's-`, { serverCode: 6 });
  const t0 = performance.now();
  redactError(e, secretTexts({ p: values }));
  const ms = performance.now() - t0;
  assert.equal(e.serverMessage, `Code: 6. Cannot parse ${Array.from({ length: 3000 }, () => '‹param›').join(', ')}, it's-`);
  assert.ok(ms < 30_000, `${ms} ms`);
});
