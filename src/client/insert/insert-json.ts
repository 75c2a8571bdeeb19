// Objects inserted with a JSON row format (`insert(table, rows, { format: 'JSONEachRow' })`):
// each row serialised as one line of that format, as the server reads it, and sent in chunks of
// about 64 KiB. JSONEachRow/JSONLines/NDJSON objects and JSONCompactEachRow arrays are written by
// the table's column types (insert-json-rows.ts, json-values.ts); the rest, and the values of
// Variant, Dynamic and JSON columns there, are written from the JS value by `jsonValue` below,
// so that what the server reads is what was meant: a bigint is a number literal with all its
// digits (read exactly by (U)Int64/128/256 and Decimal columns), a number as JSON writes it but
// `-0` with its sign and NaN/±Infinity as "nan"/"inf"/"-inf" (JSON has no such literal; the
// server reads these strings into Float columns), a Date as its Unix time in seconds with the
// milliseconds ("1704164645.123"), which DateTime and DateTime64 read as that instant in every
// zone (a Date column refuses it: pass 'YYYY-MM-DD'), Maps as objects, arrays and plain objects as
// themselves, null as null, an undefined property left out (the column's default; 18.16 fills the
// type's default unless input_format_defaults_for_omitted_fields=1).
// Invariant: a value the format cannot carry exactly is a ChwireEncodeError naming the row and the
// property path and the kind of the value, never its text: a Date before 1970 (the server reads
// no negative Unix time from text), bytes (JSON strings are Unicode text), a lone UTF-16
// surrogate, functions, symbols, class instances, cycles.
import { ChwireEncodeError } from '../../errors.js';

const encoder = new TextEncoder();
const CHUNK = 65536;
const MAX_DEPTH = 64;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether `format` is a JSON format with one row per line (objects can be sent in it). */
export function isJsonRowFormat(format: string): boolean {
  return /^(JSONLines|NDJSON)$/i.test(format) || /^JSON\w*EachRow/i.test(format);
}

/** `expected`: what the format can carry there; the value is described by kind only (errors.ts). */
function fail(row: number, path: string, expected: string, value?: unknown): never {
  throw new ChwireEncodeError('insert in a JSON format', { column: path, row, expected, value });
}

function isPlain(v: object): boolean {
  const p = Object.getPrototypeOf(v) as unknown;
  return p === Object.prototype || p === null;
}

/** One value as JSON text the server reads back as that value. */
export function jsonValue(v: unknown, row: number, path: string, stack: object[]): string {
  switch (typeof v) {
    case 'string':
      if (LONE_SURROGATE.test(v)) fail(row, path, 'a string with no lone UTF-16 surrogate (it has no UTF-8 form)', v);
      return JSON.stringify(v);
    case 'number':
      if (Number.isFinite(v)) return Object.is(v, -0) ? '-0' : JSON.stringify(v);
      return Number.isNaN(v) ? '"nan"' : v > 0 ? '"inf"' : '"-inf"';
    case 'bigint': return v.toString();
    case 'boolean': return v ? 'true' : 'false';
    case 'object': {
      if (v === null) return 'null';
      if (v instanceof Date) {
        const ms = v.getTime();
        if (Number.isNaN(ms)) fail(row, path, 'a valid Date', v);
        if (ms < 0) fail(row, path, 'a Date from 1970 on (the server reads no negative Unix time from JSON text; insert earlier ones with the default Native format)', v);
        const s = String(Math.floor(ms / 1000)).padStart(10, '0');
        const frac = ms % 1000;
        return `"${s}${frac === 0 ? '' : `.${String(frac).padStart(3, '0')}`}"`;
      }
      if (v instanceof Uint8Array) fail(row, path, 'no bytes (JSON strings are Unicode text; send bytes with the default Native format)', v);
      if (stack.includes(v)) fail(row, path, 'a value that does not contain itself', v);
      if (stack.length >= MAX_DEPTH) fail(row, path, `at most ${MAX_DEPTH} levels of nesting`, v);
      stack.push(v);
      try {
        if (Array.isArray(v)) return `[${v.map((x, i) => jsonValue(x === undefined ? null : x, row, `${path}[${i}]`, stack)).join(',')}]`;
        if (v instanceof Map) {
          const parts: string[] = [];
          let i = 0;
          for (const [k, x] of v) {
            const key = typeof k === 'string' ? k : typeof k === 'number' || typeof k === 'bigint' ? String(k) : fail(row, `${path}{key ${i}}`, 'a Map key that is a string or a number', k);
            parts.push(`${jsonValue(key, row, `${path}{key ${i}}`, stack)}:${jsonValue(x, row, `${path}{value ${i}}`, stack)}`);
            i++;
          }
          return `{${parts.join(',')}}`;
        }
        if (isPlain(v)) {
          const parts: string[] = [];
          for (const k of Object.keys(v)) {
            const x = (v as Record<string, unknown>)[k];
            if (x === undefined) continue;
            parts.push(`${jsonValue(k, row, path, stack)}:${jsonValue(x, row, path === '' ? k : `${path}.${k}`, stack)}`);
          }
          return `{${parts.join(',')}}`;
        }
        return fail(row, path, 'a value JSON can carry (string, number, bigint, boolean, null, Date, array, Map or plain object)', v);
      } finally {
        stack.pop();
      }
    }
    default:
      return fail(row, path, 'a value JSON can carry (string, number, bigint, boolean, null, Date, array, Map or plain object)', v);
  }
}

/**
 * The body of a JSON-row-format insert: objects (and arrays, for the JSONCompact… formats) become
 * lines (through `rowText`, the table's typed plan, when there is one: insert-json-rows.ts); bytes
 * and strings given among them pass as they are.
 */
export async function* jsonRowBytes(rows: AsyncIterable<unknown> | Iterable<unknown>, rowText?: (r: object, row: number) => string): AsyncGenerator<Uint8Array> {
  let buf = '';
  let row = 0;
  for await (const r of rows as AsyncIterable<unknown>) {
    if (r instanceof Uint8Array || typeof r === 'string') {
      if (buf !== '') { yield encoder.encode(buf); buf = ''; }
      yield typeof r === 'string' ? encoder.encode(r) : r;
    } else {
      if (typeof r !== 'object' || r === null) fail(row, '', 'a row that is an object (or an array, for the JSONCompact… formats)', r);
      buf += `${rowText === undefined ? jsonValue(r, row, '', []) : rowText(r, row)}\n`;
      if (buf.length >= CHUNK) { yield encoder.encode(buf); buf = ''; }
    }
    row++;
  }
  if (buf !== '') yield encoder.encode(buf);
}
