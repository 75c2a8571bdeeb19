// Value converters (src/convert) and UTF-8 decoding (src/io/utf8) against the engine's own text
// for random inputs, plus the exactness properties the decoders rely on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  decimalToString, decimalToNumber, ipv4ToString, ipv6ToString, daysToString, daysToDate, secondsToIso,
  ticksToIso, ticksToMillis, ticksToDate, timeToString, time64ToString, uuidToString, uuidToBytes, FillCache,
  int64TicksToFlooredMillis, int64TicksToIso,
} from '../src/convert/index.js';
import { utf8Decode, utf8DecodeStandard } from '../src/io/utf8.js';
import { readUInt64Big, readInt64Big, readInt64Number, readUInt64String, readInt64String, readIntBig, readUIntBig } from '../src/io/bigint.js';
import { readVarUInt } from '../src/io/varint.js';
import { createCursor } from '../src/io/cursor.js';
import { engineJsonRows } from './support/engine.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** Evaluate many scalar expressions in one engine query; returns their JSON values. */
async function engineEval(exprs: string[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for (let i = 0; i < exprs.length; i += 200) {
    const part = exprs.slice(i, i + 200);
    const [row] = await engineJsonRows(`SELECT ${part.map((e, j) => `${e} AS c${j}`).join(', ')}`);
    out.push(...row!);
  }
  return out;
}

test('decimalToString equals the engine text for random unscaled values at every width', async () => {
  const cases = fc.sample(fc.oneof(
    fc.tuple(fc.constant(9), fc.integer({ min: 0, max: 9 }), fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map(BigInt)),
    fc.tuple(fc.constant(18), fc.integer({ min: 0, max: 18 }), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })),
    fc.tuple(fc.constant(38), fc.integer({ min: 0, max: 38 }), fc.bigInt({ min: -(2n ** 127n), max: 2n ** 127n - 1n })),
    fc.tuple(fc.constant(76), fc.integer({ min: 0, max: 76 }), fc.oneof(fc.bigInt({ min: -(2n ** 255n), max: 2n ** 255n - 1n }), fc.bigInt({ min: -1000n, max: 1000n }))),
  ), { numRuns: 400, seed: 42 });
  const width: Record<number, string> = { 9: 'Int32', 18: 'Int64', 38: 'Int128', 76: 'Int256' };
  const engine = await engineEval(cases.map(([p, s, u]) => `toString(reinterpret(to${width[p]}('${u}'), 'Decimal(${p}, ${s})'))`));
  cases.forEach(([, s, u], i) => {
    const text = decimalToString(u, s);
    assert.equal(text, engine[i], `unscaled ${u} scale ${s}`);
    if (u >= -(2n ** 53n) && u <= 2n ** 53n) assert.equal(decimalToString(Number(u), s), text);
    assert.equal(decimalToNumber(u, s), Number(text));
    if (u >= -(2n ** 53n) && u <= 2n ** 53n) assert.equal(decimalToNumber(Number(u), s), Number(text), 'number path correctly rounded');
  });
});

test('ipv4ToString and ipv6ToString equal the engine text', async () => {
  const v6 = fc.sample(fc.array(fc.oneof(fc.constant(0), fc.constant(0), fc.constant(0xffff), fc.integer({ min: 0, max: 0xffff })), { minLength: 8, maxLength: 8 }), { numRuns: 400, seed: 7 })
    .map((g) => { const b = new Uint8Array(16); g.forEach((x, i) => { b[2 * i] = x >> 8; b[2 * i + 1] = x & 255; }); return b; });
  const v4 = fc.sample(fc.integer({ min: 0, max: 0xffffffff }), { numRuns: 50, seed: 7 });
  const engine = await engineEval([
    ...v6.map((b) => `IPv6NumToString(toFixedString(unhex('${hex(b)}'), 16))`),
    ...v4.map((x) => `IPv4NumToString(toUInt32(${x}))`),
  ]);
  v6.forEach((b, i) => assert.equal(ipv6ToString(b, 0), engine[i], hex(b)));
  v4.forEach((x, i) => assert.equal(ipv4ToString(x), engine[v6.length + i]));
});

test('date and time text equals the engine text across the type ranges', async () => {
  const days = [...fc.sample(fc.integer({ min: -25567, max: 120529 }), { numRuns: 150, seed: 3 }), -25567, 120529, 0, -1, 65535];
  const secs = [...fc.sample(fc.integer({ min: 0, max: 0xffffffff }), { numRuns: 100, seed: 3 }), 0, 0xffffffff];
  const ticks9 = fc.sample(fc.bigInt({ min: -2208988800n * 10n ** 9n, max: 9223372036854775807n }), { numRuns: 100, seed: 3 });
  const times = [...fc.sample(fc.integer({ min: -3599999, max: 3599999 }), { numRuns: 100, seed: 3 }), 0, -1, 359999, -3600];
  const engine = await engineEval([
    ...days.map((d) => `toString(addDays(toDate32('1970-01-01'), ${d}))`),
    ...secs.map((s) => `formatDateTime(toDateTime(${s}, 'UTC'), '%Y-%m-%dT%H:%i:%SZ')`),
    ...ticks9.map((t) => `toString(fromUnixTimestamp64Nano(toInt64('${t}'), 'UTC'))`),
    ...times.map((t) => `toString(toTime(${t}))`),
  ]);
  let k = 0;
  for (const d of days) {
    assert.equal(daysToString(d), engine[k++], `day ${d}`);
    assert.equal(daysToDate(d).toISOString().slice(0, 10), daysToString(d));
  }
  for (const s of secs) assert.equal(secondsToIso(s), engine[k++], `second ${s}`);
  for (const t of ticks9) {
    assert.equal(ticksToIso(t, 9), String(engine[k++]).replace(' ', 'T') + 'Z', `ticks ${t}`);
  }
  for (const t of times) assert.equal(timeToString(t), engine[k++], `time ${t}`);
});

test('tick conversions are exact: floor for Dates, nearest double for numbers, both number and bigint inputs', () => {
  fc.assert(fc.property(fc.bigInt({ min: -(2n ** 62n), max: 2n ** 62n }), fc.integer({ min: 0, max: 9 }), (t, p) => {
    const scale = 10n ** BigInt(Math.abs(p - 3));
    const floorMs = p <= 3 ? t * scale : (t / scale) - (t % scale !== 0n && t < 0n ? 1n : 0n);
    if (floorMs >= -(8640000000000000n) && floorMs <= 8640000000000000n) {
      assert.equal(ticksToDate(t, p).getTime(), Number(floorMs));
      if (t >= -(2n ** 53n) && t <= 2n ** 53n) assert.equal(ticksToDate(Number(t), p).getTime(), Number(floorMs));
    }
    const exact = p <= 3 ? Number(t * scale) : Number(`${t < 0n ? '-' : ''}${(t < 0n ? -t : t) / scale}.${((t < 0n ? -t : t) % scale).toString().padStart(p - 3, '0')}`);
    assert.equal(ticksToMillis(t, p), exact);
    if (t >= -(2n ** 53n) && t <= 2n ** 53n) assert.equal(ticksToMillis(Number(t), p), exact);
    if (t >= -(2n ** 53n) && t <= 2n ** 53n && floorMs >= -(8640000000000n) && floorMs <= 8640000000000n) {
      assert.equal(ticksToIso(Number(t), p), ticksToIso(t, p));
      assert.equal(time64ToString(Number(t), p), time64ToString(t, p));
    }
  }), { numRuns: 2000 });
  assert.equal(time64ToString(-1500n, 3), '-00:00:01.500');
  assert.equal(time64ToString(1n, 6), '00:00:00.000001');
});

test('Int64 tick split without BigInt equals the BigInt computation for every int64 and P 4-9', () => {
  fc.assert(fc.property(fc.oneof(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.bigInt({ min: -(10n ** 13n), max: 10n ** 13n })), fc.integer({ min: 4, max: 9 }), (t, p) => {
    const dv = new DataView(new ArrayBuffer(8));
    dv.setBigInt64(0, t, true);
    const d = 10n ** BigInt(p - 3);
    const floorMs = t / d - (t % d !== 0n && t < 0n ? 1n : 0n);
    // Exact whenever the result itself is (|ms| ≤ 2^53, far beyond what a Date holds).
    if (floorMs >= -(2n ** 53n) && floorMs <= 2n ** 53n) assert.equal(int64TicksToFlooredMillis(dv, 0, p), Number(floorMs));
    if (floorMs >= -(8640000000000n) && floorMs <= 8640000000000n) assert.equal(int64TicksToIso(dv, 0, p), ticksToIso(t, p));
  }), { numRuns: 3000 });
});

test('uuid: canonical text and RFC 4122 bytes agree', () => {
  fc.assert(fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.integer({ min: 0, max: 4 }), (b, off) => {
    const text = uuidToString(b, off);
    assert.match(text, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.equal(hex(uuidToBytes(b, off)), text.replace(/-/g, ''));
  }));
  const wire = Uint8Array.from([0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x00, 0xff, 0xee, 0xdd, 0xcc, 0xbb, 0xaa, 0x99, 0x88]);
  assert.equal(uuidToString(wire, 0), '00112233-4455-6677-8899-aabbccddeeff');
});

test('utf8Decode equals TextDecoder (ignoreBOM) on arbitrary bytes, including invalid UTF-8', () => {
  fc.assert(fc.property(fc.oneof(fc.uint8Array({ maxLength: 300 }), fc.string({ unit: 'grapheme', maxLength: 100 }).map((s) => new TextEncoder().encode(s))), fc.nat(4), (b, pad) => {
    const buf = new Uint8Array(b.length + 2 * pad);
    buf.set(b, pad);
    assert.equal(utf8Decode(buf, pad, pad + b.length), utf8DecodeStandard(buf, pad, pad + b.length));
  }), { numRuns: 3000 });
  assert.equal(utf8Decode(Uint8Array.of(0xef, 0xbb, 0xbf, 0x41), 0, 4), '\ufeffA', 'a BOM is data');
  // Every length of the fixed-arity ASCII path and around it, each byte value 0-127 in every
  // position, and one non-ASCII byte in each position (that value leaves the fast path).
  const ascii = Uint8Array.from({ length: 200 }, (_, i) => (i * 37) % 128);
  for (let n = 0; n <= 40; n++) {
    for (let at = 0; at + n <= ascii.length; at += 7) assert.equal(utf8Decode(ascii, at, at + n), utf8DecodeStandard(ascii, at, at + n));
    for (let k = 0; k < n; k++) {
      const b = ascii.slice(0, n);
      b[k] = 0xc3;
      assert.equal(utf8Decode(b, 0, n), utf8DecodeStandard(b, 0, n), `length ${n}, non-ASCII at ${k}`);
    }
  }
});

test('64-bit and wider integer readers are exact', () => {
  fc.assert(fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }), (s, u) => {
    const dv = new DataView(new ArrayBuffer(32));
    dv.setBigInt64(0, s, true);
    assert.equal(readInt64Big(dv, 0), s);
    assert.equal(readUInt64Big(dv, 0), BigInt.asUintN(64, s));
    assert.equal(readInt64String(dv, 0), s.toString());
    assert.equal(readUInt64String(dv, 0), BigInt.asUintN(64, s).toString());
    assert.equal(readInt64Number(dv, 0), Number(s));
    for (let i = 0; i < 4; i++) dv.setBigUint64(i * 8, (u >> BigInt(64 * i)) & 0xffffffffffffffffn, true);
    assert.equal(readUIntBig(dv, 0, 32), u);
    assert.equal(readIntBig(dv, 0, 32), BigInt.asIntN(256, u));
    assert.equal(readUIntBig(dv, 0, 16), u & ((1n << 128n) - 1n));
    assert.equal(readIntBig(dv, 0, 16), BigInt.asIntN(128, u));
  }), { numRuns: 1000 });
  // The small-value table and the sign/hi-word fast paths at their edges.
  const dv = new DataView(new ArrayBuffer(8));
  for (const v of [...Array.from({ length: 2200 }, (_, i) => BigInt(i - 1100)), -(2n ** 31n), 2n ** 31n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 53n, -(2n ** 53n), -(2n ** 31n) - 1n]) {
    dv.setBigInt64(0, v, true);
    assert.equal(readInt64Big(dv, 0), v);
    assert.equal(readUInt64Big(dv, 0), BigInt.asUintN(64, v));
  }
});

test('readVarUInt: LEB128 round trip, 10-byte limit', () => {
  fc.assert(fc.property(fc.nat({ max: Number.MAX_SAFE_INTEGER }), (v) => {
    const bytes: number[] = [];
    let x = v;
    while (x >= 128) { bytes.push((x % 128) | 128); x = Math.floor(x / 128); }
    bytes.push(x);
    const c = createCursor(Uint8Array.from(bytes));
    assert.equal(readVarUInt(c), v);
    assert.equal(c.pos, bytes.length);
  }));
  assert.throws(() => readVarUInt(createCursor(new Uint8Array(11).fill(0x80))), /longer than 10/);
});

test('FillCache: bounded; fill then clear whole while it pays; off after a generation of misses', () => {
  const c = new FillCache<number, string>(3);
  let made = 0;
  const make = (k: number): string => { made++; return `v${k}`; };
  for (const k of [1, 2, 3, 1, 2, 3, 1, 2, 3]) assert.equal(c.get(k, make), `v${k}`);
  assert.equal(made, 3, 'hits do not call the converter');
  c.get(4, make); // full, and the generation paid off: cleared, refilled
  assert.equal(c.size, 1);
  assert.ok(c.enabled);
  for (const k of [5, 6, 7, 8, 9]) c.get(k, make); // all misses: the next fill switches it off
  assert.equal(c.enabled, false);
  assert.equal(c.size, 0);
  const before = made;
  assert.equal(c.get(5, make), 'v5');
  assert.equal(made, before + 1, 'off: always converts, stores nothing');
  assert.equal(c.size, 0);
});
