// Query-parameter values out of error messages. The server quotes a value it could not use
// ("Value … cannot be parsed as UInt8 for query parameter 'p'", "Cannot parse date here: …", a
// throwIf message): such text would carry a secret into the caller's logs. Before a call's error
// reaches the caller, every text of its parameters (strings, numbers, the text a Date is sent as,
// and those inside arrays, tuples and maps) is replaced in the message, `serverMessage` and stack
// of the error and of each error in its `cause` chain.
// The server prints a value in several spellings: as chwire sent it (the parameter's escaped
// text form, `\\` and `\t` for a backslash and a tab), quoted as a SQL string literal
// (`'it\'s'`, in "Cannot parse string '…'" and in the query it echoes), backquoted as an
// identifier, double-quoted, JSON-escaped, and these applied twice (it quotes the text it was
// sent: `'a\\\\b'`). Every such spelling of a value is looked for, not only its raw text.
// Invariants: only texts of at least MIN_SECRET characters are looked for (shorter ones would
// mangle ordinary words); a run of the message that is the whole value in any of its spellings,
// or the first MIN_PREFIX characters or more of one (the server sometimes quotes a cut value),
// becomes ‹param›.
import { isChwireError } from '../../errors.js';

const MIN_SECRET = 4;
const MIN_PREFIX = 8;
const MARK = '‹param›';

/** The texts of the parameter values worth looking for (deduplicated, longest first). */
export function secretTexts(params: Readonly<Record<string, unknown>> | undefined): string[] {
  if (params === undefined) return [];
  const out = new Set<string>();
  const visit = (v: unknown, depth: number): void => {
    if (depth > 8 || v === null || v === undefined) return;
    if (typeof v === 'string') { if (v.length >= MIN_SECRET) out.add(v); return; }
    if (v instanceof Uint8Array) { if (v.length >= MIN_SECRET) out.add(new TextDecoder().decode(v)).add(bytesSent(v)); return; }
    if (typeof v === 'number' || typeof v === 'bigint') { const s = String(v); if (s.length >= MIN_SECRET) out.add(s); return; }
    if (v instanceof Date) { for (const t of dateTexts(v)) out.add(t); return; }
    if (v instanceof Map) { for (const [k, x] of v) { visit(k, depth + 1); visit(x, depth + 1); } return; }
    if (Array.isArray(v)) { for (const x of v) visit(x, depth + 1); return; }
    // A tuple(…) (params.ts QueryTuple): its elements, not its field name `values` as a secret.
    if (typeof v === 'object' && Object.getPrototypeOf(v) !== Object.prototype && Object.getPrototypeOf(v) !== null && Array.isArray((v as { values?: unknown }).values)) {
      for (const x of (v as { values: unknown[] }).values) visit(x, depth + 1);
      return;
    }
    if (typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) { visit(k, depth + 1); visit(x, depth + 1); }
    }
  };
  for (const v of Object.values(params)) visit(v, 0);
  return [...out].sort((a, b) => b.length - a.length);
}

/**
 * `secrets` with every other spelling of each (see spellings), longest first. Made when an error
 * is redacted, not when a call begins: a call that succeeds pays nothing for them.
 */
export function spelledTexts(secrets: readonly string[]): string[] {
  const out = new Set(secrets);
  for (const t of secrets) for (const x of spellings(t)) out.add(x);
  return [...out].sort((a, b) => b.length - a.length);
}

/** The text params.ts sends for bytes (printable ASCII as is, a backslash doubled, the rest `\xHH`), which the server echoes. */
function bytesSent(b: Uint8Array): string {
  let out = '';
  for (const x of b) out += x === 0x5c ? '\\\\' : x >= 0x20 && x < 0x7f ? String.fromCharCode(x) : `\\x${x.toString(16).padStart(2, '0')}`;
  return out;
}

/** Characters some spelling writes differently: escapes, quotes, control characters. */
const SPECIAL = /[\\'"`\u0000-\u001f\u007f\u2028\u2029]/;
const ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\', '\0': '\\0', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t',
};

/**
 * The server's escaping (WriteHelpers' writeAnyEscapedString): backslash escapes, and the quote
 * character if any, escaped with a backslash or (`doubled`, as it reprints a parameter's array
 * text: `['it''s']`) written twice.
 */
function escaped(text: string, quote: string, doubled = false): string {
  let out = '';
  for (const c of text) out += c === quote ? (doubled ? c + c : `\\${c}`) : ESCAPES[c] ?? c;
  return out;
}

const SPELLINGS: readonly ((t: string) => string)[] = [
  (t) => escaped(t, ''), // the parameter text chwire sends, as the server echoes it
  (t) => escaped(t, "'"), // a string literal
  (t) => escaped(t, "'", true), // a string literal, SQL-standard quote
  (t) => escaped(t, '`'), // an identifier
  (t) => escaped(t, '`', true),
  (t) => escaped(t, '"'), // a double-quoted name
  (t) => JSON.stringify(t).slice(1, -1), // JSON
];

/** Every other way the server may print `text`: one spelling, or two applied in turn. */
function spellings(text: string): string[] {
  if (!SPECIAL.test(text)) return [];
  const once = new Set<string>();
  for (const f of SPELLINGS) once.add(f(text));
  const out = new Set(once);
  for (const x of once) if (SPECIAL.test(x)) for (const f of SPELLINGS) out.add(f(x));
  out.delete(text);
  return [...out];
}

/**
 * The texts params.ts sends for a Date (Unix seconds, zero-padded to 10 digits, with the
 * milliseconds when there are any), which the server quotes back when it cannot use them. (Its
 * 'YYYY-MM-DD' form goes only to Date placeholders, which take every such text.)
 */
function dateTexts(d: Date): string[] {
  const ms = d.getTime();
  if (Number.isNaN(ms)) return [];
  const abs = Math.abs(ms);
  const seconds = `${ms < 0 ? '-' : ''}${String(Math.floor(abs / 1000)).padStart(10, '0')}`;
  const out = [seconds];
  if (ms < 0) out.push(String(Math.floor(ms / 1000)).padStart(10, '0'));
  if (abs % 1000 !== 0) out.push(`${seconds}.${String(abs % 1000).padStart(3, '0')}`);
  return out;
}

/** `text` with every whole value, or a long enough prefix of one, replaced (`secrets` as they are: spelledTexts adds the other spellings). */
export function redactText(text: string, secrets: readonly string[]): string {
  if (secrets.length === 0) return text;
  // Candidates by their first MIN_SECRET characters (every secret has that many), longest first
  // as in `secrets`: one lookup per position instead of a pass over every secret, so a parameter
  // of 60 000 array elements costs milliseconds, not seconds.
  const byHead = new Map<string, string[]>();
  for (const s of secrets) {
    const head = s.slice(0, MIN_SECRET);
    const list = byHead.get(head);
    if (list === undefined) byHead.set(head, [s]);
    else list.push(s);
  }
  let out = '';
  let i = 0;
  outer: while (i < text.length) {
    const candidates = i + MIN_SECRET <= text.length ? byHead.get(text.slice(i, i + MIN_SECRET)) : undefined;
    if (candidates !== undefined) {
      // The longest run any candidate covers: spellings of one value share their first characters,
      // and stopping at the first that matches 8 would leave the rest of a longer one in the text.
      let best = 0;
      for (const s of candidates) {
        let n = MIN_SECRET;
        while (n < s.length && i + n < text.length && text.charCodeAt(i + n) === s.charCodeAt(n)) n++;
        if ((n === s.length || n >= MIN_PREFIX) && n > best) best = n;
        if (n === s.length) break; // the rest are no longer (longest first)
      }
      if (best > 0) {
        out += MARK;
        i += best;
        continue outer;
      }
    }
    out += text[i];
    i++;
  }
  return out;
}

/** Redacts an error, its cause chain and its earlier attempts in place (message, stack, serverMessage). */
export function redactError(e: unknown, secrets: readonly string[]): void {
  if (secrets.length === 0) return;
  const all = spelledTexts(secrets);
  const seen = new Set<unknown>();
  const pending: unknown[] = [e];
  while (pending.length > 0) redactChain(pending.pop(), all, seen, pending);
}

/** Redacts one error and its cause chain; the earlier attempts of a retried call are queued in `pending`. */
function redactChain(e: unknown, secrets: readonly string[], seen: Set<unknown>, pending: unknown[]): void {
  for (let cur = e; cur instanceof Error && !seen.has(cur); cur = (cur as { cause?: unknown }).cause) {
    seen.add(cur);
    const earlier = (cur as { earlierAttempts?: unknown }).earlierAttempts;
    if (Array.isArray(earlier)) pending.push(...(earlier as unknown[]));
    const err = cur as Error & { serverMessage?: unknown };
    const msg = redactText(err.message, secrets);
    if (msg !== err.message) Object.defineProperty(err, 'message', { value: msg, writable: true, configurable: true, enumerable: false });
    if (typeof err.stack === 'string') {
      const st = redactText(err.stack, secrets);
      if (st !== err.stack) Object.defineProperty(err, 'stack', { value: st, writable: true, configurable: true, enumerable: false });
    }
    if (isChwireError(cur) && typeof err.serverMessage === 'string') {
      Object.defineProperty(err, 'serverMessage', { value: redactText(err.serverMessage, secrets), writable: false, configurable: true, enumerable: true });
    }
  }
}
