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
}

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
  };
}
