// Units of the HTTP error handling: the exception-block scanner (property-tested over random data,
// messages and network splits) and the parser of both ClickHouse message styles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ExceptionFramingScanner, TailKeeper } from '../src/transport/exception-framing.js';
import { appendedServerError, serverErrorFromText } from '../src/transport/server-error.js';

const TAG = 'Zq3xY8w0Pp1LmN4v';

function block(message: string, tag = TAG): Buffer {
  const msg = `${message}\n`;
  return Buffer.from(`\r\n__exception__\r\n${tag}\r\n${msg}${Buffer.byteLength(msg)} ${tag}\r\n__exception__\r\n`);
}

/** Cuts `b` at the given (sorted, deduplicated) offsets. */
function split(b: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (b.length + 1)))].sort((x, y) => x - y);
  const out: Buffer[] = [];
  let prev = 0;
  for (const p of points) { out.push(b.subarray(prev, p)); prev = p; }
  out.push(b.subarray(prev));
  return out;
}

function run(chunks: Buffer[], clean: boolean): { data: Buffer; message: string | undefined } {
  const s = new ExceptionFramingScanner(TAG);
  const parts: Uint8Array[] = [];
  for (const c of chunks) parts.push(...s.push(c));
  if (clean) parts.push(...s.flush());
  return { data: Buffer.concat(parts), message: s.message() };
}

test('scanner: data then a block, split anywhere: exactly the data passes, the message is recovered', () => {
  fc.assert(fc.property(
    fc.uint8Array({ maxLength: 3000 }),
    fc.string({ minLength: 1, maxLength: 300 }).map((s) => `Code: 395. DB::Exception: ${s.replace(/\n/g, ' ')}`),
    fc.array(fc.nat(), { maxLength: 12 }),
    (data, message, cuts) => {
      const whole = Buffer.concat([Buffer.from(data), block(message)]);
      const r = run(split(whole, cuts), false);
      assert.deepEqual(r.data, Buffer.from(data));
      assert.equal(r.message, message);
    },
  ), { numRuns: 300 });
});

test('scanner: a body without a block passes through unchanged, including look-alike markers', () => {
  fc.assert(fc.property(
    fc.array(fc.oneof(fc.uint8Array({ maxLength: 200 }), fc.constant(new Uint8Array(block('Code: 1. x', 'OtherTag12345678')))), { maxLength: 8 }),
    fc.array(fc.nat(), { maxLength: 12 }),
    (pieces, cuts) => {
      const whole = Buffer.concat(pieces.map((p) => Buffer.from(p)));
      const r = run(split(whole, cuts), true);
      assert.deepEqual(r.data, whole);
      assert.equal(r.message, undefined);
    },
  ), { numRuns: 300 });
});

test('scanner: a block cut short still yields the message received so far', () => {
  const b = block('Code: 241. DB::Exception: Memory limit exceeded');
  const r = run([Buffer.from('rows'), b.subarray(0, 70)], false);
  assert.equal(r.data.toString(), 'rows');
  assert.match(r.message ?? '', /^Code: 241\. DB::Exception: Mem/);
});

test('tail keeper keeps the last bytes across many tiny chunks', () => {
  const t = new TailKeeper(100);
  const text = 'x'.repeat(5000) + 'Code: 395, e.displayText() = DB::Exception: boom';
  for (const ch of text) t.add(Buffer.from(ch));
  assert.ok(t.text().endsWith('DB::Exception: boom'));
  assert.ok(t.text().length <= 200);
});

test('server message, 26.x style: code, name and message as written', () => {
  const text = "Code: 60. DB::Exception: Unknown table expression identifier 'nope' in scope SELECT * FROM nope. (UNKNOWN_TABLE) (version 26.7.2.1)\n";
  const e = serverErrorFromText(text, 404, 'q1');
  assert.equal(e.serverCode, 60);
  assert.equal(e.serverName, 'UNKNOWN_TABLE');
  assert.equal(e.status, 404);
  assert.equal(e.queryId, 'q1');
  assert.equal(e.serverMessage, text.trimEnd());
  assert.equal(e.code, 'CHWIRE_SERVER');
});

test('server message, 18.16 style: code parsed, no name', () => {
  const e = serverErrorFromText('Code: 47, e.displayText() = DB::Exception: Unknown identifier: x, e.what() = DB::Exception\n', 404, undefined);
  assert.equal(e.serverCode, 47);
  assert.equal(e.serverName, undefined);
  assert.match(e.message, /Unknown identifier: x/);
});

test('a body that is not a ClickHouse message (e.g. a proxy page) keeps status and text, code 0', () => {
  const e = serverErrorFromText('<html>Bad Gateway</html>', 502, undefined, undefined);
  assert.equal(e.serverCode, 0);
  assert.equal(e.status, 502);
  assert.equal(serverErrorFromText('', 503, undefined).message, 'HTTP status 503 with an empty body');
});

test('an exception appended after the data (old servers) is found in the tail; plain data is not', () => {
  const e = appendedServerError('\u0001\u0002binaryCode: 395, e.displayText() = DB::Exception: Value passed to throwIf, e.what() = DB::Exception\n', 'q2');
  assert.equal(e?.serverCode, 395);
  assert.equal(e?.queryId, 'q2');
  assert.equal(appendedServerError('Code: 12 is just a string in a row', undefined), undefined);
});
