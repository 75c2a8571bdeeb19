// Parameter values the server prints escaped never reach the caller (issue 25, item 10). Random
// secrets with quotes, backslashes, tabs, newlines, control characters and non-ASCII are passed
// as query parameters to queries the embedded engine (26.7) refuses while quoting the value: as a
// date, a number, a UUID, an identifier, a tuple, a JSON object, inside a function call it echoes,
// in a throwIf message. The engine prints the value raw, as the escaped text chwire sent, quoted as
// a string literal (of that text too), backquoted, or cut. None of these spellings, nor any 16
// characters of one, may appear in the error's message, serverMessage or stack (its cause chain
// included), in a log line or in a span. The spellings are computed here, apart from redact.ts.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createClient, isChwireError } from '../src/index.js';

const lines: string[] = [];
const show = (x: unknown): string => inspect(x, { depth: 20, breakLength: Infinity, maxStringLength: Infinity });
const logger = Object.fromEntries(['debug', 'info', 'warn', 'error'].map((level) => [level, (...args: unknown[]) => {
  lines.push(`log ${level}: ${show(args)}`, ...args.filter((a): a is string => typeof a === 'string'));
}]));
const exporter = new InMemorySpanExporter();
const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('escaped-secrets');
const c = createClient({ url: 'chdb://', logger: logger as never, logLevel: 'debug', tracing: { tracer } });
after(() => c.close());

// ---- the spellings, written independently of src/ ----
const BACKSLASHED: Record<string, string> = { '\\': '\\\\', '\0': '\\0', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const sent = (s: string): string => s.replace(/[\\\0\b\f\n\r\t]/g, (ch) => BACKSLASHED[ch]!);
const quoted = (s: string, q: string, doubled = false): string => [...s].map((ch) => (ch === q ? (doubled ? q + q : `\\${q}`) : BACKSLASHED[ch] ?? ch)).join('');
const json = (s: string): string => JSON.stringify(s).slice(1, -1);

function spellingsOf(secret: string): string[] {
  const out = new Set<string>();
  for (const base of [secret, sent(secret)]) {
    out.add(base);
    for (const q of ["'", '`', '"']) out.add(quoted(base, q)).add(quoted(base, q, true));
    out.add(json(base));
  }
  return [...out];
}

/** Every 16-character window of a spelling with at least 4 letters or digits (no chance match). */
function windows(spelling: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 16 <= spelling.length; i++) {
    const w = spelling.slice(i, i + 16);
    if ((w.match(/[A-Za-z0-9]/g) ?? []).length >= 4) out.push(w);
  }
  return out.length > 0 ? out : [spelling];
}

function errorTexts(e: unknown): string[] {
  const out: string[] = [];
  const seen = new Set<unknown>();
  const visit = (x: unknown): void => {
    for (let cur = x; cur instanceof Error && !seen.has(cur); cur = (cur as { cause?: unknown }).cause) {
      seen.add(cur);
      out.push(cur.message, String(cur.stack), String((cur as { serverMessage?: unknown }).serverMessage ?? ''), show(cur));
      for (const y of (cur as { earlierAttempts?: unknown[] }).earlierAttempts ?? []) visit(y);
    }
  };
  visit(e);
  return out;
}

const SPECIAL = ["'", '\\', '\t', '\n', '\r', '"', '`', '\0', '\b', '\f', '\x01', '\x1f', '\x7f', 'é', '😀', '\\n', "\\'", ' '];
const plain = fc.stringMatching(/^[A-Za-z0-9]{1,6}$/);
const secret = fc.array(fc.oneof(plain, fc.constantFrom(...SPECIAL)), { minLength: 4, maxLength: 14 })
  .filter((parts) => parts.some((p) => SPECIAL.includes(p)) && parts.join('').replace(/[^A-Za-z0-9]/g, '').length >= 6)
  .map((parts) => `Sq${parts.join('')}`);

/** Queries the engine refuses for such a value, quoting it in some spelling. */
const QUERIES: readonly [string, (s: string) => unknown][] = [
  ['SELECT {p:Date}', (s) => s], ['SELECT {p:DateTime}', (s) => s], ['SELECT {p:Float64}', (s) => s], ['SELECT {p:Bool}', (s) => s],
  ['SELECT {p:UUID}', (s) => s], ['SELECT {p:IPv4}', (s) => s], ['SELECT {p:IPv6}', (s) => s], ['SELECT {p:JSON}', (s) => s],
  ['SELECT {p:Tuple(String, UInt8)}', (s) => s], ['SELECT {p:Array(String)}', (s) => s], ['SELECT {p:Array(Date)}', (s) => [s]],
  ['SELECT {p:Map(String, Date)}', (s) => ({ k: s })], ['SELECT toUInt8({p:String})', (s) => s], ['SELECT CAST({p:String} AS UInt32)', (s) => s],
  ['SELECT throwIf(1, {p:String})', (s) => s], ['SELECT * FROM {p:Identifier}', (s) => s], ['SELECT {p:Identifier} FROM system.one', (s) => s],
  ['SELECT * FROM system.one WHERE dummy = {p:String}', (s) => s], ['SELECT toDate({p:String})', (s) => s], ['SELECT toDecimal32({p:String}, 2)', (s) => s],
];

test('escaped, quoted and cut spellings of a parameter never reach an error, a log line or a span (chdb://)', { timeout: 600_000 }, async () => {
  let redacted = 0;
  await fc.assert(fc.asyncProperty(secret, fc.constantFrom(...QUERIES), async (s, [sql, value]) => {
    lines.length = 0;
    exporter.reset();
    let caught: unknown;
    try { await c.fetch(sql, { params: { p: value(s) as never } }); } catch (e) { caught = e; }
    assert.ok(isChwireError(caught), `${sql}: must fail, got ${String(caught)}`);
    if (errorTexts(caught).some((t) => t.includes('‹param›'))) redacted++;
    for (const span of exporter.getFinishedSpans()) lines.push(show({ name: span.name, attributes: span.attributes, events: span.events, status: span.status }));
    const texts = [...errorTexts(caught), ...lines];
    for (const sp of spellingsOf(s)) {
      for (const w of windows(sp)) {
        for (const t of texts) assert.ok(!t.includes(w), `${sql}: ${JSON.stringify(w)} (of ${JSON.stringify(sp)}) in ${JSON.stringify(t.slice(0, 600))}`);
      }
    }
  }), { numRuns: 300 });
  assert.ok(redacted > 100, `the engine quoted the value and it was masked (${redacted} times)`);
});
