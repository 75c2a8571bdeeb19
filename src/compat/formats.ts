// The output and input formats as @clickhouse/client 1.x groups them (which ones json() parses per
// line, which as one document, which stream() splits into rows), and the SQL text it sends.
// Data only, runtime-neutral. Invariant: the same lists and the same text as the official client,
// so a format behaves in chwire/compat exactly as it did there.

/** One JSON value per line: json() parses each line, stream() hands each line as a row. */
export const STREAMABLE_JSON_FORMATS = [
  'JSONEachRow', 'JSONStringsEachRow', 'JSONCompactEachRow', 'JSONCompactStringsEachRow',
  'JSONCompactEachRowWithNames', 'JSONCompactEachRowWithNamesAndTypes',
  'JSONCompactStringsEachRowWithNames', 'JSONCompactStringsEachRowWithNamesAndTypes',
  'JSONEachRowWithProgress',
] as const;
/** One JSON document for the whole result: json() parses it whole; not streamable. */
export const SINGLE_DOCUMENT_JSON_FORMATS = ['JSON', 'JSONStrings', 'JSONCompact', 'JSONCompactStrings', 'JSONColumnsWithMetadata'] as const;
export const RECORDS_JSON_FORMATS = ['JSONObjectEachRow'] as const;
/** Text (and Parquet) formats: text() or stream() (rows split at newlines), never json(). */
export const RAW_FORMATS = [
  'CSV', 'CSVWithNames', 'CSVWithNamesAndTypes', 'TabSeparated', 'TabSeparatedRaw', 'TabSeparatedWithNames',
  'TabSeparatedWithNamesAndTypes', 'CustomSeparated', 'CustomSeparatedWithNames', 'CustomSeparatedWithNamesAndTypes', 'Parquet',
] as const;

export type DataFormat =
  | (typeof STREAMABLE_JSON_FORMATS)[number] | (typeof SINGLE_DOCUMENT_JSON_FORMATS)[number]
  | (typeof RECORDS_JSON_FORMATS)[number] | (typeof RAW_FORMATS)[number];

export type StreamableJSONFormat = (typeof STREAMABLE_JSON_FORMATS)[number];
export type SingleDocumentJSONFormat = (typeof SINGLE_DOCUMENT_JSON_FORMATS)[number];
export type RawFormat = (typeof RAW_FORMATS)[number];

// The lists under the official client's names.
export const StreamableJSONFormats = STREAMABLE_JSON_FORMATS;
export const SingleDocumentJSONFormats = SINGLE_DOCUMENT_JSON_FORMATS;
export const RecordsJSONFormats = RECORDS_JSON_FORMATS;
export const SupportedJSONFormats = [...RECORDS_JSON_FORMATS, ...SINGLE_DOCUMENT_JSON_FORMATS, ...STREAMABLE_JSON_FORMATS] as const;
export const SupportedRawFormats = RAW_FORMATS;
export const StreamableFormats = [...STREAMABLE_JSON_FORMATS, ...RAW_FORMATS] as const;

const has = (list: readonly string[], f: string): boolean => list.includes(f);
export const isStreamableJson = (f: string): boolean => has(STREAMABLE_JSON_FORMATS, f);
export const isDocumentJson = (f: string): boolean => has(SINGLE_DOCUMENT_JSON_FORMATS, f) || has(RECORDS_JSON_FORMATS, f);
export const isJsonFormat = (f: string): boolean => isStreamableJson(f) || isDocumentJson(f);
export const isRawFormat = (f: string): boolean => has(RAW_FORMATS, f);
export const isStreamable = (f: string): boolean => isStreamableJson(f) || isRawFormat(f);

/** The statement without surrounding blanks and trailing semicolons (as exec/command send it). */
export function statementText(sql: string): string {
  return sql.trim().replace(/;+$/, '');
}

/** What query() sends: the statement, then its format on a line of its own. */
export function queryText(sql: string, format: string): string {
  return `${statementText(sql)} \nFORMAT ${format}`;
}

/** The INSERT statement of insert(): table and columns as given (the official client quotes nothing). */
export function insertText(table: string, format: string, columns: readonly string[] | { except: readonly string[] } | undefined): string {
  let cols = '';
  if (Array.isArray(columns)) {
    if (columns.length > 0) cols = ` (${columns.join(', ')})`;
  } else if (columns !== undefined && typeof columns === 'object' && Object.prototype.hasOwnProperty.call(columns, 'except')) {
    const except = (columns as { except: readonly string[] }).except;
    if (except.length > 0) cols = ` (* EXCEPT (${except.join(', ')}))`;
  }
  return `INSERT INTO ${table.trim()}${cols} FORMAT ${format}`;
}
