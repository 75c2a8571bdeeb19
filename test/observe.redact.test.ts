// redact.ts: parameter texts out of error messages. Property: whatever text surrounds them, no
// parameter text (of the length looked for) survives, nor a cut prefix of 8+ characters of one; a
// message that contains none of them is returned unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { redactError, redactText, secretTexts } from '../src/client/observe/redact.js';
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
  const inner = new Error('engine says value-one is bad');
  const e = new ChwireServerError('Code: 457. Value value-one cannot be parsed', { serverCode: 457 }, { cause: inner });
  redactError(e, texts);
  assert.equal(e.message, 'Code: 457. Value ‹param› cannot be parsed');
  assert.equal(e.serverMessage, 'Code: 457. Value ‹param› cannot be parsed');
  assert.ok(!String(e.stack).includes('value-one'));
  assert.equal(inner.message, 'engine says ‹param› is bad');
});
