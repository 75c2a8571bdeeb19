// A fuzzer over mutated real bodies: RowBinaryWithNamesAndTypes and Native bytes made by the
// embedded engine for varied schemas (nested, nullable, LowCardinality, maps, Variant/Dynamic,
// multi-block, and values that take no bytes; and Native bytes of the real 18.16 server when
// CHWIRE_TEST_HTTP_URL is set), mutated by byte flips, truncation, insertion,
// length prefixes inflated to huge values, and row/element counts set to 2^24 or 2^28.
//
// Every outcome must be a typed ChwireError or rows, where rows are what every decoding path of
// that format agrees on (whole compiled, reference, chunked stream; Native rows and columns), a
// truncated body gives at most a prefix of the unmutated rows (never other rows), and a count
// set to 2^24/2^28 where the body has a count is always an error. Each case runs within a time
// and a heap bound. fast-check draws the cases: a fixed seed under CI (test/support/fc-seed),
// a new one locally (FC_SEED=<seed> replays a failure); FUZZ_MS sets the time box (default 10 s).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual, inspect } from 'node:util';
import fc from 'fast-check';
import {
  decodeRowBinary, decodeRowBinaryReference, createRowBinaryDecoder, decodeNative, decodeNativeColumns, createNativeDecoder,
  isChwireError, type Row,
} from '../src/codec.js';
import { readHeader } from '../src/rowbinary/header.js';
import { engineBytes } from './support/engine.js';
import { REAL_URL } from './support/ch-server.js';

const SCHEMAS = [
  'SELECT number AS n, toString(number) AS s, toInt8(number) AS i, number / 3 AS f FROM numbers(20)',
  "SELECT if(number % 3 = 0, NULL, number) AS x, toLowCardinality(toString(number % 4)) AS lc, CAST(if(number % 2 = 0, NULL, 'v') AS LowCardinality(Nullable(String))) AS lcn FROM numbers(15)",
  'SELECT range(number % 5) AS a, map(toString(number), [number, 2]) AS m, [toString(number)] AS sa FROM numbers(10)',
  "SELECT [[number], [], [1, 2]] AS aa, tuple(number, tuple(toString(number), [number, 1]), 'x') AS t, CAST((number, 'k') AS Tuple(a UInt64, b String)) AS nt FROM numbers(8)",
  'SELECT arrayMap(x -> tuple(), range(number % 4)) AS z, tuple(tuple(), number) AS t, [[(), ()], []] AS zz FROM numbers(8)',
  "SELECT map(number % 3, ()) AS mz, [tuple(tuple())] AS tz, toDecimal64(number / 3, 4) AS d, toDate('2020-01-01') + number AS dt, toDateTime64(number, 3, 'UTC') AS t64 FROM numbers(10)",
  "SELECT [number] :: Array(Nullable(UInt8)) AS an, CAST(if(number % 2 = 0, toString(number), number) AS Variant(String, UInt64)) AS v, [[(), ()]] :: Dynamic AS dz, number :: Dynamic AS dn FROM numbers(6)",
  'SELECT number AS n, toString(number * 7) AS s FROM numbers(30) SETTINGS max_block_size = 7',
];
/** Native bodies of the real 18.16 server too, when CHWIRE_TEST_HTTP_URL names one (Nothing, LowCardinality, nested arrays). */
const OLD_SERVER = [
  "SELECT number AS n, [toString(number), ''] AS a, NULL AS z, [] AS e, toLowCardinality(toString(number % 3)) AS lc FROM numbers(12)",
  'SELECT [[number, 1], []] AS aa, (number, toString(number)) AS t, toNullable(toInt32(number)) AS ni FROM numbers(9) SETTINGS max_block_size = 4',
];
/** Native only: a row of only empty tuples (RowBinary refuses such a schema). */
const NATIVE_ONLY = ['SELECT tuple() AS t FROM numbers(6)', 'SELECT tuple() AS t, tuple(tuple()) AS u, number AS n FROM numbers(9) SETTINGS max_block_size = 4'];

interface Body { format: 'rb' | 'native'; bytes: Uint8Array; rows: Row[]; countAt: number[] }
const bodies: Body[] = [];

function varUInt(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) { out.push((n % 0x80) | 0x80); n = Math.floor(n / 0x80); }
  out.push(n);
  return out;
}

function varEnd(b: Uint8Array, p: number): number {
  while (p < b.length && b[p]! >= 0x80) p++;
  return p + 1;
}

before(async () => {
  for (const sql of SCHEMAS) {
    const rb = await engineBytes(sql, 'RowBinaryWithNamesAndTypes');
    // The column count, and the first row's first value (a count when the first column is an
    // Array or Map).
    const h = readHeader(rb, 0, rb.length, false);
    const first = h.columns[0]!.type.kind;
    bodies.push({ format: 'rb', bytes: rb, rows: decodeRowBinary(rb).rows, countAt: [0, ...(first === 'Array' || first === 'Map' ? [h.offset] : [])] });
  }
  const old: Uint8Array[] = [];
  if (REAL_URL !== undefined && REAL_URL !== '') {
    for (const sql of OLD_SERVER) {
      const r = await fetch(`${REAL_URL}/?default_format=Native`, { method: 'POST', body: sql });
      assert.equal(r.status, 200, await r.clone().text());
      old.push(new Uint8Array(await r.arrayBuffer()));
    }
  }
  for (const sql of [...SCHEMAS, ...NATIVE_ONLY, ...old]) {
    const nb = typeof sql === 'string' ? await engineBytes(sql, 'Native') : sql;
    // Every block's row count (the VarUInt after its column count).
    const countAt: number[] = [];
    const d = createNativeDecoder();
    d.push(nb);
    d.end();
    let p = 0;
    for (let guard = 0; p < nb.length && guard < 64; guard++) {
      countAt.push(varEnd(nb, p));
      // Find the next block: decode the prefix that ends there (the decoder reports whole blocks only).
      let next = -1;
      for (let q = varEnd(nb, varEnd(nb, p)); q <= nb.length; q++) {
        try { decodeNative(nb.subarray(p, q)); next = q; break; } catch { /* not a block end yet */ }
      }
      if (next < 0) break;
      p = next;
    }
    bodies.push({ format: 'native', bytes: nb, rows: decodeNative(nb).rows, countAt });
  }
});

/** Deep equality where an Invalid Date equals an Invalid Date (isDeepStrictEqual compares NaN times as unequal). */
function same(a: unknown, b: unknown): boolean {
  if (isDeepStrictEqual(a, b)) return true;
  const show = (v: unknown): string => inspect(v, { depth: Infinity, maxArrayLength: Infinity, maxStringLength: Infinity, breakLength: Infinity });
  return show(a) === show(b);
}

type Outcome = { ok: true; rows: Row[] } | { ok: false };

function outcome(run: () => Row[]): Outcome {
  try {
    return { ok: true, rows: run() };
  } catch (e) {
    if (!isChwireError(e)) throw e;
    return { ok: false };
  }
}

function chunked(push: (c: Uint8Array) => Row[], end: () => void, bytes: Uint8Array, size: number): Row[] {
  const rows: Row[] = [];
  for (let i = 0; i < bytes.length; i += size) rows.push(...push(bytes.subarray(i, i + size)));
  end();
  return rows;
}

/** Every decoding path of the body's format; they must agree. */
function decodeAll(format: Body['format'], bytes: Uint8Array, size: number): Outcome {
  if (format === 'rb') {
    const outs = [
      outcome(() => decodeRowBinary(bytes).rows),
      outcome(() => decodeRowBinaryReference(bytes).rows),
      outcome(() => { const d = createRowBinaryDecoder(); return chunked((c) => d.push(c), () => d.end(), bytes, size); }),
    ];
    for (const o of outs.slice(1)) assert.ok(same(o, outs[0]), `RowBinary paths disagree on ${Buffer.from(bytes).toString('hex')}`);
    return outs[0]!;
  }
  const rows = outcome(() => decodeNative(bytes).rows);
  const stream = outcome(() => { const d = createNativeDecoder(); return chunked((c) => d.push(c), () => d.end(), bytes, size); });
  assert.ok(same(stream, rows), `Native paths disagree on ${Buffer.from(bytes).toString('hex')}`);
  const cols = outcome(() => [decodeNativeColumns(bytes)] as unknown as Row[]);
  if (cols.ok && rows.ok) assert.equal((cols.rows[0] as unknown as { rowCount: number }).rowCount, rows.rows.length);
  return rows;
}

const HUGE = [2 ** 24, 2 ** 28, 2 ** 31, 2 ** 53 - 1];
const KINDS = ['flip', 'truncate', 'insert', 'inflate', 'count'] as const;

function mutate(b: Body, kind: (typeof KINDS)[number], x: number, y: number): { bytes: Uint8Array; mustFail: boolean } {
  const src = b.bytes;
  const at = x % src.length;
  const huge = HUGE[y % HUGE.length]!;
  switch (kind) {
    case 'flip': {
      const m = Uint8Array.from(src);
      for (let k = 0; k <= y % 4; k++) m[(at + k * 7919 * (y + 1)) % m.length]! ^= 1 << ((y >> (k * 3)) & 7);
      return { bytes: m, mustFail: false };
    }
    case 'truncate': return { bytes: src.subarray(0, at), mustFail: false };
    case 'insert': {
      const ins = Array.from({ length: 1 + (y % 4) }, (_, k) => (y >> (k * 8)) & 0xff);
      return { bytes: Uint8Array.from([...src.subarray(0, at), ...ins, ...src.subarray(at)]), mustFail: false };
    }
    case 'inflate': {
      // A huge VarUInt (RowBinary lengths and counts) or UInt64 (Native offsets) over the bytes at a random place.
      const v = b.format === 'rb' ? varUInt(huge) : [...Buffer.from(new BigUint64Array([BigInt(huge)]).buffer)];
      const m = Uint8Array.from(src);
      m.set(v.slice(0, m.length - at), at);
      return { bytes: m, mustFail: false };
    }
    case 'count': {
      // A real count (header column count, first row's count, a Native block's row count) set to 2^24 or 2^28.
      const c = b.countAt[x % b.countAt.length]!;
      const n = y % 2 === 0 ? 2 ** 24 : 2 ** 28;
      return { bytes: Uint8Array.from([...src.subarray(0, c), ...varUInt(n), ...src.subarray(varEnd(src, c))]), mustFail: true };
    }
  }
}

const FUZZ_MS = Number(process.env['FUZZ_MS'] ?? 10_000);

test('fuzz: mutated engine bodies give a typed error or rows every path agrees on, each case bounded in time and memory', (t) => {
  assert.ok(bodies.length >= SCHEMAS.length * 2 + NATIVE_ONLY.length);
  const seen = { cases: 0, errors: 0, rows: 0 };
  const perKind = new Map<string, number>();
  fc.assert(fc.property(
    fc.nat(bodies.length - 1), fc.constantFrom(...KINDS), fc.nat(), fc.nat(), fc.integer({ min: 1, max: 40 }),
    (bi, kind, x, y, size) => {
      const b = bodies[bi]!;
      const { bytes, mustFail } = mutate(b, kind, x, y);
      const heap0 = process.memoryUsage().heapUsed;
      const t0 = performance.now();
      const o = decodeAll(b.format, bytes, size);
      const took = performance.now() - t0;
      const grew = process.memoryUsage().heapUsed - heap0;
      assert.ok(took < 5000, `${kind} case took ${Math.round(took)} ms: ${Buffer.from(bytes).toString('hex')}`);
      assert.ok(grew < 256 * 2 ** 20, `${kind} case grew the heap by ${Math.round(grew / 2 ** 20)} MiB`);
      seen.cases++;
      perKind.set(kind, (perKind.get(kind) ?? 0) + 1);
      if (!o.ok) { seen.errors++; return; }
      seen.rows++;
      assert.ok(!mustFail, `a count set to a huge value gave ${o.rows.length} rows: ${Buffer.from(bytes).toString('hex')}`);
      if (kind === 'truncate') {
        // A cut body is never other rows: at most the unmutated rows up to a row (block) boundary.
        assert.ok(o.rows.length <= b.rows.length && same(o.rows, b.rows.slice(0, o.rows.length)), 'truncation gives a prefix of the rows');
      }
    },
  ), { numRuns: 1_000_000, interruptAfterTimeLimit: FUZZ_MS, markInterruptAsFailure: false });
  t.diagnostic(`${bodies.length} bodies, ${seen.cases} cases (${seen.errors} typed errors, ${seen.rows} results): ${[...perKind].map(([k, n]) => `${k} ${n}`).join(', ')}`);
  assert.ok(seen.cases > 100, `ran ${seen.cases} cases`);
  for (const k of KINDS) assert.ok((perKind.get(k) ?? 0) > 5, `kind ${k} ran ${perKind.get(k) ?? 0} times`);
  assert.ok(seen.errors > 0 && seen.rows > 0, `errors ${seen.errors}, rows ${seen.rows}`);
});

test('fuzz bodies: the unmutated bodies decode the same on every path', () => {
  for (const b of bodies) {
    const o = decodeAll(b.format, b.bytes, 5);
    assert.ok(o.ok && isDeepStrictEqual(o.rows, b.rows));
  }
});
