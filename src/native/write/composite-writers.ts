// Native writers of the composite types (native.md §4.3–§4.8): Nullable, Array (and Nested),
// Tuple, Map, LowCardinality, Variant. Each writes its state prefixes in prefix() and its own
// streams followed by its children's in data(), so the depth-first layout of §3 holds.
//
// Invariants: a child is never asked for data of 0 values (an empty nested column has no data);
// a nested failure is reported at the parent's position (the caller's row at the top).
import type { ByteSink } from './sink.js';
import { fail } from '../../convert/encode-values.js';
import { failedAt, remap, isList, type ColumnWriter } from './writer-core.js';
import type { TypeNode } from '../../types/ast.js';
import { serverOrder, takes } from './variant-order.js';

export function nullableWriter(inner: ColumnWriter): ColumnWriter {
  return {
    zero: null,
    nullable: true,
    prefix(sink) {
      inner.prefix(sink);
    },
    data(values, sink) {
      const n = values.length;
      if (n === 0) return;
      const map = new Uint8Array(n);
      const vals = new Array<unknown>(n);
      const zero = inner.zero;
      for (let i = 0; i < n; i++) {
        const v = values[i];
        if (v === null || v === undefined) {
          map[i] = 1;
          vals[i] = zero;
        } else vals[i] = v;
      }
      sink.view(map);
      inner.data(vals, sink);
    },
    accepts: (v) => v === null || v === undefined || inner.accepts(v),
  };
}

/** Row index of flat element `i` given cumulative end offsets. */
function rowOfElement(ends: Uint32Array, i: number): number {
  let lo = 0;
  let hi = ends.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ends[mid]! > i) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** UInt64 offsets from 32-bit ends (a block never holds 2^32 elements: checked). */
function writeOffsets(ends: Uint32Array, sink: ByteSink): void {
  const out = new Uint32Array(ends.length * 2);
  for (let i = 0; i < ends.length; i++) out[2 * i] = ends[i]!;
  sink.view(out);
}

export function arrayWriter(element: ColumnWriter): ColumnWriter {
  return {
    zero: [],
    nullable: false,
    prefix(sink) {
      element.prefix(sink);
    },
    data(values, sink) {
      const n = values.length;
      if (n === 0) return;
      const ends = new Uint32Array(n);
      const flat: unknown[] = [];
      let i = 0;
      try {
        for (; i < n; i++) {
          const v = values[i];
          if (!isList(v)) fail('an array', v);
          for (let k = 0; k < v.length; k++) flat.push(v[k]);
          if (flat.length > 0xffffffff) fail('fewer than 2^32 elements in one block', v);
          ends[i] = flat.length;
        }
      } catch (e) {
        throw failedAt(e, i);
      }
      writeOffsets(ends, sink);
      if (flat.length === 0) return;
      try {
        element.data(flat, sink);
      } catch (e) {
        throw remap(e, (k) => rowOfElement(ends, k));
      }
    },
    accepts: isList,
  };
}

export function tupleWriter(elements: readonly ColumnWriter[], names: readonly string[] | undefined): ColumnWriter {
  const m = elements.length;
  const expected = names === undefined ? `an array of ${m} values` : `an array of ${m} values or an object with keys ${names.map((x) => JSON.stringify(x)).join(', ')}`;
  const nameSet = names === undefined ? undefined : new Set(names);
  const split = (v: unknown, cols: unknown[][], i: number): void => {
    if (Array.isArray(v)) {
      if (v.length !== m) fail(expected, v);
      for (let k = 0; k < m; k++) cols[k]![i] = v[k];
    } else if (names !== undefined && typeof v === 'object' && v !== null && !isList(v)) {
      const o = v as Record<string, unknown>;
      for (const key of Object.keys(o)) if (!nameSet!.has(key)) fail(`${expected} (unknown key ${JSON.stringify(key)})`, v);
      for (let k = 0; k < m; k++) cols[k]![i] = Object.prototype.hasOwnProperty.call(o, names[k]!) ? o[names[k]!] : undefined;
    } else fail(expected, v);
  };
  return {
    zero: elements.map((e) => e.zero),
    nullable: false,
    prefix(sink) {
      for (const e of elements) e.prefix(sink);
    },
    data(values, sink) {
      const n = values.length;
      if (n === 0) return;
      const cols: unknown[][] = elements.map(() => new Array<unknown>(n));
      let i = 0;
      try {
        for (; i < n; i++) split(values[i], cols, i);
      } catch (e) {
        throw failedAt(e, i);
      }
      for (let k = 0; k < m; k++) elements[k]!.data(cols[k]!, sink);
      // Tuple(): one placeholder byte per value, as the engine writes and reads it (like Nothing).
      if (m === 0) sink.view(new Uint8Array(n).fill(0x30));
    },
    accepts: (v) => (Array.isArray(v) && v.length === m) || (names !== undefined && typeof v === 'object' && v !== null && !isList(v)),
  };
}

/** `fromText`: how a plain object's property name becomes a key (key-from-text.ts; undefined: as it is). */
export function mapWriter(key: ColumnWriter, value: ColumnWriter, fromText?: (k: string) => unknown): ColumnWriter {
  const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !isList(v) && !(v instanceof Map) && !(v instanceof Date);
  return {
    zero: {},
    nullable: false,
    prefix(sink) {
      key.prefix(sink);
      value.prefix(sink);
    },
    data(values, sink) {
      const n = values.length;
      if (n === 0) return;
      const ends = new Uint32Array(n);
      const keys: unknown[] = [];
      const vals: unknown[] = [];
      let i = 0;
      try {
        for (; i < n; i++) {
          const v = values[i];
          if (v instanceof Map) {
            for (const [k, x] of v) { keys.push(k); vals.push(x); }
          } else if (isPlain(v)) {
            for (const k of Object.keys(v)) { keys.push(fromText === undefined ? k : fromText(k)); vals.push(v[k]); }
          } else fail('a Map or a plain object', v);
          ends[i] = keys.length;
        }
      } catch (e) {
        throw failedAt(e, i);
      }
      writeOffsets(ends, sink);
      if (keys.length === 0) return;
      try {
        key.data(keys, sink);
        value.data(vals, sink);
      } catch (e) {
        throw remap(e, (k) => rowOfElement(ends, k));
      }
    },
    accepts: (v) => v instanceof Map || isPlain(v),
  };
}

/** LowCardinality(T) / LowCardinality(Nullable(T)): a per-block dictionary and one index per row (§4.7). */
export function lowCardinalityWriter(dict: ColumnWriter, nullable: boolean): ColumnWriter {
  return {
    zero: nullable ? null : dict.zero,
    nullable,
    prefix(sink) {
      sink.u64(1); // keys version: shared dictionaries with additional keys
      dict.prefix(sink);
    },
    data(values, sink) {
      const n = values.length;
      if (n === 0) return;
      // Index 0 of a nullable dictionary is the NULL slot (its value is a placeholder).
      const entries: unknown[] = nullable ? [dict.zero] : [];
      const firstRow: number[] = nullable ? [-1] : [];
      const seen = new Map<unknown, number>();
      const keys = new Uint32Array(n);
      for (let i = 0; i < n; i++) {
        const v = values[i];
        if (nullable && (v === null || v === undefined)) continue; // key 0
        // Primitives dedupe by value; byte arrays or objects get their own entry (still correct).
        let k = seen.get(v);
        if (k === undefined) {
          k = entries.length;
          entries.push(v);
          firstRow.push(i);
          if (typeof v !== 'object') seen.set(v, k);
        }
        keys[i] = k;
      }
      const size = entries.length;
      const width = size <= 0x100 ? 0 : size <= 0x10000 ? 1 : 2;
      sink.u64(0x0600 | width); // has additional keys | need update dictionary | index width
      sink.u64(size);
      try {
        dict.data(entries, sink);
      } catch (e) {
        throw remap(e, (k) => firstRow[k]!);
      }
      sink.u64(n);
      sink.view(width === 0 ? Uint8Array.from(keys) : width === 1 ? Uint16Array.from(keys) : keys);
    },
    accepts: (v) => (nullable && (v === null || v === undefined)) || dict.accepts(v),
  };
}

/**
 * Variant: each value goes to the member the server would read it into from JSONEachRow (the
 * server's member order, computed once here: variant-order.ts), or is refused when that member
 * cannot hold it exactly. `types` and `names`: each member's type and type name, in the same
 * (discriminator) order as `members`.
 */
export function variantWriter(members: readonly ColumnWriter[], types: readonly TypeNode[], names: readonly string[]): ColumnWriter {
  const m = members.length;
  const order = serverOrder(types);
  const tried = order.map((k) => names[k]!).join(', ');
  const pick = (v: unknown): number => {
    for (const k of order) {
      if (!takes(types[k]!, v)) continue;
      if (!members[k]!.accepts(v)) fail(`a value the Variant member the server reads it into holds: the server reads this value as ${names[k]} (it tries the members in the order ${tried}), and ${names[k]} cannot hold it exactly; pass a value of that type, or of a type no earlier member reads`, v);
      return k;
    }
    return fail(`a value one of the Variant members reads (${tried})`, v);
  };
  return {
    zero: null,
    nullable: true,
    prefix(sink) {
      sink.u64(0); // basic discriminator mode (compact mode is for MergeTree parts only)
      for (const w of members) w.prefix(sink);
    },
    data(values, sink) {
      const n = values.length;
      if (n === 0) return;
      const disc = new Uint8Array(n);
      const parts: unknown[][] = members.map(() => []);
      const rows: number[][] = members.map(() => []);
      let i = 0;
      try {
        for (; i < n; i++) {
          const v = values[i];
          if (v === null || v === undefined) { disc[i] = 0xff; continue; }
          const k = pick(v);
          disc[i] = k;
          parts[k]!.push(v);
          rows[k]!.push(i);
        }
      } catch (e) {
        throw failedAt(e, i);
      }
      sink.view(disc);
      for (let k = 0; k < m; k++) {
        try {
          members[k]!.data(parts[k]!, sink);
        } catch (e) {
          throw remap(e, (j) => rows[k]![j]!);
        }
      }
    },
    accepts: () => true,
  };
}
