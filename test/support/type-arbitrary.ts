// fast-check arbitraries of type ASTs for the type-layer property tests.
//
// Invariant: every generated TypeNode is normalised (what parseType would return): no server
// defaults kept (Dynamic max_types 32, JSON 1024/32), names only on non-empty tuples and unique,
// unique enum labels and values in range, Variant members sorted by name and unique, aggregate-function text in the server's spelling. Strings (labels,
// names, zones, paths, regexps) are hostile: quotes, backslashes, back-quotes, C escapes, NUL,
// separators, keywords, non-BMP characters (never lone surrogates: they have no UTF-8 form).
// Objects have Object.prototype (fc.record's are null-prototype; deepStrictEqual would see it).
// Not engine-valid in general (an engine would refuse `Nullable(Array(...))`): these test the
// text and binary codecs, not the server.
import fc from 'fast-check';
import {
  GEO_KINDS, INTERVAL_UNITS, PLAIN_KINDS,
  type EnumEntry, type JsonTypedPath, type TypeNode,
} from '../../src/types/index.js';
import { formatAggregateSpec, type AggregateParam } from '../../src/types/aggregate.js';
import { compareCodePoints, sortVariantMembers } from '../../src/types/parse.js';

const PIECES = [
  "'", '\\', '`', '"', '\n', '\t', '\0', '\r', '\b', '\f', '\x01', '\x7f', '=', ',', '(', ')', ' ', '.',
  'é', '😀', '\u2028', '${', '*/', 'select', 'SKIP', 'REGEXP', 'max_types', 'Null', 'a', '_', '1', '\\x41',
];

/** Short strings built from troublesome pieces and arbitrary code points. */
export const hostileString: fc.Arbitrary<string> = fc
  .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ unit: 'binary', maxLength: 3 })), { maxLength: 5 })
  .map((parts) => parts.join(''));

const identifierLike = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,6}$/);
/** Names: half of them plain identifiers (printed bare), half hostile (printed back-quoted). */
export const nameString: fc.Arbitrary<string> = fc.oneof(identifierLike, hostileString);

function enumArb(kind: 'Enum8' | 'Enum16', min: number, max: number): fc.Arbitrary<TypeNode> {
  return fc.uniqueArray(fc.tuple(hostileString, fc.integer({ min, max })), {
    minLength: 1, maxLength: 5, selector: ([label]) => label,
  }).filter((pairs) => new Set(pairs.map(([, v]) => v)).size === pairs.length)
    .map((pairs): TypeNode => ({ kind, entries: pairs.map(([label, value]): EnumEntry => ({ label, value })) }));
}

const aggParam: fc.Arbitrary<AggregateParam> = fc.letrec<{ p: AggregateParam }>((tie) => ({
  p: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant<AggregateParam>({ t: 'null' }),
    fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }).map((v): AggregateParam => ({ t: 'uint', v })),
    fc.bigInt({ min: -(1n << 63n), max: -1n }).map((v): AggregateParam => ({ t: 'int', v })),
    fc.double({ noDefaultInfinity: false }).filter((v) => !Number.isInteger(v) || !Number.isFinite(v)).map((v): AggregateParam => ({ t: 'float', v })),
    hostileString.map((v): AggregateParam => ({ t: 'string', v })),
    fc.array(tie('p'), { maxLength: 3 }).map((v): AggregateParam => ({ t: 'array', v })),
    fc.array(tie('p'), { minLength: 2, maxLength: 3 }).map((v): AggregateParam => ({ t: 'tuple', v })),
  ),
})).p;

function aggregateFunctionArb(): fc.Arbitrary<TypeNode> {
  const argType = fc.constantFrom<TypeNode>({ kind: 'UInt8' }, { kind: 'Float64' }, { kind: 'Array', element: { kind: 'String' } }, { kind: 'Nullable', inner: { kind: 'Int64' } });
  return fc.record({
    version: fc.constantFrom(0, 1),
    name: fc.constantFrom('sum', 'quantiles', 'groupArray', 'topKWeighted', 'argMax'),
    params: fc.array(aggParam, { maxLength: 3 }),
    args: fc.array(argType, { maxLength: 3 }),
  }).map((spec): TypeNode => ({ kind: 'AggregateFunction', args: formatAggregateSpec(spec) }));
}

const leaf: fc.Arbitrary<TypeNode> = fc.oneof(
  fc.constantFrom(...PLAIN_KINDS, ...GEO_KINDS).map((kind) => ({ kind }) as TypeNode),
  fc.constantFrom(...INTERVAL_UNITS).map((unit): TypeNode => ({ kind: 'Interval', unit })),
  fc.integer({ min: 1, max: 76 }).chain((precision) =>
    fc.integer({ min: 0, max: precision }).map((scale): TypeNode => ({ kind: 'Decimal', precision, scale }))),
  fc.integer({ min: 1, max: 100_000 }).map((length): TypeNode => ({ kind: 'FixedString', length })),
  fc.option(fc.oneof(hostileString, fc.constantFrom('UTC', 'Asia/Kolkata', 'Etc/GMT+3')), { nil: undefined })
    .map((timezone): TypeNode => (timezone === undefined ? { kind: 'DateTime' } : { kind: 'DateTime', timezone })),
  fc.tuple(fc.integer({ min: 0, max: 9 }), fc.option(hostileString, { nil: undefined }))
    .map(([precision, timezone]): TypeNode => (timezone === undefined ? { kind: 'DateTime64', precision } : { kind: 'DateTime64', precision, timezone })),
  fc.integer({ min: 0, max: 9 }).map((precision): TypeNode => ({ kind: 'Time64', precision })),
  enumArb('Enum8', -128, 127),
  enumArb('Enum16', -32768, 32767),
  fc.integer({ min: 0, max: 254 }).filter((n) => n !== 32)
    .map((maxTypes): TypeNode => ({ kind: 'Dynamic', maxTypes })),
  fc.constant<TypeNode>({ kind: 'Dynamic' }),
  aggregateFunctionArb(),
);

/** An arbitrary normalised TypeNode nested at most `depth` levels deep. */
export function typeArbitrary(depth: number): fc.Arbitrary<TypeNode> {
  if (depth <= 0) return leaf;
  const inner = typeArbitrary(depth - 1);
  const list = (min: number) => fc.array(inner, { minLength: min, maxLength: 3 });
  const named = (min: number) => fc.uniqueArray(fc.tuple(nameString, inner), { minLength: min, maxLength: 3, selector: ([n]) => n });
  return fc.oneof(
    { weight: 3, arbitrary: leaf },
    fc.record({ kind: fc.constantFrom('Nullable' as const, 'LowCardinality' as const), inner }).map((r): TypeNode => ({ kind: r.kind, inner: r.inner })),
    inner.map((element): TypeNode => ({ kind: 'Array', element })),
    fc.record({ key: inner, value: inner }).map(({ key, value }): TypeNode => ({ kind: 'Map', key, value })),
    list(0).map((elements): TypeNode => ({ kind: 'Tuple', elements })),
    named(1).map((ps): TypeNode => ({ kind: 'Tuple', elements: ps.map((p) => p[1]), names: ps.map((p) => p[0]) })),
    named(1).map((ps): TypeNode => ({ kind: 'Nested', elements: ps.map((p) => p[1]), names: ps.map((p) => p[0]) })),
    list(1).map((members): TypeNode => ({ kind: 'Variant', members: sortVariantMembers(members) })),
    fc.record({ func: fc.constantFrom('sum', 'anyLast', 'groupArrayArray', 'max'), inner })
      .map(({ func, inner: t }): TypeNode => ({ kind: 'SimpleAggregateFunction', func, inner: t })),
    fc.record({ element: fc.constantFrom<TypeNode>({ kind: 'Float32' }, { kind: 'Float64' }, { kind: 'BFloat16' }), dimension: fc.integer({ min: 1, max: 4096 }) })
      .map(({ element, dimension }): TypeNode => ({ kind: 'QBit', element, dimension })),
    jsonArb(inner),
  );
}

function jsonArb(inner: fc.Arbitrary<TypeNode>): fc.Arbitrary<TypeNode> {
  return fc.record({
    maxDynamicPaths: fc.option(fc.integer({ min: 0, max: 1_000_000 }).filter((n) => n !== 1024), { nil: undefined }),
    maxDynamicTypes: fc.option(fc.integer({ min: 0, max: 254 }).filter((n) => n !== 32), { nil: undefined }),
    typedPaths: fc.array(fc.tuple(nameString, inner).map(([path, type]): JsonTypedPath => ({ path, type })), { maxLength: 2 }),
    skipPaths: fc.array(nameString, { maxLength: 2 }),
    skipRegexps: fc.array(hostileString, { maxLength: 2 }),
  }).map(({ maxDynamicPaths, maxDynamicTypes, typedPaths, skipPaths, skipRegexps }): TypeNode => {
    // Sorted by code point, as the parser normalises them (the server's order).
    typedPaths.sort((a, b) => compareCodePoints(a.path, b.path));
    skipPaths.sort(compareCodePoints);
    skipRegexps.sort(compareCodePoints);
    const t: { kind: 'JSON'; maxDynamicPaths?: number; maxDynamicTypes?: number; typedPaths: JsonTypedPath[]; skipPaths: string[]; skipRegexps: string[] } =
      { kind: 'JSON', typedPaths, skipPaths, skipRegexps };
    if (maxDynamicPaths !== undefined) t.maxDynamicPaths = maxDynamicPaths;
    if (maxDynamicTypes !== undefined) t.maxDynamicTypes = maxDynamicTypes;
    return t;
  });
}
