// A statement's own trailing `FORMAT <name>` clause, found by tokenizing the SQL the way the
// server's lexer splits it (string literals, quoted identifiers, heredocs and comments are never
// read as words), so that a call that decodes rows itself can refuse SQL that picks another format.
//
// Invariant: reports a format only for `FORMAT <identifier>` outside parentheses, followed by
// nothing but an optional `SETTINGS …` clause and `;` — the shapes in which the server takes the
// clause as the result's format. A column or table called `format`, `format(…)` table functions,
// and the word inside strings or comments are not clauses.

import { ChwireConfigError } from '../errors.js';

interface Token { readonly kind: 'word' | 'quoted' | 'other'; readonly text: string }

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

/** Tokens of `sql` (comments and whitespace dropped), or undefined when a literal or comment is unterminated. */
function tokenize(sql: string): Token[] | undefined {
  const out: Token[] = [];
  const n = sql.length;
  let i = 0;
  while (i < n) {
    const c = sql[i]!;
    if (/\s/.test(c)) { i++; continue; }
    if (c === '-' && sql[i + 1] === '-') { i = lineEnd(sql, i); continue; }
    if (c === '#' && (sql[i + 1] === ' ' || sql[i + 1] === '!')) { i = lineEnd(sql, i); continue; }
    if (c === '/' && sql[i + 1] === '*') {
      // Block comments nest in ClickHouse's lexer.
      let level = 1;
      i += 2;
      while (i < n && level > 0) {
        if (sql[i] === '/' && sql[i + 1] === '*') { level++; i += 2; } else if (sql[i] === '*' && sql[i + 1] === '/') { level--; i += 2; } else i++;
      }
      if (level > 0) return undefined;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') {
      const end = quotedEnd(sql, i, c);
      if (end < 0) return undefined;
      // A quoted identifier may name a format (FORMAT `JSON`); a string literal never does.
      out.push({ kind: c === "'" ? 'other' : 'quoted', text: c === "'" ? sql.slice(i, end) : unquote(sql.slice(i + 1, end - 1), c) });
      i = end;
      continue;
    }
    if (c === '$') {
      // Heredoc: $tag$ … $tag$ (the tag may be empty).
      const m = /^\$([A-Za-z0-9_]*)\$/.exec(sql.slice(i));
      if (m !== null) {
        const close = sql.indexOf(m[0], i + m[0].length);
        if (close < 0) return undefined;
        out.push({ kind: 'other', text: sql.slice(i, close + m[0].length) });
        i = close + m[0].length;
        continue;
      }
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_$]/.test(sql[j]!)) j++;
      out.push({ kind: 'word', text: sql.slice(i, j) });
      i = j;
      continue;
    }
    if (/[0-9]/.test(c)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_.]/.test(sql[j]!)) j++;
      out.push({ kind: 'other', text: sql.slice(i, j) });
      i = j;
      continue;
    }
    out.push({ kind: 'other', text: c });
    i++;
  }
  return out;
}

function lineEnd(sql: string, i: number): number {
  const nl = sql.indexOf('\n', i);
  return nl < 0 ? sql.length : nl + 1;
}

/** Index just past the closing quote of the literal opening at `i` (backslash escapes, doubled quotes), or -1. */
function quotedEnd(sql: string, i: number, q: string): number {
  let j = i + 1;
  while (j < sql.length) {
    const c = sql[j]!;
    if (c === '\\') { j += 2; continue; }
    if (c === q) {
      if (sql[j + 1] === q) { j += 2; continue; }
      return j + 1;
    }
    j++;
  }
  return -1;
}

function unquote(body: string, q: string): string {
  return body.replace(/\\(.)/g, '$1').split(q + q).join(q);
}

/**
 * The error for `sql` sent by a call that decodes rows (`rawFormat` undefined) or by streamRaw with
 * `rawFormat`, when its own FORMAT clause takes the format out of the call's hands; else undefined.
 */
export function formatClauseError(sql: string, rawFormat: string | undefined): ChwireConfigError | undefined {
  const own = trailingFormat(sql);
  if (own === undefined) return undefined;
  if (rawFormat === undefined) {
    return new ChwireConfigError(`the SQL ends with its own FORMAT ${own} clause: this call decodes the rows, so the client chooses the format; remove the clause, or use streamRaw(sql, { format: '${own}' }) for the bytes in ${own}`);
  }
  if (own.toLowerCase() === rawFormat.toLowerCase()) return undefined;
  return new ChwireConfigError(`the SQL ends with FORMAT ${own} but streamRaw was given { format: '${rawFormat}' }: the server would answer in ${own}; remove the clause or pass the same format`);
}
