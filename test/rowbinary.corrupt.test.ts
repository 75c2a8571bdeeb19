// Corrupt and truncated bodies: every failure is a ChwireDecodeError naming column, row and the
// absolute byte offset; never a hang, an allocation sized by an absurd length prefix, another
// exception type, or silently wrong rows. Ends with a time-boxed fuzz of random mutations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { decodeRowBinary, decodeRowBinaryReference, createRowBinaryDecoder, ChwireDecodeError, ChwireTypeError, type TypeNode } from '../src/codec.js';
import { Writer, writeBody, arbBody, type WriterColumn } from './support/rowbinary-writer.js';
import { fixtureIndex, fixtureBytes } from './support/fixtures.js';

function header(columns: WriterColumn[]): Uint8Array {
  return writeBody(columns, []);
}

/** Header of `columns` + raw row bytes. */
function body(columns: WriterColumn[], raw: number[]): Uint8Array {
  const h = header(columns);
  const out = new Uint8Array(h.length + raw.length);
  out.set(h);
  out.set(raw, h.length);
  return out;
}

function decodeError(fn: () => unknown): ChwireDecodeError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ChwireDecodeError, `expected ChwireDecodeError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected a ChwireDecodeError, got rows');
}

/** All three paths fail the same way on a whole body (stream: at push or at end()). */
function allPathsFail(bytes: Uint8Array): ChwireDecodeError {
  const a = decodeError(() => decodeRowBinary(bytes));
  const b = decodeError(() => decodeRowBinaryReference(bytes));
  const c = decodeError(() => { const d = createRowBinaryDecoder(); d.push(bytes); d.end(); });
  for (const e of [b, c]) {
    assert.equal(e.column, a.column);
    assert.equal(e.row, a.row);
    assert.equal(e.offset, a.offset);
  }
  return a;
}

const U8: TypeNode = { kind: 'UInt8' };

test('bad values name column, row and the absolute offset of the bad byte', () => {
  const cases: { type: TypeNode; bad: number[]; why: RegExp }[] = [
    { type: { kind: 'Bool' }, bad: [2], why: /Bool byte 2/ },
    { type: { kind: 'Enum8', entries: [{ label: 'a', value: 1 }] }, bad: [5], why: /Enum value 5/ },
    { type: { kind: 'Enum16', entries: [{ label: 'a', value: 1 }] }, bad: [0xff, 0xff], why: /Enum value -1/ },
    { type: { kind: 'Variant', members: [U8, { kind: 'String' }] }, bad: [7, 0], why: /Variant discriminator/ },
    { type: { kind: 'Nullable', inner: U8 }, bad: [2, 0], why: /Nullable flag/ },
    { type: { kind: 'Array', element: { kind: 'Nullable', inner: U8 } }, bad: [2, 0, 1, 3], why: /Nullable flag/ },
    { type: { kind: 'Array', element: { kind: 'Array', element: { kind: 'Array', element: { kind: 'Array', element: { kind: 'Bool' } } } } }, bad: [1, 1, 1, 1, 9], why: /Bool byte 9/ },
  ];
  for (const c of cases) {
    const cols = [{ name: 'ok', type: U8 }, { name: 'bad"col', type: c.type }];
    const h = header(cols).length;
    // Row 0 is fine (1 byte + a valid value is hard to write generically: use a NULL-free prefix).
    const bytes = body(cols, [7, ...c.bad]);
    const e = allPathsFail(bytes);
    assert.equal(e.column, 'bad"col');
    assert.equal(e.row, 0);
    assert.ok(e.offset >= h + 1 && e.offset < bytes.length, `offset ${e.offset} in [${h + 1}, ${bytes.length})`);
    assert.match(e.message, c.why);
    assert.match(e.message, /column "bad\\"col", row 0, byte offset \d+/);
  }
  // The exact offset, in a later row: rows 0-1 valid, row 2's Bool byte at a known position.
  const cols = [{ name: 'n', type: U8 }, { name: 'b', type: { kind: 'Bool' } as TypeNode }];
  const bytes = body(cols, [1, 0, 2, 1, 3, 5]);
  const e = allPathsFail(bytes);
  assert.equal(e.row, 2);
  assert.equal(e.column, 'b');
  assert.equal(e.offset, header(cols).length + 5);
});

test('absurd length prefixes fail fast without allocating', () => {
  const huge = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f]; // ~2^53
  const gib2 = [0x80, 0x80, 0x80, 0x80, 0x08]; // 2^31
  const typesToTry: TypeNode[] = [
    { kind: 'String' }, { kind: 'Array', element: U8 }, { kind: 'Array', element: { kind: 'Tuple', elements: [] } },
    { kind: 'Map', key: { kind: 'String' }, value: U8 }, { kind: 'Array', element: { kind: 'Array', element: { kind: 'Array', element: { kind: 'Array', element: U8 } } } },
  ];
  for (const type of typesToTry) {
    for (const len of [huge, gib2]) {
      const bytes = body([{ name: 'x', type }], [...len, 1, 2, 3]);
      const t0 = performance.now();
      const e = allPathsFail(bytes);
      assert.ok(performance.now() - t0 < 200, 'fails fast');
      assert.equal(e.column, 'x');
      // Beyond 1 GiB the stream fails on push (it must not wait for 2 GiB to arrive).
      const d = createRowBinaryDecoder();
      assert.throws(() => d.push(bytes), ChwireDecodeError);
    }
  }
  // An over-long VarUInt (11 bytes) is corrupt.
  allPathsFail(body([{ name: 's', type: { kind: 'String' } }], Array(11).fill(0x80)));
  // Below the limit but beyond the bytes present: truncated (whole body), waits (stream).
  const mid = body([{ name: 's', type: { kind: 'String' } }], [0x80, 0x80, 0x80, 0x40, 0x61]);
  const e = allPathsFail(mid);
  assert.match(e.message, /truncated/);
  const d = createRowBinaryDecoder();
  assert.deepEqual(d.push(mid), []);
  assert.throws(() => d.end(), ChwireDecodeError);
});

test('a truncated body is never a short result: every cut fails or ends exactly on a row boundary', () => {
  fc.assert(fc.property(arbBody(), ({ columns, rows }) => {
    const bytes = writeBody(columns, rows);
    const ends = rows.map((_, k) => writeBody(columns, rows.slice(0, k + 1)).length);
    const h = header(columns).length;
    const whole = decodeRowBinary(bytes).rows;
    for (let cut = 0; cut < bytes.length; cut++) {
      const prefix = bytes.subarray(0, cut);
      const k = ends.filter((e) => e <= cut).length;
      if (cut < h) {
        const e = decodeError(() => decodeRowBinary(prefix));
        assert.equal(e.column, undefined);
        continue;
      }
      if (cut === h || ends.includes(cut)) {
        assert.ok(isDeepStrictEqual(decodeRowBinary(prefix).rows, whole.slice(0, k)));
        continue;
      }
      const e = decodeError(() => decodeRowBinary(prefix));
      assert.equal(e.row, k, `cut ${cut}: row`);
      assert.ok(e.column !== undefined, 'names the column');
      assert.ok(e.offset >= (k === 0 ? h : ends[k - 1]!) && e.offset <= cut, `cut ${cut}: offset ${e.offset}`);
      const s = createRowBinaryDecoder();
      const got = s.push(prefix);
      assert.ok(isDeepStrictEqual(got, whole.slice(0, k)), 'stream returns the complete rows');
      const se = decodeError(() => s.end());
      assert.equal(se.row, e.row);
      assert.equal(se.offset, e.offset);
    }
  }), { numRuns: 40 });
});

test('zero-width rows are refused (RowBinary cannot count them) and cannot loop forever', () => {
  const cols = [{ name: 't', type: { kind: 'Tuple', elements: [] } as TypeNode }];
  for (const bytes of [header(cols), body(cols, [1])]) {
    assert.throws(() => decodeRowBinary(bytes), (e: unknown) => e instanceof ChwireTypeError && /format: 'Native'/.test(e.message));
    assert.throws(() => decodeRowBinaryReference(bytes), ChwireTypeError);
    assert.throws(() => { const d = createRowBinaryDecoder(); d.push(bytes); d.end(); }, ChwireTypeError);
  }
});

test('header faults: truncated, absurd column count, unparsable type', () => {
  const e1 = decodeError(() => decodeRowBinary(new Uint8Array(0)));
  assert.match(e1.message, /truncated header/);
  const w = new Writer();
  w.varUInt(2 ** 40);
  decodeError(() => decodeRowBinary(w.result()));
  const w2 = new Writer();
  w2.varUInt(1); w2.string('a'); w2.string('Array(');
  const e3 = decodeError(() => decodeRowBinary(w2.result()));
  assert.equal(e3.offset, 3);
  assert.match(e3.message, /unparsable type/);
});

test('fuzz: random mutations of valid bodies yield rows or ChwireDecodeError, nothing else, quickly', () => {
  const seeds: Uint8Array[] = fixtureIndex().cases
    .filter((c) => !['aggregate_function_state', 'binary_type_header', 'json_as_string'].includes(c.name))
    .map((c) => fixtureBytes(c.name, 'rowbinary'));
  for (const b of fc.sample(arbBody(), { numRuns: 30, seed: 1 })) seeds.push(writeBody(b.columns, b.rows));
  let rng = 12345;
  const rand = (n: number): number => { rng = (Math.imul(rng, 1103515245) + 12345) >>> 0; return rng % n; };
  const deadline = performance.now() + 3000;
  let runs = 0;
  let decodedOk = 0;
  while (performance.now() < deadline) {
    const src = seeds[rand(seeds.length)]!;
    const m = Uint8Array.from(src);
    const edits = 1 + rand(4);
    for (let i = 0; i < edits && m.length > 0; i++) {
      const at = rand(m.length);
      switch (rand(4)) {
        case 0: m[at] = rand(256); break;
        case 1: m[at] = m[at]! ^ (1 << rand(8)); break;
        case 2: m[at] = [0, 1, 0x7f, 0x80, 0xff][rand(5)]!; break;
        default: m[at] = 0xff; m[(at + 1) % m.length] = 0xff; break;
      }
    }
    const cut = rand(4) === 0 ? rand(m.length + 1) : m.length;
    const bytes = m.subarray(0, cut);
    const t0 = performance.now();
    for (const run of [() => decodeRowBinary(bytes), () => { const d = createRowBinaryDecoder(); d.push(bytes.subarray(0, bytes.length >> 1)); d.push(bytes.subarray(bytes.length >> 1)); d.end(); }]) {
      try {
        run();
        decodedOk++;
      } catch (e) {
        if (e instanceof ChwireTypeError && /AggregateFunction|empty tuple/.test(e.message)) continue;
        if (!(e instanceof ChwireDecodeError)) assert.fail(`unexpected ${String(e)} for ${Buffer.from(bytes).toString('hex')}`);
      }
    }
    assert.ok(performance.now() - t0 < 1000, 'no mutation takes long');
    runs++;
  }
  assert.ok(runs > 100, `fuzz ran ${runs} mutations`);
  assert.ok(decodedOk > 0);
});
