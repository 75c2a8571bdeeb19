// Query parameters for the embedded engine. chdb's binder takes JS values and TSV-escapes strings
// itself (`\` → `\\`, control characters → `\t`, `\n`, …) before handing them to the engine's
// `{name:Type}` binder, which is the same code path as HTTP's `param_*`. Our parameters are
// already in the server's text form, so each is handed over as the string whose chdb escaping
// is exactly that text. Invariant: the engine receives byte for byte what HTTP would send.
import { ChwireConfigError } from '../errors.js';

const UNESCAPE: Record<string, string> = { '\\': '\\', '0': '\0', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * The JS value to give chdb for the parameter text `text`: `null` for `\N`, else the string that
 * chdb escapes back into `text`. A `\'` (a quote inside a quoted element of an array, map or
 * tuple) has no such preimage; it is rewritten as the equivalent doubled quote `''`, which the
 * engine's quoted-string reader accepts.
 */
export function chdbParamValue(name: string, text: string): string | null {
  if (text === '\\N') return null;
  // One pass over large values (a 100 000-element array is ~1 MB of text): no per-character concatenation.
  if (!text.includes('\\')) return text;
  let trailing = 0;
  while (trailing < text.length && text[text.length - 1 - trailing] === '\\') trailing++;
  if (trailing % 2 === 1) throw new ChwireConfigError(`query parameter ${JSON.stringify(name)} ends with a lone backslash`);
  return text.replace(/\\([\s\S])/g, (_, next: string) => {
    const plain = UNESCAPE[next];
    if (plain !== undefined) return plain;
    if (next === "'") return "''";
    throw new ChwireConfigError(`query parameter ${JSON.stringify(name)} uses the escape \\${next}, which the embedded engine's binder cannot receive`);
  });
}
