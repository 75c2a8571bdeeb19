// Type-name printer: TypeNode → the one-line canonical spelling the server uses in headers
// (rowbinary.md §3): `, ` between arguments, single-quoted zones and labels, identifiers
// back-quoted only when needed, server defaults omitted.
//
// Invariant: parseType(printType(t)) deep-equals t for every normalised AST (property-tested),
// and printType(parseType(x)) === x for every name the server prints (checked on the fixtures
// and against the engine). Order is the AST's: the server sorts enum entries and Variant members,
// the AST keeps what it was given.
import type { TypeNode } from './ast.js';
import { quoteIdentifier, quoteJsonPath, quoteString } from './quote.js';

function list(ts: readonly TypeNode[]): string {
  return ts.map(printType).join(', ');
}

function namedList(names: readonly string[], ts: readonly TypeNode[]): string {
  return ts.map((t, i) => `${quoteIdentifier(names[i]!)} ${printType(t)}`).join(', ');
}

export function printType(t: TypeNode): string {
  switch (t.kind) {
    case 'Decimal': return `Decimal(${t.precision}, ${t.scale})`;
    case 'FixedString': return `FixedString(${t.length})`;
    case 'DateTime': return t.timezone === undefined ? 'DateTime' : `DateTime(${quoteString(t.timezone)})`;
    case 'DateTime64':
      return t.timezone === undefined ? `DateTime64(${t.precision})` : `DateTime64(${t.precision}, ${quoteString(t.timezone)})`;
    case 'Time64': return `Time64(${t.precision})`;
    case 'Enum8': case 'Enum16':
      return `${t.kind}(${t.entries.map((e) => `${quoteString(e.label)} = ${e.value}`).join(', ')})`;
    case 'Nullable': case 'LowCardinality': return `${t.kind}(${printType(t.inner)})`;
    case 'Array': return `Array(${printType(t.element)})`;
    case 'Tuple': return `Tuple(${t.names === undefined ? list(t.elements) : namedList(t.names, t.elements)})`;
    case 'Map': return `Map(${printType(t.key)}, ${printType(t.value)})`;
    case 'Nested': return `Nested(${namedList(t.names, t.elements)})`;
    case 'Variant': return `Variant(${list(t.members)})`;
    case 'Dynamic': return t.maxTypes === undefined ? 'Dynamic' : `Dynamic(max_types=${t.maxTypes})`;
    case 'JSON': {
      // The server's order: max_dynamic_types, max_dynamic_paths, typed paths, SKIP, SKIP REGEXP.
      const parts: string[] = [];
      if (t.maxDynamicTypes !== undefined) parts.push(`max_dynamic_types=${t.maxDynamicTypes}`);
      if (t.maxDynamicPaths !== undefined) parts.push(`max_dynamic_paths=${t.maxDynamicPaths}`);
      for (const p of t.typedPaths) parts.push(`${quoteJsonPath(p.path)} ${printType(p.type)}`);
      for (const p of t.skipPaths) parts.push(`SKIP ${quoteIdentifier(p)}`);
      for (const r of t.skipRegexps) parts.push(`SKIP REGEXP ${quoteString(r)}`);
      return parts.length === 0 ? 'JSON' : `JSON(${parts.join(', ')})`;
    }
    case 'Interval': return `Interval${t.unit}`;
    case 'SimpleAggregateFunction': return `SimpleAggregateFunction(${t.func}, ${printType(t.inner)})`;
    case 'AggregateFunction': return `AggregateFunction(${t.args})`;
    case 'QBit': return `QBit(${printType(t.element)}, ${t.dimension})`;
    default: return t.kind; // plain and geo kinds: the name is the whole type
  }
}
