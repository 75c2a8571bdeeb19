// Zone-less date-time text on insert is read with the server's own offsets for the zone, learnt
// once per host and zone (src/client/insert/server-text-zones.ts), not with this runtime's Intl data: the
// two tz databases differ (Africa/Casablanca from 2026 between Node 22+ (tz 2026e) and the 26.7
// engine; 1974 between Node 20 and 18.16 on Debian), and the server's reading is the one that
// counts. Checked: the learnt offsets equal the engine's at random instants near and between its
// changes; inserts equal the server's own reading of the same text on the engine and on 18.16;
// rules that cannot be learnt refuse zone-less text (naming why) and nothing else; the learning is
// shared, and one waiting insert's abort ends only that insert.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import dc from 'node:diagnostics_channel';
import { createClient, ChwireEncodeError, ChwireAbortError } from '../src/index.js';
import { coarseChangesSql, fineChangesSql, parseChanges, serverZoneRules, serverOffsetAt, RANGE_1900_2299, RANGE_1970_2105, type RulesRange } from '../src/convert/server-zone-rules.js';
import type { Client as ChwireClient } from '../src/index.js';
import { realClient, SKIP_REAL, uniqueName } from './support/ch-server.js';

const c = createClient({ url: 'chdb://' });
after(() => c.close());

/** The offsets learnt from `client`'s server, as the client learns them before an insert. */
async function rulesOf(client: ChwireClient, zone: string, range: RulesRange) {
  const coarse = parseChanges(await client.streamRaw(coarseChangesSql(zone, range), { format: 'TSV' }).text())!;
  const fine = coarse.length === 1 ? [] : parseChanges(await client.streamRaw(fineChangesSql(zone, coarse.slice(1).map((x) => x.t), range), { format: 'TSV' }).text())!;
  return serverZoneRules(zone, coarse[0]!.o, fine, range)!;
}

/** The server's offsets at instants `ts`, asked one by one in SQL (as the server prints each instant in the zone). */
async function offsetsAt(client: ChwireClient, zone: string, ts: number[], range: RulesRange): Promise<number[]> {
  const expr = range.dateTime64
    ? `intDiv(toUnixTimestamp64Milli(toDateTime64(toString(toDateTime64(t, 0, '${zone}')), 0, 'UTC')), 1000) - t`
    : `toInt64(toUInt32(toDateTime(toString(toDateTime(toUInt32(t), '${zone}')), 'UTC'))) - t`;
  const text = await client.streamRaw(`SELECT ${expr} FROM (SELECT toInt64(arrayJoin([${ts.join(',')}])) AS t)`, { format: 'TSV' }).text();
  return text.trim().split('\n').map(Number);
}

async function learntEqualServer(client: ChwireClient, zones: readonly string[], range: RulesRange, runs: number): Promise<void> {
  for (const zone of zones) {
    const rules = await rulesOf(client, zone, range);
    assert.ok(rules.at.length > 1, `${zone} has changes`);
    const changes = [...rules.at.slice(1)];
    const instant = fc.oneof(
      fc.tuple(fc.constantFrom(...changes), fc.integer({ min: -7200, max: 7200 })).map(([t, d]) => Math.min(range.to, Math.max(range.from, t + d))),
      fc.integer({ min: range.from, max: range.to }),
    );
    // Within a day of a change by an amount that is no multiple of 15 minutes (a local mean time
    // ending), the server prints odd text at some instants, and zone-less text there is refused anyway.
    const odd = changes.filter((_, i) => (rules.offset[i + 1]! - rules.offset[i]!) % 900 !== 0);
    const near = (t: number): boolean => odd.some((x) => Math.abs(x - t) < 86400);
    await fc.assert(fc.asyncProperty(fc.array(instant, { minLength: 1, maxLength: 200 }), async (all) => {
      const ts = all.filter((t) => !near(t));
      if (ts.length === 0) return;
      assert.deepEqual(ts.map((t) => serverOffsetAt(rules, t)), await offsetsAt(client, zone, ts, range), zone);
    }), { numRuns: runs });
  }
}

const ZONES = ['Europe/Dublin', 'Europe/Berlin', 'America/New_York', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'America/Sao_Paulo', 'Africa/Casablanca', 'Africa/Monrovia', 'Pacific/Apia'];

test('the learnt offsets equal the engine\'s at random instants 1900-2299, near its changes and between them (property, engine)', { timeout: 120_000 }, async () => {
  await learntEqualServer(c, ZONES, RANGE_1900_2299, 5);
});

test('18.16: the learnt offsets (1970-2105, no DateTime64 there) equal that server\'s at random instants (property)', { skip: SKIP_REAL, timeout: 120_000 }, async () => {
  const rc = realClient();
  try {
    await learntEqualServer(rc, ['Europe/Berlin', 'Africa/Casablanca', 'America/Sao_Paulo'], RANGE_1970_2105, 3);
  } finally {
    await rc.close();
  }
});

test('rules that do not chain or go backwards are refused; instants outside the range have no offset', () => {
  const R = RANGE_1970_2105;
  assert.equal(serverZoneRules('X', 0, [{ t: 200000, o: 3600, p: 0 }, { t: 100000, o: 0, p: 3600 }], R), undefined);
  assert.equal(serverZoneRules('X', 0, [{ t: 200000, o: 3600, p: 1800 }], R), undefined);
  const r = serverZoneRules('X', 0, [{ t: 200000, o: 3600, p: 0 }], R)!;
  assert.deepEqual([serverOffsetAt(r, R.from - 1), serverOffsetAt(r, 199999), serverOffsetAt(r, 200000), serverOffsetAt(r, R.to + 1)], [undefined, 0, 3600, undefined]);
});

// Texts where this runtime's Intl and one of the servers here read Casablanca differently (which
// ones depends on the runtime's tz release), around them, and ordinary ones.
const CASABLANCA = [
  '1974-06-24 22:40:00', '1974-06-25 12:00:00', '2019-05-10 12:00:00', '2026-02-15 02:00:00', '2026-09-20 02:00:00',
  '2027-01-01 00:00:00', '2027-02-07 02:30:00', '2030-06-01 00:00:00', '2031-01-01 12:00:00', '2087-06-01 00:00:00',
];

test('the engine: zone-less text in Africa/Casablanca is stored as the engine reads the same JSONEachRow text, whatever this runtime\'s tz release', async () => {
  const t = `values_zr_${process.pid}`;
  await c.execute(`CREATE TABLE ${t}_n (k UInt32, d DateTime('Africa/Casablanca'), e DateTime64(3, 'Africa/Casablanca')) ENGINE = Memory`);
  await c.execute(`CREATE TABLE ${t}_j (k UInt32, d DateTime('Africa/Casablanca'), e DateTime64(3, 'Africa/Casablanca')) ENGINE = Memory`);
  try {
    await c.insert(`${t}_n`, CASABLANCA.map((d, k) => ({ k, d, e: `${d}.250` })));
    await c.execute(`INSERT INTO ${t}_j FORMAT JSONEachRow ${CASABLANCA.map((d, k) => JSON.stringify({ k, d, e: `${d}.250` })).join('\n')}`);
    const read = (x: string) => c.fetch<{ k: number; d: number; e: bigint }>(`SELECT k, toUnixTimestamp(d) AS d, toUnixTimestamp64Milli(e) AS e FROM ${x} ORDER BY k`);
    assert.deepEqual(await read(`${t}_n`), await read(`${t}_j`));
  } finally {
    await c.execute(`DROP TABLE ${t}_n`);
    await c.execute(`DROP TABLE ${t}_j`);
  }
});

test('18.16: zone-less text in Africa/Casablanca is stored as that server reads it (its tz data is Debian\'s, not the runtime\'s)', { skip: SKIP_REAL }, async () => {
  const rc = realClient();
  const t = uniqueName('values_zr');
  try {
    await rc.execute(`CREATE TABLE ${t} (k UInt32, d DateTime('Africa/Casablanca'), s String) ENGINE = Memory`);
    // Not gap times (nonexistent wall times): 18.16 reads some of those otherwise than the current engine (docs/native.md).
    const texts = CASABLANCA.filter((x) => x !== '2027-02-07 02:30:00');
    await rc.insert(t, texts.map((d, k) => ({ k, d, s: d })));
    const differ = await rc.fetch<{ k: number }>(`SELECT k FROM ${t} WHERE d != toDateTime(s, 'Africa/Casablanca') ORDER BY k`);
    assert.deepEqual(differ, []);
  } finally {
    await rc.execute(`DROP TABLE IF EXISTS ${t}`);
    await rc.close();
  }
});

test('offsets that cannot be learnt (a row limit in the client\'s settings) refuse zone-less text, naming why; Dates and offset text still go in', async () => {
  const limited = createClient({ url: 'chdb://', settings: { max_rows_to_read: 1000 } });
  const t = `values_zr_limit_${process.pid}`;
  await c.execute(`CREATE TABLE ${t} (d DateTime('Europe/Berlin')) ENGINE = Memory`);
  try {
    await assert.rejects(limited.insert(t, [{ d: '2024-06-01 12:00:00' }]), (e: unknown) => {
      assert.ok(e instanceof ChwireEncodeError);
      assert.match(e.message, /zone-less text in Europe\/Berlin is refused: the server's offsets for Europe\/Berlin, which such text is read with, could not be learnt \(.*max_rows_to_read|TOO_MANY_ROWS/);
      assert.match(e.message, /pass a Date or text with an offset/);
      return true;
    });
    await limited.insert(t, [{ d: new Date(Date.UTC(2024, 5, 1, 10)) }, { d: '2024-06-01T12:00:00+02:00' }]);
    assert.deepEqual(await c.fetch(`SELECT toUnixTimestamp(d) AS u FROM ${t}`), [{ u: 1717236000 }, { u: 1717236000 }]);
  } finally {
    await c.execute(`DROP TABLE ${t}`);
    await limited.close();
  }
});

test('an insert aborted while the offsets are learnt ends with ChwireAbortError; another insert waiting for the same learning still gets them', async () => {
  const fresh = createClient({ url: 'chdb://' });
  const t = `values_zr_abort_${process.pid}`;
  await c.execute(`CREATE TABLE ${t} (k UInt32, d DateTime('Europe/Paris')) ENGINE = Memory`);
  const ac = new AbortController();
  // Abort the first insert as soon as the client's own offsets query starts.
  const tc = dc.tracingChannel('chwire:query');
  const handlers = { start: (m: unknown) => { if ((m as { kind?: string }).kind === 'zone-offsets') ac.abort(); }, end: () => undefined, asyncStart: () => undefined, asyncEnd: () => undefined, error: () => undefined };
  tc.subscribe(handlers as never);
  try {
    const [a, b] = await Promise.allSettled([
      fresh.insert(t, [{ k: 1, d: '2024-07-01 12:00:00' }], { signal: ac.signal }),
      fresh.insert(t, [{ k: 2, d: '2024-07-01 12:00:00' }]),
    ]);
    assert.equal(a.status, 'rejected');
    assert.ok((a as PromiseRejectedResult).reason instanceof ChwireAbortError, String((a as PromiseRejectedResult).reason));
    assert.equal(b.status, 'fulfilled', b.status === 'rejected' ? String(b.reason) : '');
    assert.deepEqual(await c.fetch(`SELECT k, toUnixTimestamp(d) AS u FROM ${t}`), [{ k: 2, u: 1719828000 }]);
  } finally {
    tc.unsubscribe(handlers as never);
    await c.execute(`DROP TABLE ${t}`);
    await fresh.close();
  }
});
