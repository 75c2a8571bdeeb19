// Golden payloads (test/fixtures/spec: engine bytes + the engine's JSON of the same query) through
// every RowBinary decoding path: decodeRowBinary (rows as objects and arrays, default and
// non-default options), the streaming decoder fed whole / byte by byte / split at every position,
// and the reference decoder; every prefix of a body is refused with a precise ChwireDecodeError
// unless it ends on a row boundary. Expected values come from the fixture JSON via
// test/support/expect.ts; facts JSON cannot carry (Variant/Dynamic member types, JSON path types,
// exact bytes and instants) come from the engine via test/support/oracle-aux.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeRowBinary, decodeRowBinaryReference, createRowBinaryDecoder } from '../src/codec.js';
import type { DecodeOptions } from '../src/plan/options.js';
import { ChwireDecodeError, ChwireTypeError } from '../src/errors.js';
import { parseType } from '../src/types/index.js';
import { fixtureIndex, fixtureBytes, fixtureJsonRows, type FixtureCase } from './support/fixtures.js';
import { engineBytes, engineExec, engineText } from './support/engine.js';
import { queryAux, readHeaderIndependently, auxExpr } from './support/oracle-aux.js';
import { expectedRows, assertRowsMatch, sameRows, type OracleColumn } from './support/oracle-compare.js';
import { engineResult, checkDecode } from './support/oracle-run.js';

/** Cases with their own test below (not decodable as plain text-header RowBinary). */
const SPECIAL = new Set(['aggregate_function_state', 'binary_type_header', 'json_as_string']);

/** Every option away from its default, in two combinations (each option value appears once). */
const OPTION_SETS: { label: string; options: DecodeOptions }[] = [
  { label: 'defaults', options: {} },
  {
    label: 'alt-1',
    options: { int64: 'string', int128: 'string', decimal: 'number', datetime: 'string', date: 'string', time: 'number', strings: 'bytes', uuid: 'bytes', maps: 'Map' },
  },
  { label: 'alt-2', options: { int64: 'number', int128: 'number', datetime: 'number' } },
];

const index = fixtureIndex();
const cases = index.cases.filter((c) => !SPECIAL.has(c.name));

function columnsOf(bytes: Uint8Array): OracleColumn[] {
  return readHeaderIndependently(bytes).map((c) => ({ name: c.name, type: parseType(c.type) }));
}

/** Setup statements (tables of the Nested cases) run once per case, only when aux is needed. */
const setupDone = new Set<string>();
async function auxFor(c: FixtureCase, columns: OracleColumn[], hex: boolean): Promise<(unknown[] | undefined)[]> {
  if (!columns.some((col) => auxExpr(col.type, 'x', { hex }) !== undefined)) return columns.map(() => undefined);
  if (!setupDone.has(c.name)) {
    for (const stmt of c.setup) await engineExec(stmt);
    setupDone.add(c.name);
  }
  return queryAux(c.query, columns, { hex }, c.settings);
}

test('every golden case is covered', () => {
  assert.ok(index.cases.length >= 40);
  assert.equal(cases.length + SPECIAL.size, index.cases.length);
});

for (const c of cases) {
  test(`golden ${c.name}`, async (t) => {
    const bytes = fixtureBytes(c.name, 'rowbinary');
    const json = fixtureJsonRows(c.name);
    const columns = columnsOf(bytes);

    for (const { label, options } of OPTION_SETS) {
      const hex = options.strings === 'bytes';
      const aux = await auxFor(c, columns, hex);
      for (const rows of ['object', 'array'] as const) {
        const opts: DecodeOptions = { ...options, rows };
        const { rows: expected, skipped } = expectedRows(columns, json, aux, opts);
        for (const [col, why] of skipped) t.diagnostic(`${label}/${rows}: column ${col} not compared (ambiguous in options.ts: ${why})`);
        const out = decodeRowBinary(bytes, opts);
        assert.deepEqual(out.columns.map((x) => ({ name: x.name, type: x.type })), readHeaderIndependently(bytes), `${c.name}: header`);
        assertRowsMatch(out.rows, expected, columns, `${c.name} ${label}/${rows}`);
        const ref = decodeRowBinaryReference(bytes, opts);
        assertRowsMatch(ref.rows, expected, columns, `${c.name} ${label}/${rows} reference`);
      }
    }

    // Chunked: whole, one byte at a time, and two chunks split at every position. Each chunk is
    // overwritten right after push(): the caller may reuse it, so the decoder must not keep a view.
    const whole = decodeRowBinary(bytes).rows;
    const feed = (chunks: Uint8Array[]): unknown[] => {
      const d = createRowBinaryDecoder();
      const got: unknown[] = [];
      for (const ch of chunks) {
        got.push(...d.push(ch));
        ch.fill(0xee);
      }
      d.end();
      assert.equal(d.rowCount, got.length);
      assert.equal(d.bytesIn, bytes.length);
      return got;
    };
    assert.ok(sameRows(feed([bytes.slice()]), whole), `${c.name}: streamed whole`);
    assert.ok(sameRows(feed(Array.from(bytes, (b) => Uint8Array.of(b))), whole), `${c.name}: one byte at a time`);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const got = feed([bytes.slice(0, cut), bytes.slice(cut)]);
      if (!sameRows(got, whole)) assert.fail(`${c.name}: split at byte ${cut} of ${bytes.length} gives different rows`);
      if (cut < bytes.length) checkTruncated(c.name, bytes.slice(0, cut), whole);
    }
  });
}

/**
 * A body cut short: the stream (at end()) and the whole-buffer decoder either both accept it, with
 * rows that are a prefix of the full result (the cut fell on a row boundary), or both refuse it
 * with the same ChwireDecodeError naming the row being read (= rows already returned), the same
 * column and a byte offset inside the prefix. Never different rows, never another error type.
 */
function checkTruncated(name: string, prefix: Uint8Array, whole: readonly unknown[]): void {
  const d = createRowBinaryDecoder();
  const streamed = d.push(prefix);
  let streamError: unknown;
  try { d.end(); } catch (e) { streamError = e; }
  let wholeRows: unknown[] | undefined;
  let wholeError: unknown;
  try { wholeRows = decodeRowBinary(prefix).rows; } catch (e) { wholeError = e; }
  const at = `${name}: body cut at byte ${prefix.length}`;
  assert.ok(sameRows(streamed, whole.slice(0, streamed.length)), `${at}: streamed rows are not a prefix of the full result`);
  if (streamError === undefined) {
    assert.equal(wholeError, undefined, `${at}: the stream accepted it but the whole-buffer decoder threw ${String(wholeError)}`);
    assert.ok(sameRows(wholeRows!, streamed), `${at}: whole-buffer rows differ from streamed rows`);
    return;
  }
  for (const e of [streamError, wholeError]) {
    assert.ok(e instanceof ChwireDecodeError, `${at}: expected ChwireDecodeError, got ${String(e)}`);
    assert.ok(e.offset <= prefix.length, `${at}: error offset ${e.offset} beyond the bytes given`);
  }
  const se = streamError as ChwireDecodeError;
  const we = wholeError as ChwireDecodeError;
  assert.deepEqual([we.row, we.column, we.offset], [se.row, se.column, se.offset], `${at}: stream and whole-buffer errors disagree`);
  // Inside the rows (past the header) the error names the row being read: the next one.
  if (se.row !== undefined) assert.equal(se.row, streamed.length, `${at}: error names row ${se.row} after ${streamed.length} complete rows`);
}

test('golden aggregate_function_state: AggregateFunction columns are refused, naming the column', () => {
  const bytes = fixtureBytes('aggregate_function_state', 'rowbinary');
  for (const decode of [decodeRowBinary, decodeRowBinaryReference]) {
    assert.throws(() => decode(bytes), (e: unknown) => {
      assert.ok(e instanceof ChwireTypeError, `expected ChwireTypeError, got ${String(e)}`);
      assert.match(e.message, /sum_state/);
      return true;
    });
  }
  const d = createRowBinaryDecoder();
  assert.throws(() => { d.push(bytes); d.end(); }, ChwireTypeError);
});

test('golden binary_type_header: binary header types decode like the textual header of the same query', async () => {
  const c = index.cases.find((x) => x.name === 'binary_type_header')!;
  const bytes = fixtureBytes(c.name, 'rowbinary');
  const json = fixtureJsonRows(c.name);
  // The same query without the setting gives the textual header: the oracle for the types.
  const textual = readHeaderIndependently(await engineBytes(c.query, 'RowBinaryWithNamesAndTypes'));
  const columns = textual.map((x) => ({ name: x.name, type: parseType(x.type) }));
  const aux = await auxFor(c, columns, false);
  for (const rows of ['object', 'array'] as const) {
    const opts = { binaryTypes: true, rows };
    const { rows: expected } = expectedRows(columns, json, aux, { rows });
    const out = decodeRowBinary(bytes, opts);
    assert.deepEqual(out.columns, textual, 'binary header types print as the engine spells them');
    assertRowsMatch(out.rows, expected, columns, `binary_type_header ${rows}`);
    assertRowsMatch(decodeRowBinaryReference(bytes, opts).rows, expected, columns, `binary_type_header ${rows} reference`);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const d = createRowBinaryDecoder(opts);
      const got = [...d.push(bytes.slice(0, cut)), ...d.push(bytes.slice(cut))];
      d.end();
      if (!sameRows(got, out.rows)) assert.fail(`binary_type_header: split at byte ${cut} gives different rows`);
    }
  }
  // Without the option the binary header is not silently misread as text.
  assert.throws(() => decodeRowBinary(bytes), (e: unknown) => e instanceof Error && /Chwire(Decode|Type)Error/.test(e.name));
});

test('golden json_as_string: with jsonAsString, JSON values are the JSON text the engine wrote', async () => {
  const c = index.cases.find((x) => x.name === 'json_as_string')!;
  const bytes = fixtureBytes(c.name, 'rowbinary');
  // The oracle: the same query with j cast to String. The text depends on
  // output_format_json_quote_64bit_integers, which engineJsonRows forces to 1 while the fixture
  // was written with the engine default (0), so j's text is taken from a TSV hex() query run
  // under exactly the fixture's settings.
  const view = await engineResult(`SELECT n, CAST(j AS String) AS j FROM (${c.query})`, c.settings);
  const hexes = (await engineText(`SELECT hex(CAST(j AS String)) FROM (${c.query})`, 'TSV', c.settings)).split('\n').filter((l) => l !== '');
  assert.equal(hexes.length, fixtureJsonRows(c.name).length);
  view.json.forEach((row, i) => { row[1] = Buffer.from(hexes[i]!, 'hex').toString('utf8'); });
  view.aux[1] = hexes;
  for (const options of [{}, { strings: 'bytes' as const }]) {
    for (const rows of ['object', 'array'] as const) {
      for (const chunk of [1, 5]) {
        const skipped = checkDecode({ ...view, bytes }, { ...options, rows, jsonAsString: true }, `json_as_string ${JSON.stringify(options)}/${rows}`, chunk);
        assert.equal(skipped.size, 0);
      }
    }
  }
  // Without the option the strings are not silently misread as the binary JSON encoding.
  assert.throws(() => decodeRowBinary(bytes), ChwireDecodeError);
});
