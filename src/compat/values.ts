// insert()'s values as @clickhouse/client 1.x sends them: JSON formats get one
// `stringify(value) + "\n"` per row (arrays, object-mode streams) or for the one object of the
// JSON / JSONObjectEachRow formats; byte streams (CSV, TSV, … files) go as they are.
// Runtime-neutral: a Node Readable is recognised by its shape, not imported.
// Invariant: the body is byte for byte the official client's, and what it refuses is refused here
// before anything is sent.
import { ChwireConfigError } from '../errors.js';
import { isJsonFormat, isRawFormat } from './formats.js';
import type { JSONHandling } from './options.js';

/** What tells a Node stream apart, as the official client checks it. */
interface StreamLike { pipe: unknown; on: unknown; readableObjectMode?: boolean }

export function isStream(v: unknown): v is StreamLike & AsyncIterable<unknown> {
  return typeof v === 'object' && v !== null && typeof (v as StreamLike).pipe === 'function' && typeof (v as StreamLike).on === 'function';
}

const encoder = new TextEncoder();

function jsonLine(value: unknown, format: string, json: JSONHandling): string {
  if (!isJsonFormat(format)) throw new ChwireConfigError(`insert: values other than a byte stream need a JSON format; ${format} takes a stream of its own bytes (a Readable not in object mode)`);
  return `${json.stringify(value)}\n`;
}

/** Checks values against the format as the official client does (its refusals, in chwire's words). */
export function checkValues(values: unknown, format: string): void {
  if (!Array.isArray(values) && !isStream(values) && (typeof values !== 'object' || values === null)) {
    throw new ChwireConfigError(`insert: values must be an array, a Node stream or (JSON formats) an object, got ${values === null ? 'null' : typeof values}`);
  }
  if (isStream(values)) {
    const objectMode = values.readableObjectMode === true;
    if (isRawFormat(format) && objectMode) throw new ChwireConfigError(`insert: format ${format} takes a Readable of bytes, not one in object mode`);
    if (!isRawFormat(format) && !objectMode) throw new ChwireConfigError(`insert: format ${format} takes a Readable in object mode (one value per row)`);
  }
}

/**
 * The request body. Arrays and a single object are encoded now (a value JSON cannot take, such as
 * a bigint with the default stringify, throws here, before anything is sent); streams as they flow.
 */
export function bodyOf(values: unknown, format: string, json: JSONHandling): AsyncIterable<Uint8Array> {
  if (isStream(values)) {
    if (values.readableObjectMode === true) {
      return (async function* () {
        for await (const v of values) yield encoder.encode(jsonLine(v, format, json));
      })();
    }
    return (async function* () {
      for await (const c of values) yield typeof c === 'string' ? encoder.encode(c) : c as Uint8Array;
    })();
  }
  const text = Array.isArray(values) ? values.map((v) => jsonLine(v, format, json)).join('') : jsonLine(values, format, json);
  const bytes = encoder.encode(text);
  return (async function* () { yield bytes; })();
}
