// `session_timezone` on the read path: the engine prints zone-less DateTime/DateTime64 in the
// session's zone, so `datetime: 'text'` and Map keys (`maps: 'object'`) give the same text on
// every read path (RowBinary rows, Native rows, fetchColumns), the setting given per call or for
// the client; reported column types stay as the server sends them; instants are unchanged.
// Expected text is the engine's own toString of the same values. On 18.16 (no session_timezone)
// the server refuses the setting: the call fails, it never prints another zone.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createClient, ChwireServerError } from '../src/index.js';
import { SKIP_REAL, realClient } from './support/ch-server.js';

const c = createClient({ url: 'chdb://' });
after(() => c.close());

const ZONES = ['America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Europe/Berlin', 'Pacific/Chatham', 'America/St_Johns'];

/** Zone-less date-times at `secs` (and `secs` + 0.123456 for DateTime64(6)), each beside the engine's text of it. */
const sqlFor = (secs: number): string => `SELECT toDateTime(${secs}) AS t, toDateTime64(${secs}.123456, 6) AS t6,
  map(toDateTime(${secs}), 1) AS m, [toDateTime64(${secs}.5, 1)] AS a, CAST(NULL, 'Nullable(DateTime)') AS n,
  toDateTime(${secs}, 'UTC') AS z,
  toString(t) AS ts, toString(t6) AS t6s, toString(a[1]) AS as1, toString(z) AS zs`;

interface Row { t: string; t6: string; m: Record<string, number>; a: string[]; n: null; z: string; ts: string; t6s: string; as1: string; zs: string }

function check(rows: Row[] | Record<string, unknown>[], where: string): void {
  const r = rows[0] as Row;
  assert.equal(r.t, r.ts, `${where}: DateTime`);
  assert.equal(r.t6, r.t6s, `${where}: DateTime64(6)`);
  assert.deepEqual(Object.keys(r.m), [r.ts], `${where}: Map key`);
  assert.deepEqual(r.a, [r.as1], `${where}: Array(DateTime64(1))`);
  assert.equal(r.z, r.zs, `${where}: a type with its own zone keeps it`);
}

test('datetime: text and Map keys print zone-less date-times in session_timezone on every read path', async () => {
  await fc.assert(fc.asyncProperty(
    fc.constantFrom(...ZONES), fc.integer({ min: 0, max: 4_102_444_800 }),
    async (zone, secs) => {
      const settings = { session_timezone: zone };
      const sql = sqlFor(secs);
      check(await c.fetch<Row>(sql, { settings, datetime: 'text' }), `RowBinary ${zone} ${secs}`);
      check(await c.fetch<Row>(sql, { settings, datetime: 'text', format: 'Native' }), `Native ${zone} ${secs}`);
      const cols = await c.fetchColumns(sql, { settings, datetime: 'text', wire: false });
      const row = Object.fromEntries(cols.names.map((n, i) => [n, (cols.columns[i] as unknown[])[0]]));
      check([row], `fetchColumns ${zone} ${secs}`);
      // Map keys under the default datetime too; instants unchanged.
      const d = await c.fetch<{ t: Date; m: Record<string, number>; ts: string }>(sql, { settings });
      assert.deepEqual(Object.keys(d[0]!.m), [d[0]!.ts]);
      assert.equal(d[0]!.t.getTime(), secs * 1000);
    },
  ), { numRuns: 25 });
});

test('the reported types are the server\'s; the client-level setting applies and a per-call one wins', async () => {
  const k = createClient({ url: 'chdb://', settings: { session_timezone: 'Asia/Kolkata' }, datetime: 'text' });
  try {
    const sql = sqlFor(1_719_835_200);
    const rows = await k.fetch<Row>(sql);
    check(rows, 'client-level');
    assert.equal(rows[0]!.t, '2024-07-01 17:30:00');
    assert.deepEqual(rows.columns.slice(0, 3).map((x) => x.type), ['DateTime', 'DateTime64(6)', 'Map(DateTime, UInt8)']);
    const ny = await k.fetch<Row>(sql, { settings: { session_timezone: 'America/New_York' } });
    check(ny, 'per call');
    assert.equal(ny[0]!.t, '2024-07-01 08:00:00');
  } finally {
    await k.close();
  }
});

test('18.16 has no session_timezone: the server refuses it, nothing is printed in another zone', { skip: SKIP_REAL }, async () => {
  const r = realClient();
  try {
    await assert.rejects(r.fetch('SELECT toDateTime(0) AS t', { settings: { session_timezone: 'America/New_York' }, datetime: 'text' }),
      (e: unknown) => e instanceof ChwireServerError && /session_timezone/.test(e.message));
  } finally {
    await r.close();
  }
});
