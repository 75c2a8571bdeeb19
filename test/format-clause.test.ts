// A statement with its own trailing FORMAT clause (issue 10, "SQL with its own FORMAT JSON"):
// the calls that decode rows refuse it before sending with a ChwireConfigError naming streamRaw;
// streamRaw accepts it when the formats agree; execute() runs it. The detection is checked against
// the engine itself: whatever the engine answers in the clause's format, and only that, is a clause.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { queryAsync } from 'chdb';
import { createClient, ChwireConfigError, type Client } from '../src/index.js';
import { FormatClauses, formatClauseError, trailingFormat } from '../src/client/sql/format-clause.js';
import { REAL_URL, SKIP_REAL } from './support/ch-server.js';

/** Whether the engine answers `sql` (asked for TSV) in JSONEachRow, i.e. took a FORMAT clause from it. */
async function engineTookClause(sql: string): Promise<boolean> {
  const r = await queryAsync(sql, { format: 'TabSeparated' });
  return r.text().startsWith('{');
}

// Each is run by the engine: those whose answer is JSONEachRow have the clause, the others not.
const CASES: string[] = [
  "SELECT 'x' AS c FORMAT JSONEachRow",
  "SELECT 'x' AS c format JSONEachRow;",
  "SELECT 'x' AS c FORMAT JSONEachRow -- a comment",
  "SELECT 'x' AS c FORMAT JSONEachRow /* FORMAT TSV */",
  "SELECT 'x' AS c FORMAT JSONEachRow SETTINGS max_threads = 1",
  "SELECT 'x' AS c SETTINGS max_threads = 1 FORMAT JSONEachRow",
  "SELECT 'x' AS c FORMAT `JSONEachRow`",
  "SELECT 'x' AS c\nFORMAT\nJSONEachRow\n",
  "SELECT 'FORMAT JSONEachRow' AS c",
  "SELECT 'x' AS c -- FORMAT JSONEachRow",
  "SELECT 'x' AS c /* FORMAT JSONEachRow */",
  "SELECT 'x' AS c /* nested /* FORMAT JSONEachRow */ still comment */",
  'SELECT \'x\' AS "FORMAT JSONEachRow"',
  "SELECT 'x' AS `format`",
  "SELECT format FROM (SELECT 'x' AS format)",
  "SELECT 'it''s FORMAT JSONEachRow' AS c",
  "SELECT 'back\\' FORMAT JSONEachRow' AS c",
  "SELECT $$ FORMAT JSONEachRow $$ AS c",
  "SELECT c FROM (SELECT 'x' AS c FORMAT JSONEachRow)",
  "SELECT format('{} FORMAT JSONEachRow', 'x') AS c",
];

test('trailingFormat agrees with the engine on which SQL carries its own FORMAT clause', async () => {
  for (const sql of CASES) {
    let took: boolean;
    try {
      took = await engineTookClause(sql);
    } catch {
      // The engine refuses it (e.g. FORMAT inside a subquery): no format to honour either way.
      assert.equal(trailingFormat(sql), undefined, sql);
      continue;
    }
    assert.equal(trailingFormat(sql), took ? 'JSONEachRow' : undefined, sql);
  }
});

test('trailingFormat: words inside strings, identifiers and comments are never a clause (property)', () => {
  const piece = fc.constantFrom('FORMAT', 'format', 'JSON', ';', 'SETTINGS', ' ', '\n', "\\'", "''", '*/', '/*', '--', '`', '"', '$$');
  const body = fc.array(piece, { maxLength: 8 }).map((p) => p.join(' '));
  const hide = fc.oneof(
    body.map((b) => `'${b.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`),
    body.map((b) => `\`${b.replace(/\\/g, '\\\\').replace(/`/g, '\\`')}\``),
    body.map((b) => `"${b.replace(/\\/g, '\\\\').replace(/"/g, '""')}"`),
    body.map((b) => `/* ${b.replace(/\/\*|\*\//g, '')} */`),
    body.map((b) => `-- ${b.replace(/\n/g, ' ')}\n`),
  );
  fc.assert(fc.property(fc.array(hide, { minLength: 1, maxLength: 4 }), (parts) => {
    const sql = `SELECT 1 AS ${parts.map((p, i) => (i === 0 && !p.startsWith('`') && !p.startsWith('"') ? `x ${p}` : p)).join(' ')}`;
    assert.equal(trailingFormat(sql), undefined, sql);
    assert.equal(trailingFormat(`${sql}\nFORMAT Vertical`), 'Vertical', sql);
  }), { numRuns: 300 });
});

async function checkClient(c: Client): Promise<void> {
  const sql = 'SELECT 1 AS x FORMAT JSON';
  const refuses = (e: unknown): boolean => e instanceof ChwireConfigError && /FORMAT JSON/.test(e.message) && /streamRaw\(sql, \{ format: 'JSON' \}\)/.test(e.message);
  await assert.rejects(c.fetch(sql), refuses);
  await assert.rejects(c.fetchOne(sql), refuses);
  await assert.rejects(c.fetchValue(sql), refuses);
  await assert.rejects(c.fetchColumns(sql), refuses);
  await assert.rejects((async () => { for await (const _ of c.stream(sql)) void _; })(), refuses);
  // The bytes in the clause's own format.
  const chunks: Uint8Array[] = [];
  for await (const ch of c.streamRaw(sql, { format: 'JSON' })) chunks.push(ch);
  assert.deepEqual((JSON.parse(Buffer.concat(chunks).toString()) as { data: unknown[] }).data, [{ x: 1 }]);
  await assert.rejects((async () => { for await (const _ of c.streamRaw(sql, { format: 'CSV' })) void _; })(), (e: unknown) => e instanceof ChwireConfigError && /FORMAT JSON/.test(e.message) && /CSV/.test(e.message));
  // A statement may carry its own format: execute() runs it.
  await c.execute(sql);
  // SQL without a clause still works, and a column called format is not a clause.
  assert.equal(await c.fetchValue("SELECT 'v' AS format"), 'v');
}

test('client on chdb://: decoding calls refuse a FORMAT clause, streamRaw and execute take it', async () => {
  const c = createClient({ url: 'chdb://' });
  after(() => c.close());
  await checkClient(c);
});

test('client on the 18.16 server: the same', { skip: SKIP_REAL }, async () => {
  const c = createClient({ url: REAL_URL });
  after(() => c.close());
  await checkClient(c);
});

test('FormatClauses (a client\'s remembered clauses) answers as trailingFormat does, for repeated, many and long texts', () => {
  const known = new FormatClauses();
  const texts = ['SELECT 1', 'SELECT 1 FORMAT JSONEachRow', "SELECT 'FORMAT CSV'", 'SELECT 1 FORMAT CSV SETTINGS max_threads = 1;', `SELECT ${'x, '.repeat(3000)}1 FORMAT TSV`];
  for (let round = 0; round < 3; round++) for (const t of texts) assert.equal(known.of(t), trailingFormat(t), t);
  for (let i = 0; i < 600; i++) assert.equal(known.of(`SELECT ${i} FORMAT Native`), 'Native');
  assert.equal(known.of('SELECT 1'), undefined);
  assert.equal(formatClauseError('SELECT 1 FORMAT CSV', undefined, known)?.message, formatClauseError('SELECT 1 FORMAT CSV', undefined)?.message);
  assert.equal(formatClauseError('SELECT 1 FORMAT CSV', 'csv', known), undefined);
});
