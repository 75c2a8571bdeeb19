// One structural rewrite of a type tree. Invariant: `mapChildren` rebuilds only the node's direct
// children (through `f`) and keeps every other field, so a rewrite that handles the kinds it
// changes and delegates the rest here walks every composite kind the same way.
import type { TypeNode } from './ast.js';

/** `t` with `f` applied to each of its direct child types (itself when it has none). */
export function mapChildren(t: TypeNode, f: (child: TypeNode) => TypeNode): TypeNode {
  switch (t.kind) {
    case 'Nullable': case 'LowCardinality': case 'SimpleAggregateFunction': return { ...t, inner: f(t.inner) };
    case 'Array': return { ...t, element: f(t.element) };
    case 'Tuple': return { ...t, elements: t.elements.map(f) };
    case 'Nested': return { ...t, elements: t.elements.map(f) };
    case 'Map': return { ...t, key: f(t.key), value: f(t.value) };
    case 'Variant': return { ...t, members: t.members.map(f) };
    case 'JSON': return { ...t, typedPaths: t.typedPaths.map((p) => ({ ...p, type: f(p.type) })) };
    default: return t;
  }
}
