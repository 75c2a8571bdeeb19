// SQL-compatibility spellings of type names (`INT UNSIGNED`, `VARCHAR(255)`, `datetime`), as a
// table: what `system.data_type_families` of the 26.7 engine lists as aliases and as
// case-insensitive families. The server never writes these in headers; they matter when a type
// name comes from a user or from DDL text.
//
// Invariant: resolving a spelling gives the canonical family the server resolves it to (checked
// against system.data_type_families in test/types.engine.test.ts).

/** Alias (upper case, words separated by one space) → canonical family. All are case-insensitive. */
const ALIASES: Readonly<Record<string, string>> = {
  BOOL: 'Bool', BOOLEAN: 'Bool',
  TIMESTAMP: 'DateTime', DATETIME32: 'DateTime',
  DEC: 'Decimal', FIXED: 'Decimal', NUMERIC: 'Decimal',
  ENUM: 'Enum',
  BINARY: 'FixedString',
  FLOAT: 'Float32', REAL: 'Float32', SINGLE: 'Float32',
  DOUBLE: 'Float64', 'DOUBLE PRECISION': 'Float64',
  INET4: 'IPv4', INET6: 'IPv6',
  BYTE: 'Int8', INT1: 'Int8', 'INT1 SIGNED': 'Int8', TINYINT: 'Int8', 'TINYINT SIGNED': 'Int8',
  SMALLINT: 'Int16', 'SMALLINT SIGNED': 'Int16',
  INT: 'Int32', 'INT SIGNED': 'Int32', INTEGER: 'Int32', 'INTEGER SIGNED': 'Int32',
  MEDIUMINT: 'Int32', 'MEDIUMINT SIGNED': 'Int32',
  BIGINT: 'Int64', 'BIGINT SIGNED': 'Int64', SIGNED: 'Int64',
  'INT1 UNSIGNED': 'UInt8', 'TINYINT UNSIGNED': 'UInt8',
  'SMALLINT UNSIGNED': 'UInt16', YEAR: 'UInt16',
  'INT UNSIGNED': 'UInt32', 'INTEGER UNSIGNED': 'UInt32', 'MEDIUMINT UNSIGNED': 'UInt32',
  'BIGINT UNSIGNED': 'UInt64', BIT: 'UInt64', SET: 'UInt64', UNSIGNED: 'UInt64',
  'BINARY LARGE OBJECT': 'String', 'BINARY VARYING': 'String', BLOB: 'String', BYTEA: 'String',
  CHAR: 'String', 'CHAR LARGE OBJECT': 'String', 'CHAR VARYING': 'String', CHARACTER: 'String',
  'CHARACTER LARGE OBJECT': 'String', 'CHARACTER VARYING': 'String', CLOB: 'String',
  LONGBLOB: 'String', LONGTEXT: 'String', MEDIUMBLOB: 'String', MEDIUMTEXT: 'String',
  'NATIONAL CHAR': 'String', 'NATIONAL CHAR VARYING': 'String', 'NATIONAL CHARACTER': 'String',
  'NATIONAL CHARACTER LARGE OBJECT': 'String', 'NATIONAL CHARACTER VARYING': 'String',
  NCHAR: 'String', 'NCHAR LARGE OBJECT': 'String', 'NCHAR VARYING': 'String', NVARCHAR: 'String',
  TEXT: 'String', TINYBLOB: 'String', TINYTEXT: 'String', VARBINARY: 'String', VARCHAR: 'String',
  VARCHAR2: 'String',
  // Families registered case-insensitively, in their canonical spelling.
  DATE: 'Date', DATE32: 'Date32', DATETIME: 'DateTime', DATETIME64: 'DateTime64',
  DECIMAL: 'Decimal', DECIMAL32: 'Decimal32', DECIMAL64: 'Decimal64', DECIMAL128: 'Decimal128',
  DECIMAL256: 'Decimal256', ENUM8: 'Enum8', ENUM16: 'Enum16', JSON: 'JSON', TIME: 'Time', TIME64: 'Time64',
};

/** Aliases the server matches case-sensitively. */
const EXACT: Readonly<Record<string, string>> = { GEOMETRY: 'Geometry' };

/** Every proper word-prefix of a multi-word alias (`DOUBLE`, `NATIONAL CHARACTER`, …). */
const PREFIXES: ReadonlySet<string> = new Set(Object.keys(ALIASES).flatMap((k) => {
  const words = k.split(' ');
  return words.slice(1).map((_, i) => words.slice(0, i + 1).join(' '));
}));

/**
 * Resolve the family starting with `first`. `nextWord` reads the next identifier (or returns
 * undefined without consuming anything); `mark`/`reset` save and restore the reading position,
 * so a multi-word alias consumes exactly its own words. Returns the canonical family, or
 * `first` unchanged when it is not an alias.
 */
export function resolveFamily(first: string, nextWord: () => string | undefined, mark: () => number, reset: (pos: number) => void): string {
  const exact = EXACT[first];
  if (exact !== undefined) return exact;
  let phrase = first.toUpperCase();
  let best = ALIASES[phrase];
  let bestEnd = mark();
  while (PREFIXES.has(phrase)) {
    const word = nextWord();
    if (word === undefined) break;
    phrase += ' ' + word.toUpperCase();
    const hit = ALIASES[phrase];
    if (hit !== undefined) { best = hit; bestEnd = mark(); }
  }
  reset(bestEnd);
  return best ?? first;
}
