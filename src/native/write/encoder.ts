// The compiled Native encoder: per (columns, input shape) a generated `encodeBlock` that reads
// the rows once, fills numeric columns straight into typed arrays (validating inline), gathers
// the other columns' values, then writes one Native block (native.md §1) through the prebuilt
// column writers.
//
// Invariants:
// - No text from the schema (column names, type names, labels) becomes code: names reach the
//   generated source only as quoted property keys (codegen/literal.ts: one line, U+2028/U+2029
//   escaped), everything else through the
//   constants array `K`; integers enter through `int()`, which checks them.
// - A block is returned only after every value of every column has been validated: an error
//   leaves nothing half-written (the caller never sees partial bytes).
// - A precompiled encoder (a `chwire gen` module, kind `native-insert`) is used only for its exact
//   key and source hash, as for decoders (codegen/precompiled.ts).
// - Errors are ChwireEncodeError{column, row: rowBase + index in the block, expected, value}, where
//   `value` is only the kind of the offending value (errors.ts describeValue), never its content.
import { ChwireConfigError, ChwireEncodeError } from '../../errors.js';
import type { TypeNode } from '../../types/ast.js';
import { parseType } from '../../types/parse.js';
import { columnWriter, type ColumnWriter } from './column-writers.js';
import { EncodeFail, intRange, makeSmallInt, makeBigInt, makeFloat, toBool, makeDateTime, fixedDateTime, makeDays, makeDateTime64, textZones, type TextZone, type ServerTextZones } from '../../convert/encode-values.js';
import { ByteSink, stringBytes } from './sink.js';
import { BoundedCache, compiled, hashKey } from '../../codegen/compile.js';
import { jsString } from '../../codegen/literal.js';
import { lookupPrecompiled } from '../../codegen/precompiled.js';
import { interpretedEncodeBlock, type TypedArrayName } from './interpreted-encoder.js';

export interface NativeColumnSpec { readonly name: string; readonly type: string }

export interface NativeEncoder {
  readonly columns: readonly NativeColumnSpec[];
  readonly shape: 'object' | 'array';
  /** The generated source (for debugging and snapshot tests). */
  readonly source: string;
  /** Encode rows[start, end) as one Native block: the byte chunks to write, in order ([] for no rows). */
  encodeBlock(rows: readonly unknown[], start: number, end: number, rowBase: number): Uint8Array[];
}

/** How a top-level column is filled inside the row loop. */
interface Inline {
  /** Typed array allocation, `n` rows; declares `a<k>` (and a 32-bit view `u<k>` for 64-bit columns). */
  alloc: (k: number) => string;
  /** Statement storing `v` into row `j`; may call the slow coercer `S[k]`. */
  store: (k: number) => string;
  /** The typed array handed to the sink. */
  out: (k: number) => string;
  slow: (v: unknown) => unknown;
  /** The typed array `alloc` makes (for the interpreted encoder, which stores `slow(v)` only). */
  ctor: TypedArrayName;
}

/** A checked integer hole: the only way numbers enter generated source. */
function int(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error(`codegen: ${n} is not an integer`);
  return String(n);
}

function smallInt(ctor: TypedArrayName, bits: number, signed: boolean, test: string): Inline {
  const r = intRange(bits, signed);
  return {
    ctor,
    alloc: (k) => `const a${k} = new ${ctor}(n);`,
    store: (k) => `if (typeof v === 'number' && ${test}) a${k}[j] = v; else a${k}[j] = S[${k}](v);`,
    out: (k) => `a${k}`,
    slow: makeSmallInt(r),
  };
}

function int64(signed: boolean): Inline {
  return {
    ctor: signed ? 'BigInt64Array' : 'BigUint64Array',
    alloc: (k) => `const a${k} = new ${signed ? 'BigInt64Array' : 'BigUint64Array'}(n), u${k} = new Uint32Array(a${k}.buffer);`,
    // Safe-integer numbers are split into two 32-bit words: no BigInt allocated per value. A value
    // that fits 32 bits (the common id) takes one store: the high word is the sign, and the fresh
    // array is already zero.
    store: (k) => `if (typeof v === 'number') { if (${signed ? '(v | 0) === v) { u' + k + '[2 * j] = v; u' + k + '[2 * j + 1] = v >> 31; }' : '(v >>> 0) === v) u' + k + '[2 * j] = v;'}` +
      ` else if (Number.isSafeInteger(v)${signed ? '' : ' && v >= 0'}) { u${k}[2 * j] = v >>> 0; u${k}[2 * j + 1] = Math.floor(v / 4294967296) >>> 0; } else a${k}[j] = S[${k}](v); } else a${k}[j] = S[${k}](v);`,
    out: (k) => `a${k}`,
    slow: makeBigInt(intRange(64, signed)),
  };
}

function inlineFor(t: TypeNode, zones: (columnZone: string | undefined) => TextZone): Inline | undefined {
  switch (t.kind) {
    case 'UInt8': return smallInt('Uint8Array', 8, false, '(v & 255) === v');
    case 'UInt16': return smallInt('Uint16Array', 16, false, '(v & 65535) === v');
    case 'UInt32': return smallInt('Uint32Array', 32, false, '(v >>> 0) === v');
    case 'Int8': return smallInt('Int8Array', 8, true, '(v << 24 >> 24) === v');
    case 'Int16': return smallInt('Int16Array', 16, true, '(v << 16 >> 16) === v');
    case 'Int32': return smallInt('Int32Array', 32, true, '(v | 0) === v');
    case 'Int64': return int64(true);
    case 'UInt64': return int64(false);
    case 'Float64': case 'Float32': {
      const ctor = t.kind === 'Float64' ? 'Float64Array' : 'Float32Array';
      return {
        ctor,
        alloc: (k) => `const a${k} = new ${ctor}(n);`,
        store: (k) => `a${k}[j] = typeof v === 'number' ? v : S[${k}](v);`,
        out: (k) => `a${k}`,
        slow: makeFloat(t.kind === 'Float32'),
      };
    }
    case 'Bool': return {
      ctor: 'Uint8Array',
      alloc: (k) => `const a${k} = new Uint8Array(n);`,
      store: (k) => `a${k}[j] = v === true ? 1 : v === false ? 0 : S[${k}](v);`,
      out: (k) => `a${k}`,
      slow: toBool,
    };
    case 'DateTime': {
      const zone = zones(t.timezone);
      return {
        ctor: 'Uint32Array',
        alloc: (k) => `const a${k} = new Uint32Array(n);`,
        // Integer Unix seconds, Date objects and (zone UTC) 'YYYY-MM-DD hh:mm:ss' text (what JSON
        // pipelines carry) inline; the rest, and every failure, through the general coercer.
        store: (k) => `if (typeof v === 'number' ? (v >>> 0) === v && (t = v, true) : v instanceof Date ? (t = Math.floor(v.getTime() / 1000)) >= 0 : ${zone.utc ? `typeof v === 'string' && (t = H.fixedDateTime(v)) >= 0` : 'false'}) {` +
          ` if (t <= 4294967295) a${k}[j] = t; else a${k}[j] = S[${k}](v); } else a${k}[j] = S[${k}](v);`,
        out: (k) => `a${k}`,
        slow: makeDateTime(zone),
      };
    }
    case 'Date': return {
      ctor: 'Uint16Array',
      alloc: (k) => `const a${k} = new Uint16Array(n);`,
      // A number is days (as the server reads a JSONEachRow number for Date).
      store: (k) => `if (typeof v === 'number' ? (v & 65535) === v && (t = v, true) : v instanceof Date && (t = Math.floor(v.getTime() / 86400000)) >= 0 && t <= 65535) a${k}[j] = t; else a${k}[j] = S[${k}](v);`,
      out: (k) => `a${k}`,
      slow: makeDays(0, 65535, 'Date'),
    };
    case 'DateTime64': {
      if (t.precision > 3) return undefined;
      const div = int(10 ** (3 - t.precision));
      return {
        ctor: 'BigInt64Array',
        alloc: (k) => `const a${k} = new BigInt64Array(n), u${k} = new Uint32Array(a${k}.buffer);`,
        // A number is integer ticks (as the server reads a JSONEachRow number for DateTime64(P)).
        store: (k) => `if (typeof v === 'number' ? Number.isSafeInteger(t = v) : v instanceof Date && Number.isSafeInteger(t = ${div === '1' ? 'v.getTime()' : `Math.floor(v.getTime() / ${div})`})) { u${k}[2 * j] = t >>> 0; u${k}[2 * j + 1] = Math.floor(t / 4294967296) >>> 0; } else a${k}[j] = S[${k}](v);`,
        out: (k) => `a${k}`,
        slow: makeDateTime64(t.precision, zones(t.timezone)),
      };
    }
    default: return undefined;
  }
}

/** Names that a plain property read would find on Object.prototype: read them as own properties only. */
function inheritedName(name: string): boolean {
  return name === '__proto__' || name in Object.prototype;
}

function generate(columns: readonly NativeColumnSpec[], types: readonly TypeNode[], shape: 'object' | 'array', zones: (columnZone: string | undefined) => TextZone): { source: string; S: unknown[]; inl: (Inline | undefined)[] } {
  const L: string[] = [];
  const S: unknown[] = [];
  const inl = types.map((t) => inlineFor(t, zones));
  const m = columns.length;
  L.push(`'use strict';`);
  L.push(`return function encodeBlock(rows, start, end, rowBase) {`);
  L.push(`  const n = end - start;`);
  L.push(`  if (!(n > 0)) return [];`);
  for (let k = 0; k < m; k++) {
    const x = inl[k];
    S.push(x?.slow);
    L.push(x ? `  ${x.alloc(k)}` : `  const c${k} = new Array(n);`);
  }
  L.push(`  let j = 0, col = -1, v, t, r;`);
  L.push(`  try {`);
  L.push(`    for (let i = start; i < end; i++, j++) {`);
  L.push(`      r = rows[i]; col = -1;`);
  if (shape === 'object') {
    L.push(`      if (typeof r !== 'object' || r === null || Array.isArray(r)) H.badRow(r, false);`);
    // Count own + inherited enumerable keys; a mismatch with the present columns means an unknown key.
    L.push(`      let keys = 0, present = 0;`);
    L.push(`      for (const _ in r) keys++;`);
  } else {
    L.push(`      if (!Array.isArray(r) || r.length !== ${int(m)}) H.badRow(r, true);`);
  }
  for (let k = 0; k < m; k++) {
    const name = columns[k]!.name;
    let read: string;
    if (shape === 'array') read = `r[${int(k)}]`;
    else if (inheritedName(name)) read = `(H.own(r, K[${int(k)}]) ? r[K[${int(k)}]] : undefined)`;
    else read = `r[${jsString(name)}]`;
    L.push(`      col = ${int(k)}; v = ${read};${shape === 'object' ? ' if (v !== undefined) present++;' : ''}`);
    const x = inl[k];
    L.push(x ? `      ${x.store(k)}` : `      c${k}[j] = v;`);
  }
  if (shape === 'object') L.push(`      if (keys !== present) { col = -1; H.checkKeys(r); }`);
  L.push(`    }`);
  L.push(`  } catch (e) { throw H.rowError(e, col, rowBase + j); }`);
  L.push(`  const s = new H.ByteSink(H.sizeHint(n));`);
  L.push(`  s.varUInt(${int(m)}); s.varUInt(n);`);
  for (let k = 0; k < m; k++) {
    const x = inl[k];
    L.push(`  s.bytes(HEAD[${int(k)}]);`);
    if (x) L.push(`  s.view(${x.out(k)});`);
    else {
      L.push(`  try { W[${int(k)}].prefix(s); W[${int(k)}].data(c${k}, s); }`);
      L.push(`  catch (e) { throw H.dataError(e, ${int(k)}, rowBase); }`);
    }
  }
  L.push(`  return s.chunks();`);
  L.push(`};`);
  const body = L.join('\n');
  return { source: `${body}\n//# sourceURL=chwire/native-encoder/${hashKey(body)}.js\n`, S, inl };
}

const cache = new BoundedCache<NativeEncoder>(256);

export interface NativeEncoderOptions {
  /**
   * The zone zone-less date-time text (`'2024-03-12 02:30:00'`) is read in for a DateTime or
   * DateTime64 type without its own zone: the server's `timezone()` (the client passes it).
   * Default 'UTC'. A type's own zone always wins.
   */
  readonly timezone?: string | undefined;
  /**
   * Per zone, the offsets of the server the insert goes to (zone-less text in that zone is read
   * with them, 1970–2105; Intl's elsewhere), or why they could not be learnt (such text is then
   * refused with that reason). The client fills it: client/insert/server-text-zones.ts.
   */
  readonly serverZones?: ServerTextZones | undefined;
}

/**
 * The encoder for these columns (name and type as DESCRIBE prints them) and row shape: objects
 * keyed by column name, or arrays in column order. Compiled once, then cached (bounded).
 */
/** The key of the encoder for these columns and shape in precompiled modules (kind `native-insert`). */
function encoderKey(columns: readonly NativeColumnSpec[], shape: 'object' | 'array'): string {
  return shape + '\u0000' + JSON.stringify(columns.map((c) => [c.name, c.type]));
}

/**
 * The key and generated source of the encoder of these columns and shape, for a `chwire gen`
 * module to carry precompiled (a function of K, W, S, H, HEAD, as the run-time compiled one).
 * Generated for zone-less text in UTC; a server in another zone gets a different source (its
 * hash does not match), so such an insert compiles its own encoder.
 */
export function nativeEncoderCode(columns: readonly NativeColumnSpec[], shape: 'object' | 'array'): { key: string; source: string } {
  return { key: encoderKey(columns, shape), source: generate(columns, columns.map((c) => parseType(c.type)), shape, textZones(undefined)).source };
}

export function compileNativeEncoder(columns: readonly NativeColumnSpec[], shape: 'object' | 'array', options: NativeEncoderOptions = {}): NativeEncoder {
  if (shape !== 'object' && shape !== 'array') throw new ChwireConfigError(`row shape must be 'object' or 'array', got ${JSON.stringify(shape)}`);
  const zone = checkZone(options.timezone);
  const server = options.serverZones !== undefined && options.serverZones.size > 0 ? options.serverZones : undefined;
  const key = (zone ?? '') + '\u0000' + (server === undefined ? '' : serverZonesKey(server)) + '\u0000' + encoderKey(columns, shape);
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const enc = build(columns.map((c) => ({ name: c.name, type: c.type })), shape, zone, true, server);
  cache.set(key, enc);
  return enc;
}

/** An encoder built without generated code (the interpreted path), for tests and benchmarks. Not cached. */
export function interpretNativeEncoder(columns: readonly NativeColumnSpec[], shape: 'object' | 'array', options: NativeEncoderOptions = {}): NativeEncoder {
  return build(columns.map((c) => ({ name: c.name, type: c.type })), shape, checkZone(options.timezone), false, options.serverZones);
}

const rulesIds = new WeakMap<object, number>();
let nextRulesId = 0;

/** The encoder cache's key part for the server's zones: each zone with its rules' identity (one per host and zone), or its refusal. */
function serverZonesKey(server: ServerTextZones): string {
  const parts: string[] = [];
  for (const [zone, r] of server) {
    if (typeof r === 'string') parts.push(`${zone}\u0001!${r}`);
    else {
      let id = rulesIds.get(r);
      if (id === undefined) rulesIds.set(r, id = nextRulesId++);
      parts.push(`${zone}\u0001${id}`);
    }
  }
  return parts.sort().join('\u0002');
}

function checkZone(zone: unknown): string | undefined {
  if (zone === undefined || zone === '') return undefined;
  if (typeof zone !== 'string') throw new ChwireConfigError(`timezone must be a time zone name, got ${typeof zone}`);
  return zone;
}

function build(columns: readonly NativeColumnSpec[], shape: 'object' | 'array', timezone: string | undefined, generated = true, server?: ServerTextZones): NativeEncoder {
  if (columns.length === 0) throw new ChwireConfigError('a Native block needs at least one column');
  const names = columns.map((c) => c.name);
  const seen = new Set<string>();
  for (const n of names) {
    // The engine refuses a block column without a name (AMBIGUOUS_COLUMN_NAME).
    if (n === '') throw new ChwireConfigError('a column name cannot be empty');
    if (seen.has(n)) throw new ChwireConfigError(`column ${JSON.stringify(n)} is listed twice`);
    seen.add(n);
  }
  const types = columns.map((c) => parseType(c.type));
  // Zones are resolved once per build: each DateTime type's own, else `timezone`, else UTC.
  const zones = textZones(timezone, server);
  const writers: ColumnWriter[] = types.map((t, k) => columnWriter(t, columns[k]!.type, zones));
  const head = columns.map((c) => concat(stringBytes(c.name), stringBytes(c.type)));
  const { source, S, inl } = generate(columns, types, shape, zones);
  const helpers = makeHelpers(names);
  // A `chwire gen` module may carry this very encoder (no `new Function`); else compiled here.
  type Factory = (...a: unknown[]) => NativeEncoder['encodeBlock'];
  const factory = generated ? lookupPrecompiled<Factory>('native-insert', encoderKey(columns, shape), source) ?? compiled<Factory>(['K', 'W', 'S', 'H', 'HEAD'], source) : undefined;
  // Where code generation is refused: the same blocks from a loop over rows and columns.
  const encodeBlock = factory !== undefined
    ? factory(names, writers, S, helpers, head)
    : interpretedEncodeBlock({ names, shape, inherited: names.map(inheritedName), inline: inl.map((x) => (x === undefined ? undefined : { ctor: x.ctor, slow: x.slow })), writers, helpers, head });
  return Object.freeze({ columns: Object.freeze(columns), shape, source, encodeBlock });
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function makeHelpers(names: readonly string[]) {
  const known = new Set(names);
  const own = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);
  const toError = (e: unknown, col: number, row: number): unknown => {
    if (!(e instanceof EncodeFail)) return e;
    // col < 0: the row itself is no object (or no array of the right length): no column to name.
    if (col < 0) return new ChwireEncodeError('not a row', { column: '', row, expected: e.expected, value: e.value });
    return new ChwireEncodeError('value does not fit its column', { column: names[col]!, row, expected: e.expected, value: e.value });
  };
  return {
    ByteSink,
    fixedDateTime,
    own,
    /** Start the sink with room for a typical block (it grows by doubling). */
    sizeHint: (n: number) => Math.min(1 << 20, Math.max(4096, n * 16)),
    badRow(r: unknown, array: boolean): never {
      throw new EncodeFail(array ? `an array of ${names.length} values in column order` : 'an object keyed by column name', r);
    },
    checkKeys(r: Record<string, unknown>): void {
      for (const k in r) {
        if (!known.has(k) && r[k] !== undefined) {
          throw new ChwireEncodeError('unknown column', { column: k, row: -1, expected: `one of the columns ${names.map((x) => JSON.stringify(x)).join(', ')}`, value: r[k] });
        }
      }
    },
    rowError(e: unknown, col: number, row: number): unknown {
      // checkKeys throws before the row number is known: give it the row here.
      if (e instanceof ChwireEncodeError && e.row === -1) {
        return new ChwireEncodeError('unknown column', { column: e.column, row, expected: e.expected, like: e });
      }
      return toError(e, col, row);
    },
    dataError(e: unknown, col: number, rowBase: number): unknown {
      return toError(e, col, rowBase + (e instanceof EncodeFail && e.index >= 0 ? e.index : 0));
    },
  };
}
