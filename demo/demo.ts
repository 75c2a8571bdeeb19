// `npm run demo`: chwire against the embedded engine (chdb://, no server needed). Creates a
// table, inserts rows, reads them back with fetch and with stream (row by row and in batches),
// and prints a few rows and the rows per second of each path (one cold run each).
import { inspect } from 'node:util';
import { createClient } from '../src/index.js';

const ROWS = Number(process.env['DEMO_ROWS'] ?? 500_000);

function rate(rows: number, ms: number): string {
  return `${Math.round(rows / (ms / 1000)).toLocaleString('en-US')} rows/s (${ms.toFixed(0)} ms)`;
}

async function main(): Promise<void> {
  await using client = createClient({ url: 'chdb://' });
  console.log(`chwire demo on the embedded engine, ClickHouse ${await client.serverVersion()}`);
  console.log('(rows/s below: one cold run of each path, engine time included; `npm run bench:*` measures properly)');

  await client.execute(`
    CREATE TABLE events (
      id UInt64, user String, kind LowCardinality(String), amount Decimal(18, 4),
      at DateTime64(3, 'UTC'), tags Array(String), score Nullable(Float64)
    ) ENGINE = MergeTree ORDER BY id`);

  const kinds = ['view', 'click', 'buy'];
  const rows = Array.from({ length: ROWS }, (_, i) => ({
    id: i,
    user: `user-${i % 1000}`,
    kind: kinds[i % 3]!,
    amount: `${i % 10000}.${String(i % 10000).padStart(4, '0')}`,
    at: new Date(Date.UTC(2024, 0, 1) + i * 1000),
    tags: i % 5 === 0 ? ['new'] : [],
    score: i % 7 === 0 ? null : i / 7,
  }));

  let t = performance.now();
  await client.insert('events', rows);
  console.log(`insert (Native, streamed blocks): ${rate(ROWS, performance.now() - t)}`);

  t = performance.now();
  const all = await client.fetch('SELECT * FROM events ORDER BY id');
  console.log(`fetch  (all rows as objects):      ${rate(all.length, performance.now() - t)}`);
  console.log('first rows:');
  for (const r of all.slice(0, 3)) console.log(' ', inspect(r, { breakLength: Infinity }));
  console.log('columns:', all.columns.map((c) => `${c.name} ${c.type}`).join(', '));

  t = performance.now();
  let n = 0;
  let total = 0;
  for await (const r of client.stream<{ amount: string }>('SELECT * FROM events ORDER BY id')) {
    n++;
    total += Number(r.amount);
  }
  console.log(`stream (rows consumed one by one): ${rate(n, performance.now() - t)}  sum(amount) ≈ ${total.toFixed(0)}`);

  t = performance.now();
  n = 0;
  total = 0;
  for await (const batch of client.stream<{ amount: string }>('SELECT * FROM events ORDER BY id').batches()) {
    for (const r of batch) total += Number(r.amount);
    n += batch.length;
  }
  console.log(`stream().batches() (arrays of rows): ${rate(n, performance.now() - t)}  sum(amount) ≈ ${total.toFixed(0)}`);

  const top = await client.fetch('SELECT kind, count() AS n, sum(amount) AS total FROM events WHERE id >= {from:UInt64} GROUP BY kind ORDER BY kind', { params: { from: 1000 } });
  console.log('by kind (parameterised query):', top);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
