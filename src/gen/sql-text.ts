// SQL text as `chwire gen` reads it: the `{name:Type}` placeholders of a query, the query with each
// placeholder replaced by a typed default (so the server can describe its result without values),
// and named queries from one .sql file (`-- name: topUsers` before each).
//
// Invariant: placeholders are found only in code, never inside string literals, quoted identifiers
// or comments, by one scanner that knows ClickHouse's quoting ('…' and "…" and `…` with backslash
// escapes and doubled quotes; -- and # line comments; nested /* */ block comments).
import { quoteString } from '../types/quote.js';

export interface Placeholder {
  readonly name: string;
  /** The type as written in the placeholder, trimmed. */
  readonly type: string;
  /** Offsets of the whole `{…}` in the SQL text. */
  readonly start: number;
  readonly end: number;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** End offset (exclusive) of a quoted run starting at `i` (the opening quote). */
function skipQuoted(sql: string, i: number): number {
  const q = sql[i];
  let j = i + 1;
  while (j < sql.length) {
    const c = sql[j];
    if (c === '\\') { j += 2; continue; }
    if (c === q) {
      if (sql[j + 1] === q) { j += 2; continue; }
      return j + 1;
    }
    j++;
  }
  throw new SyntaxError(`unterminated ${q} quote starting at offset ${i}`);
}

function skipBlockComment(sql: string, i: number): number {
  let depth = 0;
  let j = i;
  while (j < sql.length) {
    if (sql.startsWith('/*', j)) { depth++; j += 2; continue; }
    if (sql.startsWith('*/', j)) { depth--; j += 2; if (depth === 0) return j; continue; }
    j++;
  }
  throw new SyntaxError(`unterminated /* comment starting at offset ${i}`);
}

/** Offsets where code (not a literal or comment) continues after position i, or -1 when `i` is code. */
function skipNonCode(sql: string, i: number): number {
  const c = sql[i];
  if (c === "'" || c === '"' || c === '`') return skipQuoted(sql, i);
  if ((c === '-' && sql[i + 1] === '-') || c === '#') {
    const nl = sql.indexOf('\n', i);
    return nl < 0 ? sql.length : nl;
  }
  if (c === '/' && sql[i + 1] === '*') return skipBlockComment(sql, i);
  return -1;
}

/** Every `{name:Type}` placeholder of `sql`, in order of appearance. */
export function findPlaceholders(sql: string): Placeholder[] {
  const out: Placeholder[] = [];
  let i = 0;
  while (i < sql.length) {
    const skip = skipNonCode(sql, i);
    if (skip >= 0) { i = skip; continue; }
    if (sql[i] !== '{') { i++; continue; }
    // The type may contain parentheses and quoted text (Enum8('a' = 1), DateTime('UTC')).
    const colon = sql.indexOf(':', i);
    if (colon < 0) { i++; continue; }
    const name = sql.slice(i + 1, colon).trim();
    if (!NAME.test(name)) { i++; continue; }
    let j = colon + 1;
    let depth = 0;
    while (j < sql.length) {
      const c = sql[j]!;
      if (c === "'" || c === '"' || c === '`') { j = skipQuoted(sql, j); continue; }
      if (c === '(') depth++;
      else if (c === ')') depth--;
      else if (c === '}' && depth === 0) break;
      j++;
    }
    if (j >= sql.length) throw new SyntaxError(`placeholder {${name}:… at offset ${i} has no closing brace`);
    out.push({ name, type: sql.slice(colon + 1, j).trim(), start: i, end: j + 1 });
    i = j + 1;
  }
  return out;
}

/** The placeholders by name; the same name twice must have the same type. */
export function placeholderTypes(sql: string): Map<string, string> {
  const types = new Map<string, string>();
  for (const p of findPlaceholders(sql)) {
    const seen = types.get(p.name);
    if (seen !== undefined && seen !== p.type) throw new SyntaxError(`placeholder ${p.name} is declared as ${seen} and as ${p.type}`);
    types.set(p.name, p.type);
  }
  return types;
}

/**
 * The query with each placeholder replaced by the default value of its type, for `DESCRIBE`
 * only (the server then describes the result without parameter values). Never sent to run.
 */
export function withTypedDefaults(sql: string): string {
  let out = '';
  let at = 0;
  for (const p of findPlaceholders(sql)) {
    out += `${sql.slice(at, p.start)}defaultValueOfTypeName(${quoteString(p.type)})`;
    at = p.end;
  }
  return out + sql.slice(at);
}

export interface NamedQuery {
  readonly name: string;
  readonly sql: string;
}

const MARKER = /^\s*--\s*name\s*:\s*([A-Za-z_$][A-Za-z0-9_$]*)\s*$/;

/** Named queries of a .sql file: each starts at a `-- name: X` line and runs to the next (a trailing `;` dropped). */
export function parseQueriesFile(text: string): NamedQuery[] {
  const out: NamedQuery[] = [];
  let current: { name: string; lines: string[] } | undefined;
  const flush = (): void => {
    if (current === undefined) return;
    const sql = current.lines.join('\n').trim().replace(/;\s*$/, '').trim();
    if (sql === '') throw new SyntaxError(`query ${current.name} is empty`);
    out.push({ name: current.name, sql });
  };
  text.split(/\r?\n/).forEach((line, n) => {
    const m = MARKER.exec(line);
    if (m !== null) {
      flush();
      current = { name: m[1]!, lines: [] };
    } else if (current !== undefined) {
      current.lines.push(line);
    } else if (line.trim() !== '' && !line.trim().startsWith('--')) {
      throw new SyntaxError(`line ${n + 1}: SQL before the first "-- name: …" line`);
    }
  });
  flush();
  return out;
}
