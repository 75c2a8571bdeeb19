// ClickHouse types → TypeScript type text, for the modules `chwire gen` writes: what a decoder gives
// for a column under resolved options (rows), what insert() accepts for it (insert rows), and what
// a `{name:Type}` placeholder accepts as a parameter value.
//
// Invariant: server text (enum labels, tuple element names, column names) enters the type text only
// as a string literal from jsString (one line, U+2028/U+2029 escaped) or as a bare identifier that
// matched IDENT. Each function mirrors one documented table exactly (docs/types.md for reads, the
// "Accepted JavaScript values" table of docs/native.md for inserts, formatQueryParam for
// parameters) and never widens to `any`: a value the library cannot produce or accept is not in
// the type, and a type the library cannot decode is an error naming the column.
import type { TypeNode } from '../types/ast.js';
import { isIntKind } from '../types/ast.js';
import type { ResolvedValueOptions } from '../plan/options.js';
import { structural } from '../plan/structural.js';
import { jsString } from '../codegen/literal.js';

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A property name as TypeScript source: bare when it is an identifier, a string literal (jsString) otherwise. */
export function propertyKey(name: string): string {
  return IDENT.test(name) ? name : jsString(name);
}

function union(parts: readonly string[]): string {
  const seen = [...new Set(parts)];
  return seen.length === 1 ? seen[0]! : seen.map((p) => (p.includes('=>') ? `(${p})` : p)).join(' | ');
}

/** `T[]`, parenthesised when T is a union. */
function arrayOf(t: string, readonly = false): string {
  const el = /[|&]/.test(t) ? `(${t})` : t;
  return `${readonly ? 'readonly ' : ''}${el}[]`;
}

function wide(kind: string): boolean {
  return kind.endsWith('128') || kind.endsWith('256');
}

/** The TypeScript type of the values a decoder gives for `t` under options `o`. */
export function readType(t: TypeNode, o: ResolvedValueOptions): string {
  switch (t.kind) {
    case 'Float32': case 'Float64': case 'BFloat16': return 'number';
    case 'Bool': return 'boolean';
    case 'Decimal': return o.decimal === 'number' ? 'number' : 'string';
    case 'String': case 'FixedString': return o.strings === 'bytes' ? 'Uint8Array' : 'string';
    case 'Date': case 'Date32': return o.date === 'Date' ? 'Date' : 'string';
    case 'DateTime': case 'DateTime64': return o.datetime === 'Date' ? 'Date' : o.datetime === 'number' ? 'number' : 'string';
    case 'Time': case 'Time64': return o.time === 'number' ? 'number' : 'string';
    case 'UUID': return o.uuid === 'bytes' ? 'Uint8Array' : 'string';
    case 'IPv4': case 'IPv6': return 'string';
    case 'Enum8': case 'Enum16': return union(t.entries.map((e) => jsString(e.label)));
    case 'Nullable': return union([readType(t.inner, o), 'null']);
    case 'LowCardinality': case 'SimpleAggregateFunction': return readType(t.inner, o);
    case 'Array': return arrayOf(readType(t.element, o));
    case 'QBit': return arrayOf(readType(t.element, o));
    case 'Tuple': return tupleType(t.elements.map((e) => readType(e, o)), t.names);
    case 'Nested': return arrayOf(tupleType(t.elements.map((e) => readType(e, o)), t.names));
    case 'Map': {
      const v = readType(t.value, o);
      return o.maps === 'Map' ? `Map<${readType(t.key, o)}, ${v}>` : `Record<string, ${v}>`;
    }
    case 'Variant': return union([...t.members.map((m) => readType(m, o)), 'null']);
    case 'Dynamic': return 'unknown';
    case 'JSON': return '{ [path: string]: unknown }';
    case 'Nothing': return 'null';
    case 'Interval': return int64Type(o.int64);
    case 'Point': case 'Ring': case 'LineString': case 'Polygon': case 'MultiLineString': case 'MultiPolygon':
      return readType(structural(t), o);
    case 'Geometry':
      return union(['[number, number]', '[number, number][]', '[number, number][][]', '[number, number][][][]', 'null']);
    case 'AggregateFunction':
      throw new TypeError('AggregateFunction states cannot be decoded: select finalizeAggregation(x) or hex(x)');
    default:
      if (isIntKind(t.kind)) {
        if (t.kind.endsWith('64')) return int64Type(o.int64);
        if (wide(t.kind)) return int64Type(o.int128);
        return 'number';
      }
      return 'unknown';
  }
}

function int64Type(mode: 'bigint' | 'number' | 'string'): string {
  return mode;
}

function tupleType(elements: readonly string[], names: readonly string[] | undefined): string {
  if (names === undefined) return `[${elements.join(', ')}]`;
  return `{ ${names.map((n, i) => `${propertyKey(n)}: ${elements[i]!}`).join('; ')} }`;
}

/** The default kinds ClickHouse has (`''` for none): the only ones a generated module names (describe.ts refuses others). */
export const DEFAULT_KINDS: readonly string[] = ['', 'DEFAULT', 'MATERIALIZED', 'ALIAS', 'EPHEMERAL'];

/**
 * Whether a column may be left out of an insert row: it has a default (DEFAULT or EPHEMERAL: the
 * server writes the default, insert-columns.ts), or it is Nullable, also under LowCardinality
 * (NULL is written).
 */
export function optionalOnInsert(t: TypeNode, defaultKind: string): boolean {
  const inner = t.kind === 'LowCardinality' ? t.inner : t;
  return inner.kind === 'Nullable' || defaultKind !== '';
}

/** Whether insert() can write a value of this type (insertType throws for the others). */
export function insertableColumn(t: TypeNode): boolean {
  try {
    insertType(t);
    return true;
  } catch {
    return false;
  }
}

/** The TypeScript type of the values insert() accepts for `t` (docs/native.md, "Accepted JavaScript values"). */
export function insertType(t: TypeNode): string {
  switch (t.kind) {
    case 'Float32': case 'Float64': case 'BFloat16': return 'number | bigint | string';
    case 'Bool': return 'boolean | 0 | 1';
    case 'Decimal': return 'string | number | bigint';
    case 'String': case 'FixedString': return 'string | Uint8Array';
    case 'Date': case 'Date32': return 'Date | number | string';
    case 'DateTime': return 'Date | number | string';
    case 'DateTime64': return 'Date | number | string | bigint';
    case 'Time': return 'number | string';
    case 'Time64': return 'number | string | bigint';
    case 'UUID': return 'string | Uint8Array';
    case 'IPv4': return 'string | number';
    case 'IPv6': return 'string | Uint8Array';
    case 'Enum8': case 'Enum16': return union([...t.entries.map((e) => jsString(e.label)), ...t.entries.map((e) => String(e.value))]);
    case 'Nullable': return union([insertType(t.inner), 'null', 'undefined']);
    case 'LowCardinality': case 'SimpleAggregateFunction': return insertType(t.inner);
    case 'Array': return arrayOf(insertType(t.element), true);
    case 'Tuple': {
      const els = t.elements.map(insertType);
      const positional = `readonly [${els.join(', ')}]`;
      if (t.names === undefined) return positional;
      return `${positional} | { ${t.names.map((n, i) => `readonly ${propertyKey(n)}: ${els[i]!}`).join('; ')} }`;
    }
    case 'Nested': {
      const inner: TypeNode = { kind: 'Tuple', elements: t.elements, names: t.names };
      return arrayOf(insertType(inner), true);
    }
    case 'Map': {
      const v = insertType(t.value);
      return `ReadonlyMap<${insertType(t.key)}, ${v}> | { readonly [key: string]: ${v} }`;
    }
    case 'Variant': return union([...t.members.map(insertType), 'null']);
    case 'Dynamic': return 'null | boolean | number | bigint | string | Uint8Array | Date | readonly (boolean | number | bigint | string | Uint8Array | Date)[]';
    case 'JSON': return '{ readonly [path: string]: unknown } | string';
    case 'Interval': return 'bigint | number | string';
    case 'Point': case 'Ring': case 'LineString': case 'Polygon': case 'MultiLineString': case 'MultiPolygon':
      return insertType(structural(t));
    case 'Nothing': return 'null';
    case 'Geometry': case 'AggregateFunction': case 'QBit':
      throw new TypeError(`${t.kind} columns cannot be written by insert()`);
    default:
      if (isIntKind(t.kind)) return t.kind.endsWith('64') || wide(t.kind) ? 'bigint | number | string' : 'number | bigint | string';
      return 'unknown';
  }
}

/**
 * The TypeScript type of a `{name:Type}` parameter value (client/sql/params.ts): a string is always
 * accepted at the top level (the server parses it as the type's text), so it is part of every
 * scalar's type; composites take JS arrays, `tuple(…)`, Map or plain objects.
 */
export function paramType(t: TypeNode, top = true): string {
  const text = top ? ['string'] : [];
  switch (t.kind) {
    case 'Float32': case 'Float64': case 'BFloat16': return union(['number', ...text]);
    case 'Bool': return union(['boolean', ...text]);
    case 'Decimal': return union(['number', 'bigint', 'string']);
    case 'String': case 'FixedString': return union(['string', 'Uint8Array']);
    case 'Date': case 'Date32': case 'DateTime': case 'DateTime64': return union(['Date', 'string']);
    case 'Time': case 'Time64': return 'string';
    case 'UUID': case 'IPv4': case 'IPv6': return 'string';
    case 'Enum8': case 'Enum16': return union(t.entries.map((e) => jsString(e.label)));
    case 'Nullable': return union([paramType(t.inner, top), 'null']);
    case 'LowCardinality': case 'SimpleAggregateFunction': return paramType(t.inner, top);
    case 'Array': return arrayOf(paramType(t.element, false), true);
    case 'Tuple': return `QueryTuple<readonly [${t.elements.map((e) => paramType(e, false)).join(', ')}]>`;
    case 'Nested': return arrayOf(`QueryTuple<readonly [${t.elements.map((e) => paramType(e, false)).join(', ')}]>`, true);
    case 'Map': return `ReadonlyMap<${paramType(t.key, false)}, ${paramType(t.value, false)}> | { readonly [key: string]: ${paramType(t.value, false)} }`;
    case 'Interval': return union(['number', 'bigint', ...text]);
    default:
      if (isIntKind(t.kind)) return union(['number', 'bigint', ...text]);
      return 'string';
  }
}
