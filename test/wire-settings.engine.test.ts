// The settings that change Native/RowBinary bytes (src/client/options/wire-settings.ts), held against the
// engine's own list (a setting of these families that a newer engine adds and the table lacks fails
// here), and each one tried on the client against chdb://: set to a value other than its default,
// on RowBinary rows, Native rows, fetchColumns and a Native insert, it gives the values the defaults
// give, or the documented form (JSON as text), or a ChwireConfigError naming it before anything is sent.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, ChwireConfigError } from '../src/index.js';
import { WIRE_SETTINGS } from '../src/client/options/wire-settings.js';

const c = createClient({ url: 'chdb://' });
after(() => c.close());

const FAMILY = /^(?:output_format_(?:native|binary)_|input_format_(?:native|binary)_|format_binary_)/;

const COLUMNS = [
  ['a', 'UInt8'], ['i', 'Int64'], ['j', 'JSON'], ['d', 'Dynamic'], ['l', 'LowCardinality(String)'],
  ['arr', 'Array(Nullable(UInt32))'], ['m', "Map(String, DateTime('UTC'))"], ['t', 'Tuple(x String, y Float64)'],
  ['v', 'Variant(String, UInt64)'], ['dt', "DateTime64(3, 'UTC')"],
] as const;
const SELECT = 'SELECT a, i, j, d, l, arr, m, t, v, dt FROM wire_src ORDER BY a';

interface EngineSetting { name: string; value: string; type: string }

async function engineSettings(): Promise<EngineSetting[]> {
  return c.fetch<EngineSetting>('SELECT name, value, type FROM system.settings ORDER BY name');
}

/** A value other than the default, of the setting's type. */
function otherValue(s: EngineSetting): string {
  if (s.type === 'Bool') return s.value === '1' ? '0' : '1';
  if (s.type === 'UInt64') return String(Number(s.value) === 0 ? 1_000_000 : Number(s.value) * 2);
  throw new Error(`no other value for ${s.name} of type ${s.type}`);
}

const plain = (x: unknown): unknown => JSON.parse(JSON.stringify(x, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : ArrayBuffer.isView(v) ? Array.from(v as unknown as ArrayLike<number>) : v)));

test('the table lists every Native/RowBinary setting of the engine, and only settings it has', async () => {
  const all = await engineSettings();
  const names = new Set(all.map((s) => s.name));
  const family = all.filter((s) => FAMILY.test(s.name)).map((s) => s.name);
  const missing = family.filter((n) => !Object.prototype.hasOwnProperty.call(WIRE_SETTINGS, n));
  assert.deepEqual(missing, [], 'settings of the engine that src/client/options/wire-settings.ts does not say how it handles');
  assert.deepEqual(Object.keys(WIRE_SETTINGS).filter((n) => !names.has(n)), [], 'settings in the table that the engine lacks');
  assert.ok(family.length >= 13);
});

test('each setting, at a value other than its default, is read or refused by name on every path', async () => {
  await c.execute(`CREATE TABLE wire_src (${COLUMNS.map(([n, t]) => `${n} ${t}`).join(', ')}) ENGINE Memory`);
  await c.execute(`INSERT INTO wire_src VALUES
    (1, -9007199254740993, '{"x":9007199254740993,"y":"s","z":[1.5,null]}', 5::Int32, 'q', [1, NULL], {'k': '2024-01-02 03:04:05'}, ('a', 0.5), 'str', '2024-01-02 03:04:05.678'),
    (2, 7, '{}', 'text', 'r', [], {}, ('', -1), 42::UInt64, '1969-12-31 23:59:59.999')`);
  const jsonText = (await c.fetch<{ s: string }>('SELECT toString(j) AS s FROM wire_src ORDER BY a')).map((r) => r.s);
  const base = {
    rows: plain(await c.fetch(SELECT)),
    native: plain(await c.fetch(SELECT, { format: 'Native' })),
    columns: plain((await c.fetchColumns(SELECT)).columns),
  };
  assert.deepEqual(base.native, base.rows);
  const rows = await c.fetch(SELECT);
  // What a Native insert of those rows stores with the defaults (a Dynamic Int32 comes back Int64: issue 26 item 5).
  await c.execute('CREATE TABLE wire_dst AS wire_src');
  await c.insert('wire_dst', rows);
  const inserted = plain(await c.fetch(SELECT.replace('wire_src', 'wire_dst')));
  await c.execute('DROP TABLE wire_dst');
  const byName = new Map((await engineSettings()).map((s) => [s.name, s]));
  const checked: string[] = [];
  for (const [name, entry] of Object.entries(WIRE_SETTINGS)) {
    const s = byName.get(name);
    assert.ok(s !== undefined, name);
    const settings = { [name]: otherValue(s) };
    const on = s.type === 'Bool' ? settings[name] === '1' : true;
    const what = `${name}=${settings[name]}`;
    // Reads.
    const expectRows = (got: unknown, path: 'rows' | 'native'): void => {
      const want = base[path] as Record<string, unknown>[];
      if (on && ((path === 'rows' && name === 'output_format_binary_write_json_as_string') || (path === 'native' && name === 'output_format_native_write_json_as_string'))) {
        // The JSON column arrives as text: RowBinary gives that text, Native parses it.
        const g = got as Record<string, unknown>[];
        assert.deepEqual(g.map((r) => r['j']), path === 'rows' ? jsonText : plain(jsonText.map((t) => JSON.parse(t))), what);
        assert.deepEqual(g.map(({ j: _j, ...r }) => r), want.map(({ j: _j, ...r }) => r), what);
      } else {
        assert.deepEqual(got, want, `${what} (${path})`);
      }
    };
    expectRows(plain(await c.fetch(SELECT, { settings })), 'rows');
    expectRows(plain(await c.fetch(SELECT, { settings, format: 'Native' })), 'native');
    const cols = plain((await c.fetchColumns(SELECT, { settings })).columns) as unknown[];
    if (on && name === 'output_format_native_write_json_as_string') assert.deepEqual(cols.filter((_x, k) => k !== 2), (base.columns as unknown[]).filter((_x, k) => k !== 2), what);
    else assert.deepEqual(cols, base.columns, `${what} (fetchColumns)`);
    // A Native insert of the rows just read.
    await c.execute(`CREATE TABLE wire_dst AS wire_src`);
    try {
      const refused = entry.effect === 'refused' && entry.on === 'insert' && on;
      if (refused) {
        await assert.rejects(c.insert('wire_dst', rows, { settings }), (e: unknown) => e instanceof ChwireConfigError && e.message.includes(name), what);
        assert.equal(await c.fetchValue('SELECT count() FROM wire_dst'), 0n);
      } else {
        await c.insert('wire_dst', rows, { settings });
        assert.deepEqual(plain(await c.fetch(SELECT.replace('wire_src', 'wire_dst'))), inserted, `${what} (insert)`);
      }
    } finally {
      await c.execute('DROP TABLE wire_dst');
    }
    checked.push(name);
  }
  assert.deepEqual(checked, Object.keys(WIRE_SETTINGS));
});

test('client-level settings are read like per-call ones', async () => {
  const k = createClient({ url: 'chdb://', settings: { output_format_binary_encode_types_in_binary_format: 1, output_format_binary_write_json_as_string: true } });
  try {
    const r = await k.fetch("SELECT '{\"a\":18446744073709551615}'::JSON AS j, [toDateTime64('2024-01-02 03:04:05.123456', 6, 'Asia/Kolkata')] AS t");
    assert.deepEqual(r.columns.map((x) => x.type), ['JSON', "Array(DateTime64(6, 'Asia/Kolkata'))"]);
    assert.deepEqual(plain(r), [{ j: '{"a":18446744073709551615}', t: ['2024-01-01T21:34:05.123Z'] }]);
    // Off per call wins over on for the client.
    assert.deepEqual(plain(await k.fetch("SELECT '{\"a\":1}'::JSON AS j", { settings: { output_format_binary_write_json_as_string: 0 } })), [{ j: { a: '1n' } }]);
  } finally {
    await k.close();
  }
});

test('a setting of these families the table does not know, or a value that is not 0/1, is refused by name before sending', async () => {
  const name = 'output_format_native_some_future_setting';
  for (const call of [
    () => c.fetch('SELECT 1', { settings: { [name]: 1 } }),
    () => c.fetch('SELECT 1', { settings: { [name]: 1 }, format: 'Native' }),
    () => c.fetchColumns('SELECT 1', { settings: { [name]: 1 } }),
    () => c.fetch('SELECT 1', { settings: { output_format_binary_write_json_as_string: 'yes' } }),
  ]) {
    await assert.rejects(call(), (e: unknown) => e instanceof ChwireConfigError && /output_format_native_some_future_setting|output_format_binary_write_json_as_string/.test(e.message));
  }
  await c.execute('CREATE TABLE wire_unknown (a UInt8) ENGINE Memory');
  await assert.rejects(c.insert('wire_unknown', [{ a: 1 }], { settings: { input_format_native_future: 1 } }), (e: unknown) => e instanceof ChwireConfigError && e.message.includes('input_format_native_future'));
  assert.equal(await c.fetchValue('SELECT count() FROM wire_unknown'), 0n);
  // Raw formats are the caller's bytes: no check.
  const raw = c.streamRaw('SELECT 1 AS a', { format: 'RowBinaryWithNamesAndTypes', settings: { output_format_binary_encode_types_in_binary_format: 1 } });
  let n = 0;
  for await (const chunk of raw) n += (chunk as Uint8Array).length;
  assert.ok(n > 0);
});
