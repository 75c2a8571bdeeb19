// Deep equality for benchmark results: every path of a case must produce the same value before any
// of them is timed, so a faster path can never be faster by returning something else.
//
// Invariant: `firstDifference` returns undefined exactly when the two values are equal under these
// rules: same primitive (Object.is, so NaN equals NaN and -0 differs from 0, as the bytes do),
// bigint by value, Date by time value, typed arrays and DataViews by kind and contents, arrays by
// length and elements, Maps by entries in order, plain objects by own enumerable keys (in order:
// a row object's key order is part of its shape) and values, with prototypes compared.
// Otherwise it returns a path to the first difference and both values, for a useful error.

export function firstDifference(a: unknown, b: unknown, path = '$'): string | undefined {
  if (Object.is(a, b)) return undefined;
  const ta = typeof a;
  if (ta !== typeof b || ta !== 'object' || a === null || b === null) return `${path}: ${show(a)} != ${show(b)}`;
  const oa = a as object;
  const ob = b as object;
  if (Object.getPrototypeOf(oa) !== Object.getPrototypeOf(ob)) {
    return `${path}: ${kind(oa)} != ${kind(ob)}`;
  }
  if (oa instanceof Date) {
    return Object.is(oa.getTime(), (ob as Date).getTime()) ? undefined : `${path}: ${show(oa)} != ${show(ob)}`;
  }
  if (ArrayBuffer.isView(oa)) return viewDifference(oa, ob as ArrayBufferView, path);
  if (Array.isArray(oa)) {
    const bb = ob as unknown[];
    if (oa.length !== bb.length) return `${path}: array length ${oa.length} != ${bb.length}`;
    for (let i = 0; i < oa.length; i++) {
      const d = firstDifference(oa[i], bb[i], `${path}[${i}]`);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  if (oa instanceof Map) {
    const ea = [...oa.entries()];
    const eb = [...(ob as Map<unknown, unknown>).entries()];
    return firstDifference(ea, eb, `${path}<Map>`);
  }
  const ka = Object.keys(oa);
  const kb = Object.keys(ob);
  if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i])) {
    return `${path}: keys ${JSON.stringify(ka)} != ${JSON.stringify(kb)}`;
  }
  for (const k of ka) {
    const d = firstDifference((oa as Record<string, unknown>)[k], (ob as Record<string, unknown>)[k], `${path}.${k}`);
    if (d !== undefined) return d;
  }
  return undefined;
}

/** Throw an Error naming the first difference (and what the two values are). */
export function assertEqual(actual: unknown, expected: unknown, what: string): void {
  const d = firstDifference(actual, expected);
  if (d !== undefined) throw new Error(`${what}: results differ at ${d}`);
}

function viewDifference(a: ArrayBufferView, b: ArrayBufferView, path: string): string | undefined {
  if (a.byteLength !== b.byteLength) return `${path}: ${kind(a)} of ${a.byteLength} bytes != ${b.byteLength} bytes`;
  const ua = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const ub = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  for (let i = 0; i < ua.length; i++) {
    if (ua[i] !== ub[i]) return `${path}: ${kind(a)} differs at byte ${i} (${ua[i]} != ${ub[i]})`;
  }
  return undefined;
}

function kind(o: object): string {
  return Object.getPrototypeOf(o)?.constructor?.name ?? 'null-prototype object';
}

function show(v: unknown): string {
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'string') return JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}…` : v);
  if (v instanceof Date) return `Date(${Number.isNaN(v.getTime()) ? 'invalid' : v.toISOString()})`;
  if (typeof v === 'object' && v !== null) return kind(v);
  return String(v);
}
