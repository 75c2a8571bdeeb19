// Structural equality of type ASTs.
//
// Invariant: typeEquals(a, b) ⇔ printType(a) === printType(b) for normalised ASTs (an optional
// field that is absent equals one that is present but undefined). Order matters everywhere, as
// it does on the wire: Variant discriminators and enum entries index the AST's lists.
import type { TypeNode } from './ast.js';

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => same(x, bb[i]));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
  for (const k of keys) if (!same(ra[k], rb[k])) return false;
  return true;
}

export function typeEquals(a: TypeNode, b: TypeNode): boolean {
  return same(a, b);
}
