// Code generation of the RowBinary row loop for one plan (schema + resolved options).
//
// Invariant: no per-cell dispatch on types in the emitted loop: every decision (type, option,
// row shape) is taken here, at generation time. Adjacent fixed-width top-level columns share one
// bounds check and are read inline at constant offsets. Strings, Nullable, Array, Map, Tuple and
// Variant are inlined up to MAX_INLINE_DEPTH levels of nesting; deeper subtrees, Dynamic and
// JSON go through prebuilt readers (readers.ts). Server text (names, labels, zones) enters the
// source only as Emitter.key() property keys; everything else through constants (emitter.ts).
// A count of items that can take no bytes (empty tuples) is charged to the body's budget
// (`cur.zeroLeft`, io/fault.ts) before anything is built; only a schema that can charge keeps the
// budget at each row's start, to give back what an incomplete row charged.
//
// The emitted factory `(C, H) => decode` returns
//   decode(u8, dv, p, end, out, cur): number
// which appends complete rows of bytes [p, end) to `out` and returns the end offset. When the
// bytes end inside a row it throws NEED_MORE (cur.need = hint) and when a value is corrupt a
// DecodeFault; in both cases cur.pos holds the start offset of that row (rows before it are
// already in `out`).
import type { TypeNode } from '../types/ast.js';
import type { ResolvedValueOptions } from '../plan/options.js';
import type { RowPlan } from '../plan/resolve.js';
import { hashKey } from '../codegen/compile.js';
import { structural, minWidth, objectKeyOptions, chargesZeroWidth } from '../plan/structural.js';
import { keyText } from '../plan/key-text.js';
import { fixedWidth } from '../types/ast.js';
import { Emitter } from '../codegen/emitter.js';
import { isScalar, scalarExpr } from './scalars.js';
import { makeReader, assertDecodable } from './readers.js';
import { ZERO_WIDTH_PER_BYTE } from '../io/fault.js';

/** Composite nesting inlined in generated code; deeper levels call prebuilt readers. */
export const MAX_INLINE_DEPTH = 3;

export interface Generated {
  readonly source: string;
  readonly constants: readonly unknown[];
}

/** A type whose every value is the same bytes-width and readable by one expression. */
function isFixedExpr(t: TypeNode): boolean {
  const s = structural(t);
  if (isScalar(s)) return true;
  return s.kind === 'Tuple' && s.elements.length > 0 && s.elements.every(isFixedExpr);
}

/** Expression of a fixed-width value at `P + offset` (scalars and tuples of them). */
function fixedExpr(e: Emitter, t: TypeNode, o: ResolvedValueOptions, P: string, offset: number): string {
  const s = structural(t);
  const at = offset === 0 ? P : `${P} + ${e.int(offset)}`;
  if (isScalar(s)) return scalarExpr(e, s, o, at);
  if (s.kind !== 'Tuple') throw new Error('codegen: not fixed');
  const parts: string[] = [];
  let off = offset;
  for (const el of s.elements) {
    parts.push(fixedExpr(e, el, o, P, off));
    off += fixedWidth(el);
  }
  if (s.names === undefined) return `[${parts.join(', ')}]`;
  return `{${parts.map((x, i) => `${e.key(s.names![i]!)}: ${x}`).join(', ')}}`;
}

/** Emit: read a VarUInt at p into `n` (declared here), advancing p. */
function emitVarUInt(e: Emitter, n: string): void {
  e.line('if (p >= end) throw H.more(cur, p + 1);');
  e.line(`let ${n} = u8[p];`);
  e.line(`if (${n} < 128) p++; else { cur.pos = p; ${n} = H.readVarUInt(cur); p = cur.pos; }`);
}

/**
 * Emit a count of items of at least `min` bytes each, checked before anything is allocated. Items
 * that may take no bytes (min 0: empty tuples) are charged to the body's budget (io/fault.ts).
 */
function emitCount(e: Emitter, n: string, min: number): void {
  emitVarUInt(e, n);
  if (min > 0) {
    e.line(`if (${n} * ${e.int(min)} > end - p) throw H.badLength(cur, p, ${n} * ${e.int(min)});`);
  } else {
    e.line(`if (${n} > H.MAX_LENGTH) throw H.fault("count beyond the 1 GiB limit", p);`);
    e.line(`if ((cur.zeroLeft -= ${n}) < ${e.int(-ZERO_WIDTH_PER_BYTE)} * (p - cur.zeroFrom)) throw H.zeroWidthFault(${n}, p);`);
  }
}

/** Emit statements reading one value of `t` at p into the already declared variable `out`. */
function emitValue(e: Emitter, t: TypeNode, o: ResolvedValueOptions, out: string, depth: number, lowCardinality = false): void {
  if (t.kind === 'LowCardinality') {
    emitValue(e, t.inner, o, out, depth, true);
    return;
  }
  const s = structural(t);
  if (isFixedExpr(s)) {
    const w = e.int(fixedWidth(s));
    e.line(`if (p + ${w} > end) throw H.more(cur, p + ${w});`);
    e.line(`${out} = ${fixedExpr(e, s, o, 'p', 0)};`);
    e.line(`p += ${w};`);
    return;
  }
  if (s.kind === 'String') {
    const n = e.id('n');
    emitVarUInt(e, n);
    e.line(`if (${n} > end - p) throw H.badLength(cur, p, ${n});`);
    if (o.strings === 'bytes') e.line(`${out} = H.copyBytes(u8, p, p + ${n});`);
    // LowCardinality values repeat by design: a per-query dictionary (io/string-dict.ts).
    else if (lowCardinality) e.line(`${out} = ${e.state('new H.StringDict()')}.get(u8, p, ${n});`);
    else e.line(`${out} = H.utf8Decode(u8, p, p + ${n});`);
    e.line(`p += ${n};`);
    return;
  }
  const composite = s.kind === 'Nullable' || s.kind === 'Array' || s.kind === 'Map' || s.kind === 'Tuple' || s.kind === 'Variant';
  if (!composite || depth >= MAX_INLINE_DEPTH) {
    const reader = e.konst(makeReader(s, o));
    e.line(`cur.pos = p; ${out} = ${reader}(cur); p = cur.pos;`);
    return;
  }
  switch (s.kind) {
    case 'Nullable': {
      const f = e.id('f');
      e.line('if (p >= end) throw H.more(cur, p + 1);');
      e.line(`const ${f} = u8[p];`);
      e.open(`if (${f} === 1) { p++; ${out} = null; } else if (${f} !== 0) { throw H.fault("Nullable flag is neither 0 nor 1", p); } else {`);
      e.line('p++;');
      emitValue(e, s.inner, o, out, depth + 1, lowCardinality);
      e.close();
      return;
    }
    case 'Array': {
      const n = e.id('n');
      const a = e.id('a');
      const i = e.id('i');
      emitCount(e, n, minWidth(s.element));
      e.line(`const ${a} = new Array(${n});`);
      if (isFixedExpr(s.element)) {
        // One bounds check covered the whole array (n * width bytes).
        const w = e.int(fixedWidth(s.element));
        e.line(`for (let ${i} = 0; ${i} < ${n}; ${i}++, p += ${w}) ${a}[${i}] = ${fixedExpr(e, s.element, o, 'p', 0)};`);
      } else {
        const v = e.id('v');
        e.open(`for (let ${i} = 0; ${i} < ${n}; ${i}++) {`);
        e.line(`let ${v};`);
        emitValue(e, s.element, o, v, depth + 1);
        e.line(`${a}[${i}] = ${v};`);
        e.close();
      }
      e.line(`${out} = ${a};`);
      return;
    }
    case 'Map': {
      const n = e.id('n');
      const m = e.id('m');
      const i = e.id('i');
      const k = e.id('k');
      const v = e.id('v');
      emitCount(e, n, minWidth(s.key) + minWidth(s.value));
      e.line(o.maps === 'Map' ? `const ${m} = new Map();` : `const ${m} = {};`);
      e.open(`for (let ${i} = 0; ${i} < ${n}; ${i}++) {`);
      e.line(`let ${k}, ${v};`);
      emitValue(e, s.key, o.maps === 'Map' ? o : objectKeyOptions(o), k, depth + 1);
      emitValue(e, s.value, o, v, depth + 1);
      const kt = o.maps === 'Map' ? undefined : keyText(s.key);
      if (o.maps === 'Map') e.line(`${m}.set(${k}, ${v});`);
      else if (kt === undefined) e.line(`H.setOwn(${m}, String(${k}), ${v});`);
      else e.line(`H.setOwn(${m}, ${e.konst(kt)}(${k}), ${v});`);
      e.close();
      e.line(`${out} = ${m};`);
      return;
    }
    case 'Tuple': {
      const vars = s.elements.map(() => e.id('t'));
      if (vars.length > 0) e.line(`let ${vars.join(', ')};`);
      s.elements.forEach((el, j) => emitValue(e, el, o, vars[j]!, depth + 1));
      if (s.names === undefined) e.line(`${out} = [${vars.join(', ')}];`);
      else e.line(`${out} = {${vars.map((x, j) => `${e.key(s.names![j]!)}: ${x}`).join(', ')}};`);
      return;
    }
    case 'Variant': {
      const d = e.id('d');
      e.line('if (p >= end) throw H.more(cur, p + 1);');
      e.line(`const ${d} = u8[p++];`);
      e.open(`switch (${d}) {`);
      e.line(`case 255: ${out} = null; break;`);
      s.members.forEach((mem, j) => {
        e.open(`case ${e.int(j)}: {`);
        emitValue(e, mem, o, out, depth + 1);
        e.line('break;');
        e.close();
      });
      e.line(`default: throw H.fault("Variant discriminator out of range", p - 1);`);
      e.close();
      return;
    }
    default:
      throw new Error(`codegen: unhandled ${(s as TypeNode).kind}`);
  }
}

/** Generate the factory source of the row decoder for `plan`. */
export function generateRowDecoder(plan: RowPlan): Generated {
  const e = new Emitter();
  const cols = plan.columns;
  for (const c of cols) assertDecodable(c.type, c.name, c.typeText);
  const vars = cols.map(() => e.id('v'));
  const rowMin = cols.reduce((a, c) => a + minWidth(c.type), 0);
  // Only a schema that can charge the zero-width budget keeps its value at the row's start, to
  // give back what an incomplete row charged (it is decoded again when its bytes are in).
  const charges = cols.some((c) => chargesZeroWidth(c.type));

  e.open('return function decode(u8, dv, p, end, out, cur) {');
  e.line('let rs = p;');
  if (charges) e.line('let zs = cur.zeroLeft;');
  e.open('try {');
  e.open('while (p < end) {');
  e.line('rs = p;');
  if (charges) e.line('zs = cur.zeroLeft;');
  if (vars.length > 0) e.line(`let ${vars.join(', ')};`);
  for (let i = 0; i < cols.length;) {
    // A run of fixed-width columns: one bounds check, reads at constant offsets.
    let j = i;
    let width = 0;
    while (j < cols.length && isFixedExpr(cols[j]!.type)) { width += fixedWidth(cols[j]!.type); j++; }
    if (j > i) {
      e.line(`if (p + ${e.int(width)} > end) throw H.more(cur, p + ${e.int(width)});`);
      let off = 0;
      for (let k = i; k < j; k++) {
        e.line(`${vars[k]} = ${fixedExpr(e, cols[k]!.type, cols[k]!.opts, 'p', off)};`);
        off += fixedWidth(cols[k]!.type);
      }
      e.line(`p += ${e.int(width)};`);
      i = j;
      continue;
    }
    emitValue(e, cols[i]!.type, cols[i]!.opts, vars[i]!, 0);
    i++;
  }
  if (rowMin === 0) {
    // A row can take zero bytes (only empty tuples): bytes left that no row consumes are corrupt,
    // and without this check the loop would never end.
    e.line('if (p === rs) throw H.fault("bytes left over that no row of this schema can consume", p);');
  }
  if (plan.rows === 'array') e.line(`out.push([${vars.join(', ')}]);`);
  else e.line(`out.push({${cols.map((c, i) => `${e.key(c.name)}: ${vars[i]}`).join(', ')}});`);
  e.close();
  e.mid('} catch (err) {');
  e.line('cur.pos = rs;');
  if (charges) e.line('cur.zeroLeft = zs;');
  e.line('throw err;');
  e.close();
  e.line('return p;');
  e.close('};');
  return { source: e.finish('rowbinary', hashKey(plan.key)), constants: e.consts };
}
