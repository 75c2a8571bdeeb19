// Type aliases → the structure that is actually on the wire, so that readers and code generation
// handle each layout once.
//
// Invariant: `structural(t)` reads exactly the same bytes as `t` and yields the same JS value.
// Point → Tuple(Float64, Float64); Ring/LineString → Array(Point); Polygon/MultiLineString →
// Array(Ring); MultiPolygon → Array(Polygon); Geometry → Variant of the six (name-sorted, as the
// server sorts them); Nested → Array(named Tuple); QBit(T, N) → Array(T); LowCardinality and
// SimpleAggregateFunction are transparent; Interval reads like Int64 but keeps its kind here
// (the int64 option applies to both).
import type { TypeNode } from '../types/ast.js';
import { fixedWidth } from '../types/ast.js';
import type { ResolvedValueOptions } from './options.js';

const F64: TypeNode = { kind: 'Float64' };
const POINT: TypeNode = { kind: 'Tuple', elements: [F64, F64] };
const RING: TypeNode = { kind: 'Array', element: POINT };
const POLYGON: TypeNode = { kind: 'Array', element: RING };
const MULTIPOLYGON: TypeNode = { kind: 'Array', element: POLYGON };
/** Geometry's members in the server's (name-sorted) order: the discriminator indexes this. */
const GEOMETRY: TypeNode = { kind: 'Variant', members: [RING, POLYGON, MULTIPOLYGON, POINT, POLYGON, RING] };

export function structural(t: TypeNode): TypeNode {
  switch (t.kind) {
    case 'Point': return POINT;
    case 'Ring': case 'LineString': return RING;
    case 'Polygon': case 'MultiLineString': return POLYGON;
    case 'MultiPolygon': return MULTIPOLYGON;
    case 'Geometry': return GEOMETRY;
    case 'LowCardinality': case 'SimpleAggregateFunction': return structural(t.inner);
    case 'QBit': return { kind: 'Array', element: t.element };
    case 'Nested': return { kind: 'Array', element: { kind: 'Tuple', elements: t.elements, names: t.names } };
    default: return t;
  }
}

/**
 * Options for the keys of a Map decoded as a plain object: a property key is text, so keys are
 * decoded to their canonical text whatever the column's value options say (a String key stays
 * the string even under strings:'bytes', a UUID key is its text, a Date key "2024-01-02", a
 * DateTime key ISO-8601 UTC), instead of String(value) of a Uint8Array or a Date. Maps inside a
 * key are JS Maps (in wire order), so that key-text.ts can write them as the engine does.
 */
export function objectKeyOptions(o: ResolvedValueOptions): ResolvedValueOptions {
  return { ...o, int64: 'string', int128: 'string', decimal: 'string', datetime: 'string', date: 'string', time: 'string', strings: 'string', uuid: 'string', maps: 'Map', float32: 'exact' };
}

/**
 * Whether every value of `t` takes no bytes in RowBinary: empty tuples and tuples of them. (Nothing
 * takes none either but has no values.) A count of such values is charged against the body's
 * budget (io/fault.ts), and a row of only such columns cannot be counted at all.
 */
export function zeroWidth(t: TypeNode): boolean {
  const s = structural(t);
  return s.kind === 'Tuple' && s.elements.every(zeroWidth);
}

/**
 * Whether reading `t` may charge the zero-width budget: it holds an Array or Map of items of
 * minWidth 0, or a Dynamic/JSON value (whose types come with the data). Decided per schema.
 */
export function chargesZeroWidth(t: TypeNode): boolean {
  const s = structural(t);
  switch (s.kind) {
    case 'Array': return minWidth(s.element) === 0 || chargesZeroWidth(s.element);
    case 'Map': return minWidth(s.key) + minWidth(s.value) === 0 || chargesZeroWidth(s.key) || chargesZeroWidth(s.value);
    case 'Nullable': return chargesZeroWidth(s.inner);
    case 'Tuple': return s.elements.some(chargesZeroWidth);
    case 'Variant': return s.members.some(chargesZeroWidth);
    case 'Dynamic': return true;
    case 'JSON': return true;
    default: return false;
  }
}

/** Fewest bytes one value of `t` can take (bounds array counts before allocating). */
export function minWidth(t: TypeNode): number {
  const s = structural(t);
  switch (s.kind) {
    case 'String': case 'Array': case 'Map': case 'Nullable': case 'Variant': case 'Dynamic': case 'JSON': return 1;
    case 'Tuple': return s.elements.reduce((a, e) => a + minWidth(e), 0);
    case 'Nothing': case 'AggregateFunction': return 0;
    default: return fixedWidth(s);
  }
}

