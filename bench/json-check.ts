// How a JSON path's rows are checked against chwire's rows. JSON cannot give the same values
// (64-bit integers arrive as quoted strings, dates as text, Decimals as rounded numbers), so the
// comparison is a documented normalisation, applied to every row and every scalar cell:
//
//   chwire value     JSON value                         equal when
//   number           number                             identical, or Math.fround(json) === value (Float32
//                                                         prints in its shortest float form)
//   bigint           string (quoted) or number          String(json) === String(value)
//   string           string                             identical
//   Date             'YYYY-MM-DD[ hh:mm:ss[.f…]]' (UTC)  same milliseconds (fraction cut to 3 digits)
//   boolean / null   boolean / null                     identical
// Cells of other kinds (arrays, maps, tuples, Decimal strings against JSON numbers) are counted
// as not spot-checked. Row counts must match exactly. Invariant: any checked cell that differs
// throws, naming the row, column and both values.
import type { TextDecoder } from 'node:util';

export interface SpotCheck { rows: number; checkedCells: number; skippedCells: number }

/** Compare JSON rows (objects in column order, or arrays) with chwire rows as arrays. */
export function spotCheckJson(json: readonly unknown[], chwire: readonly unknown[][], names: readonly string[]): SpotCheck {
  if (json.length !== chwire.length) throw new Error(`JSON gave ${json.length} rows, chwire ${chwire.length}`);
  let checked = 0;
  let skipped = 0;
  for (let i = 0; i < json.length; i++) {
    const j = json[i];
    const values = Array.isArray(j) ? j : names.map((n) => (j as Record<string, unknown>)[n]);
    const ours = chwire[i]!;
    if (values.length !== ours.length) throw new Error(`row ${i}: JSON has ${values.length} values, chwire ${ours.length}`);
    for (let k = 0; k < ours.length; k++) {
      const verdict = sameCell(ours[k], values[k]);
      if (verdict === undefined) { skipped++; continue; }
      if (!verdict) {
        throw new Error(`row ${i}, column ${names[k]}: chwire ${describe(ours[k])} but JSON ${describe(values[k])}`);
      }
      checked++;
    }
  }
  return { rows: json.length, checkedCells: checked, skippedCells: skipped };
}

/** true/false when the pair is comparable, undefined when this normalisation does not cover it. */
function sameCell(ours: unknown, json: unknown): boolean | undefined {
  if (ours === null || typeof ours === 'boolean') return ours === json;
  if (typeof ours === 'number') {
    if (typeof json !== 'number') return undefined;
    return Object.is(ours, json) || Math.fround(json) === ours;
  }
  if (typeof ours === 'bigint') return (typeof json === 'string' || typeof json === 'number') && String(json) === String(ours);
  if (typeof ours === 'string') return typeof json === 'string' ? json === ours : undefined;
  if (ours instanceof Date) return typeof json === 'string' ? textMillis(json) === ours.getTime() : undefined;
  return undefined;
}

/** Milliseconds of a UTC date or date-time as ClickHouse prints it. */
function textMillis(text: string): number {
  const m = /^(\d{4}-\d{2}-\d{2})(?: (\d{2}:\d{2}:\d{2})(?:\.(\d+))?)?$/.exec(text);
  if (m === null) return NaN;
  const frac = (m[3] ?? '').padEnd(3, '0').slice(0, 3);
  return Date.parse(`${m[1]}T${m[2] ?? '00:00:00'}.${frac}Z`);
}

function describe(v: unknown): string {
  if (typeof v === 'bigint') return `${v}n`;
  if (v instanceof Date) return `Date(${v.toISOString()})`;
  return JSON.stringify(v) ?? String(v);
}

/** JSON lines from bytes as a client must do it: UTF-8 text, split at newlines, one JSON.parse per line. */
export function parseJsonLines(bytes: Uint8Array, decoder: TextDecoder): unknown[] {
  const text = decoder.decode(bytes);
  const out: unknown[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    if (nl === -1) {
      if (start < text.length) out.push(JSON.parse(text.slice(start)));
      return out;
    }
    if (nl > start) out.push(JSON.parse(text.slice(start, nl)));
    start = nl + 1;
  }
}
