// Query-parameter values out of error messages. The server quotes a value it could not use
// ("Value … cannot be parsed as UInt8 for query parameter 'p'", "Cannot parse date here: …", a
// throwIf message): such text would carry a secret into the caller's logs. Before a call's error
// reaches the caller, every text of its parameters (strings, numbers, the text a Date is sent as,
// and those inside arrays, tuples and maps) is replaced in the message, `serverMessage` and stack
// of the error, of each error in its `cause` chain and of its earlier attempts.
// The server prints a value in several spellings: as chwire sent it (the parameter's escaped
// text form, `\\` and `\t` for a backslash and a tab), quoted as a SQL string literal
// (`'it\'s'` or `'it''s'`, in "Cannot parse string '…'" and in the query it echoes), backquoted as
// an identifier, double-quoted, JSON-escaped, and each of these also of the text it was sent and
// of the value's string literal (it quotes them: `'a\\\\b'`). Every such spelling of a value is
// looked for, not only its raw text, when an error is redacted.
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
 * `secrets` with every other spelling of each (see spellings), in no order. Made when an error
 * is redacted, not when a call begins: a call that succeeds pays nothing for them.
 */
export function spelledTexts(secrets: readonly string[]): string[] {
  const out = [...secrets];
  for (const t of secrets) for (const x of spellings(t)) out.push(x);
  return out;
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
  const re = quote === '' ? ESCAPED : quote === "'" ? ESCAPED_1 : quote === '`' ? ESCAPED_B : ESCAPED_2;
  return text.replace(re, (c) => (c === quote ? (doubled ? c + c : `\\${c}`) : ESCAPES[c]!));
}
const ESCAPED = /[\\\0\b\f\n\r\t]/g;
const ESCAPED_1 = /[\\\0\b\f\n\r\t']/g;
const ESCAPED_B = /[\\\0\b\f\n\r\t`]/g;
const ESCAPED_2 = /[\\\0\b\f\n\r\t"]/g;

const SPELLINGS: readonly ((t: string) => string)[] = [
  (t) => escaped(t, ''), // the parameter text chwire sends, as the server echoes it
  (t) => escaped(t, "'"), // a string literal
  (t) => escaped(t, "'", true), // a string literal, SQL-standard quote
  (t) => escaped(t, '`'), // an identifier
  (t) => escaped(t, '`', true),
  (t) => escaped(t, '"'), // a double-quoted name
  (t) => JSON.stringify(t).slice(1, -1), // JSON
];

/**
 * Every other way the server may print `text`: a spelling of the text itself, of the escaped text
 * chwire sent for it (the server quotes what it was sent), or of its string literal (an element of
 * an array parameter, quoted again in "expected … before: '…'").
 */
function spellings(text: string): string[] {
  if (!SPECIAL.test(text)) return [];
  const out = new Set<string>();
  for (const base of new Set([text, escaped(text, ''), escaped(text, "'")])) {
    out.add(base);
    if (SPECIAL.test(base)) for (const f of SPELLINGS) out.add(f(base));
  }
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

/**
 * The texts looked for, arranged so that each position of a message costs a binary search, however
 * many texts there are and however many share their first characters (60 000 array elements, each
 * in several spellings): texts of MIN_PREFIX characters or more sorted, where the one sharing the
 * longest run with the message at a position is next to where that position's text would sort;
 * shorter ones (matched only whole) in a set.
 */
class Matcher {
  private readonly long: string[] = [];
  private readonly short = new Set<string>();
  private maxShort = 0;

  constructor(secrets: readonly string[]) {
    for (const s of secrets) {
      if (s.length >= MIN_PREFIX) this.long.push(s);
      else if (s.length >= MIN_SECRET) { this.short.add(s); if (s.length > this.maxShort) this.maxShort = s.length; }
    }
    this.long.sort(); // by UTF-16 code units, as compare() reads them
  }

  get empty(): boolean {
    return this.long.length === 0 && this.short.size === 0;
  }

  /** The length of the longest run at text[i] a text covers (whole, or MIN_PREFIX or more of it); 0 when none. */
  match(text: string, i: number): number {
    let best = 0;
    const long = this.long;
    if (long.length > 0 && i + MIN_PREFIX <= text.length) {
      let lo = 0;
      let hi = long.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (compare(long[mid]!, text, i) <= 0) lo = mid + 1;
        else hi = mid;
      }
      for (const k of [lo - 1, lo]) {
        const s = long[k];
        if (s === undefined) continue;
        let n = 0;
        while (n < s.length && i + n < text.length && text.charCodeAt(i + n) === s.charCodeAt(n)) n++;
        if (n >= MIN_PREFIX && n > best) best = n;
      }
    }
    if (best === 0) {
      for (let n = Math.min(this.maxShort, text.length - i); n >= MIN_SECRET; n--) {
        if (this.short.has(text.slice(i, i + n))) return n;
      }
    }
    return best;
  }
}

/** Order of `s` against the text at `i` (a text that `s` begins counts as after `s`). */
function compare(s: string, text: string, i: number): number {
  for (let k = 0; k < s.length; k++) {
    if (i + k >= text.length) return 1;
    const d = s.charCodeAt(k) - text.charCodeAt(i + k);
    if (d !== 0) return d;
  }
  return 0;
}

/** `text` with every whole value, or a long enough prefix of one, replaced (`secrets` as they are: spelledTexts adds the other spellings). */
export function redactText(text: string, secrets: readonly string[]): string {
  return redactWith(text, new Matcher(secrets));
}

function redactWith(text: string, m: Matcher): string {
  if (m.empty) return text;
  let out = '';
  let i = 0;
  while (i < text.length) {
    const n = m.match(text, i);
    if (n > 0) {
      out += MARK;
      i += n;
    } else {
      out += text[i];
      i++;
    }
  }
  return out;
}

/** Redacts an error, its cause chain and its earlier attempts in place (message, stack, serverMessage). */
export function redactError(e: unknown, secrets: readonly string[]): void {
  if (secrets.length === 0) return;
  const m = new Matcher(spelledTexts(secrets));
  const seen = new Set<unknown>();
  const pending: unknown[] = [e];
  while (pending.length > 0) redactChain(pending.pop(), m, seen, pending);
}

/** Redacts one error and its cause chain; the earlier attempts of a retried call are queued in `pending`. */
function redactChain(e: unknown, m: Matcher, seen: Set<unknown>, pending: unknown[]): void {
  for (let cur = e; cur instanceof Error && !seen.has(cur); cur = (cur as { cause?: unknown }).cause) {
    seen.add(cur);
    const earlier = (cur as { earlierAttempts?: unknown }).earlierAttempts;
    if (Array.isArray(earlier)) pending.push(...(earlier as unknown[]));
    const err = cur as Error & { serverMessage?: unknown };
    const msg = redactWith(err.message, m);
    if (msg !== err.message) Object.defineProperty(err, 'message', { value: msg, writable: true, configurable: true, enumerable: false });
    if (typeof err.stack === 'string') {
      const st = redactWith(err.stack, m);
      if (st !== err.stack) Object.defineProperty(err, 'stack', { value: st, writable: true, configurable: true, enumerable: false });
    }
    if (isChwireError(cur) && typeof err.serverMessage === 'string') {
      Object.defineProperty(err, 'serverMessage', { value: redactWith(err.serverMessage, m), writable: false, configurable: true, enumerable: true });
    }
  }
}
