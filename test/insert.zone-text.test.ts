// Zone-less date-time text on insert (issue 17, item 5) is read as the server reads it: in the
// column's zone, else the server's (`timezone()`, or the call's session_timezone), including
// times in a DST gap (clocks forward) or overlap (clocks back). Checked against the engine (26.7):
// the same text goes in once as JSONEachRow and once through `insert()` (Native), and the stored
// instants must be equal; text the encoder refuses is refused or clamped by the server too, or
// lies outside 1900-2299 (the server's reading there is not the zone's rules). Then on the 18.16
// servers: a DateTime('America/New_York') column, and a server of our own whose config says
// <timezone>America/New_York</timezone>.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createClient, ChwireEncodeError } from '../src/index.js';
import { compileNativeEncoder, interpretNativeEncoder } from '../src/native/write/encoder.js';
import { realClient, SKIP_REAL, uniqueName } from './support/ch-server.js';
import { ownServer, SKIP_OWN } from './support/own-server.js';
import { coarseChangesSql, fineChangesSql, parseChanges, serverZoneRules, RANGE_1900_2299, type ServerZoneRules } from '../src/convert/server-zone-rules.js';

const c = createClient({ url: 'chdb://' });
after(() => c.close());

const ZONES = [
  'America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'America/Santiago', 'America/Sao_Paulo', 'Europe/Moscow',
  'Asia/Kolkata', 'Pacific/Apia', 'Asia/Tehran', 'Europe/Dublin', 'Asia/Kathmandu', 'America/St_Johns', 'Africa/Casablanca', 'Africa/Monrovia', 'Asia/Singapore',
];

function offsetAt(fmt: Intl.DateTimeFormat, t: number): number {
  const p: Record<string, string> = {};
  for (const part of fmt.formatToParts(t * 1000)) p[part.type] = part.value;
  return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second)) / 1000 - t;
}

/** Per zone, wall times (seconds) of its offset changes in some years: where gaps and overlaps are. */
function changes(zone: string): number[] {
  const fmt = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
  const out: number[] = [];
  for (const year of [1908, 1918, 1921, 1942, 1968, 1971, 1983, 1996, 2008, 2011, 2015, 2019, 2023, 2024, 2031, 2077]) {
    let t = Date.UTC(year, 0, 1) / 1000;
    let o = offsetAt(fmt, t);
    for (let d = 0; d < 366; d++, t += 86400) {
      const o2 = offsetAt(fmt, t + 86400);
      if (o2 === o) continue;
      let a = t;
      let b = t + 86400;
      while (b - a > 1) { const m = Math.floor((a + b) / 2); if (offsetAt(fmt, m) === o) a = m; else b = m; }
      out.push(b + o);
      o = o2;
    }
  }
  return out;
}

const CHANGES = new Map(ZONES.map((z) => [z, changes(z)]));

/**
 * Whether the zone changes its offset near this wall time by an amount that is no multiple of 15
 * minutes (a local mean time ending): the server cannot follow such a change, the encoder refuses.
 */
function oddChangeNear(zone: string, text: string): boolean {
  if (!ZONES.includes(zone)) return false;
  const fmt = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
  const w = Date.parse(text.slice(0, 19).replace(' ', 'T') + 'Z') / 1000;
  const d = (offsetAt(fmt, w + 3 * 86400) - offsetAt(fmt, w - 3 * 86400)) % 900;
  return d !== 0;
}

function wallText(wall: number, frac: string): string {
  const d = new Date(wall * 1000);
  return d.toISOString().slice(0, 19).replace('T', ' ') + frac;
}

function wallsFor(zone: string): fc.Arbitrary<string> {
  const near = CHANGES.get(zone)!;
  const wall = fc.oneof(
    { weight: 3, arbitrary: near.length > 0 ? fc.tuple(fc.constantFrom(...near), fc.integer({ min: -3 * 3600, max: 3 * 3600 })).map(([w, d]) => w + d) : fc.constant(0) },
    { weight: 1, arbitrary: fc.integer({ min: Date.UTC(1899, 11, 30) / 1000, max: Date.UTC(2300, 0, 2) / 1000 }) },
    { weight: 1, arbitrary: fc.integer({ min: -86400, max: 86400 }) },
  );
  return fc.tuple(wall, fc.constantFrom('', '', '.5', '.123456')).map(([w, f]) => wallText(w, f));
}

let serial = 0;

/** The engine's own offsets for `zone`, as the client learns them before an insert (two queries). */
const rulesMemo = new Map<string, Promise<ServerZoneRules>>();
function engineRules(zone: string): Promise<ServerZoneRules> {
  let r = rulesMemo.get(zone);
  if (r === undefined) {
    r = (async () => {
      const coarse = parseChanges(await c.streamRaw(coarseChangesSql(zone, RANGE_1900_2299), { format: 'TSV' }).text())!;
      const fine = coarse.length === 1 ? [] : parseChanges(await c.streamRaw(fineChangesSql(zone, coarse.slice(1).map((x) => x.t), RANGE_1900_2299), { format: 'TSV' }).text())!;
      return serverZoneRules(zone, coarse[0]!.o, fine, RANGE_1900_2299)!;
    })();
    rulesMemo.set(zone, r);
  }
  return r;
}

/** `session`: the session_timezone both inserts run with (the server's zone for zone-less columns). */
async function check(type: string, session: string, texts: string[]): Promise<void> {
  const t = `values_ztext_${process.pid}_${serial++}`;
  await c.execute(`CREATE TABLE ${t}_j (k UInt32, d ${type}) ENGINE = Memory`);
  await c.execute(`CREATE TABLE ${t}_n (k UInt32, d ${type}) ENGINE = Memory`);
  try {
    const json = texts.map((v, k) => `{"k":${k},"d":${JSON.stringify(v)}}`).join('\n');
    await c.execute(`INSERT INTO ${t}_j SETTINGS session_timezone = '${session}', input_format_allow_errors_num = 100000, input_format_allow_errors_ratio = 1 FORMAT JSONEachRow ${json}`);
    const cols = [{ name: 'k', type: 'UInt32' }, { name: 'd', type }];
    // The same offsets c.insert learns from the engine (this runtime's Intl data may be another tz release).
    const zone = /'([^']+)'/.exec(type)?.[1] ?? session;
    const serverZones = new Map([[zone, await engineRules(zone)]]);
    const compiled = compileNativeEncoder(cols, 'object', { timezone: session, serverZones });
    const interpreted = interpretNativeEncoder(cols, 'object', { timezone: session, serverZones });
    const accepted: { k: number; d: string }[] = [];
    const refused = new Set<number>();
    for (const [k, v] of texts.entries()) {
      const one = [{ k, d: v }];
      let a: unknown;
      let b: unknown;
      try { a = compiled.encodeBlock(one, 0, 1, 0); } catch (e) { a = e; }
      try { b = interpreted.encodeBlock(one, 0, 1, 0); } catch (e) { b = e; }
      if (a instanceof Error) {
        assert.ok(a instanceof ChwireEncodeError, `${type} ${v}: ${String(a)}`);
        assert.ok(b instanceof ChwireEncodeError && b.message === a.message, `${type} ${v}: both encoders refuse it alike`);
        refused.add(k);
      } else {
        assert.deepEqual(b, a, `${type} ${v}: both encoders give the same bytes`);
        accepted.push({ k, d: v });
      }
    }
    if (accepted.length > 0) await c.insert(`${t}_n`, accepted, { settings: { session_timezone: session } });
    const raw = type.startsWith('DateTime64') ? 'reinterpretAsInt64(d)' : 'toInt64(d)';
    const read = async (table: string) => new Map((await c.fetch<{ k: number; v: string }>(`SELECT k, toString(${raw}) AS v FROM ${table}`)).map((r) => [r.k, r.v]));
    const byJson = await read(`${t}_j`);
    const byNative = await read(`${t}_n`);
    for (const [k, v] of texts.entries()) {
      const j = byJson.get(k);
      const year = Number(v.slice(0, 4));
      if (refused.has(k)) {
        const clamped = !type.startsWith('DateTime64') && (j === '0' || j === '4294967295');
        assert.ok(j === undefined || clamped || year < 1900 || year > 2299 || oddChangeNear(zone, v), `${type} in ${session}: '${v}' was refused, yet the server stores ${j}`);
      } else {
        assert.equal(byNative.get(k), j, `${type} (server zone ${session}): '${v}'`);
      }
    }
  } finally {
    await c.execute(`DROP TABLE ${t}_j`);
    await c.execute(`DROP TABLE ${t}_n`);
  }
}

for (const zone of ZONES) {
  test(`zone-less text in ${zone}, as the column's zone and as the server's: stored as the server reads it (property, engine)`, async () => {
    const types: [string, string][] = [
      ['DateTime', zone], ['DateTime64(3)', zone], [`DateTime('${zone}')`, 'UTC'], [`DateTime64(6, '${zone}')`, 'Asia/Tokyo'],
    ];
    for (const [type, session] of types) {
      await fc.assert(fc.asyncProperty(fc.array(wallsFor(zone), { minLength: 1, maxLength: 40 }), (texts) => check(type, session, texts)), { numRuns: 4 });
    }
  });
}

test('the issue\'s case on the engine: a zone-less DateTime in a server zone of America/New_York', async () => {
  const t = `values_ztext_issue_${process.pid}`;
  await c.execute(`CREATE TABLE ${t} (d DateTime, g DateTime, o DateTime64(3)) ENGINE = Memory`);
  try {
    // 02:30 on 2024-03-12 (EDT), a gap time (2024-03-10 02:30 → the later offset), an overlap time
    // (2024-11-03 01:30 → the earlier instant, EDT).
    await c.insert(t, [{ d: '2024-03-12 02:30:00', g: '2024-03-10 02:30:00', o: '2024-11-03 01:30:00.250' }], { settings: { session_timezone: 'America/New_York' } });
    assert.deepEqual(await c.fetch(`SELECT toUnixTimestamp(d) AS d, toUnixTimestamp(g) AS g, toUnixTimestamp64Milli(o) AS o FROM ${t}`),
      [{ d: 1710225000, g: 1710052200, o: 1730611800250n }]);
  } finally {
    await c.execute(`DROP TABLE ${t}`);
  }
});

test('18.16: zone-less text into a DateTime(\'America/New_York\') column is read in that zone', { skip: SKIP_REAL }, async () => {
  const rc = realClient();
  const t = uniqueName('values_zt');
  try {
    await rc.execute(`CREATE TABLE ${t} (k UInt32, d DateTime('America/New_York')) ENGINE = Memory`);
    const texts = ['2024-03-12 02:30:00', '2024-03-10 02:30:00', '2024-11-03 01:30:00', '2024-11-03 02:00:00', '1999-07-01 12:00:00'];
    await rc.insert(t, texts.map((d, k) => ({ k, d })));
    const got = await rc.fetch<{ k: number; u: number; s: string }>(`SELECT k, toUInt32(d) AS u, toString(d) AS s FROM ${t} ORDER BY k`);
    // The engine's reading of the same text in that zone.
    const want = await Promise.all(texts.map((x) => c.fetchValue<number>(`SELECT toUnixTimestamp(toDateTime('${x}', 'America/New_York'))`)));
    assert.deepEqual(got.map((r) => r.u), want);
    assert.equal(got[0]!.s, '2024-03-12 02:30:00');
  } finally {
    await rc.execute(`DROP TABLE IF EXISTS ${t}`);
    await rc.close();
  }
});

test('18.16 whose server zone is America/New_York: zone-less text into a zone-less DateTime is read in that zone (the issue\'s 1 500 of 2 000 rows)', { skip: SKIP_OWN, timeout: 120_000 }, async () => {
  const own = await ownServer({ timezone: 'America/New_York' });
  await own.start();
  const rc = createClient({ url: own.url });
  try {
    assert.equal((await rc.fetch<{ z: string }>('SELECT timezone() AS z'))[0]!.z, 'America/New_York');
    await rc.execute('CREATE TABLE default.values_zt_ny (k UInt32, d DateTime, s String) ENGINE = Memory');
    // 2 000 rows across 2024, one every ~4.4 hours of wall time, gaps and overlaps included.
    const rows = Array.from({ length: 2000 }, (_, k) => {
      const text = wallText(Date.UTC(2024, 0, 1) / 1000 + k * 15800 + (k % 60) * 60, '');
      return { k, d: text, s: text };
    });
    await rc.insert('default.values_zt_ny', rows);
    // The server's own reading of the same text (a String column cast in the server's zone).
    const diff = await rc.fetch<{ n: number }>('SELECT count() AS n FROM default.values_zt_ny WHERE d != toDateTime(s)');
    assert.equal(Number(diff[0]!.n), 0);
    const n = await rc.fetch<{ n: number }>('SELECT count() AS n FROM default.values_zt_ny');
    assert.equal(Number(n[0]!.n), 2000);
    // And through JSONEachRow on this server.
    await rc.execute('CREATE TABLE default.values_zt_ny_j (k UInt32, d DateTime) ENGINE = Memory');
    await rc.insert('default.values_zt_ny_j', rows.map((r) => JSON.stringify({ k: r.k, d: r.d }) + '\n'), { format: 'JSONEachRow' });
    const j = await rc.fetch<{ n: number }>('SELECT count() AS n FROM default.values_zt_ny AS a INNER JOIN default.values_zt_ny_j AS b USING k WHERE a.d != b.d');
    assert.equal(Number(j[0]!.n), 0);
  } finally {
    await rc.close();
    await own.dispose();
  }
});
