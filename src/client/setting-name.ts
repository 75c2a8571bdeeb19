// A setting's name as the client accepts it. Invariant: only identifiers pass, so a name can be
// written into a SETTINGS clause (chdb://) or a URL parameter (HTTP) without quoting.
import { ChwireConfigError } from '../errors.js';

/** A setting's name: an identifier, as every ClickHouse setting is (`custom_` ones too). */
const SETTING_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Refuse a setting name that is not an identifier: chdb:// writes names into a SETTINGS clause and
 * HTTP into URL parameters, so a name like 'max_threads=1&readonly' must never reach either.
 */
export function checkSettingName(name: string): void {
  if (!SETTING_NAME.test(name)) throw new ChwireConfigError(`setting name ${JSON.stringify(name)} is not an identifier (letters, digits and _, not starting with a digit)`);
}
