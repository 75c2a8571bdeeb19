// clickhouse-migrations' README, as the CLI's `migrate` runs it (migration(home, host, user, password, db, …)),
// then what it recorded; run again to see that nothing is applied twice.
import { createRequire } from 'node:module';
const { print } = await import(`${process.env.EXAMPLES}/print.mjs`);
const { migration } = createRequire(`${process.cwd()}/`)('clickhouse-migrations');
const db = `${process.env.CH_DB}_mig`;
const home = `${process.env.EXAMPLES}/${process.env.MIGRATIONS ?? 'migrations'}`;
await migration(home, process.env.CH_URL, 'default', '', db, 'ENGINE=Ordinary', 'MergeTree');
await migration(home, process.env.CH_URL, 'default', '', db, 'ENGINE=Ordinary', 'MergeTree');
const res = await fetch(`${process.env.CH_URL}/?database=${db}`, { method: 'POST', body: 'SELECT version, checksum, migration_name FROM _migrations ORDER BY version FORMAT JSONEachRow' });
print('_migrations', await res.text());
const rows = await fetch(`${process.env.CH_URL}/?database=${db}`, { method: 'POST', body: 'SELECT * FROM items ORDER BY id FORMAT JSONEachRow' });
print('items', await rows.text());
