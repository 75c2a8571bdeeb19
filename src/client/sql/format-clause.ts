// A statement's own trailing `FORMAT <name>` clause, found by tokenizing the SQL the way the
// server's lexer splits it (string literals, quoted identifiers, heredocs and comments are never
// read as words), so that a call that decodes rows itself can refuse SQL that picks another format.
//
// Invariant: reports a format only for `FORMAT <identifier>` outside parentheses, followed by
// nothing but an optional `SETTINGS …` clause and `;` — the shapes in which the server takes the
// clause as the result's format. A column or table called `format`, `format(…)` table functions,
// and the word inside strings or comments are not clauses.

import { ChwireConfigError } from '../../errors.js';
import { tokenize, type Token } from './sql-tokens.js';

/** The format named by the statement's trailing FORMAT clause, or undefined when it has none. */
export function trailingFormat(sql: string): string | undefined {
  const tokens = tokenize(sql);
  if (tokens === undefined) return undefined;
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.text === '(' || t.text === '[') depth++;
    else if (t.text === ')' || t.text === ']') depth--;
    if (depth !== 0 || t.kind !== 'word' || t.text.toUpperCase() !== 'FORMAT') continue;
    const name = tokens[i + 1];
    if (name === undefined || (name.kind !== 'word' && name.kind !== 'quoted') || name.text.toUpperCase() === 'SETTINGS') continue;
    if (endsHere(tokens, i + 2)) return name.text;
  }
  return undefined;
}

/** Whether tokens from `i` are only `[SETTINGS …] [;]` (any settings list, then the end). */
function endsHere(tokens: readonly Token[], i: number): boolean {
  const rest = tokens.slice(i).filter((t) => t.text !== ';');
  if (rest.length === 0) return true;
  return rest[0]!.kind === 'word' && rest[0]!.text.toUpperCase() === 'SETTINGS' && !rest.some((t) => t.kind === 'word' && t.text.toUpperCase() === 'FORMAT');
}

/**
 * trailingFormat of the SQL texts a client sends again and again (an app's queries are a few fixed
 * strings): remembered per client, so a repeated small query is not tokenized on every call.
 * Bounded: texts up to MAX_TEXT characters, at most MAX_TEXTS of them (all forgotten when full).
 */
export class FormatClauses {
  private readonly known = new Map<string, string | null>();

  of(sql: string): string | undefined {
    if (sql.length > MAX_TEXT) return trailingFormat(sql);
    const hit = this.known.get(sql);
    if (hit !== undefined) return hit ?? undefined;
    const own = trailingFormat(sql);
    if (this.known.size >= MAX_TEXTS) this.known.clear();
    this.known.set(sql, own ?? null);
    return own;
  }
}

const MAX_TEXT = 4096;
const MAX_TEXTS = 256;

/**
 * The error for `sql` sent by a call that decodes rows (`rawFormat` undefined) or by streamRaw with
 * `rawFormat`, when its own FORMAT clause takes the format out of the call's hands; else undefined.
 * `known`: the client's remembered clauses (the answer is the same with or without).
 */
export function formatClauseError(sql: string, rawFormat: string | undefined, known?: FormatClauses): ChwireConfigError | undefined {
  const own = known !== undefined ? known.of(sql) : trailingFormat(sql);
  if (own === undefined) return undefined;
  if (rawFormat === undefined) {
    return new ChwireConfigError(`the SQL ends with its own FORMAT ${own} clause: this call decodes the rows, so the client chooses the format; remove the clause, or use streamRaw(sql, { format: '${own}' }) for the bytes in ${own}`);
  }
  if (own.toLowerCase() === rawFormat.toLowerCase()) return undefined;
  return new ChwireConfigError(`the SQL ends with FORMAT ${own} but streamRaw was given { format: '${rawFormat}' }: the server would answer in ${own}; remove the clause or pass the same format`);
}
