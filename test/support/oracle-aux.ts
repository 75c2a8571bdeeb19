// Engine facts the JSON text of a value cannot carry, fetched as extra columns from the engine
// (the oracle); the shapes are those test/support/expect.ts documents for its `aux` argument.
//
// Invariant: aux comes only from the engine (dynamicType, variantType, JSONAllPathsWithTypes,
// hex), never from the decoder under test, so a decoder bug cannot make its own expectation.
// Also here: an independent reader of the RowBinaryWithNamesAndTypes header (names + type text).
import type { TypeNode } from '../../src/types/ast.js';
import { parseType } from '../../src/types/index.js';
import { engineJsonRows } from './engine.js';

export interface AuxWants {
  /** Fetch hex() of every String/FixedString (needed for strings:'bytes' and invalid UTF-8). */
  hex: boolean;
}

/** A back-quoted identifier for SQL (column names and JSON paths can hold anything). */
export function quoteIdent(name: string): string {
  return `\`${name.replace(/\\/g, '\\\\').replace(/`/g, '\\`')}\``;
}

/** A single-quoted SQL string literal. */
export function sqlString(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

let lambdaCounter = 0;

/** SQL over `e` whose JSONCompactEachRow value is the aux of a `t` value, or undefined if none is needed. */
export function auxExpr(t: TypeNode, e: string, want: AuxWants): string | undefined {
  switch (t.kind) {
    case 'String': case 'FixedString': return want.hex ? `hex(${e})` : undefined;
    // The exact instant: local text in a zone with DST is ambiguous inside the autumn fold.
    case 'DateTime': return `toUnixTimestamp(${e})`;
    case 'DateTime64': return `reinterpretAsInt64(${e})`;
    case 'Nullable': case 'LowCardinality': case 'SimpleAggregateFunction': return auxExpr(t.inner, e, want);
    // With hex wanted, the member's bytes ride along: toString() of a String member is its bytes
    // (of a FixedString member too, minus trailing NULs, which expect.ts pads back).
    case 'Variant': return want.hex ? `tuple(variantType(${e}), hex(toString(${e})))` : `variantType(${e})`;
    case 'Dynamic': return want.hex ? `tuple(dynamicType(${e}), hex(toString(${e})))` : `dynamicType(${e})`;
    case 'JSON': return `JSONAllPathsWithTypes(${e})`;
    case 'Array': case 'QBit': {
      const x = `x${lambdaCounter++}`;
      const inner = auxExpr(t.element, x, want);
      return inner === undefined ? undefined : `arrayMap(${x} -> ${inner}, ${e})`;
    }
    case 'Nested': {
      const x = `x${lambdaCounter++}`;
      const inner = auxExpr({ kind: 'Tuple', elements: t.elements, names: t.names }, x, want);
      return inner === undefined ? undefined : `arrayMap(${x} -> ${inner}, ${e})`;
    }
    case 'Tuple': {
      const parts = t.elements.map((el, i) => auxExpr(el, `tupleElement(${e}, ${i + 1})`, want));
      if (parts.every((p) => p === undefined)) return undefined;
      // A one-element tuple(...) would print as [x]; that is still an array per element, as wanted.
      return `tuple(${parts.map((p) => p ?? 'NULL').join(', ')})`;
    }
    case 'Map': {
      // Always the entries in wire order, each as [key, value, key aux, value aux, key text]: the JSON
      // object of a map loses entries whose keys print alike (invalid UTF-8 → U+FFFD) or repeat.
      const k = `k${lambdaCounter++}`;
      const v = `v${lambdaCounter++}`;
      const ka = auxExpr(t.key, k, want) ?? 'NULL';
      const va = auxExpr(t.value, v, want) ?? 'NULL';
      // The fifth item is the engine's own text of the key: its JSON of a one-entry map.
      return `tuple('~entries', arrayMap((${k}, ${v}) -> tuple(${k}, ${v}, ${ka}, ${va}, toJSONString(map(${k}, 0))), mapKeys(${e}), mapValues(${e})))`;
    }
    default: return undefined;
  }
}

/**
 * Aux of one column, one entry per row (undefined when the type needs none). Variant/Dynamic
 * values and JSON paths whose own type needs aux (DateTime, JSON inside Dynamic, Array(JSON)
 * paths, ...) get a second query on variantElement/dynamicElement(value, type), up to `depth`
 * levels. Below the top level (inside arrays, tuples, maps) there is no second query.
 */
export async function columnAux(from: string, expr: string, t: TypeNode, want: AuxWants, settings: Record<string, string | number> = {}, depth = 2): Promise<unknown[] | undefined> {
  const ex = auxExpr(t, expr, want);
  if (ex === undefined) return undefined;
  const rows = (await engineJsonRows(`SELECT ${ex} FROM (${from})`, settings)).map((r) => r[0]);
  if (depth <= 0) return rows;
  if (t.kind === 'Dynamic' || t.kind === 'Variant') {
    const element = t.kind === 'Dynamic' ? 'dynamicElement' : 'variantElement';
    const typeOf = (r: unknown): unknown => (Array.isArray(r) ? r[0] : r);
    for (const type of new Set(rows.map(typeOf).filter((r): r is string => typeof r === 'string' && r !== 'None'))) {
      const inner = await columnAux(from, `${element}(${expr}, ${sqlString(type)})`, parseType(type), want, settings, depth - 1);
      if (inner === undefined) continue;
      for (let i = 0; i < rows.length; i++) if (typeOf(rows[i]) === type) rows[i] = { type, inner: inner[i] };
    }
  } else if (t.kind === 'JSON') {
    const typed = new Set(t.typedPaths.map((p) => p.path));
    const pairs = new Map<string, [string, string]>();
    for (const r of rows) {
      for (const [path, type] of Object.entries(r as Record<string, string>)) if (!typed.has(path)) pairs.set(`${path}\u0000${type}`, [path, type]);
    }
    for (const [path, type] of pairs.values()) {
      const inner = await columnAux(from, `dynamicElement(${expr}.${quoteIdent(path)}, ${sqlString(type)})`, parseType(type), want, settings, depth - 1);
      if (inner === undefined) continue;
      rows.forEach((r, i) => {
        const m = r as Record<string, unknown>;
        if (m[path] === type) m[path] = { type, inner: inner[i] };
      });
    }
  }
  return rows;
}

/** Aux for every column of `sql` (one array per column, or undefined), rows in the query's order. */
export async function queryAux(sql: string, columns: readonly { name: string; type: TypeNode }[], want: AuxWants, settings: Record<string, string | number> = {}): Promise<(unknown[] | undefined)[]> {
  const out: (unknown[] | undefined)[] = [];
  for (const c of columns) out.push(await columnAux(sql, quoteIdent(c.name), c.type, want, settings));
  return out;
}

/** Header of a RowBinaryWithNamesAndTypes body with textual types, read independently of chwire. */
export function readHeaderIndependently(bytes: Uint8Array): { name: string; type: string }[] {
  let pos = 0;
  const varUInt = (): number => {
    let v = 0;
    for (let shift = 0; ; shift += 7) {
      const b = bytes[pos++];
      if (b === undefined) throw new Error('oracle: header truncated');
      v += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return v;
    }
  };
  const text = (): string => {
    const n = varUInt();
    const s = new TextDecoder().decode(bytes.subarray(pos, pos + n));
    pos += n;
    return s;
  };
  const n = varUInt();
  const names = Array.from({ length: n }, text);
  return names.map((name) => ({ name, type: text() }));
}
