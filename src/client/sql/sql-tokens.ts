// SQL split into tokens the way the server's lexer splits it: string literals, quoted
// identifiers, heredocs and comments are single tokens (or dropped), never read as words.
//
// Invariant: every token records its [start, end) in the source text; whitespace and comments
// produce no token; an unterminated literal or comment makes the whole text untokenizable
// (undefined), and callers then find nothing in it.

export interface Token {
  /** A bare word, a quoted identifier (text unquoted), or anything else (literals, punctuation). */
  readonly kind: 'word' | 'quoted' | 'other';
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/** Tokens of `sql` (comments and whitespace dropped), or undefined when a literal or comment is unterminated. */
export function tokenize(sql: string): Token[] | undefined {
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
      out.push({ kind: c === "'" ? 'other' : 'quoted', text: c === "'" ? sql.slice(i, end) : unquote(sql.slice(i + 1, end - 1), c), start: i, end });
      i = end;
      continue;
    }
    if (c === '$') {
      // Heredoc: $tag$ … $tag$ (the tag may be empty).
      const m = /^\$([A-Za-z0-9_]*)\$/.exec(sql.slice(i));
      if (m !== null) {
        const close = sql.indexOf(m[0], i + m[0].length);
        if (close < 0) return undefined;
        out.push({ kind: 'other', text: sql.slice(i, close + m[0].length), start: i, end: close + m[0].length });
        i = close + m[0].length;
        continue;
      }
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_$]/.test(sql[j]!)) j++;
      out.push({ kind: 'word', text: sql.slice(i, j), start: i, end: j });
      i = j;
      continue;
    }
    if (/[0-9]/.test(c)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_.]/.test(sql[j]!)) j++;
      out.push({ kind: 'other', text: sql.slice(i, j), start: i, end: j });
      i = j;
      continue;
    }
    out.push({ kind: 'other', text: c, start: i, end: i + 1 });
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

