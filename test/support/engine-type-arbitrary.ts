// fast-check arbitraries of type ASTs the 26.7 engine accepts AND prints back unchanged.
//
// Invariant: for every generated t, the engine's canonical name of printType(t) is printType(t)
// itself: enum entries come sorted by value, Variant members by their name's bytes, JSON typed
// and SKIP paths by bytes (the engine sorts all of these), no server defaults, unique names,
// Nullable only around the scalars that allow it, LowCardinality only around what it allows.
// Hostile strings still appear where the engine takes any text: enum labels, tuple names.
import fc from 'fast-check';
import {
  GEO_KINDS, INT_KINDS, INTERVAL_UNITS, printType,
  type EnumEntry, type JsonTypedPath, type TypeNode,
} from '../../src/types/index.js';
import { hostileString } from './type-arbitrary.js';

const utf8 = new TextEncoder();
/** Byte order of the UTF-8 forms, the order std::string comparison gives on the server. */
export function byteOrder(a: string, b: string): number {
  const x = utf8.encode(a);
  const y = utf8.encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

const ZONES = ['UTC', 'Asia/Kolkata', 'America/New_York', 'Etc/GMT+3', 'Europe/Moscow'];

function enumArb(kind: 'Enum8' | 'Enum16', min: number, max: number): fc.Arbitrary<TypeNode> {
  return fc.uniqueArray(fc.tuple(hostileString, fc.integer({ min, max })), { minLength: 1, maxLength: 4, selector: ([label]) => label })
    .filter((pairs) => new Set(pairs.map(([, v]) => v)).size === pairs.length)
    .map((pairs): TypeNode => ({
      kind,
      entries: pairs.sort((a, b) => a[1] - b[1]).map(([label, value]): EnumEntry => ({ label, value })),
    }));
}

/** Scalars that may be wrapped in Nullable. */
const nullableScalar: fc.Arbitrary<TypeNode> = fc.oneof(
  fc.constantFrom(...INT_KINDS, 'Float32', 'Float64', 'BFloat16', 'Bool', 'String', 'UUID', 'IPv4', 'IPv6', 'Date', 'Date32', 'Time')
    .map((kind) => ({ kind }) as TypeNode),
  fc.integer({ min: 1, max: 76 }).chain((precision) =>
    fc.integer({ min: 0, max: precision }).map((scale): TypeNode => ({ kind: 'Decimal', precision, scale }))),
  fc.integer({ min: 1, max: 256 }).map((length): TypeNode => ({ kind: 'FixedString', length })),
  fc.option(fc.constantFrom(...ZONES), { nil: undefined })
    .map((timezone): TypeNode => (timezone === undefined ? { kind: 'DateTime' } : { kind: 'DateTime', timezone })),
  fc.tuple(fc.integer({ min: 0, max: 9 }), fc.option(fc.constantFrom(...ZONES), { nil: undefined }))
    .map(([precision, timezone]): TypeNode => (timezone === undefined ? { kind: 'DateTime64', precision } : { kind: 'DateTime64', precision, timezone })),
  fc.integer({ min: 0, max: 9 }).map((precision): TypeNode => ({ kind: 'Time64', precision })),
  enumArb('Enum8', -128, 127),
  enumArb('Enum16', -32768, 32767),
);

const scalar: fc.Arbitrary<TypeNode> = fc.oneof(
  { weight: 4, arbitrary: nullableScalar },
  nullableScalar.map((inner): TypeNode => ({ kind: 'Nullable', inner })),
  fc.constantFrom(...GEO_KINDS).map((kind) => ({ kind }) as TypeNode),
  fc.constantFrom(...INTERVAL_UNITS).map((unit): TypeNode => ({ kind: 'Interval', unit })),
  fc.constantFrom<TypeNode>(
    { kind: 'LowCardinality', inner: { kind: 'String' } },
    { kind: 'LowCardinality', inner: { kind: 'Nullable', inner: { kind: 'String' } } },
    { kind: 'LowCardinality', inner: { kind: 'FixedString', length: 2 } },
    { kind: 'LowCardinality', inner: { kind: 'UInt32' } },
  ),
  fc.option(fc.integer({ min: 0, max: 254 }).filter((n) => n !== 32), { nil: undefined })
    .map((maxTypes): TypeNode => (maxTypes === undefined ? { kind: 'Dynamic' } : { kind: 'Dynamic', maxTypes })),
  jsonArb(),
);

function sortedUnique(xs: string[]): string[] {
  return [...new Set(xs)].sort(byteOrder);
}

function jsonArb(): fc.Arbitrary<TypeNode> {
  // Typed paths and SKIP paths from disjoint pools: a typed path under a SKIP prefix is an error.
  const typedPath = fc.constantFrom('a', 'b.c', 'id', 'x y', 'select', 'SKIP', 'é.z', 'max_dynamic_paths');
  const skipPath = fc.constantFrom('skip_me', 'tmp.x', 'q r');
  return fc.record({
    maxDynamicPaths: fc.option(fc.integer({ min: 0, max: 10_000 }).filter((n) => n !== 1024), { nil: undefined }),
    maxDynamicTypes: fc.option(fc.integer({ min: 0, max: 254 }).filter((n) => n !== 32), { nil: undefined }),
    // BFloat16 typed paths: the 26.7 engine refuses to write them ("JSON serialization doesn't
    // support the return type schema: BFloat16").
    typed: fc.uniqueArray(fc.tuple(typedPath, nullableScalar.filter((t) => t.kind !== 'BFloat16')), { maxLength: 3, selector: ([p]) => p }),
    skips: fc.array(skipPath, { maxLength: 2 }),
    regexps: fc.array(fc.constantFrom('^tmp_', 'x\\.y', "it's"), { maxLength: 2 }),
  }).map(({ maxDynamicPaths, maxDynamicTypes, typed, skips, regexps }): TypeNode => {
    const typedPaths = typed.sort((a, b) => byteOrder(a[0], b[0])).map(([path, type]): JsonTypedPath => ({ path, type }));
    const t: { kind: 'JSON'; maxDynamicPaths?: number; maxDynamicTypes?: number; typedPaths: JsonTypedPath[]; skipPaths: string[]; skipRegexps: string[] } =
      { kind: 'JSON', typedPaths, skipPaths: sortedUnique(skips), skipRegexps: sortedUnique(regexps) };
    if (maxDynamicPaths !== undefined) t.maxDynamicPaths = maxDynamicPaths;
    if (maxDynamicTypes !== undefined) t.maxDynamicTypes = maxDynamicTypes;
    return t;
  });
}

/** Tuple element names the engine accepts: not empty, not `null`, unique. */
const tupleName = fc.oneof(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,5}$/), hostileString)
  .filter((n) => n !== '' && n !== 'null');

const MAP_KEYS: readonly TypeNode[] = [
  { kind: 'String' }, { kind: 'UInt64' }, { kind: 'Int32' }, { kind: 'Date' }, { kind: 'UUID' },
  { kind: 'LowCardinality', inner: { kind: 'String' } }, { kind: 'FixedString', length: 3 },
];

/** An engine-valid, engine-canonical TypeNode nested at most `depth` levels. */
export function engineTypeArbitrary(depth: number): fc.Arbitrary<TypeNode> {
  if (depth <= 0) return scalar;
  const inner = engineTypeArbitrary(depth - 1);
  return fc.oneof(
    { weight: 3, arbitrary: scalar },
    inner.map((element): TypeNode => ({ kind: 'Array', element })),
    fc.array(inner, { maxLength: 3 }).map((elements): TypeNode => ({ kind: 'Tuple', elements })),
    fc.uniqueArray(fc.tuple(tupleName, inner), { minLength: 1, maxLength: 3, selector: ([n]) => n })
      .map((ps): TypeNode => ({ kind: 'Tuple', elements: ps.map((p) => p[1]), names: ps.map((p) => p[0]) })),
    fc.tuple(fc.constantFrom(...MAP_KEYS), inner).map(([key, value]): TypeNode => ({ kind: 'Map', key, value })),
    // Variant members: no Nullable, Dynamic, JSON or Variant, unique, sorted by name.
    fc.uniqueArray(nullableScalar, { minLength: 1, maxLength: 3, selector: printType })
      .map((ms): TypeNode => ({ kind: 'Variant', members: ms.sort((a, b) => byteOrder(printType(a), printType(b))) })),
  );
}

/** Settings that let the engine create every type the arbitrary makes. */
export const PERMISSIVE_TYPE_SETTINGS: Record<string, number> = {
  allow_suspicious_variant_types: 1,
  allow_suspicious_low_cardinality_types: 1,
  allow_suspicious_fixed_string_types: 1,
  print_pretty_type_names: 0,
};
