// How a user writes against `chwire` (resolved through package.json `exports`, i.e. the shipped
// .d.ts): client options, query results and error fields. Each `@ts-expect-error` line is misuse
// that must stay a compile error; a line that stops erroring fails the test (TS2578).
// Only type-checked: the function is exported so the compiler keeps it, and is never called.
import {
  createClient, tuple, isChwireError, ChwireError, ChwireDecodeError, ChwireEncodeError, ChwireServerError,
  ChwireTypeError, ChwireTimeoutError, ERROR_CODES,
  type Client, type ClientOptions, type ColumnInfo, type ChwireErrorCode, type ColumnsResult, type DecodeOptions,
  type ExecResult, type InsertResult, type ObjectRow, type QueryOptions, type QuerySummary, type RawStream, type Row, type RowStream, type Rows,
} from 'chwire';
import { expectType, type Equal } from './expect.js';

export async function clientUsage(): Promise<void> {
  const client: Client = createClient({
    url: ['http://a:8123', 'http://b:8123'],
    username: 'u',
    password: 'p',
    database: 'db',
    settings: { max_threads: 4, use_query_cache: true, max_block_size: 65536n, log_comment: 'x' },
    requestTimeout: 10_000,
    compression: true,
    tls: { ca: 'PEM', rejectUnauthorized: false },
    int64: 'string',
    datetime: 'number',
    rows: 'array',
    columns: { price: { decimal: 'number' }, id: { uuid: 'bytes' } },
  });
  createClient();
  createClient({ url: 'chdb://' });

  // @ts-expect-error not a value of int64
  createClient({ int64: 'bogus' });
  // @ts-expect-error misspelt option (excess property)
  createClient({ urll: 'http://x' });
  // @ts-expect-error settings take scalars only
  createClient({ settings: { max_threads: { value: 1 } } });
  // @ts-expect-error `rows` is per result, not per column
  createClient({ columns: { a: { rows: 'array' } } });

  // fetch: rows typed by the caller, with the result's metadata alongside.
  const rows = await client.fetch<{ n: bigint; s: string }>('SELECT 1 AS n, 2 AS s', { params: { p: 1, t: tuple(1, 'x') }, int64: 'bigint' });
  expectType<Equal<typeof rows, Rows<{ n: bigint; s: string }>>>();
  expectType<Equal<(typeof rows)[number]['n'], bigint>>();
  expectType<Equal<typeof rows.columns, readonly ColumnInfo[]>>();
  expectType<Equal<typeof rows.queryId, string | undefined>>();
  expectType<Equal<typeof rows.summary, QuerySummary | undefined>>();
  const col: ColumnInfo = rows.columns[0]!;
  expectType<Equal<typeof col.name, string>>();
  // @ts-expect-error result metadata is read-only
  rows.queryId = 'x';
  // @ts-expect-error column info is read-only
  col.type = 'UInt8';

  // Untyped rows are objects indexable by column name (no cast), arrays with rows: 'array'.
  const untyped = await client.fetch('SELECT 1 AS x');
  expectType<Equal<(typeof untyped)[number], ObjectRow>>();
  expectType<Equal<(typeof untyped)[number]['x'], unknown>>();
  const asArrays = await client.fetch('SELECT 1', { rows: 'array' });
  expectType<Equal<(typeof asArrays)[number], unknown[]>>();
  const firstObject = await client.fetchOne('SELECT 1 AS x');
  expectType<Equal<typeof firstObject, ObjectRow | undefined>>();
  for await (const r of client.stream('SELECT 1 AS x')) expectType<Equal<typeof r['x'], unknown>>();
  for await (const r of client.stream('SELECT 1', { rows: 'array' })) expectType<Equal<typeof r, unknown[]>>();
  // Options typed as the general QueryOptions: the codec's Row union, as before.
  const general: QueryOptions = { rows: 'array' };
  expectType<Equal<(Awaited<ReturnType<typeof client.fetch<Row>>>)[number], Row>>();
  void client.fetch('SELECT 1', general);
  // The type argument is an assertion (docs/client.md): the client does not check it against options.
  const asserted = await client.fetch<{ id: number }>('SELECT 1 AS id', { int64: 'number' });
  expectType<Equal<(typeof asserted)[number]['id'], number>>();

  // Parameters: values a placeholder can take, nested; never functions, symbols or undefined.
  void client.fetch('SELECT {a:Array(Map(String, Tuple(UInt8, Date)))}', { params: { a: [new Map([['k', tuple(1, new Date())]])], b: null, c: new Uint8Array(2), d: { k: [1n, 'x', true] }, e: new Float64Array(1) } });
  // @ts-expect-error a function is not a parameter value
  void client.fetch('SELECT {f:String}', { params: { f: () => 'x' } });
  // @ts-expect-error nor inside an array
  void client.fetch('SELECT {f:Array(String)}', { params: { f: ['x', () => 'y'] } });
  // @ts-expect-error nor a symbol
  void client.streamRaw('SELECT {f:String}', { format: 'CSV', params: { f: Symbol('x') } });

  const one = await client.fetchOne<{ a: number }>('SELECT 1 AS a');
  expectType<Equal<typeof one, { a: number } | undefined>>();
  // @ts-expect-error fetchOne may find no row
  one.a.toFixed();
  const value = await client.fetchValue<number>('SELECT 1');
  expectType<Equal<typeof value, number | undefined>>();

  const stream = client.stream<unknown[]>('SELECT number FROM numbers(10)', { format: 'Native', rows: 'array' });
  expectType<Equal<typeof stream, RowStream<unknown[]>>>();
  for await (const r of stream) expectType<Equal<typeof r, unknown[]>>();
  for await (const batch of client.stream<unknown[]>('SELECT 1').batches()) expectType<Equal<typeof batch, unknown[][]>>();
  const raw = client.streamRaw('SELECT 1', { format: 'CSVWithNames', settings: { max_threads: 1 } });
  expectType<Equal<typeof raw, RawStream>>();
  for await (const bytes of raw) expectType<Equal<typeof bytes, Uint8Array>>();
  // @ts-expect-error the format is required
  client.streamRaw('SELECT 1', {});

  const opts: QueryOptions = { format: 'RowBinaryWithNamesAndTypes', sessionId: 's', signal: AbortSignal.timeout(1000) };
  await client.fetch('SELECT 1', opts);
  // @ts-expect-error only the two row formats chwire decodes
  await client.fetch('SELECT 1', { format: 'JSONEachRow' });

  const done = await client.execute('CREATE TABLE t (a UInt8) ENGINE = Memory', { settings: { wait_end_of_query: 1 } });
  expectType<Equal<typeof done, ExecResult>>();
  // @ts-expect-error execute returns no rows, so it takes no decode options
  await client.execute('SELECT 1', { int64: 'number' });

  const ins = await client.insert('t', [{ a: 1 }, [2]], { blockSize: 0, columns: ['a'] });
  expectType<Equal<typeof ins, InsertResult>>();
  await client.insert('t', ['{"a":1}\n'], { format: 'JSONEachRow' });
  // @ts-expect-error a table name is a string
  await client.insert(1, []);
  // Rows are objects or arrays: typed rows, generators and async iterables of them.
  await client.insert<{ id: number; name: string }>('t', [{ id: 1, name: 'a' }]);
  await client.insert('t', (function* () { yield { id: 1 }; yield [2, 'b']; })());
  await client.insert('t', (async function* () { yield { id: 1 }; })(), { async: { wait: false }, deduplicationToken: 'batch-1' });
  await client.insert('t', [Buffer.from([1])]);
  // @ts-expect-error scalars are not rows
  await client.insert('big', [42, 'x', null]);
  // @ts-expect-error a row of the declared shape
  await client.insert<{ id: number }>('t', [{ id: 'one' }]);
  // @ts-expect-error strings are bytes of a format: only with `format`
  await client.insert('t', ['{"a":1}\n']);
  // @ts-expect-error async takes a boolean or { wait }
  await client.insert('t', [{ a: 1 }], { async: 'yes' });
  // @ts-expect-error the token is a string
  await client.insert('t', [{ a: 1 }], { deduplicationToken: 42 });

  const cols = await client.fetchColumns('SELECT 1 AS a', { types: { a: 'DateTime(\'UTC\')' } });
  expectType<Equal<typeof cols, ColumnsResult>>();
  expectType<Equal<typeof cols.names, string[]>>();
  expectType<Equal<typeof cols.queryId, string | undefined>>();

  expectType<Equal<Awaited<ReturnType<Client['serverVersion']>>, string>>();
  await client.ping();
  client.refreshSchema('t');
  await client.close();
  {
    await using c = createClient({ url: 'chdb://' });
    await c.ping();
  }

  // Decode options as a literal object, reusable across calls.
  const decode = { int64: 'number', columns: { d: { datetime: 'string' } } } as const satisfies DecodeOptions;
  await client.fetch('SELECT 1', decode);
  const options: ClientOptions = { ...decode, url: 'http://localhost:8123' };
  createClient(options);
}

export function errorUsage(e: unknown): void {
  expectType<Equal<(typeof ERROR_CODES)['decode'], 'CHWIRE_DECODE'>>();
  if (isChwireError(e)) {
    expectType<Equal<typeof e, ChwireError>>();
    expectType<Equal<typeof e.code, ChwireErrorCode>>();
    expectType<Equal<typeof e.queryId, string | undefined>>();
    // @ts-expect-error no such code
    if (e.code === 'CHWIRE_BOGUS') return;
  }
  if (e instanceof ChwireDecodeError) {
    expectType<Equal<typeof e.column, string | undefined>>();
    expectType<Equal<typeof e.row, number | undefined>>();
    expectType<Equal<typeof e.offset, number>>();
    // @ts-expect-error error fields are read-only
    e.offset = 0;
  }
  if (e instanceof ChwireEncodeError) {
    expectType<Equal<typeof e.column, string>>();
    expectType<Equal<typeof e.row, number>>();
    expectType<Equal<typeof e.expected, string>>();
    expectType<Equal<typeof e.value, string>>();
  }
  if (e instanceof ChwireServerError) {
    expectType<Equal<typeof e.serverCode, number>>();
    expectType<Equal<typeof e.serverName, string | undefined>>();
    expectType<Equal<typeof e.status, number | undefined>>();
    expectType<Equal<typeof e.serverMessage, string>>();
  }
  if (e instanceof ChwireTypeError) {
    expectType<Equal<typeof e.text, string>>();
    expectType<Equal<typeof e.position, number>>();
  }
  if (e instanceof ChwireTimeoutError) {
    const base: ChwireError = e;
    const err: Error = base;
    void err;
    // @ts-expect-error a timeout carries no byte offset
    void e.offset;
  }
}
