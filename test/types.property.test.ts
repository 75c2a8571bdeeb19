// Property tests of the type layer on arbitrary ASTs with hostile strings:
// parse(print(t)) deep-equals t, readBinaryType(encodeBinaryType(t)) deep-equals t, the binary
// reader stops with NEED_MORE (never a wrong type) on every strict prefix, and typeEquals agrees
// with the printed text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isChwireError } from '../src/errors.js';
import { isNeedMore } from '../src/io/need-more.js';
import { encodeBinaryType, parseType, printType, readBinaryType, typeEquals } from '../src/types/index.js';
import { typeArbitrary } from './support/type-arbitrary.js';

const types = typeArbitrary(3);
const RUNS = { numRuns: 400 };

test('parse(print(t)) deep-equals t', () => {
  fc.assert(fc.property(types, (t) => {
    assert.deepStrictEqual(parseType(printType(t)), t);
  }), RUNS);
});

test('print(t) is one line: no raw newline or tab reaches the text', () => {
  fc.assert(fc.property(types, (t) => {
    assert.doesNotMatch(printType(t), /[\n\r\t]/);
  }), RUNS);
});

test('readBinaryType(encodeBinaryType(t)) deep-equals t and consumes every byte', () => {
  fc.assert(fc.property(types, fc.nat({ max: 5 }), (t, pad) => {
    const enc = encodeBinaryType(t);
    // Embed at an offset with trailing bytes: the reader must start and stop at the right place.
    const buf = new Uint8Array(pad + enc.length + 3).fill(0xee);
    buf.set(enc, pad);
    const r = readBinaryType(buf, pad, buf.length);
    assert.deepStrictEqual(r.type, t);
    assert.equal(r.offset, pad + enc.length);
  }), RUNS);
});

test('every strict prefix of an encoding throws NEED_MORE', () => {
  fc.assert(fc.property(types, (t) => {
    const enc = encodeBinaryType(t);
    for (let end = 0; end < enc.length; end++) {
      assert.throws(() => readBinaryType(enc, 0, end), (e: unknown) => isNeedMore(e), `end ${end} of ${enc.length}`);
    }
  }), { numRuns: 150 });
});

test('random bytes yield a type, NEED_MORE or a ChwireDecodeError, nothing else', () => {
  fc.assert(fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
    try {
      const r = readBinaryType(bytes, 0, bytes.length);
      assert.ok(r.offset <= bytes.length);
    } catch (e) {
      assert.ok(isNeedMore(e) || (isChwireError(e) && e.code === 'CHWIRE_DECODE'), String(e));
    }
  }), { numRuns: 2000 });
});

test('mangled names (characters cut, inserted, replaced) parse or throw ChwireTypeError, nothing else', () => {
  const edit = fc.tuple(fc.nat(), fc.constantFrom('cut', 'insert', 'replace'), fc.constantFrom(...'(),\'`\\= ._0aZé\n'.split('')));
  fc.assert(fc.property(types, fc.array(edit, { minLength: 1, maxLength: 3 }), (t, edits) => {
    let text = printType(t);
    for (const [at, op, ch] of edits) {
      const i = at % (text.length + 1);
      text = op === 'cut' ? text.slice(0, i) + text.slice(i + 1) : op === 'insert' ? text.slice(0, i) + ch + text.slice(i) : text.slice(0, i) + ch + text.slice(i + 1);
    }
    try {
      const parsed = parseType(text);
      // Whatever parses must print to something that parses to the same AST.
      assert.deepStrictEqual(parseType(printType(parsed)), parsed);
    } catch (e) {
      assert.ok(isChwireError(e) && e.code === 'CHWIRE_TYPE', `${JSON.stringify(text)}: ${String(e)}`);
    }
  }), { numRuns: 1000 });
});

test('typeEquals agrees with the canonical text', () => {
  fc.assert(fc.property(types, types, (a, b) => {
    assert.equal(typeEquals(a, b), printType(a) === printType(b));
    assert.ok(typeEquals(a, parseType(printType(a))));
  }), RUNS);
});
