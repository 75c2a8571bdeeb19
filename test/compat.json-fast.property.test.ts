// The JSON fast path of chwire/compat (src/compat/json-fast/) against the server as the oracle:
// random columns of every type the fast path serves, filled with random values (NaN, ±Inf, -0,
// Float32s, invalid UTF-8, control characters, NUL-padded FixedStrings, zero dates, 64-bit
// extremes, Decimals with trailing zeros …), read with compat's json() of JSONEachRow and compared
// deep-equal with JSON.parse of each line of the server's own JSONEachRow answer to the same
// query, on the 18.16 server (CHWIRE_TEST_HTTP_URL; also with the official client's json()) and on
// the loopback test server answering with the engine's (26.x) bytes. Each case also checks, from
// what the server was asked, that the binary path served it. Then what falls back: settings and
// types outside the fast path, sessions, text() and stream(), each asserted by the formats asked.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createClient as createOfficial, ClickHouseLogLevel } from '@clickhouse/client';
import { createClient as createCompat } from '../src/compat.js';
import { REAL_URL, SKIP_REAL, recordingProxy } from './support/ch-server.js';
import { startTestServer } from './support/test-server.js';

const server = await startTestServer();
const proxy = SKIP_REAL === false ? await recordingProxy(REAL_URL!) : undefined;
after(async () => { await server.close(); await proxy?.close(); });

const OFF = { log: { level: ClickHouseLogLevel.OFF } };

interface Target {
  readonly name: string;
  readonly url: string;
  readonly skip: string | false;
  readonly old: boolean;
  /** The default_format of each request sent since `mark`, for SQL holding `marker`. */
  formats(marker: string): string[];
  mark(): void;
}

let realMark = 0;
let engineMark = 0;
const formatOf = (path: string): string => new URL(path, 'http://x').searchParams.get('default_format') ?? '';
const TARGETS: Target[] = [
  {
    name: '18.16', url: proxy?.url ?? '', skip: SKIP_REAL, old: true,
    // The proxy sees request lines only: every request since the mark (tests run one at a time).
    formats: () => proxy!.requests.slice(realMark).map(formatOf),
    mark: () => { realMark = proxy!.requests.length; },
  },
  {
    name: '26.x test server', url: server.url, skip: false, old: false,
    formats: (marker) => server.requests.slice(engineMark).filter((r) => r.sql.includes(marker)).map((r) => r.params.get('default_format') ?? ''),
    mark: () => { engineMark = server.requests.length; },
  },
];

/** The server's own JSONEachRow answer to `sql`, each line parsed as the official client parses it. */
async function serverJson(url: string, sql: string, settings: Record<string, string> = {}): Promise<unknown[]> {
  const u = new URL(url);
  for (const [k, v] of Object.entries(settings)) u.searchParams.set(k, v);
  const res = await fetch(u, { method: 'POST', body: `${sql} FORMAT JSONEachRow` });
  const bytes = Buffer.from(await res.arrayBuffer());
  assert.equal(res.status, 200, bytes.toString());
  const out: unknown[] = [];
  let from = 0;
  for (let nl = bytes.indexOf(10, from); nl !== -1; nl = bytes.indexOf(10, from)) {
    out.push(JSON.parse(bytes.subarray(from, nl).toString('utf8')));
    from = nl + 1;
  }
  return out;
}

/**
 * A compat client whose fast path is ready: its first query goes as JSON while it probes the
 * server in the background; queries follow until one is served in binary (bounded).
 */
async function primed(t: Target, options: Record<string, unknown> = {}): Promise<ReturnType<typeof createCompat>> {
  const compat = createCompat({ url: t.url, ...OFF, json_fast_path: true, ...options } as never);
  for (let i = 0; i < 100; i++) {
    t.mark();
    await (await compat.query({ query: `/* warm-up */ SELECT ${i} AS warm`, format: 'JSONEachRow' })).json();
    if (t.formats('warm-up').some((f) => f === 'Native' || f === 'RowBinaryWithNamesAndTypes')) return compat;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the fast path never took a query');
}

// ---- random columns: a type and SQL expressions that make values of exactly that type ----

interface Col { readonly type: string; readonly values: fc.Arbitrary<string> }

const q = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, '\\\'')}'`;
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const cast = (expr: string, type: string): string => `CAST(${expr} AS ${type})`;

function floatBits(bytes: number): fc.Arbitrary<string> {
  const special = bytes === 8
    ? ['000000000000F87F', '000000000000F8FF', '000000000000F07F', '000000000000F0FF', '0000000000000080', '0000000000000000', '9A9999999999B93F', '0100000000000000']
    : ['0000C07F', '0000807F', '000080FF', '00000080', 'CDCCCC3D', '01000000', 'FFFF7F7F'];
  return fc.oneof(
    fc.constantFrom(...special),
    fc.uint8Array({ minLength: bytes, maxLength: bytes }).map(hex),
    (bytes === 8 ? fc.double() : fc.float()).map((d) => {
      const b = Buffer.alloc(bytes);
      if (bytes === 8) b.writeDoubleLE(d); else b.writeFloatLE(d);
      return b.toString('hex');
    }),
  ).map((h) => `reinterpretAsFloat${bytes * 8}(unhex('${h}'))`);
}

const bytesArb = fc.oneof(
  fc.uint8Array({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }).map((s) => new Uint8Array(Buffer.from(s, 'utf8'))),
  fc.constantFrom(...['\u0000\u001f"\\/\u007f', '\u2028\u2029', 'é€😀', ''].map((s) => new Uint8Array(Buffer.from(s, 'utf8')))),
);

const int = (type: string, min: bigint, max: bigint): Col => ({ type, values: fc.bigInt(min, max).map((v) => cast(q(String(v)), type)) });
const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
const day = (d: number): string => { const t = new Date(d * 86400000); return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`; };

function decimal(p: number, s: number): Col {
  const type = `Decimal(${p}, ${s})`;
  const lim = 10n ** BigInt(p) - 1n;
  return {
    type,
    values: fc.bigInt(-lim, lim).map((v) => {
      const neg = v < 0n;
      const digits = (neg ? -v : v).toString().padStart(s + 1, '0');
      const text = s === 0 ? digits : `${digits.slice(0, digits.length - s)}.${digits.slice(digits.length - s)}`;
      return cast(q((neg ? '-' : '') + text), type);
    }),
  };
}

/** Scalar columns; `old`: 18.16 has the type (and prints it as the fast path models). */
function scalars(old: boolean): Col[] {
  const cols: Col[] = [
    int('Int8', -128n, 127n), int('UInt8', 0n, 255n), int('Int16', -32768n, 32767n), int('UInt16', 0n, 65535n),
    int('Int32', -(2n ** 31n), 2n ** 31n - 1n), int('UInt32', 0n, 2n ** 32n - 1n),
    int('Int64', -(2n ** 63n), 2n ** 63n - 1n), int('UInt64', 0n, 2n ** 64n - 1n),
    { type: 'Float64', values: floatBits(8) }, { type: 'Float32', values: floatBits(4) },
    { type: 'String', values: bytesArb.map((b) => `unhex('${hex(b)}')`) },
    { type: 'FixedString(4)', values: bytesArb.map((b) => `toFixedString(unhex('${hex(b.subarray(0, 4))}'), 4)`) },
    decimal(9, 3), decimal(18, 0), decimal(18, 6), decimal(38, 10),
    { type: 'Enum8(\'a\' = 1, \'b\\\'x\' = -2)', values: fc.constantFrom('a', 'b\'x').map((l) => cast(q(l), 'Enum8(\'a\' = 1, \'b\\\'x\' = -2)')) },
    { type: 'Enum16(\'\' = 1000, \'z\' = -1000)', values: fc.constantFrom('', 'z').map((l) => cast(q(l), 'Enum16(\'\' = 1000, \'z\' = -1000)')) },
    { type: 'UUID', values: fc.uuid().map((u) => `toUUID('${u}')`) },
  ];
  if (!old) {
    cols.push(
      int('Int128', -(2n ** 127n), 2n ** 127n - 1n), int('UInt256', 0n, 2n ** 256n - 1n),
      { type: 'Date', values: fc.oneof(fc.constantFrom(0, 65535), fc.integer({ min: 0, max: 65535 })).map((d) => `CAST(toUInt16(${d}) AS Date)`) },
      { type: 'Bool', values: fc.boolean().map((b) => cast(b ? 'true' : 'false', 'Bool')) },
      { type: 'Date32', values: fc.integer({ min: -25567, max: 100000 }).map((d) => `toDate32('${day(d)}')`) },
      { type: 'DateTime(\'UTC\')', values: fc.integer({ min: 0, max: 2 ** 32 - 1 }).map((s) => `toDateTime(${s}, 'UTC')`) },
      { type: 'DateTime', values: fc.integer({ min: 0, max: 2 ** 32 - 1 }).map((s) => `toDateTime(${s})`) },
      { type: 'DateTime64(3, \'UTC\')', values: fc.integer({ min: -2208988800000, max: 10413791999999 }).map((ms) => `fromUnixTimestamp64Milli(CAST(${ms} AS Int64), 'UTC')`) },
      { type: 'LowCardinality(String)', values: bytesArb.map((b) => `toLowCardinality(unhex('${hex(b)}'))`) },
      decimal(76, 20),
    );
  }
  return cols;
}

/** A column: a scalar, Nullable, Array (of Nullable), Array(Array) …. */
function columnArb(old: boolean): fc.Arbitrary<Col> {
  const base = fc.constantFrom(...scalars(old));
  const inArray = base;
  const nullable = (c: Col): Col => ({ type: `Nullable(${c.type})`, values: fc.oneof(fc.constant(cast('NULL', `Nullable(${c.type})`)), c.values.map((v) => cast(v, `Nullable(${c.type})`))) });
  // 18.16 cannot CAST an empty [] to Array(Array(T)).
  const array = (c: Col): Col => ({ type: `Array(${c.type})`, values: fc.array(c.values, { minLength: old && c.type.startsWith('Array') ? 1 : 0, maxLength: 3 }).map((vs) => cast(`[${vs.join(', ')}]`, `Array(${c.type})`)) });
  // Nullable(Enum) goes as JSON on 18.16 (plan.ts): its own test below.
  const nullableOk = (c: Col): boolean => !c.type.startsWith('LowCardinality') && !(old && c.type.startsWith('Enum'));
  return fc.oneof(
    { weight: 4, arbitrary: base },
    { weight: 2, arbitrary: base.filter(nullableOk).map(nullable) },
    { weight: 2, arbitrary: inArray.map(array) },
    { weight: 1, arbitrary: inArray.filter(nullableOk).map((c) => array(nullable(c))) },
    { weight: 1, arbitrary: inArray.map((c) => array(array(c))) },
  );
}

/** A SELECT of `rows` rows of random values of random columns, ordered by a row number. */
function tableArb(old: boolean): fc.Arbitrary<string> {
  return fc.array(columnArb(old), { minLength: 1, maxLength: 4 }).chain((cols) => fc.tuple(fc.array(fc.tuple(...cols.map((c) => c.values)), { minLength: 1, maxLength: 4 }), fc.boolean()).map(([rows, empty]) => {
    const names = cols.map((_, i) => (i === 1 ? '`n.a`' : `c${i}`));
    if (empty) rows = rows.slice(0, 1);
    const selects = rows.map((r, n) => `SELECT toUInt32(${n}) AS rn, ${r.map((v, i) => `${v} AS ${names[i]}`).join(', ')}`);
    return `SELECT ${names.join(', ')} FROM (${selects.join(' UNION ALL ')}) ORDER BY rn${empty ? ' LIMIT 0' : ''}`;
  }));
}

for (const t of TARGETS) {
  test(`${t.name}: json() of JSONEachRow through the fast path is JSON.parse of the server's JSON, for random columns and values`, { skip: t.skip }, async () => {
    const compat = await primed(t);
    const official = t.old ? createOfficial({ url: t.url, ...OFF }) : undefined;
    try {
      let n = 0;
      await fc.assert(fc.asyncProperty(tableArb(t.old), async (sql) => {
        const marker = `/* case ${n++} */`;
        const query = `${marker} ${sql}`;
        const expected = await serverJson(t.url, query);
        t.mark();
        const got = await (await compat.query({ query, format: 'JSONEachRow' })).json();
        assert.deepStrictEqual(got, expected, query);
        // Served by the binary path: the query went once, in Native (18.16) or RowBinaryWithNamesAndTypes.
        assert.deepStrictEqual(t.formats(marker).slice(-1), [t.old ? 'Native' : 'RowBinaryWithNamesAndTypes'], query);
        if (official !== undefined) assert.deepStrictEqual(got, await (await official.query({ query, format: 'JSONEachRow' })).json(), query);
      }), { numRuns: 60 });
    } finally {
      await compat.close();
      await official?.close();
    }
  });

  test(`${t.name}: a result of many chunks (and Native blocks) through the fast path`, { skip: t.skip }, async () => {
    const compat = await primed(t);
    try {
      const query = '/* many */ SELECT number AS n, toString(number) AS s, number / 3 AS f, toFloat32(number / 7) AS g FROM system.numbers LIMIT 70000';
      const expected = await serverJson(t.url, query);
      t.mark();
      assert.deepStrictEqual(await (await compat.query({ query, format: 'JSONEachRow' })).json(), expected);
      assert.deepStrictEqual(t.formats('/* many */').slice(-1), [t.old ? 'Native' : 'RowBinaryWithNamesAndTypes']);
    } finally {
      await compat.close();
    }
  });

  test(`${t.name}: 64-bit integers as numbers (output_format_json_quote_64bit_integers = 0), and Decimals with trailing zeros, through the fast path`, { skip: t.skip }, async () => {
    const compat = await primed(t, { clickhouse_settings: { output_format_json_quote_64bit_integers: 0 } });
    try {
      const query = '/* q64 */ SELECT toUInt64(\'18446744073709551615\') AS a, toInt64(\'-9007199254740993\') AS b, CAST(\'1.500\' AS Decimal(9, 3)) AS d, [toUInt64(3)] AS e';
      const expected = await serverJson(t.url, query, { output_format_json_quote_64bit_integers: '0' });
      t.mark();
      assert.deepStrictEqual(await (await compat.query({ query, format: 'JSONEachRow' })).json(), expected);
      assert.deepStrictEqual(t.formats('/* q64 */').slice(-1), [t.old ? 'Native' : 'RowBinaryWithNamesAndTypes']);
    } finally {
      await compat.close();
    }
  });

  test(`${t.name}: a setting outside the fast path, a session, a custom JSON.parse and json_fast_path: false send the query as JSON`, { skip: t.skip }, async () => {
    const query = '/* fallback-settings */ SELECT nan AS a, toUInt64(1) AS b';
    const cases: [string, Record<string, unknown>, Record<string, unknown>, Record<string, string>][] = [
      ['quote_denormals', {}, { clickhouse_settings: { output_format_json_quote_denormals: 1 } }, { output_format_json_quote_denormals: '1' }],
      ['an unmodelled output_format setting', {}, { clickhouse_settings: { output_format_json_quote_64bit_floats: 1 } }, {}],
      ['session (call)', {}, { session_id: `jsonfast_${process.pid}` }, {}],
      ['session (client)', { session_id: `jsonfast_c_${process.pid}` }, {}, {}],
      ['custom parse', { json: { parse: (s: string) => JSON.parse(s) } }, {}, {}],
      ['switched off', { json_fast_path: false }, {}, {}],
      ['not opted in (the default)', { json_fast_path: undefined }, {}, {}],
    ];
    for (const [what, clientOptions, callOptions, settings] of cases) {
      // Primed where the client's own options allow the fast path: then only the call's option keeps it off.
      // Otherwise queries for a while first (time for a probe to answer, had one been sent): still none goes in binary.
      const compat = Object.keys(clientOptions).length === 0 ? await primed(t) : createCompat({ url: t.url, ...OFF, json_fast_path: true, ...clientOptions } as never);
      if (Object.keys(clientOptions).length > 0) {
        t.mark();
        for (let i = 0; i < 40; i++) {
          await (await compat.query({ query: `/* fallback-settings warm-up */ SELECT ${i} AS warm`, format: 'JSONEachRow' })).json();
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      try {
        if (what === 'an unmodelled output_format setting' && t.old) continue; // 18.16 has no such setting
        const expected = await serverJson(t.url, query, settings);
        if (Object.keys(clientOptions).length === 0) t.mark();
        assert.deepStrictEqual(await (await compat.query({ query, format: 'JSONEachRow', ...callOptions })).json(), expected, what);
        // No binary request at all.
        assert.deepStrictEqual(t.formats('fallback-settings').filter((f) => f === 'Native' || f === 'RowBinaryWithNamesAndTypes'), [], what);
        assert.ok(t.formats('fallback-settings').includes('JSONEachRow'), what);
      } finally {
        await compat.close();
      }
    }
  });

  test(`${t.name}: a column type outside the fast path: the query is sent again as JSON (once per SQL text), the values JSON.parse's`, { skip: t.skip }, async () => {
    const compat = await primed(t);
    try {
      // 18.16: a top-level DateTime (its Native header drops the zone); 26.x: a Tuple and an IPv4.
      const query = t.old ? '/* fallback-type */ SELECT toDateTime(0, \'Asia/Tokyo\') AS a, toDateTime(86400) AS b'
        : '/* fallback-type */ SELECT tuple(1, \'a\') AS a, toIPv4(\'1.2.3.4\') AS b, toDateTime(0, \'Asia/Tokyo\') AS c';
      const expected = await serverJson(t.url, query);
      t.mark();
      assert.deepStrictEqual(await (await compat.query({ query, format: 'JSONEachRow', query_id: `jsonfast-${process.pid}-${Date.now()}` })).json(), expected);
      const bin = t.old ? 'Native' : 'RowBinaryWithNamesAndTypes';
      assert.deepStrictEqual(t.formats('fallback-type').filter((f) => f === bin || f === 'JSONEachRow').slice(-2), [bin, 'JSONEachRow']);
      t.mark();
      assert.deepStrictEqual(await (await compat.query({ query, format: 'JSONEachRow' })).json(), expected);
      assert.deepStrictEqual(t.formats('fallback-type').filter((f) => f === bin || f === 'JSONEachRow'), ['JSONEachRow']);
    } finally {
      await compat.close();
    }
  });

  test(`${t.name}: a re-send under the same query id waits out the binary request's query, still running on the server`, { skip: t.skip }, async () => {
    const compat = await primed(t);
    try {
      // Big enough that the server is still writing the binary answer when it is dropped: the
      // re-send meets QUERY_WITH_SAME_ID_IS_ALREADY_RUNNING (216) until that query has ended.
      const pad = 'x'.repeat(120);
      const query = t.old ? `/* fallback-long */ SELECT number AS n, toDateTime(number) AS d, concat(toString(number), '${pad}') AS s FROM system.numbers LIMIT 400000`
        : `/* fallback-long */ SELECT number AS n, toIPv4(toUInt32(number)) AS d, concat(toString(number), '${pad}') AS s FROM system.numbers LIMIT 400000`;
      const got = await (await compat.query({ query, format: 'JSONEachRow', query_id: `jsonfast-long-${process.pid}-${Date.now()}` })).json();
      const expected = await serverJson(t.url, query);
      assert.equal(got.length, 400000);
      assert.deepStrictEqual(got, expected);
    } finally {
      await compat.close();
    }
  });

  test(`${t.name}: text() and stream() of a fast query are the server's own JSON bytes and lines`, { skip: t.skip }, async () => {
    const compat = await primed(t);
    const official = createOfficial({ url: t.url, ...OFF });
    try {
      for (const [i, read] of ['text', 'stream'].entries()) {
        const query = `/* fallback-read-${i} */ SELECT number AS n, toString(number) AS s, toFloat32(number / 10) AS f FROM system.numbers LIMIT 5`;
        const get = async (c: typeof compat): Promise<unknown> => {
          const rs = await c.query({ query, format: 'JSONEachRow' });
          if (read === 'text') return rs.text();
          const lines: unknown[] = [];
          for await (const rows of rs.stream()) for (const r of rows as { text: string; json(): unknown }[]) lines.push([r.text, r.json()]);
          return lines;
        };
        t.mark();
        assert.deepStrictEqual(await get(compat), await get(official as never), read);
        const bin = t.old ? 'Native' : 'RowBinaryWithNamesAndTypes';
        // Sent in binary, then once more as JSON (the probe, when made, comes before).
        const sent = t.formats(`fallback-read-${i}`);
        assert.equal(sent[sent.indexOf(bin) + 1], 'JSONEachRow', `${read}: ${sent.join(', ')}`);
      }
    } finally {
      await compat.close();
      await official.close();
    }
  });
}
