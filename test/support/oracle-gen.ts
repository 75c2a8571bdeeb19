// fast-check generators of random ClickHouse schemas and values as SQL, for the engine-oracle
// property test (test/engine.property.test.ts).
//
// Invariant: every generated value expression is self-typed (`CAST(raw AS T)` at every level), so
// rows can be glued with UNION ALL and nested values never depend on literal type inference. The
// values only need to be valid SQL: the expected side is always the engine's own JSON output, so a
// literal the engine rounds (BFloat16, DateTime64 from a decimal) is still an exact test. Empty
// arrays and maps are cast from their text form ('[]', '{}'): `[]`/`map()` are Array(Nothing) /
// Map(Nothing, Nothing), which the engine refuses to cast to Array(Dynamic) / Map(K, Dynamic).
import fc from 'fast-check';

export interface GenType {
  /** The type as SQL text (the engine canonicalises it; the header is what the oracle reads). */
  readonly sql: string;
  /** SQL expressions of values of this type. */
  readonly value: fc.Arbitrary<string>;
  /** Whether Nullable(T) is allowed around it. */
  readonly nullable: boolean;
}

const sq = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const typed = (sql: string, raw: fc.Arbitrary<string>, nullable = true): GenType =>
  ({ sql, value: raw.map((r) => `CAST(${r} AS ${sql})`), nullable });

function intType(kind: string): GenType {
  const bits = BigInt(/\d+/.exec(kind)![0]);
  const [min, max] = kind.startsWith('U') ? [0n, 2n ** bits - 1n] : [-(2n ** (bits - 1n)), 2n ** (bits - 1n) - 1n];
  const extremes = fc.constantFrom(min, max, 0n, min + 1n, max - 1n);
  return typed(kind, fc.oneof(extremes, fc.bigInt({ min, max })).map((v) => sq(v.toString())));
}

const ZONES = ['UTC', 'Asia/Kolkata', 'America/New_York', 'Europe/Moscow'];
/** Zones without DST since 1970: inside Variant/Dynamic below the top level the oracle only has the
 * zone's text, which is ambiguous in an autumn fold (see oracle-time.ts). */
const FOLD_FREE_ZONES = ['UTC', 'Asia/Kolkata'];
const LABELS = ['a', 'it\'s', 'back\\slash', '', '__proto__', '${x}', '*/', 'hé', 'new\nline'];

const floatText = (v: number): string => Number.isNaN(v) ? 'nan' : v === Infinity ? 'inf' : v === -Infinity ? '-inf' : Object.is(v, -0) ? '-0' : String(v);

function decimalType(): fc.Arbitrary<GenType> {
  return fc.integer({ min: 1, max: 76 }).chain((p) => fc.integer({ min: 0, max: p }).map((s) => {
    const lim = 10n ** BigInt(p) - 1n;
    const raw = fc.oneof(fc.constantFrom(lim, -lim, 0n, 1n, -1n), fc.bigInt({ min: -lim, max: lim })).map((u) => {
      const neg = u < 0n;
      const digits = (neg ? -u : u).toString().padStart(s + 1, '0');
      return sq(`${neg ? '-' : ''}${s === 0 ? digits : `${digits.slice(0, -s)}.${digits.slice(-s)}`}`);
    });
    return typed(`Decimal(${p}, ${s})`, raw);
  }));
}

/** Geo values as nested arrays of points; `depth` = how many Array levels above Point. */
function geoType(kind: string): GenType {
  const depth = kind === 'Point' ? 0 : kind === 'Ring' || kind === 'LineString' ? 1 : kind === 'MultiPolygon' ? 3 : 2;
  const point = fc.tuple(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.double({ noNaN: true, noDefaultInfinity: true }))
    .map(([x, y]) => `(${floatText(x)}, ${floatText(y)})`);
  let v: fc.Arbitrary<string> = point;
  for (let i = 0; i < depth; i++) v = fc.array(v, { maxLength: 3 }).map((xs) => `[${xs.join(', ')}]`);
  // From text: array literals of points with mixed/empty parts get dimension or supertype errors.
  return { sql: kind, value: v.map((x) => `CAST('${x}' AS ${kind})`), nullable: false };
}

function uuidText(b: Uint8Array): string {
  const h = hex(b);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const dayText = (days: number): string => new Date(days * 86400000).toISOString().slice(0, 10);

/** Scalar types (no composite inside). */
export function scalarType(zones: readonly string[] = ZONES): fc.Arbitrary<GenType> {
  const bytes = fc.oneof(fc.uint8Array({ maxLength: 12 }), fc.string({ unit: 'grapheme', maxLength: 8 }).map((s) => new TextEncoder().encode(s)));
  return fc.oneof(
    fc.constantFrom('UInt8', 'UInt16', 'UInt32', 'UInt64', 'UInt128', 'UInt256', 'Int8', 'Int16', 'Int32', 'Int64', 'Int128', 'Int256').map(intType),
    fc.constant(typed('Float64', fc.double().map((v) => sq(floatText(v))))),
    fc.constant(typed('Float32', fc.float().map((v) => sq(floatText(v))))),
    fc.constant(typed('BFloat16', fc.float({ noNaN: true }).map((v) => sq(floatText(v))))),
    fc.constant(typed('Bool', fc.boolean().map(String))),
    fc.constant(typed('String', bytes.map((b) => `unhex('${hex(b)}')`))),
    fc.integer({ min: 1, max: 6 }).map((n) => typed(`FixedString(${n})`, fc.uint8Array({ maxLength: n }).map((b) => `unhex('${hex(b)}')`))),
    decimalType(),
    fc.constant(typed('Date', fc.integer({ min: 0, max: 65535 }).map((d) => sq(dayText(d))))),
    fc.constant(typed('Date32', fc.integer({ min: -25567, max: 120529 }).map((d) => sq(dayText(d))))),
    fc.constantFrom(...zones).map((z) => typed(`DateTime(${sq(z)})`, fc.integer({ min: 0, max: 2 ** 32 - 1 }).map(String))),
    fc.tuple(fc.integer({ min: 0, max: 9 }), fc.constantFrom(...zones)).map(([p, z]) => {
      // 1900-01-01 .. 2262-04-11 (the Int64 nanosecond range bounds P = 9).
      const raw = fc.tuple(fc.integer({ min: -2208988800, max: 9223372035 }), fc.integer({ min: 0, max: 999999999 }))
        .map(([s, f]) => `toDecimal128(${sq(`${s}.${String(f).padStart(9, '0')}`)}, 9)`);
      return typed(`DateTime64(${p}, ${sq(z)})`, raw);
    }),
    fc.constant(typed('Time', fc.integer({ min: -3599999, max: 3599999 }).map(String))),
    fc.integer({ min: 0, max: 9 }).map((p) => typed(`Time64(${p})`, fc.tuple(fc.integer({ min: -3599999, max: 3599999 }), fc.integer({ min: 0, max: 999999999 }))
      .map(([s, f]) => `toDecimal64(${sq(`${s}.${String(f).padStart(9, '0')}`)}, 9)`))),
    fc.constant(typed('UUID', fc.uint8Array({ minLength: 16, maxLength: 16 }).map((b) => `toUUID('${uuidText(b)}')`))),
    fc.constant(typed('IPv4', fc.integer({ min: 0, max: 2 ** 32 - 1 }).map((v) => `toIPv4(${v})`))),
    fc.constant(typed('IPv6', fc.uint8Array({ minLength: 16, maxLength: 16 }).map((b) => `toIPv6(IPv6NumToString(toFixedString(unhex('${hex(b)}'), 16)))`))),
    fc.constantFrom('Nanosecond', 'Second', 'Day', 'Month', 'Year').map((u) => typed(`Interval${u}`, fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((v) => `toInterval${u}(${sq(v.toString())})`), false)),
    fc.constantFrom('Point', 'Ring', 'LineString', 'Polygon', 'MultiLineString', 'MultiPolygon').map(geoType),
    fc.subarray(LABELS, { minLength: 1 }).map((labels) => {
      const sql = `Enum16(${labels.map((l, i) => `${sq(l)} = ${i * 4000 - 32768}`).join(', ')})`;
      return typed(sql, fc.constantFrom(...labels).map(sq));
    }),
    fc.subarray(LABELS, { minLength: 1 }).map((labels) => {
      const sql = `Enum8(${labels.map((l, i) => `${sq(l)} = ${i * 31 - 128}`).join(', ')})`;
      return typed(sql, fc.constantFrom(...labels).map(sq));
    }),
  );
}

function nullableOf(inner: GenType): GenType {
  const sql = `Nullable(${inner.sql})`;
  return { sql, value: fc.oneof(fc.constant('NULL'), inner.value).map((v) => `CAST(${v} AS ${sql})`), nullable: false };
}

const KEY_TYPES: GenType[] = [
  typed('String', fc.string({ maxLength: 5 }).map(sq)),
  typed('LowCardinality(String)', fc.constantFrom('a', 'b', '__proto__', '').map(sq)),
  intType('UInt64'), intType('Int32'), intType('Int128'),
  typed('Date', fc.integer({ min: 0, max: 65535 }).map((d) => sq(dayText(d)))),
  typed('DateTime(\'UTC\')', fc.integer({ min: 0, max: 2 ** 32 - 1 }).map(String)),
  typed('UUID', fc.uint8Array({ minLength: 16, maxLength: 16 }).map((b) => `toUUID('${uuidText(b)}')`)),
  typed('FixedString(2)', fc.uint8Array({ maxLength: 2 }).map((b) => `unhex('${hex(b)}')`)),
  // Composite keys: texts with quoted strings inside (issue 10, item 9).
  typed('Array(String)', fc.array(fc.constantFrom('a', 'a,b', "'", '\\', ''), { maxLength: 2 }).map((a) => `CAST([${a.map(sq).join(', ')}] AS Array(String))`)),
  typed('Tuple(String, Float64)', fc.tuple(fc.constantFrom('a', 'a,b', ''), fc.double()).map(([a, x]) => `CAST((${sq(a)}, ${sq(floatText(x))}) AS Tuple(String, Float64))`)),
  typed('Float32', fc.float().map((v) => sq(floatText(v)))),
];

/** Scalars without Interval* and with fold-free zones: the engine rejects intervals in Variant next to numbers and fails
 * UNION ALL of Dynamic columns holding intervals ("Type mismatch in IN or VALUES section"). */
const nonInterval = (): fc.Arbitrary<GenType> => scalarType(FOLD_FREE_ZONES).filter((t) => !t.sql.startsWith('Interval'));

/** Variant of 2–3 scalar members with distinct canonical names (the engine sorts them). */
function variantType(): fc.Arbitrary<GenType> {
  return fc.uniqueArray(nonInterval(), { minLength: 2, maxLength: 3, selector: (t) => t.sql.replace(/\(.*$/, '') })
    .map((members) => {
      const sql = `Variant(${members.map((m) => m.sql).join(', ')})`;
      return { sql, value: fc.oneof(fc.constant('NULL'), ...members.map((m) => m.value)).map((v) => `CAST(${v} AS ${sql})`), nullable: false };
    });
}

/** JSON objects of scalar and number-array leaves under a few (dotted) paths, optionally typed. */
function jsonType(): fc.Arbitrary<GenType> {
  const leaf = fc.oneof(
    // Doubles bounded: JSON.stringify prints 1e18..1e21 as integer digits the engine cannot parse.
    fc.integer(), fc.double({ min: -1e15, max: 1e15, noNaN: true }), fc.boolean(), fc.constant(null),
    fc.string({ maxLength: 6 }), fc.array(fc.integer(), { maxLength: 3 }), fc.constantFrom('2024-01-02', '18446744073709551615'),
  );
  const obj = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'n'), fc.oneof(leaf, fc.dictionary(fc.constantFrom('x', 'y'), leaf)), { maxKeys: 4 });
  // The typed path `t` is never in the generated text: it is always present, as NULL.
  return fc.constantFrom('JSON', 'JSON(t Nullable(Int64))', 'JSON(max_dynamic_paths = 1)', 'JSON(SKIP b)').map((sql) => ({
    sql,
    value: obj.map((o) => `CAST(${sq(JSON.stringify(o).replace('"18446744073709551615"', '18446744073709551615'))} AS ${sql})`),
    nullable: false,
  }));
}

/** Any type, composites nested at most `depth` levels. */
export function anyType(depth: number): fc.Arbitrary<GenType> {
  const scalar = fc.oneof(
    { weight: 4, arbitrary: scalarType() },
    { weight: 1, arbitrary: scalarType().filter((t) => t.nullable).map(nullableOf) },
    { weight: 1, arbitrary: fc.constantFrom('String', 'Nullable(String)').map((s) => typed(`LowCardinality(${s})`, fc.oneof(fc.constant('NULL'), fc.string({ maxLength: 4 }).map(sq)).filter((v) => s.startsWith('N') || v !== 'NULL'), false)) },
  );
  if (depth === 0) return scalar;
  const inner = anyType(depth - 1);
  return fc.oneof(
    { weight: 3, arbitrary: scalar },
    {
      weight: 1, arbitrary: inner.map((e) => {
        const sql = `Array(${e.sql})`;
        return { sql, value: fc.array(e.value, { maxLength: 3 }).map((vs) => `CAST(${vs.length === 0 ? "'[]'" : `[${vs.join(', ')}]`} AS ${sql})`), nullable: false };
      }),
    },
    {
      weight: 1, arbitrary: fc.tuple(fc.array(inner, { minLength: 1, maxLength: 3 }), fc.boolean()).map(([es, named]) => {
        const names = ['a', '`b c`', '`__proto__`'];
        const sql = `Tuple(${es.map((e, i) => (named ? `${names[i]} ${e.sql}` : e.sql)).join(', ')})`;
        return { sql, value: fc.tuple(...es.map((e) => e.value)).map((vs) => `CAST(tuple(${vs.join(', ')}) AS ${sql})`), nullable: false };
      }),
    },
    {
      weight: 1, arbitrary: fc.tuple(fc.constantFrom(...KEY_TYPES), inner).map(([k, v]) => {
        const sql = `Map(${k.sql}, ${v.sql})`;
        const entries = fc.uniqueArray(fc.tuple(k.value, v.value), { maxLength: 3, selector: (e) => e[0] });
        return { sql, value: entries.map((es) => `CAST(${es.length === 0 ? `mapFromArrays(CAST('[]' AS Array(${k.sql})), CAST('[]' AS Array(${v.sql})))` : `map(${es.flat().join(', ')})`} AS ${sql})`), nullable: false };
      }),
    },
    { weight: 1, arbitrary: variantType() },
    { weight: 1, arbitrary: jsonType() },
    {
      weight: 1, arbitrary: fc.constant<GenType>({
        sql: 'Dynamic',
        value: fc.oneof(fc.constant('NULL'), nonInterval().chain((t) => t.value)).map((v) => `CAST(${v} AS Dynamic)`),
        nullable: false,
      }),
    },
  );
}

export interface GenQuery { readonly sql: string; readonly columns: number; readonly rows: number; readonly settings: Record<string, number> }

/** Column names: plain, and hostile ones the generated decoder must keep as own, inert keys. */
const NAMES = ['c', '__proto__', 'constructor', 'a"b', 'x`y', '${z}', '*/', '1', 'hé', 'toString'];

/** A SELECT of 1–5 random columns over 1–5 rows, in a fixed order. */
export function queryArb(depth = 2): fc.Arbitrary<GenQuery> {
  return fc.tuple(fc.array(anyType(depth), { minLength: 1, maxLength: 5 }), fc.uniqueArray(fc.constantFrom(...NAMES), { minLength: 5, maxLength: 5 }))
    .chain(([types, names]) => fc.array(fc.tuple(...types.map((t) => t.value)), { minLength: 1, maxLength: 5 }).map((rows) => {
      const col = (i: number): string => `\`${`${names[i]}${i}`.replace(/\\/g, '\\\\').replace(/`/g, '\\`')}\``;
      const selects = rows.map((vals, r) => `SELECT ${r} AS rn, ${vals.map((v, i) => `${v} AS ${col(i)}`).join(', ')}`);
      const sql = `SELECT ${types.map((_, i) => col(i)).join(', ')} FROM (${selects.join(' UNION ALL ')}) ORDER BY rn`;
      return { sql, columns: types.length, rows: rows.length, settings: { allow_suspicious_variant_types: 1, allow_suspicious_low_cardinality_types: 1 } };
    }));
}
