// `parseColumnType` of @clickhouse/client 1.x (deprecated there, still exported): a type name as the
// server prints it → the official client's ParsedColumnType shapes, built from chwire's own type
// parser (src/types/parse.ts) instead of the official string slicing.
// Invariant: for every type text the server prints, the result is deep-equal to the official
// function's, or both refuse (test/compat.column-type.property.test.ts runs both over the canonical
// corpus and generated types). Kinds the official parser does not model (Geo, (Simple)AggregateFunction,
// Nested, JSON, Dynamic, Variant, Interval, Time, BFloat16, Nothing, QBit, named tuples, negative enum
// values, arrays deeper than 10) are refused with a ColumnTypeParseError, as there. Texts chwire's
// parser refuses are refused too; on hand-written texts the official parser would read leniently
// (`Decimal(9,2)` without the space, say) the two may differ in which one refuses, and messages may differ.
import { parseType } from '../types/parse.js';
import { printType } from '../types/print.js';
import { decimalByteWidth, type TypeNode } from '../types/ast.js';
import { quoteString } from '../types/quote.js';
import { SimpleColumnTypes } from './constants.js';

export class ColumnTypeParseError extends Error {
  readonly args: Record<string, unknown>;
  constructor(message: string, args?: Record<string, unknown>) {
    super(message);
    this.args = args ?? {};
    this.name = 'Error';
  }
}

type SimpleColumnType = (typeof SimpleColumnTypes)[number];
export interface ParsedColumnSimple { type: 'Simple'; columnType: SimpleColumnType; sourceType: string }
export interface ParsedColumnFixedString { type: 'FixedString'; sizeBytes: number; sourceType: string }
export interface ParsedColumnDateTime { type: 'DateTime'; timezone: string | null; sourceType: string }
export interface ParsedColumnDateTime64 { type: 'DateTime64'; timezone: string | null; precision: number; sourceType: string }
export interface ParsedColumnEnum { type: 'Enum'; values: Record<number, string>; intSize: 8 | 16; sourceType: string }
export interface DecimalParams { precision: number; scale: number; intSize: 32 | 64 | 128 | 256 }
export interface ParsedColumnDecimal { type: 'Decimal'; params: DecimalParams; sourceType: string }
export interface ParsedColumnNullable {
  type: 'Nullable';
  value: ParsedColumnSimple | ParsedColumnEnum | ParsedColumnDecimal | ParsedColumnFixedString | ParsedColumnDateTime | ParsedColumnDateTime64;
  sourceType: string;
}
export interface ParsedColumnArray { type: 'Array'; value: Exclude<ParsedColumnType, ParsedColumnArray>; dimensions: number; sourceType: string }
export interface ParsedColumnMap { type: 'Map'; key: ParsedColumnSimple | ParsedColumnFixedString | ParsedColumnEnum | ParsedColumnDateTime; value: ParsedColumnType; sourceType: string }
export interface ParsedColumnTuple { type: 'Tuple'; elements: ParsedColumnType[]; sourceType: string }
export type ParsedColumnType =
  | ParsedColumnSimple | ParsedColumnEnum | ParsedColumnFixedString | ParsedColumnNullable | ParsedColumnDecimal
  | ParsedColumnDateTime | ParsedColumnDateTime64 | ParsedColumnArray | ParsedColumnTuple | ParsedColumnMap;

const SIMPLE = new Set<string>(SimpleColumnTypes);
/** The escapes the official parser decodes in an enum label; any other backslash it drops, keeping the next character. */
const LABEL_ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'" };

/** A string as the server prints it between single quotes (the official parser keeps zones in this form). */
function printed(s: string): string {
  return quoteString(s).slice(1, -1);
}

/** An enum label as the official parser reads it from the printed type. */
function officialLabel(label: string): string {
  return printed(label).replace(/\\([\s\S])/g, (_, c: string) => LABEL_ESCAPES[c] ?? c);
}
const MAX_ARRAY_DIMENSIONS = 10;

/** The official client's parser of a column's type name (deprecated there; see the module comment). */
export function parseColumnType(sourceType: string): ParsedColumnType {
  if (typeof sourceType !== 'string') throw new ColumnTypeParseError('Unsupported column type', { columnType: sourceType });
  let node: TypeNode;
  try {
    node = parseType(sourceType);
  } catch (e) {
    throw new ColumnTypeParseError('Unsupported column type', { columnType: sourceType, cause: e });
  }
  return fromNode(node, sourceType);
}

/** `source` is the text this node was read from, as the official parser names it (`sourceType`). */
function fromNode(node: TypeNode, source: string): ParsedColumnType {
  let inner = node;
  if (inner.kind === 'LowCardinality') inner = inner.inner;
  if (inner.kind === 'Nullable') {
    const value = plain(inner.inner, node.kind === 'Nullable' ? printType(inner.inner) : source);
    if (value.type === 'Array' || value.type === 'Map' || value.type === 'Tuple' || value.type === 'Nullable') {
      throw new ColumnTypeParseError(`${value.type} cannot be Nullable`, { sourceType: source });
    }
    return { type: 'Nullable', sourceType: source, value };
  }
  return plain(inner, source);
}

function plain(t: TypeNode, source: string): ParsedColumnType {
  if (SIMPLE.has(t.kind)) return { type: 'Simple', columnType: t.kind as SimpleColumnType, sourceType: source };
  switch (t.kind) {
    case 'Decimal': {
      const intSize = (decimalByteWidth(t.precision) * 8) as 32 | 64 | 128 | 256;
      return { type: 'Decimal', params: { precision: t.precision, scale: t.scale, intSize }, sourceType: source };
    }
    case 'DateTime': {
      // The official parser takes a zone of fewer than two characters for a malformed type.
      if (t.timezone !== undefined && printed(t.timezone).length < 2) throw new ColumnTypeParseError('Invalid DateTime type', { columnType: source });
      return { type: 'DateTime', timezone: t.timezone === undefined ? null : printed(t.timezone), sourceType: source };
    }
    case 'DateTime64': return { type: 'DateTime64', timezone: t.timezone === undefined ? null : printed(t.timezone), precision: t.precision, sourceType: source };
    case 'FixedString': return { type: 'FixedString', sizeBytes: t.length, sourceType: source };
    case 'Enum8': case 'Enum16': {
      const values: Record<number, string> = {};
      for (const { label, value } of t.entries) {
        if (value < 0) throw new ColumnTypeParseError('Expected Enum index to be a valid number', { columnType: source, index: value });
        values[value] = officialLabel(label);
      }
      return { type: 'Enum', values, intSize: t.kind === 'Enum8' ? 8 : 16, sourceType: source };
    }
    case 'Array': {
      let element: TypeNode = t;
      let dimensions = 0;
      while (element.kind === 'Array') { element = element.element; dimensions++; }
      if (dimensions > MAX_ARRAY_DIMENSIONS) {
        throw new ColumnTypeParseError('Expected Array to have between 1 and 10 dimensions', { columnType: source });
      }
      const value = fromNode(element, printType(element));
      return { type: 'Array', value: value as Exclude<ParsedColumnType, ParsedColumnArray>, dimensions, sourceType: source };
    }
    case 'Map': {
      const key = fromNode(t.key, printType(t.key));
      if (key.type === 'DateTime64' || key.type === 'Nullable' || key.type === 'Array' || key.type === 'Map'
        || key.type === 'Decimal' || key.type === 'Tuple') {
        throw new ColumnTypeParseError('Invalid Map key type', { key, sourceType: source });
      }
      return { type: 'Map', key, value: fromNode(t.value, printType(t.value)), sourceType: source };
    }
    case 'Tuple': {
      if (t.names !== undefined || t.elements.length === 0) throw new ColumnTypeParseError('Unsupported column type', { columnType: source });
      return { type: 'Tuple', elements: t.elements.map((e) => fromNode(e, printType(e))), sourceType: source };
    }
    default:
      throw new ColumnTypeParseError('Unsupported column type', { columnType: source });
  }
}
