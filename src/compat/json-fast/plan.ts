// The JSON fast path's decisions, made before a query is sent and once per result schema:
// whether json() of a JSON format can be served from chwire's binary read path (RowBinary /
// Native) instead of the server's JSON text, and, per column, what turns chwire's decoded value
// into exactly what JSON.parse gives for the server's JSON of that value.
//
// Invariant: the fast path is chosen only where every value is known to come out deep-equal to
// JSON.parse of the server's own JSON: one JSON format (JSONEachRow), the default JSON.parse, no
// session (a SET in a session changes the JSON unseen), server versions the differential test
// covers (18.16 and 26+), every setting that can change JSON rendering (the call's and the
// profile's changed ones) modelled with a value modelled, date-times only in UTC. Anything else,
// or a column type outside the list below (known only from the result's header), is `undefined`:
// the caller then uses the server's JSON. Nothing here runs per value but the converters chosen.
import type { ColumnInfo } from '../../stream-decoder.js';
import type { DecodeOptions } from '../../plan/options.js';
import type { TypeNode } from '../../types/ast.js';
import { parseType } from '../../types/parse.js';

/** What the probe learnt of a server (probe.ts). */
export interface ServerFacts {
  readonly major: number;
  readonly minor: number;
  /** timezone() */
  readonly timezone: string;
  /** The settings the user's profile changed and the modelled ones (their build's defaults differ: chdb's quote no 64-bit integers): name → value. */
  readonly changed: Readonly<Record<string, string>>;
  /** content-type and x-clickhouse-format of the server's JSONEachRow answers. */
  readonly jsonHeaders: Readonly<Record<string, string>>;
}

/** How a fast query is sent and read; decided before sending. */
export interface FastPlan {
  readonly wireFormat: 'RowBinaryWithNamesAndTypes' | 'Native';
  /** Int64/UInt64 (and wider) as JSON strings (output_format_json_quote_64bit_integers). */
  readonly quote64: boolean;
  /** The zone of zone-less date-times (session_timezone, else the server's). */
  readonly zone: string;
  /**
   * 18.16: no Bool, Date32, DateTime64, 128/256-bit integers; dates printed its own way (the zero
   * Date / DateTime as 0000-00-00, wrapped past 2106-02-07) and a top-level DateTime's zone
   * dropped from Native headers: those go as JSON.
   */
  readonly old: boolean;
}

/** The formats served from the binary path. */
const FAST_FORMATS: ReadonlySet<string> = new Set(['JSONEachRow']);

/** Settings whose names can change how a value is rendered in JSON (or the defaults that do). */
const RENDERING = /^(output_|format_|date_time_output|session_timezone$|timezone$|interval_output|bool_|compatibility$|precise_float|dialect$)/;

const TRUE = /^(1|true)$/i;
const FALSE = /^(0|false)$/i;
const UTC_ZONES: ReadonlySet<string> = new Set(['UTC', 'Etc/UTC', 'UCT', 'Etc/UCT', 'Universal', 'Etc/Universal', 'Zulu', 'Etc/Zulu', 'GMT', 'Etc/GMT']);

/** Settings of the rendering family that only other formats read. */
const OTHER_FORMATS = /^(output_format|format)_(arrow|parquet|orc|avro|csv|tsv|pretty|markdown|protobuf|capn_proto|msgpack|bson|sql_insert|xml|template|regexp|values|custom|npy|tsv)_/;

/** Rendering settings the fast path models: the values for which it renders as the server does. */
const MODELLED: Readonly<Record<string, (v: string) => boolean>> = {
  output_format_json_quote_64bit_integers: (v) => TRUE.test(v) || FALSE.test(v),
  output_format_json_quote_denormals: (v) => FALSE.test(v),
  output_format_json_quote_decimals: (v) => FALSE.test(v),
  output_format_json_quote_64bit_floats: (v) => FALSE.test(v),
  output_format_json_validate_utf8: (v) => FALSE.test(v),
  // Decimals are unquoted (numbers): their trailing zeros do not reach JSON.parse's value.
  output_format_decimal_trailing_zeros: (v) => TRUE.test(v) || FALSE.test(v),
  // Escapes JSON.parse reads back to the same characters.
  output_format_json_escape_forward_slashes: (v) => TRUE.test(v) || FALSE.test(v),
  date_time_output_format: (v) => v === 'simple',
  session_timezone: (v) => v === '' || UTC_ZONES.has(v),
};

/** The settings whose values the probe reads whether changed or not (max_query_size: see planBeforeSend). */
export const MODELLED_NAMES: readonly string[] = [...Object.keys(MODELLED), 'max_query_size'];

/** The most characters a FORMAT clause adds beyond the statement (` \nFORMAT RowBinaryWithNamesAndTypes`), with room to spare. */
const CLAUSE_ROOM = 64;

export interface BeforeSend {
  readonly format: string;
  /** The statement's length in characters (max_query_size is counted in bytes: ≥ characters). */
  readonly sqlLength: number;
  /** The settings the query is sent with (client's and call's, rendered). */
  readonly settings: Readonly<Record<string, string>>;
  readonly session: boolean;
  readonly defaultParse: boolean;
}

/** Whether `q` may be served by the fast path on `server`, and how; undefined: send it as JSON. */
export function planBeforeSend(q: BeforeSend, server: ServerFacts | undefined): FastPlan | undefined {
  if (server === undefined || !FAST_FORMATS.has(q.format) || q.session || !q.defaultParse) return undefined;
  const old = server.major === 18;
  if (!old && server.major < 26) return undefined;
  const effective: Record<string, string> = { ...server.changed, ...q.settings };
  for (const name of Object.keys(effective)) {
    if (!RENDERING.test(name) || OTHER_FORMATS.test(name)) continue;
    const ok = Object.prototype.hasOwnProperty.call(MODELLED, name) ? MODELLED[name]! : undefined;
    if (ok === undefined || !ok(effective[name]!)) return undefined;
  }
  // A statement near max_query_size could fit with one FORMAT clause and not with the other: as JSON.
  const maxQuery = Number(effective['max_query_size'] ?? 262144);
  if (!(q.sqlLength * 4 + CLAUSE_ROOM <= maxQuery)) return undefined;
  const q64 = effective['output_format_json_quote_64bit_integers'];
  const session = effective['session_timezone'];
  const zone = session !== undefined && session !== '' ? session : server.timezone;
  return {
    wireFormat: old ? 'Native' : 'RowBinaryWithNamesAndTypes',
    quote64: q64 === undefined ? true : TRUE.test(q64),
    zone,
    old,
  };
}

/** The decode options the fast path reads with (the forms JSON.parse gives, before the converters). */
export function decodeOptionsOf(plan: FastPlan): DecodeOptions {
  const ints = plan.quote64 ? 'string' : 'number';
  return {
    rows: 'object', int64: ints, int128: ints, decimal: 'number', datetime: 'text', date: 'string',
    strings: 'string', uuid: 'string', maps: 'object', float32: 'shortest',
  };
}

/** A decoded value → JSON.parse's value of the server's JSON for it. */
export type Convert = (v: unknown) => unknown;
const SAME = 'same';
type Conv = Convert | typeof SAME | undefined;

const finite: Convert = (v) => (Number.isFinite(v as number) ? v : null);

/** Per column: the converter, SAME when chwire's value already is JSON.parse's, undefined when the type is outside the fast path. */
function converterOf(t: TypeNode, plan: FastPlan): Conv {
  switch (t.kind) {
    case 'Int8': case 'Int16': case 'Int32': case 'UInt8': case 'UInt16': case 'UInt32':
    case 'Int64': case 'UInt64': case 'String': case 'FixedString': case 'UUID':
    case 'Enum8': case 'Enum16': case 'Decimal':
      return SAME;
    case 'Int128': case 'UInt128': case 'Int256': case 'UInt256': case 'Bool': case 'Date32':
      return plan.old ? undefined : SAME;
    case 'Float32': case 'Float64':
      return finite;
    case 'Date':
      return plan.old ? undefined : SAME;
    case 'DateTime':
      if (plan.old || !UTC_ZONES.has(t.timezone ?? plan.zone)) return undefined;
      return SAME;
    case 'DateTime64':
      if (plan.old || !UTC_ZONES.has(t.timezone ?? plan.zone)) return undefined;
      return SAME;
    case 'Nothing':
      return SAME;
    case 'LowCardinality':
      return converterOf(t.inner, plan);
    case 'Nullable': {
      // chwire's Native reader checks the value under a NULL of Nullable(Enum) (18.16 writes 0 there, no label): as JSON.
      if (plan.wireFormat === 'Native' && (t.inner.kind === 'Enum8' || t.inner.kind === 'Enum16')) return undefined;
      const inner = converterOf(t.inner, plan);
      if (inner === undefined || inner === SAME) return inner;
      return (v) => (v === null ? null : inner(v));
    }
    case 'Array': {
      const el = converterOf(t.element, plan);
      if (el === undefined || el === SAME) return el;
      return (v) => {
        const a = v as unknown[];
        const out = new Array<unknown>(a.length);
        for (let i = 0; i < a.length; i++) out[i] = el(a[i]);
        return out;
      };
    }
    default:
      return undefined;
  }
}

/** Turns a decoded row into JSON.parse's row in place (or leaves it when no column needs it). */
export type RowFix = (row: Record<string, unknown>) => void;

/**
 * The row fix for a result's columns, or undefined when a column's type (or its name) is outside
 * the fast path: the result must then be read as the server's JSON.
 */
export function rowFixOf(columns: readonly ColumnInfo[], plan: FastPlan): RowFix | undefined {
  const seen = new Set<string>();
  const names: string[] = [];
  const fns: Convert[] = [];
  for (const c of columns) {
    // A repeated name (JSON.parse keeps the last) and __proto__ (an assignment would set the prototype) go as JSON.
    if (seen.has(c.name) || c.name === '__proto__') return undefined;
    seen.add(c.name);
    let t: TypeNode;
    try { t = parseType(c.type); } catch { return undefined; }
    const conv = converterOf(t, plan);
    if (conv === undefined) return undefined;
    if (conv !== SAME) { names.push(c.name); fns.push(conv); }
  }
  const n = names.length;
  if (n === 0) return () => { /* every value already is JSON.parse's */ };
  if (fns.every((f) => f === finite)) {
    // Float columns only: a property is written only for NaN / ±Infinity (x - x is 0 for every finite x).
    return (row) => {
      for (let i = 0; i < n; i++) {
        const k = names[i]!;
        const v = row[k] as number;
        if (v - v !== 0) row[k] = null;
      }
    };
  }
  return (row) => {
    for (let i = 0; i < n; i++) { const k = names[i]!; row[k] = fns[i]!(row[k]); }
  };
}
