// @effect/sql-clickhouse: the layer, the sql template (query, parameters), insertQuery, an error.
import { ClickhouseClient } from '@effect/sql-clickhouse';
import { Effect } from 'effect';
const { print, printError } = await import(`${process.env.EXAMPLES}/print.mjs`);

const program = Effect.gen(function* () {
  const sql = yield* ClickhouseClient.ClickhouseClient;
  yield* sql.insertQuery({ table: 'effect_people', values: [{ id: 1, name: 'Ada' }, { id: 2, name: 'Grace' }, { id: 3, name: 'Edsger' }] });
  print('select', yield* sql`SELECT id, name FROM effect_people WHERE id >= 2 ORDER BY id`);
  // Interpolated values are sent as query parameters ({p1:String}), which 18.16 does not have: an
  // error path on that server.
  const param = yield* Effect.either(sql`SELECT ${sql.param('UInt8', 7)} AS seven, ${'text'} AS t`);
  if (param._tag === 'Left') printError('param', param.left.cause ?? param.left);
  else print('param', param.right);
  const failed = yield* Effect.either(sql`SELECT nope FROM effect_people`);
  if (failed._tag === 'Left') printError('error', failed.left.cause ?? failed.left);
  else print('error', 'no error');
});
await Effect.runPromise(program.pipe(
  Effect.provide(ClickhouseClient.layer({ url: process.env.CH_URL, database: process.env.CH_DB })),
  Effect.scoped,
));
