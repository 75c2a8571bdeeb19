// Aggregate-function specifications inside AggregateFunction(...) and SimpleAggregateFunction(...):
// `[version, ]name[(param, …)][, ArgType, …]` ⇄ a structured form, for the binary type encoding
// (codes 0x25 and 0x2e carry the name, the parameters as tagged fields and the argument types).
//
// Invariant: formatAggregateSpec(parseAggregateSpec(s)) is the server's spelling of s
// (`quantiles(0.5, 0.9), Float64`, `1, sumMapFiltered([1, 2]), Array(UInt8)`), so the AST can
// keep that text verbatim and the binary codec can rebuild it exactly.
import type { TypeNode } from './ast.js';
import { TypeParser } from './parse.js';
import { printType } from './print.js';
import { quoteString } from './quote.js';

/** One aggregate-function parameter (a ClickHouse Field restricted to what parameters use). */
export type AggregateParam =
  | { readonly t: 'null' }
  | { readonly t: 'uint'; readonly v: bigint }
  | { readonly t: 'int'; readonly v: bigint }
  | { readonly t: 'float'; readonly v: number }
  | { readonly t: 'string'; readonly v: string }
  | { readonly t: 'array'; readonly v: readonly AggregateParam[] }
  | { readonly t: 'tuple'; readonly v: readonly AggregateParam[] };

export interface AggregateSpec {
  /** State format version; printed (as a first argument) only when not 0. */
  readonly version: number;
  readonly name: string;
  readonly params: readonly AggregateParam[];
  readonly args: readonly TypeNode[];
}

/** Float text as the server prints a Float64 parameter: shortest round-trip digits. */
function formatFloat(v: number): string {
  if (Number.isNaN(v)) return 'nan';
  if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
  return String(v).replace('e+', 'e');
}

export function formatAggregateParam(p: AggregateParam): string {
  switch (p.t) {
    case 'null': return 'NULL';
    case 'uint': case 'int': return p.v.toString();
    case 'float': return formatFloat(p.v);
    case 'string': return quoteString(p.v);
    case 'array': return `[${p.v.map(formatAggregateParam).join(', ')}]`;
    case 'tuple': return `(${p.v.map(formatAggregateParam).join(', ')})`;
  }
}

/** `name` or `name(p1, p2)`: the function part, as SimpleAggregateFunction's `func` holds it. */
export function formatAggregateFunction(name: string, params: readonly AggregateParam[]): string {
  return params.length === 0 ? name : `${name}(${params.map(formatAggregateParam).join(', ')})`;
}

/** The text between AggregateFunction's parentheses. */
export function formatAggregateSpec(s: AggregateSpec): string {
  const head = (s.version !== 0 ? `${s.version}, ` : '') + formatAggregateFunction(s.name, s.params);
  return head + s.args.map((a) => `, ${printType(a)}`).join('');
}

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/;

function param(p: TypeParser): AggregateParam {
  const c = p.peek();
  if (c === "'") return { t: 'string', v: p.quoted("'") };
  if (c === '[' || c === '(') {
    p.pos++;
    const close = c === '[' ? ']' : ')';
    const items: AggregateParam[] = [];
    if (!p.eat(close)) {
      do items.push(param(p)); while (p.eat(','));
      p.expect(close, `"${close}"`);
    }
    return { t: c === '[' ? 'array' : 'tuple', v: items };
  }
  const at = p.pos;
  const sign = c === '-' || c === '+' ? c : '';
  const word = (p.pos += sign.length, p.ident());
  if (word !== undefined) {
    const w = word.toLowerCase();
    if (w === 'null' && sign === '') return { t: 'null' };
    if (w === 'inf' || w === 'infinity') return { t: 'float', v: sign === '-' ? -Infinity : Infinity };
    if (w === 'nan') return { t: 'float', v: NaN };
    p.fail('expected an aggregate function parameter', at);
  }
  p.pos = at;
  const m = NUMBER.exec(p.text.slice(at));
  if (m === null) p.fail('expected an aggregate function parameter', at);
  p.pos = at + m[0].length;
  if (/^[+-]?\d+$/.test(m[0])) {
    const v = BigInt(m[0]);
    return v < 0n ? { t: 'int', v } : { t: 'uint', v };
  }
  return { t: 'float', v: Number(m[0]) };
}

function functionPart(p: TypeParser): { name: string; params: AggregateParam[] } {
  const name = p.ident();
  if (name === undefined) p.fail('expected an aggregate function name');
  const params: AggregateParam[] = [];
  if (p.eat('(') && !p.eat(')')) {
    do params.push(param(p)); while (p.eat(','));
    p.expect(')', '")" after the aggregate function parameters');
  }
  return { name, params };
}

/** Parse the text between AggregateFunction's parentheses. Throws ChwireTypeError. */
export function parseAggregateSpec(text: string): AggregateSpec {
  const p = new TypeParser(text);
  let version = 0;
  if (/^\s*\d+\s*,/.test(text)) {
    version = p.integer('the state version');
    p.expect(',', '","');
  }
  const { name, params } = functionPart(p);
  const args: TypeNode[] = [];
  while (p.eat(',')) args.push(p.type());
  if (!p.atEnd()) p.fail('unexpected text in the aggregate function arguments');
  return { version, name, params, args };
}

/** Parse SimpleAggregateFunction's `func` (`sum`, `anyLast`, `f(1, 'x')`). Throws ChwireTypeError. */
export function parseAggregateFunction(text: string): { name: string; params: AggregateParam[] } {
  const p = new TypeParser(text);
  const f = functionPart(p);
  if (!p.atEnd()) p.fail('unexpected text after the aggregate function');
  return f;
}
