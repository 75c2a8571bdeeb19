// Objects (JSONEachRow, JSONLines, NDJSON) or arrays (JSONCompactEachRow) inserted in a JSON row
// format are written by the table's column types, as the Native path encodes them: the table's
// schema is read (schema-cache), the INSERT's columns are chosen from the first row as the Native
// path chooses them (insert-columns.ts: a column with a default that the first row leaves out is
// left to the server), and each row is written by one JsonWrite per column (json-values.ts).
//
// Invariants:
// - Decided once per insert, from the schema and the first row: the columns, their writers, the
//   row shape. A later row of another shape, a key that is no chosen column, or a value its column
//   cannot hold is a ChwireEncodeError naming the row and the column, as on the Native path; the
//   rows before it in the same ~64 KiB chunk are not sent.
// - Input that is not typed this way (bytes or strings first, another JSON format) goes as before
//   (insert-json.ts jsonRowBytes without a plan), and so do bytes and strings among typed rows.
import type { ServerInfo } from '../../transport/types.js';
import type { ClientCore } from '../core.js';
import type { InsertOptions, TableColumn } from './insert-types.js';
import { ChwireConfigError, ChwireEncodeError } from '../../errors.js';
import { EncodeFail, textZones } from '../../convert/encode-values.js';
import { parseType } from '../../types/parse.js';
import { tableSchema } from './table-schema.js';
import { serverTextZone } from '../capabilities.js';
import { serverTextZones, textZonesOf } from './server-text-zones.js';
import { chooseInsertColumns, explainLeftOut, namedInsertColumns, type InsertColumnChoice } from './insert-columns.js';
import { jsonWriter, type JsonWrite } from './json-values.js';

/** The typed shape of a JSON row format: object rows, array rows (column order), or none (sent as given). */
export function jsonRowShape(format: string): 'object' | 'array' | undefined {
  if (/^(JSONEachRow|JSONLines|NDJSON)$/i.test(format)) return 'object';
  if (/^JSONCompactEachRow$/i.test(format)) return 'array';
  return undefined;
}

export interface TypedJsonRows {
  /** The INSERT's column list. */
  readonly columns: readonly string[];
  /** The caller's rows, the peeked first one included. */
  readonly rows: Iterable<unknown> | AsyncIterable<unknown>;
  /** One row's JSON text (throws ChwireEncodeError). */
  readonly rowText: (r: object, row: number) => string;
  /** Turns the encoder's unknown-column error for a column the first row left out into what it is. */
  readonly explain: (e: unknown) => unknown;
}

/** The first element and an iterable of all of them (arrays are not consumed). */
async function peek(rows: Iterable<unknown> | AsyncIterable<unknown>): Promise<{ first: unknown; all: Iterable<unknown> | AsyncIterable<unknown> }> {
  if (Array.isArray(rows)) return { first: rows[0], all: rows };
  if (Symbol.asyncIterator in rows) {
    const it = (rows as AsyncIterable<unknown>)[Symbol.asyncIterator]();
    const r = await it.next();
    const all = {
      [Symbol.asyncIterator]: () => {
        let given = r.done === true;
        return {
          next: async (): Promise<IteratorResult<unknown>> => { if (!given) { given = true; return r; } return it.next(); },
          return: async (v?: unknown): Promise<IteratorResult<unknown>> => (it.return !== undefined ? it.return(v) : { done: true, value: v }),
        };
      },
    };
    return { first: r.done === true ? undefined : r.value, all };
  }
  const it = (rows as Iterable<unknown>)[Symbol.iterator]();
  const r = it.next();
  const all = {
    [Symbol.iterator]: () => {
      let given = r.done === true;
      return {
        next: (): IteratorResult<unknown> => { if (!given) { given = true; return r; } return it.next(); },
        return: (v?: unknown): IteratorResult<unknown> => (it.return !== undefined ? it.return(v) : { done: true, value: v }),
      };
    },
  };
  return { first: r.done === true ? undefined : r.value, all };
}

function isObjectRow(r: unknown): r is Record<string, unknown> {
  return typeof r === 'object' && r !== null && !Array.isArray(r) && !(r instanceof Uint8Array);
}

/**
 * The typed plan of a JSON-row-format insert into `table`, or undefined (with the rows to send
 * as they are) when the format or the first row is not one the plan types.
 */
export async function typedJsonRows(
  core: ClientCore, table: string, format: string, input: Iterable<unknown> | AsyncIterable<unknown>, opts: InsertOptions,
  info: ServerInfo, settings: Readonly<Record<string, string>>, maxAge: number,
): Promise<TypedJsonRows | { rows: Iterable<unknown> | AsyncIterable<unknown> }> {
  const shape = jsonRowShape(format);
  if (shape === undefined) return { rows: input };
  const { first, all } = await peek(input);
  if (shape === 'object' ? !isObjectRow(first) : !Array.isArray(first)) return { rows: all };
  const since = performance.now();
  let schema = await tableSchema(core, table, opts, maxAge, since);
  // A key the cached schema does not know: read the schema again before refusing it.
  if (!schema.fresh && shape === 'object' && Object.keys(first as object).some((k) => !schema.columns.some((c) => c.name === k))) {
    core.schemas.delete(schema.key);
    schema = await tableSchema(core, table, opts, 0, performance.now());
  }
  let cols: TableColumn[] = schema.columns;
  let choice: InsertColumnChoice | undefined;
  if (opts.columns !== undefined) {
    cols = namedInsertColumns(table, cols, opts.columns);
  } else if (shape === 'object') {
    choice = chooseInsertColumns(cols, first as object);
    cols = choice.columns;
  }
  const timezone = serverTextZone(settings, info);
  const server = await serverTextZones(core, info, textZonesOf(cols, timezone), opts);
  const zones = textZones(timezone, server.size > 0 ? server : undefined);
  // 22.6+ reads a named Tuple from a JSON object (input_format_json_named_tuples_as_objects, on by default).
  const namedTuplesAsObjects = info.major > 22 || (info.major === 22 && info.minor >= 6);
  const writers = cols.map((c) => jsonWriter(parseType(c.type), `${JSON.stringify(c.name)} (${c.type})`, { zones, namedTuplesAsObjects }));
  const names = cols.map((c) => c.name);
  const rowText = shape === 'object' ? objectRows(table, names, writers, cols) : arrayRows(names, writers);
  const explain = (e: unknown): unknown => explainLeftOut(e, choice);
  return { columns: names, rows: all, rowText: (r, row) => { try { return rowText(r, row); } catch (e) { throw explain(e); } }, explain };
}

function valueError(e: unknown, column: string, row: number): unknown {
  if (!(e instanceof EncodeFail)) return e;
  return new ChwireEncodeError('value does not fit its column', { column, row, expected: e.expected, value: e.value });
}

function notARow(r: unknown, row: number, expected: string): ChwireEncodeError {
  return new ChwireEncodeError('not a row', { column: '', row, expected, value: r });
}

function objectRows(table: string, names: readonly string[], writers: readonly JsonWrite[], cols: readonly TableColumn[]): (r: object, row: number) => string {
  const known = new Set(names);
  const keys = names.map((n) => `${JSON.stringify(n)}:`);
  const inherited = names.map((n) => n === '__proto__' || n in Object.prototype);
  const nullable = cols.map((c) => /^(LowCardinality\()?Nullable\(/.test(c.type));
  const list = names.map((x) => JSON.stringify(x)).join(', ');
  return (r, row) => {
    if (!isObjectRow(r)) throw notARow(r, row, 'an object keyed by column name');
    const o = r as Record<string, unknown>;
    // As the Native encoder reads a row: own or inherited enumerable keys; a key that is no
    // chosen column is refused (current servers would skip it silently).
    for (const k in o) {
      if (!known.has(k) && o[k] !== undefined) {
        throw new ChwireEncodeError('unknown column', { column: k, row, value: o[k], expected: `one of the insertable columns of ${table} (${list}), as read from the server for this insert (client.refreshSchema() forgets cached schemas)` });
      }
    }
    let s = '{';
    for (let k = 0; k < names.length; k++) {
      const v = inherited[k] ? (Object.prototype.hasOwnProperty.call(o, names[k]!) ? o[names[k]!] : undefined) : o[names[k]!];
      let text: string;
      try {
        // undefined in a Nullable column is NULL (as on the Native path), not the column's default.
        text = v === undefined && nullable[k] ? 'null' : writers[k]!(v);
      } catch (e) {
        throw valueError(e, names[k]!, row);
      }
      s += (k === 0 ? '' : ',') + keys[k] + text;
    }
    return `${s}}`;
  };
}

function arrayRows(names: readonly string[], writers: readonly JsonWrite[]): (r: object, row: number) => string {
  const m = names.length;
  return (r, row) => {
    if (!Array.isArray(r) || r.length !== m) throw notARow(r, row, `an array of ${m} values in column order`);
    let s = '[';
    for (let k = 0; k < m; k++) {
      try {
        s += (k === 0 ? '' : ',') + writers[k]!(r[k]);
      } catch (e) {
        throw valueError(e, names[k]!, row);
      }
    }
    return `${s}]`;
  };
}
