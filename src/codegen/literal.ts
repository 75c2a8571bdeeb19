// Text that is not code, written into generated source as a JavaScript string literal.
//
// Invariant: the result is one string literal on one line that evaluates to exactly the given text,
// whatever the text holds: JSON.stringify quotes it and escapes `"`, `\`, every control character
// (so no CR or LF) and lone surrogates; U+2028 and U+2029, which JSON leaves raw but which end a
// `//` comment and count as line breaks for TypeScript (a `// @ts-ignore` would cover only half a
// line), are escaped too; and `*/` is written `*\/` (the same string), so the literal is safe inside
// a comment as well. Nothing here knows of ClickHouse.

const LINE_BREAKS = /[\u2028\u2029]/g;
const COMMENT_END = /\*\//g;

function escapeLineBreak(c: string): string {
  return c === '\u2028' ? '\\u2028' : '\\u2029';
}

/** `text` as a double-quoted JavaScript string literal that holds no line break and no `*` `/`. */
export function jsString(text: string): string {
  return JSON.stringify(text).replace(LINE_BREAKS, escapeLineBreak).replace(COMMENT_END, '*\\/');
}

/**
 * A JSON value (arrays, plain objects, strings, numbers, booleans, null) as a JavaScript
 * expression under the same rule: every string in it through jsString. An object key
 * `__proto__` becomes a computed key (a quoted `"__proto__":` in a literal sets the prototype).
 */
export function jsValue(value: unknown): string {
  if (typeof value === 'string') return jsString(value);
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('codegen: not a finite number');
    return String(value);
  }
  if (Array.isArray(value)) return `[${value.map(jsValue).join(',')}]`;
  if (typeof value === 'object') {
    const parts = Object.keys(value).map((k) => `${k === '__proto__' ? `[${jsString(k)}]` : jsString(k)}:${jsValue((value as Record<string, unknown>)[k])}`);
    return `{${parts.join(',')}}`;
  }
  throw new TypeError(`codegen: a ${typeof value} is not a JSON value`);
}
