// Converters from ClickHouse wire values to JavaScript values: pure functions, no I/O, shared by
// the RowBinary decoders (compiled, prebuilt readers, reference) and the Native reader.
export { decimalToString, decimalToNumber } from './decimal.js';
export { uuidToString, uuidToBytes } from './uuid.js';
export { ipv4ToString, ipv6ToString } from './ip.js';
export {
  daysToDate, daysToString, secondsToIso, ticksToDate, ticksToIso, ticksToMillis, ticksToFlooredMillis,
  timeToString, time64ToString, time64ToSeconds, int64TicksToFlooredMillis, int64TicksToIso,
} from './datetime.js';
export { FillCache } from './cache.js';
export { setOwn, setJsonPath } from './objects.js';
