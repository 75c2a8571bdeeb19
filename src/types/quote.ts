// Quoting rules of ClickHouse type names: how the server writes string literals (enum labels,
// time zones, JSON SKIP REGEXP patterns) and identifiers (tuple element names, Nested fields,
// JSON paths) inside a canonical type name.
//
// Invariant: unquote(quote(s)) === s for every JS string s, and quote() reproduces the server's
// spelling byte for byte (checked against the engine in test/types.engine.test.ts).

/**
 * Words the server back-quotes even though they look like plain identifiers. Found by asking the
 * 26.7 engine to print `Tuple(<w> UInt8)` for every word of `system.keywords`: only these six are
 * quoted (any letter case), plus `null`, which `isValidIdentifier` rejects in any case.
 */
const RESERVED = new Set(['all', 'distinct', 'from', 'select', 'table', 'values', 'null']);

const PLAIN_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** True when the server writes `name` without back-quotes. */
export function isPlainIdentifier(name: string): boolean {
  return PLAIN_IDENTIFIER.test(name) && !RESERVED.has(name.toLowerCase());
}

// The server escapes exactly these (WriteHelpers' writeAnyEscapedString); every other character,
// including other control characters and invalid UTF-8 bytes, is written verbatim.
const ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\', '\0': '\\0', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t',
};

function quoteWith(s: string, q: "'" | '`'): string {
  let out = q;
  for (const ch of s) {
    if (ch === q) out += '\\' + q;
    else out += ESCAPES[ch] ?? ch;
  }
  return out + q;
}

/** A single-quoted string literal: `'it\'s'`. */
export function quoteString(s: string): string {
  return quoteWith(s, "'");
}

/** An identifier, back-quoted only when the server would quote it. */
export function quoteIdentifier(name: string): string {
  return isPlainIdentifier(name) ? name : quoteWith(name, '`');
}

/** An identifier, always back-quoted (for SQL that names columns and tables: keywords stay names). */
export function quoteBackticked(name: string): string {
  return quoteWith(name, '`');
}

/**
 * A JSON typed path: like an identifier, but `SKIP` (any case) is quoted too, since
 * `JSON(SKIP UInt8)` would read as a skipped path named UInt8 (what the 26.7 engine does).
 */
export function quoteJsonPath(path: string): string {
  return isPlainIdentifier(path) && path.toLowerCase() !== 'skip' ? path : quoteWith(path, '`');
}

/** Values of the single-character escapes the server's parser accepts (`\z` is just `z`). */
export const UNESCAPES: Readonly<Record<string, string>> = {
  a: '\x07', b: '\b', e: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '0': '\0',
};
