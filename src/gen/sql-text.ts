// SQL text as `chwire gen` reads it: the `{name:Type}` placeholders of a query, the query with each
// placeholder replaced by a typed default (so the server can describe its result without values),
// and named queries from one .sql file (`-- name: topUsers` before each).
//
// Invariant: placeholders are found only in code, never inside string literals, quoted identifiers
// or comments, by one scanner that knows ClickHouse's quoting ('…' and "…" and `…` with backslash
// escapes and doubled quotes; -- and # line comments; nested /* */ block comments).
import { quoteString } from '../types/quote.js';
import { parseType } from '../types/parse.js';
import { printType } from '../types/print.js';
import type { TypeNode } from '../types/ast.js';

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

/** Placeholders whose value is SQL text the server splices in (a table or column name), not a value. */
const SPLICED = new Set(['Identifier']);

/** Whether the placeholder sits where only a literal is allowed: `LIMIT {n:…}`, `OFFSET {n:…}`, `LIMIT {a:…}, {b:…}`. */
function inLimit(sql: string, start: number): boolean {
  const before = sql.slice(Math.max(0, start - 200), start);
  return /\b(LIMIT|OFFSET)\s*$/i.test(before) || /\bLIMIT\s+(\{[^{}]*\}|\d+)\s*,\s*$/i.test(before);
}

/**
 * The query with each placeholder replaced by a value of its type, for describing its result only
 * (never sent to run). `style` picks the value: `function` (`defaultValueOfTypeName('T')`, servers
 * that have it) or `literal` (`CAST(<a literal>, 'T')`, every server, 18.16 included). A
 * placeholder in LIMIT/OFFSET becomes the literal `1` (only a literal is allowed there, and it does
 * not change the result's columns). An `Identifier` placeholder names a table or column, which no
 * value can stand for: an error.
 */
export function withTypedDefaults(sql: string, style: 'function' | 'literal' = 'function'): string {
  let out = '';
  let at = 0;
  for (const p of findPlaceholders(sql)) {
    let value: string;
    if (SPLICED.has(p.type)) {
      throw new SyntaxError(`placeholder {${p.name}:${p.type}} names a table or column, so the query's result cannot be described without a real name: chwire gen cannot type it (write the name into the query, or generate from a query with the name and pass the rest as parameters)`);
    } else if (inLimit(sql, p.start)) {
      value = '1';
    } else if (style === 'function') {
      value = `defaultValueOfTypeName(${quoteString(p.type)})`;
    } else {
      let node: TypeNode;
      try { node = parseType(p.type); } catch (e) { throw new SyntaxError(`placeholder ${p.name} has a type chwire cannot read (${p.type}): ${(e as Error).message}`); }
      value = typedLiteral(node, p.type);
    }
    out += `${sql.slice(at, p.start)}${value}`;
    at = p.end;
  }
  return out + sql.slice(at);
}

/** `CAST(<literal>, 'T')` with a value every server accepts for T (0, '', the first Enum label, NULL, [], …). */
export function typedLiteral(t: TypeNode, text: string = printType(t)): string {
  const cast = (lit: string): string => `CAST(${lit}, ${quoteString(text)})`;
  switch (t.kind) {
    case 'String': case 'FixedString': case 'JSON': case 'Dynamic': return cast("''");
    case 'Enum8': case 'Enum16': return cast(quoteString(t.entries[0]?.label ?? ''));
    case 'Date': case 'Date32': return cast("'1970-01-02'");
    case 'UUID': return cast("'00000000-0000-0000-0000-000000000000'");
    case 'IPv4': return cast("'0.0.0.0'");
    case 'IPv6': return cast("'::'");
    case 'Nullable': return cast('NULL');
    case 'LowCardinality': return cast(typedLiteral(t.inner));
    case 'Array': case 'Nested': return cast('[]');
    case 'Tuple': return cast(`tuple(${t.elements.map((e) => typedLiteral(e)).join(', ')})`);
    case 'Map': return cast('map()');
    default: return cast('0');
  }
}

/**
 * The statement without what follows its last code: trailing comments, whitespace and `;`
 * (`SELECT 2; -- note` → `SELECT 2`). Comments inside the statement are kept.
 */
export function trimStatement(sql: string): string {
  let end = 0;
  let i = 0;
  while (i < sql.length) {
    const skip = skipNonCode(sql, i);
    if (skip >= 0) {
      // A quoted run is code; a comment is not.
      const c = sql[i];
      if (c === "'" || c === '"' || c === '`') end = skip;
      i = skip;
      continue;
    }
    if (!/\s/.test(sql[i]!) && sql[i] !== ';') end = i + 1;
    i++;
  }
  return sql.slice(0, end).trim();
}

/** sqlc's annotations: `:many` (default: every row, and a stream), `:one` (first row or null), `:exec` (a statement). */
export type QueryKind = 'many' | 'one' | 'exec';

export interface NamedQuery {
  readonly name: string;
  readonly sql: string;
  readonly kind: QueryKind;
  /** 1-based line of the `-- name:` marker. */
  readonly line: number;
}

const MARKER = /^\s*--\s*name\s*:(.*)$/;
const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const KINDS: readonly string[] = ['many', 'one', 'exec'];

/** `name :kind` after `-- name:` (or `name=`-style from the command line): checked, with the line for errors. */
export function parseMarker(text: string, where: string): { name: string; kind: QueryKind } {
  const m = /^\s*(\S+)(?:\s+:(\S+))?\s*$/.exec(text);
  if (m === null) throw new SyntaxError(`${where}: expected "-- name: <identifier> [:one|:many|:exec]", got ${JSON.stringify(text.trim())}`);
  const name = m[1]!;
  if (!IDENT.test(name)) throw new SyntaxError(`${where}: query name ${JSON.stringify(name)} is not a JavaScript identifier (letters, digits, _ and $; e.g. ${JSON.stringify(name.replace(/[^A-Za-z0-9_$]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase()) || 'q')})`);
  const kind = m[2] ?? 'many';
  if (!KINDS.includes(kind)) throw new SyntaxError(`${where}: query ${name} has the annotation :${kind}; use :one, :many or :exec`);
  return { name, kind: kind as QueryKind };
}

/**
 * Named queries of a .sql file: each starts at a `-- name: X` line (optionally `:one`, `:many`,
 * `:exec`, as sqlc writes them) and runs to the next; trailing comments and `;` are dropped.
 */
export function parseQueriesFile(text: string, file = 'queries'): NamedQuery[] {
  const out: NamedQuery[] = [];
  let current: { name: string; kind: QueryKind; line: number; lines: string[] } | undefined;
  const flush = (): void => {
    if (current === undefined) return;
    let sql: string;
    try {
      sql = trimStatement(current.lines.join('\n'));
    } catch (e) {
      throw new SyntaxError(`${file}:${current.line}: query ${current.name}: ${(e as Error).message}`);
    }
    if (sql === '') throw new SyntaxError(`${file}:${current.line}: query ${current.name} is empty`);
    out.push({ name: current.name, sql, kind: current.kind, line: current.line });
  };
  text.split(/\r?\n/).forEach((line, n) => {
    const m = MARKER.exec(line);
    if (m !== null) {
      flush();
      current = { ...parseMarker(m[1]!, `${file}:${n + 1}`), line: n + 1, lines: [] };
    } else if (current !== undefined) {
      current.lines.push(line);
    } else if (line.trim() !== '' && !line.trim().startsWith('--')) {
      throw new SyntaxError(`${file}:${n + 1}: SQL before the first "-- name: …" line`);
    }
  });
  flush();
  return out;
}
