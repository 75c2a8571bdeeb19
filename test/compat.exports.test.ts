// chwire/compat's and chwire/compat/web's runtime exports against @clickhouse/client 1.23.1's and
// @clickhouse/client-web's: every name present, the data exports equal, and the two functions that
// compute (parseColumnType, extractErrorAtTheEndOfChunk) run side by side with the official ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as official from '@clickhouse/client';
import * as officialWeb from '@clickhouse/client-web';
import * as compat from '../src/compat.js';
import * as compatWeb from '../src/compat-web.js';
import { printType } from '../src/types/print.js';
import { parseType } from '../src/types/parse.js';
import { CANONICAL_CORPUS } from './support/type-corpus.js';
import { engineTypeArbitrary } from './support/engine-type-arbitrary.js';
import { typeArbitrary } from './support/type-arbitrary.js';

const NOT_EXPORTS = new Set(['__esModule', 'default', 'module.exports']);
const names = (m: object): string[] => Object.keys(m).filter((k) => !NOT_EXPORTS.has(k)).sort();
const DATA = ['ClickHouseSpanNames', 'ClickHouseSpanStatusCode', 'ClickHouseSpanKind', 'EXCEPTION_TAG_HEADER_NAME', 'SimpleColumnTypes'];

for (const [label, theirs, ours] of [['chwire/compat', official, compat], ['chwire/compat/web', officialWeb, compatWeb]] as const) {
  test(`${label}: every runtime export of the official package, the data ones equal`, () => {
    const have = new Set(names(ours));
    assert.deepEqual(names(theirs).filter((k) => !have.has(k)), []);
    for (const k of DATA) assert.deepEqual((ours as Record<string, unknown>)[k], (theirs as Record<string, unknown>)[k], k);
    assert.equal((ours.default as Record<string, unknown>)['parseColumnType'], ours.parseColumnType);
    assert.equal((ours.default as Record<string, unknown>)['extractErrorAtTheEndOfChunk'], ours.extractErrorAtTheEndOfChunk);
  });
}

type Outcome = { ok: unknown } | { refused: true };
function run(parse: (t: string) => unknown, text: string): Outcome {
  try {
    return { ok: JSON.parse(JSON.stringify(parse(text))) };
  } catch (e) {
    assert.ok(e instanceof Error, `${text}: threw a non-Error`);
    return { refused: true };
  }
}
function sameAsOfficial(text: string): void {
  assert.deepEqual(run(compat.parseColumnType, text), run(official.parseColumnType, text), text);
}

test('parseColumnType: the official result or the official refusal, on the canonical corpus and common types', () => {
  const common = [
    'UInt64', 'LowCardinality(String)', 'LowCardinality(Nullable(String))', 'Nullable(String)', 'Nullable(Decimal(18, 4))',
    "DateTime('UTC')", "DateTime64(3, 'Europe/Amsterdam')", 'DateTime', 'DateTime64(6)', 'Decimal(9, 2)', 'Decimal(38, 10)', 'Decimal(76, 0)',
    'Array(String)', 'Array(Array(Nullable(Int32)))', 'Map(String, UInt64)', 'Map(LowCardinality(String), Array(String))',
    'Tuple(String, UInt64)', 'Tuple(a String)', 'FixedString(16)', "Enum8('a' = 1, 'b' = 2)", "Enum16('x' = -1)", 'Bool', 'UUID',
    'IPv4', 'IPv6', 'Date32', 'Nested(a UInt8)', 'Variant(String, UInt64)', 'Dynamic', 'JSON', 'Point', 'IntervalDay',
    'SimpleAggregateFunction(sum, UInt64)', 'Nothing', 'Nullable(Nothing)', 'BFloat16', 'Map(DateTime64(3), UInt8)',
    `Array(${'Array('.repeat(10)}UInt8${')'.repeat(10)})`, 'Map(Decimal(9, 2), String)', 'Map(Nullable(String), String)',
  ];
  let accepted = 0;
  for (const text of [...common, ...CANONICAL_CORPUS]) {
    sameAsOfficial(text);
    if (!('refused' in run(official.parseColumnType, text))) accepted++;
  }
  assert.ok(accepted >= 25, `the corpus exercises the accepted shapes (${accepted})`);
});

test('parseColumnType: side by side with the official parser on generated server type names', () => {
  fc.assert(fc.property(fc.oneof(engineTypeArbitrary(3), typeArbitrary(3)), (t) => {
    const text = printType(t);
    // The official parser reads the text the server prints; texts chwire itself would not read
    // back (the arbitraries' raw forms) are not server output.
    if (printType(parseType(text)) !== text) return;
    // A back-quoted name holding a quote or a bracket throws the official parser's element split
    // off (it drops the elements after it: Tuple(DateTime64(0), Tuple(`'` …)) → one element);
    // chwire refuses every named tuple, as the official parser does when it splits them right.
    if (text.includes('`')) return;
    sameAsOfficial(text);
  }), { numRuns: 3000 });
});

const TAG = 'FOOBAR';
const framed = (body: string, message: string, tag = TAG): Uint8Array => {
  const text = `\n${message}`;
  return new TextEncoder().encode(`${body}\r${text}${new TextEncoder().encode(text).length} __exception__\r\n${tag}\r\n`);
};
const shape = (e: unknown): unknown => {
  const x = e as Error & { code?: unknown; type?: unknown };
  return { cls: x.constructor.name, message: x.message, code: x.code, type: x.type };
};

test('extractErrorAtTheEndOfChunk: the official error for the 25.11+ framed exception, and for malformed frames', () => {
  const messages = [
    'Code: 395. DB::Exception: Value passed to \'throwIf\' function is non-zero: while executing \'FUNCTION throwIf(1) :: 1\'. (FUNCTION_THROW_IF_VALUE_IS_NON_ZERO) (version 25.11.1.1)\n',
    'boom\n',
    'Code: 241. DB::Exception: Memory limit (total) exceeded: would use 9.31 GiB. (MEMORY_LIMIT_EXCEEDED)\n',
  ];
  fc.assert(fc.property(fc.constantFrom(...messages), fc.string({ maxLength: 40 }), fc.stringMatching(/^[A-Za-z0-9]{1,16}$/), (message, body, tag) => {
    const chunk = framed(`{"n":1}\n${body}`, message, tag);
    assert.deepEqual(shape(compat.extractErrorAtTheEndOfChunk(chunk, tag)), shape(official.extractErrorAtTheEndOfChunk(chunk, tag)));
  }), { numRuns: 300 });
  // Too short for the trailer, and a length that is not a number: the official messages.
  for (const chunk of [new TextEncoder().encode(' __exception__\r\n'), new TextEncoder().encode('x\nabc __exception__\r\nFOOBAR\r\n')]) {
    assert.deepEqual(shape(compat.extractErrorAtTheEndOfChunk(chunk, TAG)), shape(official.extractErrorAtTheEndOfChunk(chunk, TAG)));
  }
});

test('extractErrorAtTheEndOfChunk: a frame with no newline or a length past the chunk is an error at once, never a hang or a read outside the chunk', () => {
  // The official function loops forever on the first chunk (it walks back past index 0 looking
  // for a newline) and reads from the chunk's end on the second; neither is run here.
  const noNewline = new TextEncoder().encode('abc12 __exception__\r\nFOOBAR\r\n');
  const tooLong = new TextEncoder().encode('x\n999 __exception__\r\nFOOBAR\r\n');
  for (const chunk of [noNewline, tooLong]) {
    const e = compat.extractErrorAtTheEndOfChunk(chunk, TAG);
    assert.equal(e.message, 'there was an error in the stream; failed to parse the message length');
  }
});
