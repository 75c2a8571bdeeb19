// Values as the server prints them (decode options `datetime: 'text'` and `float32: 'shortest'`),
// exact against the engine's own text of the same query: DateTime and DateTime64 (P 0–9) in many
// zones (DST both ways, half- and quarter-hour offsets, pre-1970 instants, local mean time), and
// random Float32 bit patterns (subnormals, extremes, integers, NaN, ±Infinity, -0). Every decode
// path gives the same values: RowBinary compiled and reference, Native eager rows, Native columns,
// and the client's fetch/stream on chdb:// (lazy rows).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeRowBinary, decodeRowBinaryReference } from '../src/rowbinary/decode.js';
import { decodeNative } from '../src/native/read/row-decoder.js';
import { decodeNativeColumns } from '../src/native/read/columns.js';
import { float32Shortest } from '../src/convert/float32.js';
import { zoneClock } from '../src/convert/zone-text.js';
import { createClient } from '../src/index.js';
import type { DecodeOptions } from '../src/plan/options.js';
import { engineBytes, engineText } from './support/engine.js';

// Not Europe/Amsterdam and the like: zones whose history before 1970 tzdata 2022 merged into
// another zone differ between the runtime's Intl data and the engine's (docs/client.md says so).
const ZONES = [
  'UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Asia/Kathmandu',
  'America/Sao_Paulo', 'Pacific/Chatham', 'Africa/Casablanca', 'Europe/Moscow', 'Pacific/Kiritimati', 'America/St_Johns', 'Europe/Dublin',
];

/** Every decode path's rows of `sql` under `opts`, as arrays (column order). */
async function allPaths(sql: string, opts: DecodeOptions): Promise<Record<string, unknown[][]>> {
  const o = { ...opts, rows: 'array' as const };
  const rb = await engineBytes(sql, 'RowBinaryWithNamesAndTypes');
  const nat = await engineBytes(sql, 'Native');
  const cols = decodeNativeColumns(nat, { ...opts, wire: false });
  const columnar = Array.from({ length: cols.rowCount }, (_, i) => cols.columns.map((c) => (c as ArrayLike<unknown>)[i]));
  const client = createClient({ url: 'chdb://' });
  try {
    const fetched = (await client.fetch(sql, o)) as unknown as unknown[][];
    const streamed: unknown[][] = [];
    for await (const r of client.stream(sql, o)) streamed.push(r as unknown as unknown[]);
    return {
      compiled: decodeRowBinary(rb, o).rows as unknown as unknown[][],
      reference: decodeRowBinaryReference(rb, o).rows as unknown as unknown[][],
      native: decodeNative(nat, o).rows as unknown as unknown[][],
      columnar, fetched, streamed,
    };
  } finally {
    await client.close();
  }
}

/**
 * The decoder prints with this runtime's Intl time-zone data (docs/client.md); where that tz release
 * and the engine's differ for an instant (Africa/Casablanca from 2026 under tzdata 2026a+), the
 * expected text is Intl's, and only its wall clock may differ: the fraction is the engine's.
 */
function runtimeText(zone: string, seconds: number, engine: string): string {
  const intl = zoneClock(zone)!(seconds * 1000);
  return intl === engine.slice(0, 19) ? engine : intl + engine.slice(19);
}

function tsvRows(text: string): string[][] {
  return text.split('\n').filter((l) => l.length > 0).map((l) => l.split('\t'));
}

const second = fc.oneof(fc.constantFrom(0, 1, 86399, 951782400, 1699982000, 2147483647, 4294967295), fc.integer({ min: 0, max: 4294967295 }));

test("datetime: 'text' — DateTime in many zones equals the engine's text", { timeout: 300_000 }, async () => {
  await fc.assert(fc.asyncProperty(fc.array(second, { minLength: 1, maxLength: 200 }), async (secs) => {
    const list = secs.join(',');
    // Zoned DateTime inside arrays: the engine's Native header names a top-level DateTime(tz) as
    // plain "DateTime" (for readers of protocol revision 0), so only nested ones keep their zone
    // there; top-level ones are covered on RowBinary and by the client below.
    const sql = `SELECT ${ZONES.map((z, i) => `[toDateTime(s, '${z}')] AS d${i}`).join(', ')}, toDateTime(s) AS plain FROM (SELECT arrayJoin([${list}]) AS s)`;
    const want = tsvRows(await engineText(`SELECT ${ZONES.map((z) => `toDateTime(s, '${z}')`).join(', ')}, toDateTime(s, 'UTC') FROM (SELECT arrayJoin([${list}]) AS s)`, 'TSV'))
      .map((r, i) => [...r.slice(0, ZONES.length).map((x, z) => [runtimeText(ZONES[z]!, secs[i]!, x)]), r[ZONES.length]]);
    for (const [path, rows] of Object.entries(await allPaths(sql, { datetime: 'text' }))) assert.deepEqual(rows, want, path);
  }), { numRuns: 6 });
});

// DateTime64 ticks of 10^-P s between 1900-01-01 and 2262 (the nanosecond Int64 range), pre-1970 included.
const MIN_S = -2208988800;
const MAX_S = 9214646400;
const dt64 = fc.tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: MIN_S, max: MAX_S }), fc.integer({ min: 0, max: 999_999_999 }));

test("datetime: 'text' — DateTime64 of precision 0–9 in many zones, before and after 1970, equals the engine's text", { timeout: 300_000 }, async () => {
  await fc.assert(fc.asyncProperty(fc.array(dt64, { minLength: 1, maxLength: 60 }), fc.constantFrom(...ZONES), async (items, zone) => {
    for (let P = 0; P <= 9; P++) {
      const nanos = items.filter((it) => it[0] === P || P === 0).map(([, s, f]) => {
        const n = BigInt(s) * 1_000_000_000n + BigInt(f - (f % 10 ** (9 - P)));
        return n < -9223372036854775808n ? 0n : n;
      });
      if (nanos.length === 0) continue;
      const expr = `CAST(fromUnixTimestamp64Nano(toInt64(n), '${zone}') AS DateTime64(${P}, '${zone}'))`;
      const from = `FROM (SELECT arrayJoin([${nanos.map((n) => `toInt64('${n}')`).join(',')}]) AS n)`;
      const want = tsvRows(await engineText(`SELECT ${expr} ${from}`, 'TSV'))
        .map((r, i) => [runtimeText(zone, Number(nanos[i]! / 1_000_000_000n) - (nanos[i]! < 0n && nanos[i]! % 1_000_000_000n !== 0n ? 1 : 0), r[0]!)]);
      for (const [path, rows] of Object.entries(await allPaths(`SELECT ${expr} AS t ${from}`, { datetime: 'text' }))) assert.deepEqual(rows, want, `${path} P=${P} ${zone}`);
    }
  }), { numRuns: 8 });
});

test("date: 'string' is the server's text of Date and Date32", { timeout: 60_000 }, async () => {
  const days = [-25567, -1, 0, 1, 19675, 49710, 120529];
  const sql = `SELECT toDate32(d) AS a, toDate(greatest(d, 0)) AS b FROM (SELECT arrayJoin([${days.join(',')}]) AS d)`;
  const want = tsvRows(await engineText(sql, 'TSV'));
  for (const [path, rows] of Object.entries(await allPaths(sql, { date: 'string' }))) assert.deepEqual(rows, want, path);
});

const F32_SPECIAL = [0, 0x80000000, 1, 2, 0x7fffff, 0x800000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000,
  0x3dcccccd /* 0.1 */, 0x4b800000 /* 2^24 */, 0x4b800001, 0x3f800000, 0x447a0000 /* 1000 */, 0x4e6e6b28 /* 1e9 */, 0x48263d14 /* 170292.3 */, 0x4826554a];

function f32(bits: number): number {
  const dv = new DataView(new ArrayBuffer(4));
  dv.setUint32(0, bits >>> 0);
  return dv.getFloat32(0);
}

function engineFloat(t: string): number {
  if (t === 'nan' || t === '-nan') return NaN;
  if (t === 'inf') return Infinity;
  if (t === '-inf') return -Infinity;
  return Number(t);
}

test("float32: 'shortest' — random Float32 bit patterns equal the engine's text on every path", { timeout: 300_000 }, async () => {
  const bits = fc.oneof(fc.constantFrom(...F32_SPECIAL), fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 0x7fffff }), fc.integer({ min: 0x4b000000, max: 0x4b800000 }));
  await fc.assert(fc.asyncProperty(fc.array(bits, { minLength: 1, maxLength: 500 }), async (list) => {
    const from = `FROM (SELECT arrayJoin([${list.join(',')}]) AS b)`;
    const expr = 'reinterpretAsFloat32(toUInt32(b))';
    const want = tsvRows(await engineText(`SELECT ${expr}, ${expr} ${from}`, 'TSV')).map((r) => [engineFloat(r[0]!), [engineFloat(r[1]!)]]);
    const paths = await allPaths(`SELECT ${expr} AS f, [${expr}] AS a ${from}`, { float32: 'shortest' });
    for (const [path, rows] of Object.entries(paths)) {
      assert.deepEqual(rows, want, path);
      for (const [i, r] of rows.entries()) assert.ok(Object.is(Math.fround(r[0] as number), f32(list[i]!)) || Number.isNaN(r[0]), `${path}: round-trips`);
    }
    // The pure function agrees bit for bit (-0 kept).
    for (const [i, b] of list.entries()) assert.ok(Object.is(float32Shortest(f32(b)), want[i]![0]) || (Number.isNaN(want[i]![0]) && Number.isNaN(float32Shortest(f32(b)))), `bits ${b.toString(16)}`);
  }), { numRuns: 20 });
});

test("float32: 'shortest' and datetime: 'text' are refused nowhere and change nothing else; defaults unchanged", async () => {
  const sql = "SELECT toFloat32(0.1) AS f, [toDateTime(1700000000, 'Asia/Tokyo')] AS d, toFloat64(0.1) AS g";
  const def = await allPaths(sql, {});
  for (const rows of Object.values(def)) {
    assert.equal(rows[0]![0], 0.10000000149011612);
    assert.ok((rows[0]![1] as unknown[])[0] instanceof Date);
  }
  for (const [path, rows] of Object.entries(await allPaths(sql, { float32: 'shortest', datetime: 'text' }))) {
    assert.deepEqual(rows, [[0.1, ['2023-11-15 07:13:20'], 0.1]], path);
  }
  // A top-level DateTime(tz) through the client on chdb:// (RowBinary and the zone-bearing header).
  const client = createClient({ url: 'chdb://' });
  try {
    assert.deepEqual(await client.fetch("SELECT toDateTime(1700000000, 'Asia/Tokyo') AS d, toDateTime64(-1.5, 1, 'America/New_York') AS e", { datetime: 'text' }),
      [{ d: '2023-11-15 07:13:20', e: '1969-12-31 18:59:58.5' }]);
  } finally {
    await client.close();
  }
});
