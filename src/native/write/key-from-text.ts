// Map keys given as property names of a plain object, read back into the values their key type
// takes: what `fetch` returns with the default `maps: 'object'` (plan/key-text.ts: each key as the
// engine writes it in text) inserts back into the same Map type (issue 26, item 5).
//
// Invariant: chosen once per Map type from its key type; `undefined` when a property name already
// is a value the key's writer takes (String, numbers, Date, UUID, IP, Enum, Decimal… keys). Bool
// keys read 'true'/'false'; Array, Tuple, Map (and Nullable/LowCardinality of them) keys read the
// engine's literal text ('[1,2]', "(1,'x')", "{'a':1}", NULL, quoted strings with backslash
// escapes) into arrays, Maps, strings and booleans, which the element writers then check. Text
// that is no such literal is passed on as it is (the key's writer refuses it, naming the column).
import type { TypeNode } from '../../types/ast.js';

/** The reader of property-name keys for a Map whose key type is `t`, or undefined (names pass as they are). */
export function keyFromText(t: TypeNode): ((k: string) => unknown) | undefined {
  const base = t.kind === 'LowCardinality' || t.kind === 'Nullable' ? t.inner : t;
  switch (base.kind) {
    case 'Bool': return (k) => (k === 'true' ? true : k === 'false' ? false : k);
    case 'Array': case 'Tuple': case 'Map': case 'Nested': return (k) => {
      const r = literal(k, 0);
      return r !== undefined && r.end === k.length ? r.value : k;
    };
    default: return undefined;
  }
}

const MAX_DEPTH = 64;
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '0': '\0', a: '\x07', v: '\v', e: '\x1b' };

/** One literal at s[i…]: its value and where it ends, or undefined when malformed. */
function literal(s: string, i: number, depth = 0): { value: unknown; end: number } | undefined {
  if (depth > MAX_DEPTH || i >= s.length) return undefined;
  const c = s[i]!;
  if (c === '[' || c === '(' || c === '{') {
    const close = c === '[' ? ']' : c === '(' ? ')' : '}';
    const items: unknown[] = [];
    const map = c === '{' ? new Map<unknown, unknown>() : undefined;
    let j = i + 1;
    if (s[j] === close) return { value: map ?? items, end: j + 1 };
    for (;;) {
      const a = literal(s, j, depth + 1);
      if (a === undefined) return undefined;
      j = a.end;
      if (map !== undefined) {
        if (s[j] !== ':') return undefined;
        const b = literal(s, j + 1, depth + 1);
        if (b === undefined) return undefined;
        map.set(a.value, b.value);
        j = b.end;
      } else items.push(a.value);
      if (s[j] === ',') { j++; continue; }
      if (s[j] === close) return { value: map ?? items, end: j + 1 };
      return undefined;
    }
  }
  if (c === "'") {
    let out = '';
    let j = i + 1;
    while (j < s.length) {
      const ch = s[j]!;
      if (ch === "'") return { value: out, end: j + 1 };
      if (ch === '\\' && j + 1 < s.length) {
        const e = s[j + 1]!;
        if (e === 'x' && /^[0-9a-fA-F]{2}$/.test(s.slice(j + 2, j + 4))) { out += String.fromCharCode(parseInt(s.slice(j + 2, j + 4), 16)); j += 4; continue; }
        out += ESCAPES[e] ?? e;
        j += 2;
        continue;
      }
      out += ch;
      j++;
    }
    return undefined;
  }
  // A bare token: a number, nan/inf, true/false or NULL.
  let j = i;
  while (j < s.length && !',:)]}'.includes(s[j]!)) j++;
  if (j === i) return undefined;
  const tok = s.slice(i, j);
  return { value: tok === 'NULL' ? null : tok === 'true' ? true : tok === 'false' ? false : tok, end: j };
}
