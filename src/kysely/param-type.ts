// The ClickHouse type a Kysely parameter is sent as, from the JavaScript value (or its ch wrapper):
// decided per value when the query is compiled. Invariant: the chosen type holds the value exactly
// (a bigint by its sign and size, an integral number as Int64 within ±2^53, any other number as
// Float64, a Date as DateTime64(3, 'UTC') — on servers before 20.1, which lack DateTime64, as
// DateTime('UTC') when it has no milliseconds, else refused); a value no type fits (a mixed array,
// an object, a function, undefined) is a ChwireConfigError naming the parameter's position and kind.
import { ChwireConfigError } from '../errors.js';
import { ChTyped } from './values.js';

const U64_MAX = (1n << 64n) - 1n;
const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (v instanceof Date) return 'a Date';
  return typeof v === 'object' ? `an object (${(v as object).constructor?.name ?? 'no prototype'})` : `a ${typeof v}`;
}

export function typeOfValue(v: unknown, at: string, dateTime64: boolean): string {
  if (v instanceof ChTyped) return v.type;
  if (typeof v === 'string' || v instanceof Uint8Array) return 'String';
  if (typeof v === 'boolean') return 'UInt8';
  if (typeof v === 'bigint') {
    if (v < 0n) return v >= I64_MIN ? 'Int64' : 'Int128';
    return v <= U64_MAX ? 'UInt64' : v < (1n << 128n) ? 'UInt128' : 'UInt256';
  }
  if (typeof v === 'number') return Number.isSafeInteger(v) ? 'Int64' : 'Float64';
  if (v instanceof Date) {
    if (dateTime64) return "DateTime64(3, 'UTC')";
    if (v.getTime() % 1000 !== 0) {
      throw new ChwireConfigError(`chwire/kysely: parameter ${at} is a Date with milliseconds, and this server has no DateTime64 (before 20.1): pass ch.type(date, 'DateTime') for whole seconds`);
    }
    return "DateTime('UTC')";
  }
  if (v === null) return 'Nullable(Nothing)';
  if (Array.isArray(v)) {
    const present = v.filter((e) => e !== null);
    if (present.length === 0) return v.length === 0 ? 'Array(Nothing)' : 'Array(Nullable(Nothing))';
    const nullable = (t: string): string => `Array(${present.length < v.length ? `Nullable(${t})` : t})`;
    const types = new Set(present.map((e, i) => typeOfValue(e, `${at}[${i}]`, dateTime64)));
    if (types.size === 1) return nullable([...types][0]!);
    // Integers and fractions, or integers of both signs within Int64: one type holds them all.
    if ([...types].every((t) => t === 'Int64' || t === 'Float64') && present.every((e) => typeof e === 'number')) return nullable('Float64');
    if ([...types].every((t) => t === 'Int64' || t === 'UInt64') && present.every((e) => typeof e !== 'bigint' || e <= I64_MAX)) return nullable('Int64');
    throw new ChwireConfigError(`chwire/kysely: parameter ${at} is an array of values of different types (${[...types].join(', ')}): pass ch.type(array, 'Array(T)')`);
  }
  throw new ChwireConfigError(`chwire/kysely: parameter ${at} is ${kindOf(v)}, which has no ClickHouse type of its own: pass ch.type(value, 'Type')`);
}
