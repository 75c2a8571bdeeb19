// Type-name parser: the text the server puts in a RowBinaryWithNamesAndTypes header, DESCRIBE,
// system.columns or toTypeName() → the TypeNode AST of ./ast.ts.
//
// Invariant: every accepted text yields a normalised AST, resolved the way the server resolves
// it (Decimal32(S) → Decimal(9, S), DateTime64 → DateTime64(3), Dynamic(max_types=32) → Dynamic,
// `INT UNSIGNED` → UInt32 (./aliases.ts), omitted enum values numbered, Variant members and JSON
// paths sorted), so printType(parseType(x)) is the server's canonical spelling (checked against
// the engine); every rejected text is a ChwireTypeError carrying the offset of the offending
// character. Whitespace (incl. newlines, as in pretty-printed named tuples) may separate tokens.
// Enum entries keep their written order (the server sorts by value; values make order moot).
import { ChwireTypeError } from '../errors.js';
import {
  GEO_KINDS, INTERVAL_UNITS, PLAIN_KINDS, isIntKind,
  type DateTime64Type, type EnumEntry, type JsonType, type JsonTypedPath, type TypeNode,
} from './ast.js';
import { resolveFamily } from './aliases.js';
import { printType } from './print.js';
import { UNESCAPES } from './quote.js';

/**
 * Deeper nesting than this is refused: it bounds every recursion over a type (parsing, planning,
 * decoding) far below the JS stack. The engine's own parser stops at max_parser_depth = 1000, so
 * whatever it returns by default decodes (an Array nested ~990 deep in a SELECT).
 */
export const MAX_TYPE_DEPTH = 1000;

const DEPTH_LIMIT = `type nested deeper than ${MAX_TYPE_DEPTH} levels, the limit of the types chwire decodes (MAX_TYPE_DEPTH)`;

/** The error for a type nested beyond MAX_TYPE_DEPTH; its text (possibly megabytes) is cut short. */
export function typeTooDeep(text: string, column?: string): ChwireTypeError {
  const prefix = column === undefined ? '' : `column ${JSON.stringify(column)}: `;
  return new ChwireTypeError(prefix + DEPTH_LIMIT, text.length > 120 ? `${text.slice(0, 120)}…` : text, -1);
}

export function isTypeTooDeep(e: unknown): boolean {
  return e instanceof ChwireTypeError && e.message.includes(DEPTH_LIMIT);
}

const PLAIN = new Set<string>(PLAIN_KINDS);
const GEO = new Set<string>(GEO_KINDS);
const INTERVALS = new Set<string>(INTERVAL_UNITS);
const DECIMAL_ALIASES: Readonly<Record<string, number>> = { Decimal32: 9, Decimal64: 18, Decimal128: 38, Decimal256: 76 };
/** Server defaults, never kept in the AST (the server does not print them). */
export const DEFAULT_DYNAMIC_MAX_TYPES = 32;
export const DEFAULT_JSON_MAX_DYNAMIC_PATHS = 1024;
export const DEFAULT_JSON_MAX_DYNAMIC_TYPES = 32;
const utf8 = new TextDecoder('utf-8');

function isWs(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}
function isIdentStart(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
}
function isIdentPart(c: number): boolean {
  return isIdentStart(c) || (c >= 0x30 && c <= 0x39);
}

/** A recursive-descent reader over one type text. Exported for ./aggregate.ts; not public API. */
export class TypeParser {
  pos = 0;
  private depth = 0;
  constructor(readonly text: string) {}

  fail(message: string, at: number = this.pos): never {
    throw new ChwireTypeError(message, this.text, at);
  }

  skipWs(): void {
    while (this.pos < this.text.length && isWs(this.text.charCodeAt(this.pos))) this.pos++;
  }

  /** The next non-blank character ('' at the end), without consuming it. */
  peek(): string {
    this.skipWs();
    return this.text.charAt(this.pos);
  }

  eat(ch: string): boolean {
    if (this.peek() !== ch) return false;
    this.pos++;
    return true;
  }

  expect(ch: string, what: string): void {
    if (!this.eat(ch)) this.fail(`expected ${what}${this.pos >= this.text.length ? ', found the end of the text' : ''}`);
  }

  atEnd(): boolean {
    return this.peek() === '';
  }

  /** A bare identifier `[A-Za-z_][A-Za-z0-9_]*`, or undefined (nothing consumed). */
  ident(): string | undefined {
    this.skipWs();
    const start = this.pos;
    if (start >= this.text.length || !isIdentStart(this.text.charCodeAt(start))) return undefined;
    let end = start + 1;
    while (end < this.text.length && isIdentPart(this.text.charCodeAt(end))) end++;
    this.pos = end;
    return this.text.slice(start, end);
  }

  /** An element name: a bare identifier or a back-quoted one. */
  name(what: string): string {
    if (this.peek() === '`') return this.quoted('`');
    const id = this.ident();
    if (id === undefined) this.fail(`expected ${what}`);
    return id;
  }

  /** A JSON path: name segments joined by dots (`a.b`, `` `a b`.c ``, `` `a.b` ``). */
  path(): string {
    let p = this.name('a JSON path');
    while (this.peek() === '.') {
      this.pos++;
      p += '.' + this.name('a JSON path segment after "."');
    }
    return p;
  }

  /**
   * A quoted literal starting at the current character: C escapes (`\n`, `\xHH`, `\\`, `\'`, …)
   * and the SQL doubled quote (`''`). `\xHH` sequences are bytes, decoded as UTF-8 together.
   */
  quoted(q: "'" | '`'): string {
    this.skipWs();
    const start = this.pos;
    if (this.text[start] !== q) this.fail(q === "'" ? 'expected a single-quoted string' : 'expected a back-quoted name');
    let out = '';
    let bytes: number[] = [];
    const flush = (): void => {
      if (bytes.length > 0) { out += utf8.decode(Uint8Array.from(bytes)); bytes = []; }
    };
    let i = start + 1;
    for (;;) {
      if (i >= this.text.length) this.fail('unterminated quoted text', start);
      const ch = this.text[i]!;
      if (ch === q) {
        if (this.text[i + 1] === q) { flush(); out += q; i += 2; continue; }
        flush();
        this.pos = i + 1;
        return out;
      }
      if (ch === '\\') {
        const e = this.text[i + 1];
        if (e === undefined) this.fail('unterminated escape sequence', i);
        if (e === 'x' || e === 'X') {
          const hex = this.text.slice(i + 2, i + 4);
          if (!/^[0-9A-Fa-f]{2}$/.test(hex)) this.fail('expected two hex digits after \\x', i);
          bytes.push(parseInt(hex, 16));
          i += 4;
          continue;
        }
        flush();
        out += UNESCAPES[e] ?? e;
        i += 2;
        continue;
      }
      flush();
      out += ch;
      i++;
    }
  }

  /** A decimal integer with optional sign, as a safe JS number. */
  integer(what: string): number {
    this.skipWs();
    const m = /^[+-]?\d+/.exec(this.text.slice(this.pos, this.pos + 40));
    if (m === null) this.fail(`expected ${what}`);
    const n = Number(m[0]);
    if (!Number.isSafeInteger(n)) this.fail(`${what} is too large`);
    this.pos += m[0].length;
    // `-0` is the integer 0: never let a negative zero into the AST (it would print as `0` and
    // compare unequal to the reparsed value).
    return n === 0 ? 0 : n;
  }

  private boundedInt(what: string, min: number, max: number): number {
    const at = (this.skipWs(), this.pos);
    const n = this.integer(what);
    if (n < min || n > max) this.fail(`${what} must be in [${min}, ${max}], got ${n}`, at);
    return n;
  }

  /**
   * Skip a parenthesised group starting at `(` (quotes respected) and return its inner text
   * verbatim. Used for texts kept raw: aggregate-function arguments and parameters.
   */
  rawGroup(): string {
    this.expect('(', '"("');
    const start = this.pos;
    let depth = 1;
    let i = start;
    while (i < this.text.length) {
      const ch = this.text[i]!;
      if (ch === "'" || ch === '`' || ch === '"') {
        i++;
        while (i < this.text.length && this.text[i] !== ch) i += this.text[i] === '\\' ? 2 : 1;
        if (i >= this.text.length) this.fail('unterminated quoted text', start);
      } else if (ch === '(') depth++;
      else if (ch === ')' && --depth === 0) {
        this.pos = i + 1;
        return this.text.slice(start, i);
      }
      i++;
    }
    return this.fail('unbalanced parentheses', start - 1);
  }

  /** The whole text as exactly one type. */
  parseAll(): TypeNode {
    const t = this.type();
    if (!this.atEnd()) this.fail('unexpected text after the type');
    return t;
  }

  type(): TypeNode {
    if (++this.depth > MAX_TYPE_DEPTH) throw typeTooDeep(this.text);
    const start = (this.skipWs(), this.pos);
    const family = this.ident();
    if (family === undefined) this.fail(this.pos >= this.text.length ? 'expected a type name, found the end of the text' : 'expected a type name');
    const t = this.family(family, start);
    this.depth--;
    return t;
  }

  private noArgs(family: string): void {
    if (this.peek() === '(') this.fail(`${family} takes no arguments`);
  }

  /**
   * MySQL-style display widths the server accepts and ignores: `INT(11)`, `VARCHAR(255)`,
   * `FLOAT(10, 2)`. Only integer arguments, at most `max` of them.
   */
  private ignoredWidth(max: number): void {
    if (!this.eat('(')) return;
    let n = 0;
    do {
      this.skipWs();
      if (++n > max) this.fail(`expected ")": at most ${max} ignored size argument${max > 1 ? 's' : ''}`);
      this.integer('an integer size argument');
    } while (this.eat(','));
    this.expect(')', '")" after the size argument');
  }

  private family(written: string, start: number): TypeNode {
    const family = resolveFamily(written, () => this.ident(), () => this.pos, (p) => { this.pos = p; });
    if (isIntKind(family) || family === 'String') {
      this.ignoredWidth(1);
      return { kind: family };
    }
    if (family === 'Float32' || family === 'Float64' || family === 'BFloat16') {
      this.ignoredWidth(2);
      return { kind: family };
    }
    if (family === 'Time' && this.peek() === '(') {
      // Time(P) is Time64(P), and Time(0) is Time, as the server resolves them.
      this.pos++;
      const precision = this.boundedInt('Time precision', 0, 9);
      this.expect(')', '")" after the Time precision');
      return precision === 0 ? { kind: 'Time' } : { kind: 'Time64', precision };
    }
    if (PLAIN.has(family) || GEO.has(family)) {
      this.noArgs(family);
      return { kind: family } as TypeNode;
    }
    if (family.startsWith('Interval') && INTERVALS.has(family.slice(8))) {
      this.noArgs(family);
      return { kind: 'Interval', unit: family.slice(8) as (typeof INTERVAL_UNITS)[number] };
    }
    switch (family) {
      case 'Decimal': {
        if (!this.eat('(')) return { kind: 'Decimal', precision: 10, scale: 0 };
        const precision = this.boundedInt('Decimal precision', 1, 76);
        const scale = this.eat(',') ? this.boundedInt('Decimal scale', 0, precision) : 0;
        this.expect(')', '")" after the Decimal arguments');
        return { kind: 'Decimal', precision, scale };
      }
      case 'Decimal32': case 'Decimal64': case 'Decimal128': case 'Decimal256': {
        const precision = DECIMAL_ALIASES[family]!;
        this.expect('(', `"(" and the scale of ${family}`);
        const scale = this.boundedInt(`${family} scale`, 0, precision);
        this.expect(')', `")" after the ${family} scale`);
        return { kind: 'Decimal', precision, scale };
      }
      case 'FixedString': {
        this.expect('(', '"(" and the length of FixedString');
        const length = this.boundedInt('FixedString length', 1, 0x7fffffff);
        this.expect(')', '")" after the FixedString length');
        return { kind: 'FixedString', length };
      }
      case 'DateTime': {
        if (!this.eat('(')) return { kind: 'DateTime' };
        if (this.peek() !== "'") {
          // DateTime(P[, tz]) is DateTime64(P[, tz]) for P > 0, as the server resolves it.
          const dt = this.dateTime64Args();
          if (dt.precision > 0) return dt;
          return dt.timezone === undefined ? { kind: 'DateTime' } : { kind: 'DateTime', timezone: dt.timezone };
        }
        const timezone = this.quoted("'");
        this.expect(')', '")" after the time zone');
        return { kind: 'DateTime', timezone };
      }
      case 'DateTime64':
        if (!this.eat('(')) return { kind: 'DateTime64', precision: 3 };
        return this.dateTime64Args();
      case 'Time64': {
        if (!this.eat('(')) return { kind: 'Time64', precision: 3 };
        const precision = this.boundedInt('Time64 precision', 0, 9);
        this.expect(')', '")" after the Time64 precision');
        return { kind: 'Time64', precision };
      }
      case 'Enum8': case 'Enum16': case 'Enum':
        return this.enumType(family, start);
      case 'Nullable': case 'LowCardinality': {
        this.expect('(', `"(" after ${family}`);
        const inner = this.type();
        this.expect(')', `")" closing ${family}`);
        return { kind: family, inner };
      }
      case 'Array': {
        this.expect('(', '"(" after Array');
        const element = this.type();
        this.expect(')', '")" closing Array');
        return { kind: 'Array', element };
      }
      case 'Map': {
        this.expect('(', '"(" after Map');
        const key = this.type();
        this.expect(',', '"," between the Map key and value types');
        const value = this.type();
        this.expect(')', '")" closing Map');
        return { kind: 'Map', key, value };
      }
      case 'Tuple':
        return this.tupleType();
      case 'Nested': {
        this.expect('(', '"(" after Nested');
        const names: string[] = [];
        const elements: TypeNode[] = [];
        do {
          const at = (this.skipWs(), this.pos);
          const name = this.name('a Nested field name');
          if (names.includes(name)) this.fail(`duplicate Nested field name ${JSON.stringify(name)}`, at);
          names.push(name);
          elements.push(this.type());
        } while (this.eat(','));
        this.expect(')', '")" or "," in Nested');
        return { kind: 'Nested', names, elements };
      }
      case 'Variant': {
        this.expect('(', '"(" after Variant');
        const members: TypeNode[] = [];
        do members.push(this.type()); while (this.eat(','));
        this.expect(')', '")" or "," in Variant');
        return { kind: 'Variant', members: sortVariantMembers(members) };
      }
      case 'Dynamic': {
        if (!this.eat('(')) return { kind: 'Dynamic' };
        const at = (this.skipWs(), this.pos);
        if (this.ident() !== 'max_types') this.fail('expected max_types=N in Dynamic', at);
        this.expect('=', '"=" after max_types');
        const maxTypes = this.boundedInt('Dynamic max_types', 0, 254);
        this.expect(')', '")" closing Dynamic');
        return maxTypes === DEFAULT_DYNAMIC_MAX_TYPES ? { kind: 'Dynamic' } : { kind: 'Dynamic', maxTypes };
      }
      case 'JSON':
        return this.jsonType();
      case 'SimpleAggregateFunction': {
        this.expect('(', '"(" after SimpleAggregateFunction');
        const name = this.ident();
        if (name === undefined) this.fail('expected an aggregate function name');
        const func = this.peek() === '(' ? `${name}(${this.rawGroup()})` : name;
        this.expect(',', '"," after the aggregate function');
        const inner = this.type();
        this.expect(')', '")" closing SimpleAggregateFunction');
        return { kind: 'SimpleAggregateFunction', func, inner };
      }
      case 'AggregateFunction': {
        const at = (this.skipWs(), this.pos);
        const args = this.rawGroup().trim();
        if (args === '') this.fail('AggregateFunction needs a function name', at + 1);
        return { kind: 'AggregateFunction', args };
      }
      case 'QBit': {
        this.expect('(', '"(" after QBit');
        const element = this.type();
        this.expect(',', '"," and the QBit dimension');
        const dimension = this.boundedInt('QBit dimension', 1, 0x7fffffff);
        this.expect(')', '")" closing QBit');
        return { kind: 'QBit', element, dimension };
      }
      default:
        return this.fail(`unknown type ${JSON.stringify(family)}`, start);
    }
  }

  /** `P[, 'tz'])` after `DateTime64(`. */
  private dateTime64Args(): DateTime64Type {
    const precision = this.boundedInt('DateTime64 precision', 0, 9);
    if (!this.eat(',')) {
      this.expect(')', '")" or ", \'zone\'" after the DateTime64 precision');
      return { kind: 'DateTime64', precision };
    }
    const timezone = this.quoted("'");
    this.expect(')', '")" after the time zone');
    return { kind: 'DateTime64', precision, timezone };
  }

  private enumType(family: 'Enum8' | 'Enum16' | 'Enum', start: number): TypeNode {
    this.expect('(', `"(" after ${family}`);
    const entries: EnumEntry[] = [];
    const labels = new Set<string>();
    const values = new Set<number>();
    // Like the server: a value may be omitted; it is then the previous value + 1 (the first is 1).
    // The first entry may go either way, the others must agree (`'a' = 1, 'b', 'c' = 5` is refused).
    let next = 1;
    let restExplicit: boolean | undefined;
    do {
      const at = (this.skipWs(), this.pos);
      const label = this.quoted("'");
      const vat = (this.skipWs(), this.pos);
      const explicit = this.eat('=');
      if (entries.length === 1) restExplicit = explicit;
      else if (entries.length > 1 && explicit !== restExplicit) this.fail('enum entries after the first must all have values or all omit them', at);
      const value = explicit ? this.integer('an enum value') : next;
      if (labels.has(label)) this.fail(`duplicate enum label ${JSON.stringify(label)}`, at);
      if (values.has(value)) this.fail(`duplicate enum value ${value}`, vat);
      labels.add(label);
      values.add(value);
      entries.push({ label, value });
      next = value + 1;
    } while (this.eat(','));
    this.expect(')', '")" or "," in the enum');
    const min = Math.min(...values);
    const max = Math.max(...values);
    const kind = family !== 'Enum' ? family : min >= -128 && max <= 127 ? 'Enum8' : 'Enum16';
    const [lo, hi] = kind === 'Enum8' ? [-128, 127] : [-32768, 32767];
    if (min < lo || max > hi) this.fail(`${kind} values must be in [${lo}, ${hi}]`, start);
    return { kind, entries };
  }

  private tupleType(): TypeNode {
    this.expect('(', '"(" after Tuple');
    if (this.eat(')')) return { kind: 'Tuple', elements: [] };
    const elements: TypeNode[] = [];
    const names: (string | undefined)[] = [];
    do {
      const at = (this.skipWs(), this.pos);
      let name: string | undefined;
      if (this.text[at] === '`') name = this.quoted('`');
      else {
        // `a UInt8` is named; `UInt8`, `Array(...)` are not: a name is followed by another token.
        const id = this.ident();
        const next = this.peek();
        if (id !== undefined && next !== ',' && next !== ')' && next !== '(' && next !== '') name = id;
        else this.pos = at;
      }
      if (names.length > 0 && (name === undefined) !== (names[0] === undefined)) this.fail('a Tuple cannot mix named and unnamed elements', at);
      if (name !== undefined && names.includes(name)) this.fail(`duplicate Tuple element name ${JSON.stringify(name)}`, at);
      names.push(name);
      elements.push(this.type());
    } while (this.eat(','));
    this.expect(')', '")" or "," in Tuple');
    return names[0] === undefined ? { kind: 'Tuple', elements } : { kind: 'Tuple', elements, names: names as string[] };
  }

  private jsonType(): TypeNode {
    let maxDynamicPaths: number | undefined;
    let maxDynamicTypes: number | undefined;
    const typedPaths: JsonTypedPath[] = [];
    const skipPaths: string[] = [];
    const skipRegexps: string[] = [];
    if (this.eat('(') && !this.eat(')')) {
      do {
        const at = (this.skipWs(), this.pos);
        const id = this.text[at] === '`' ? undefined : this.ident();
        if (id === undefined) {
          this.pos = at;
          const path = this.path();
          typedPaths.push({ path, type: this.type() });
          continue;
        }
        if ((id === 'max_dynamic_paths' || id === 'max_dynamic_types') && this.peek() === '=') {
          this.pos++;
          if (id === 'max_dynamic_paths') maxDynamicPaths = this.boundedInt(id, 0, 0xffffffff);
          else maxDynamicTypes = this.boundedInt(id, 0, 254);
          continue;
        }
        if (id.toUpperCase() === 'SKIP') {
          const save = this.pos;
          const word = this.ident();
          if (word !== undefined && word.toUpperCase() === 'REGEXP' && this.peek() === "'") {
            skipRegexps.push(this.quoted("'"));
            continue;
          }
          this.pos = save;
          skipPaths.push(this.path());
          continue;
        }
        this.pos = at;
        const path = this.path();
        typedPaths.push({ path, type: this.type() });
      } while (this.eat(','));
      this.expect(')', '")" or "," in JSON');
    }
    return jsonNode(maxDynamicPaths, maxDynamicTypes, typedPaths, skipPaths, skipRegexps);
  }
}

/**
 * Variant members as the server keeps them: sorted by name (bytes), duplicates dropped. The order
 * is semantic (a value's discriminator indexes it), so `Variant(UInt64, String)` must give the
 * same AST as the server's `Variant(String, UInt64)`.
 */
export function sortVariantMembers(members: readonly TypeNode[]): TypeNode[] {
  const byName = new Map<string, TypeNode>();
  for (const m of members) byName.set(printType(m), m);
  return [...byName.keys()].sort(compareCodePoints).map((k) => byName.get(k)!);
}

/** Code-point order, which is the byte order of the UTF-8 forms (the server's std::string order). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/**
 * A JSON node with the server's defaults dropped (it prints `JSON`, not
 * `JSON(max_dynamic_paths=1024)`), absent optional fields left absent (not `undefined`), and
 * paths and regexps sorted: the server prints them sorted by bytes but writes its binary type
 * encoding in hash-table order, so sorting is what makes both forms give one AST.
 */
export function jsonNode(
  maxDynamicPaths: number | undefined, maxDynamicTypes: number | undefined,
  typedPaths: JsonTypedPath[], skipPaths: string[], skipRegexps: string[],
): JsonType {
  typedPaths.sort((a, b) => compareCodePoints(a.path, b.path));
  skipPaths.sort(compareCodePoints);
  skipRegexps.sort(compareCodePoints);
  const t: { -readonly [K in keyof JsonType]: JsonType[K] } = { kind: 'JSON', typedPaths, skipPaths, skipRegexps };
  if (maxDynamicPaths !== undefined && maxDynamicPaths !== DEFAULT_JSON_MAX_DYNAMIC_PATHS) t.maxDynamicPaths = maxDynamicPaths;
  if (maxDynamicTypes !== undefined && maxDynamicTypes !== DEFAULT_JSON_MAX_DYNAMIC_TYPES) t.maxDynamicTypes = maxDynamicTypes;
  return t;
}

/** Parse one ClickHouse type name. Throws ChwireTypeError (with the position) when malformed. */
export function parseType(text: string): TypeNode {
  if (text.length > MAX_REMEMBERED_TEXT) return new TypeParser(text).parseAll();
  let node = remembered.get(text);
  if (node === undefined) {
    node = new TypeParser(text).parseAll();
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    remembered.set(text, node);
  }
  return node;
}

/**
 * The ASTs of type texts parsed so far (a TypeNode is immutable data, ast.ts, so one AST serves
 * every caller): a result's header is read once per call, and small calls repeat the same few
 * types. Bounded: texts up to MAX_REMEMBERED_TEXT characters, at most MAX_REMEMBERED of them (all
 * forgotten when full); a text that fails to parse is not remembered (its error is raised each time).
 */
const remembered = new Map<string, TypeNode>();
const MAX_REMEMBERED = 1024;
const MAX_REMEMBERED_TEXT = 512;
