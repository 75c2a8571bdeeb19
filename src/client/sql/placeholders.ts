// The declared types of a statement's `{name:Type}` query-parameter placeholders, read from the
// SQL's tokens (placeholders inside strings or comments are not placeholders), so that a value
// can be written in the form its type parses (a JS Date for a Date parameter as 'YYYY-MM-DD').
//
// Invariant: only a type text that parses is reported (first placeholder of a name wins); a name
// with no (parsable) placeholder is simply absent and its value keeps the type-free text form.
import type { TypeNode } from '../../types/ast.js';
import { parseType } from '../../types/parse.js';
import { tokenize } from './sql-tokens.js';

export function placeholderTypes(sql: string): Map<string, TypeNode> {
  const out = new Map<string, TypeNode>();
  if (!sql.includes('{')) return out;
  const tokens = tokenize(sql) ?? [];
  for (let i = 0; i + 3 < tokens.length; i++) {
    if (tokens[i]!.text !== '{' || tokens[i + 1]!.kind !== 'word' || tokens[i + 2]!.text !== ':') continue;
    const name = tokens[i + 1]!.text;
    let j = i + 3;
    while (j < tokens.length && tokens[j]!.text !== '}' && tokens[j]!.text !== '{') j++;
    if (j >= tokens.length || tokens[j]!.text !== '}' || out.has(name)) continue;
    try {
      out.set(name, parseType(sql.slice(tokens[i + 2]!.end, tokens[j]!.start).trim()));
    } catch {
      // Not a type this client parses: the value is sent in its type-free form.
    }
  }
  return out;
}
