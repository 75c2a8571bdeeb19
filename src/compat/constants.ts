// Data the official clients export as values: the OpenTelemetry span names and codes of their
// tracer hooks, the exception-tag header's name, and the simple column type names. Data only,
// runtime-neutral. Invariant: the same values as @clickhouse/client-web 1.23.1 exports (the
// `tracer` option itself is refused by chwire/compat: chwire traces with OpenTelemetry itself).
export const ClickHouseSpanNames = {
  query: 'clickhouse.query', query_stream: 'clickhouse.query.stream', command: 'clickhouse.command',
  exec: 'clickhouse.exec', insert: 'clickhouse.insert', ping: 'clickhouse.ping',
} as const;
export const ClickHouseSpanStatusCode = { UNSET: 0, OK: 1, ERROR: 2 } as const;
export const ClickHouseSpanKind = { INTERNAL: 0, SERVER: 1, CLIENT: 2, PRODUCER: 3, CONSUMER: 4 } as const;
/** The response header that names the tag of 25.11+'s framed exceptions. */
export const EXCEPTION_TAG_HEADER_NAME = 'x-clickhouse-exception-tag';
export const SimpleColumnTypes = [
  'Bool', 'UInt8', 'Int8', 'UInt16', 'Int16', 'UInt32', 'Int32', 'UInt64', 'Int64', 'UInt128', 'Int128',
  'UInt256', 'Int256', 'Float32', 'Float64', 'String', 'UUID', 'Date', 'Date32', 'IPv4', 'IPv6',
] as const;
