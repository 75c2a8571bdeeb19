// The embedded ClickHouse engine (npm `chdb`) as the tests' oracle: every byte a decoder reads in
// a test comes from here, and every byte an encoder writes is read back here.
import { queryAsync, queryBindAsync } from 'chdb';
import { chdbParamValue } from '../../src/transport/chdb-params.js';

/** Engine output of `sql` in `format` as exact bytes (never the string API, which mangles binary). */
export async function engineBytes(sql: string, format: string, settings: Record<string, string | number> = {}): Promise<Uint8Array> {
  const r = await queryAsync(withSettings(sql, settings), { format });
  return r.bytes();
}

/** Engine output of `sql` with `{name:Type}` parameters given in their HTTP text form (`param_name` values). */
export async function engineBytesBound(sql: string, format: string, settings: Record<string, string | number>, params: Record<string, string>): Promise<Uint8Array> {
  const bound: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(params)) bound[k] = chdbParamValue(k, v);
  const r = await queryBindAsync(withSettings(sql, settings), bound, { format });
  return r.bytes();
}

/** Engine output of `sql` as text (for JSON/TSV formats). */
export async function engineText(sql: string, format = 'TSV', settings: Record<string, string | number> = {}): Promise<string> {
  const r = await queryAsync(withSettings(sql, settings), { format });
  return r.text();
}

/** Run a statement with no result (CREATE, INSERT ... VALUES, DROP). */
export async function engineExec(sql: string): Promise<void> {
  await queryAsync(sql, { format: 'TSV' });
}

/**
 * JSONCompactEachRow of `sql`, one array per row, with 64-bit integers and decimals quoted so that
 * no value is rounded by JSON.parse.
 */
export async function engineJsonRows(sql: string, settings: Record<string, string | number> = {}): Promise<unknown[][]> {
  const text = await engineText(sql, 'JSONCompactEachRow', {
    output_format_json_quote_64bit_integers: 1,
    output_format_json_quote_decimals: 1,
    output_format_json_quote_denormals: 1,
    ...settings,
  });
  return text.split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l) as unknown[]);
}

function withSettings(sql: string, settings: Record<string, string | number>): string {
  const entries = Object.entries(settings);
  if (entries.length === 0) return sql;
  return `${sql} SETTINGS ${entries.map(([k, v]) => `${k}=${typeof v === 'number' ? v : `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`}`).join(', ')}`;
}
