// What a server of a given version can take, decided once per host from `SELECT version()`.
// Invariant: the client never sends a setting or format that the server would reject; user
// settings are passed as given (the user chose them), only the client's own are filtered.
import type { ServerInfo } from '../transport/types.js';

export interface Capabilities {
  /** The format rows are read in: RowBinaryWithNamesAndTypes where the server has it, else Native. */
  readonly rowFormat: 'RowBinaryWithNamesAndTypes' | 'Native';
  /** `{name:Type}` query parameters (`param_*`). */
  readonly params: boolean;
  /** The `async_insert` setting exists (sent as 0 so an insert is one synchronous, atomic write). */
  readonly asyncInsert: boolean;
  /**
   * Native headers can carry binary type encodings (output_format_native_encode_types_in_binary_format,
   * 24.7+). Asked for on every Native read: the text header drops a top-level DateTime's zone, the
   * binary one keeps it, so columns report their real types.
   */
  readonly nativeBinaryTypes: boolean;
  /**
   * The server can be told to verify a Native insert's column types against the table
   * (input_format_native_allow_types_conversion=0, 23.3+) instead of converting them; older
   * servers take the block's types on trust (18.16 writes them into the table as they are).
   */
  readonly nativeTypeCheck: boolean;
  /** `insert_deduplication_token` exists (22.2+). */
  readonly deduplicationToken: boolean;
  /** The `role` URL parameter (24.4+). */
  readonly roles: boolean;
}

/** The setting that makes Native headers carry binary type encodings. */
export const NATIVE_BINARY_TYPES = 'output_format_native_encode_types_in_binary_format';

function atLeast(info: ServerInfo, major: number, minor: number): boolean {
  return info.major > major || (info.major === major && info.minor >= minor);
}

export function capabilitiesOf(info: ServerInfo): Capabilities {
  // Conservative thresholds: 18.16 (the CI server) has neither RowBinaryWithNamesAndTypes nor
  // parameters; Native reads the same values on every version, so older-than-20 servers use it.
  return {
    rowFormat: atLeast(info, 20, 1) ? 'RowBinaryWithNamesAndTypes' : 'Native',
    params: atLeast(info, 19, 11),
    asyncInsert: atLeast(info, 21, 11),
    nativeBinaryTypes: atLeast(info, 24, 7),
    nativeTypeCheck: atLeast(info, 23, 3),
    deduplicationToken: atLeast(info, 22, 2),
    roles: atLeast(info, 24, 4),
  };
}

/** The setting that, at 0, makes the server refuse a Native insert block whose column types differ from the table's. */
export const NATIVE_TYPES_CONVERSION = 'input_format_native_allow_types_conversion';

/** Native reads: the client's own setting for binary type headers, where the server has it. */
export function nativeReadSettings(caps: Capabilities): Record<string, string> {
  return caps.nativeBinaryTypes ? { [NATIVE_BINARY_TYPES]: '1' } : {};
}

/**
 * The zone the server reads zone-less date-time text in for a column without its own zone: the
 * call's `session_timezone` setting (23.6+) where given, else the server's `timezone()` (learnt
 * with the version, once per host); undefined when neither is known (then UTC).
 */
export function serverTextZone(settings: Readonly<Record<string, string>>, info: ServerInfo): string | undefined {
  const s = settings['session_timezone'];
  return s !== undefined && s !== '' ? s : info.timezone;
}
