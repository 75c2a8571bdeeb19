// DateTime text input of the Native encoder: the fixed-format fast path for 'YYYY-MM-DD hh:mm:ss'
// (inline in the compiled encoder and first in the general coercer) must agree with the general
// ISO parser on every text, accept exactly what it accepts, and store what the engine computes
// for the same text. The oracles are the engine (toUnixTimestamp of the text) and parseIso; no
// expected second is written by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ChwireEncodeError } from '../src/errors.js';
import { compileNativeEncoder } from '../src/native/write/encoder.js';
import { decodeNative } from '../src/native/read/row-decoder.js';
import { fixedDateTime, parseIso } from '../src/convert/encode-values.js';
import { engineJsonRows } from './support/engine.js';
import { sqlString } from './support/native-engine.js';

const MAX = 4294967295;

/** What a DateTime column must store for `text`, by the general parser alone; undefined = reject. */
function reference(text: string): number | undefined {
  const p = parseIso(text);
  return p !== undefined && p.seconds >= 0 && p.seconds <= MAX ? p.seconds : undefined;
}

/** Encode `texts` as a top-level DateTime column (the inline path) and as Array(DateTime) (the column writer). */
function encodeBoth(texts: readonly string[], shape: 'object' | 'array'): { top: number[]; nested: number[] } {
  const enc = compileNativeEncoder([{ name: 't', type: "DateTime('UTC')" }, { name: 'a', type: "Array(DateTime('UTC'))" }], shape);
  const rows = texts.map((t) => (shape === 'object' ? { t, a: [t] } : [t, [t]]));
  const chunks = enc.encodeBlock(rows, 0, rows.length, 0);
  const bytes = new Uint8Array(chunks.reduce((s, c) => s + c.length, 0));
  let p = 0;
  for (const c of chunks) { bytes.set(c, p); p += c.length; }
  // The decoder gives objects keyed by column name (and DateTime as a Date) whatever the input shape.
  const out = decodeNative(bytes).rows as unknown as { t: Date; a: Date[] }[];
  return { top: out.map((r) => r.t.getTime() / 1000), nested: out.map((r) => r.a[0]!.getTime() / 1000) };
}

function encodeOutcome(text: string, shape: 'object' | 'array'): number | undefined {
  try {
    const { top, nested } = encodeBoth([text], shape);
    assert.equal(nested[0], top[0], `top-level and nested DateTime agree for ${JSON.stringify(text)}`);
    return top[0];
  } catch (e) {
    if (e instanceof ChwireEncodeError) return undefined;
    throw e;
  }
}

const pad = (n: number, w: number): string => String(n).padStart(w, '0');
/** The canonical text of second `s` in one of the fast path's shapes. */
function textOf(s: number, sep: ' ' | 'T', z: boolean): string {
  const d = new Date(s * 1000);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}${sep}` +
    `${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}${z ? 'Z' : ''}`;
}

const second = fc.oneof(fc.constantFrom(0, 1, 59, 86399, 86400, 951782400, 4107456000, MAX), fc.integer({ min: 0, max: MAX }));

test('DateTime text: every second of the range in every fast shape encodes to itself, top level and nested', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(second, fc.constantFrom(' ', 'T') as fc.Arbitrary<' ' | 'T'>, fc.boolean()), { minLength: 1, maxLength: 20 }), fc.constantFrom('object', 'array') as fc.Arbitrary<'object' | 'array'>, (items, shape) => {
      const texts = items.map(([s, sep, z]) => textOf(s, sep, z));
      const { top, nested } = encodeBoth(texts, shape);
      assert.deepEqual(top, items.map(([s]) => s));
      assert.deepEqual(nested, items.map(([s]) => s));
      for (const t of texts) assert.equal(fixedDateTime(t), reference(t), t); // in range: both give the second
    }),
    { numRuns: 200 },
  );
});

// One character replaced (by a digit, a separator or anything) is where a hand-written parser
// goes wrong: the fast path must never accept what the general parser rejects, nor differ from it.
test('DateTime text: texts one character away from valid ones are accepted exactly when the general parser accepts them', () => {
  const anyChar = fc.oneof(fc.constantFrom('0', '1', '2', '3', '5', '9', ':', '-', ' ', 'T', 'Z', '/', '.', '+'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }));
  fc.assert(
    fc.property(second, fc.boolean(), fc.nat({ max: 19 }), anyChar, fc.constantFrom('object', 'array') as fc.Arbitrary<'object' | 'array'>, (s, z, at, ch, shape) => {
      const base = textOf(s, ' ', z);
      const text = base.slice(0, at) + ch + base.slice(at + 1);
      const want = reference(text);
      const fast = fixedDateTime(text);
      if (fast >= 0) assert.equal(fast, parseIso(text)?.seconds, `fast path accepted ${JSON.stringify(text)}`);
      assert.equal(encodeOutcome(text, shape), want, JSON.stringify(text));
    }),
    { numRuns: 1500 },
  );
});

const EDGES = [
  '2024-02-29 12:00:00', '2023-02-29 12:00:00', '2000-02-29 00:00:00', '2100-02-29 00:00:00', '1900-02-28 00:00:00',
  '2023-04-31 00:00:00', '2023-04-30 23:59:59', '2023-12-31 23:59:59', '2023-00-10 00:00:00', '2023-13-10 00:00:00',
  '2023-01-00 00:00:00', '2023-01-32 00:00:00', '2023-01-01 24:00:00', '2023-01-01 23:60:00', '2023-01-01 23:59:60',
  '1969-12-31 23:59:59', '1970-01-01 00:00:00', '2106-02-07 06:28:15', '2106-02-07 06:28:16', '9999-12-31 23:59:59',
  '2023-01-01T10:11:12Z', '2023-01-01 10:11:12z', '2023-01-01 10:11:12 ', ' 2023-01-01 10:11:12', '2023-1-01 10:11:12',
  '2023-03-01 00:00:00', '2038-01-19 03:14:08', '2023-01-01\t10:11:12', '２０２３-01-01 10:11:12', '2023-01-01 10:11:1a', '2023-01-01 10:11',
];

test('DateTime text: calendar, clock and range edges agree with the general parser and with the engine', async () => {
  for (const text of EDGES) {
    const want = reference(text);
    const fast = fixedDateTime(text);
    if (fast >= 0) assert.equal(fast, parseIso(text)?.seconds, text);
    for (const shape of ['object', 'array'] as const) assert.equal(encodeOutcome(text, shape), want, `${shape} ${text}`);
  }
  // The engine's own reading of the in-range texts the fast path accepts (its 'best effort' parser
  // takes the same shapes) is the final word on the stored second. (Beyond 2106-02-07 06:28:15 the
  // engine saturates to the maximum; chwire refuses such a value instead, like every out-of-range one.)
  const accepted = EDGES.filter((t) => fixedDateTime(t) >= 0 && reference(t) !== undefined);
  assert.ok(accepted.length >= 8, 'the edge list exercises the fast path');
  const rows = await engineJsonRows(`SELECT ${accepted.map((t) => `toUnixTimestamp(parseDateTimeBestEffort(${sqlString(t)}, 'UTC'))`).join(', ')}`);
  assert.deepEqual(rows[0]!.map(Number), accepted.map((t) => encodeOutcome(t, 'object')));
});
