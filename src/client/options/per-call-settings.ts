// The settings a call may carry when one ClickHouse user serves several tenants: a call's own
// `settings` (and chwire/compat's per-call clickhouse_settings) may not set the names below unless
// the client lists them in `perCallSettings`; the client's own `settings` may set them.
// Invariant: the check runs when the call's options are checked, before anything is sent (no
// version probe, no DESCRIBE), and again where the call's settings are merged (settingsFor), so no
// path (rows, columns, raw, statements, inserts, compat) sends a guarded name it was not allowed.
// Names are compared case-insensitively: a spelling in another case never slips by.
import { ChwireConfigError } from '../../errors.js';

/**
 * Settings that reach past the call itself: `replace_running_query` cancels the running query of
 * the same query id (another tenant's, when ids are taken from tenants), `profile` switches to
 * another settings profile (its limits, its readonly), `readonly` and `allow_ddl` change what the
 * user may run, `log_queries` hides a query from system.query_log (the audit trail).
 */
export const GUARDED_SETTINGS: readonly string[] = Object.freeze(['replace_running_query', 'profile', 'readonly', 'allow_ddl', 'log_queries']);

/** The client's `perCallSettings`, resolved: the guarded names a call may set ('any': every one). */
export type PerCallSettings = ReadonlySet<string> | 'any';

/** createClient's perCallSettings (an array of names, or 'any'), checked; undefined: none of them. */
export function resolvePerCallSettings(v: unknown): PerCallSettings {
  if (v === undefined) return new Set();
  if (v === 'any') return 'any';
  if (!Array.isArray(v) || !v.every((n): n is string => typeof n === 'string')) {
    throw new ChwireConfigError(`option perCallSettings must be an array of setting names or 'any', got ${JSON.stringify(v) ?? typeof v}`);
  }
  const out = new Set<string>();
  for (const n of v) {
    const lower = n.toLowerCase();
    if (!GUARDED_SETTINGS.includes(lower)) {
      throw new ChwireConfigError(`option perCallSettings lists ${JSON.stringify(n)}, which a call may set anyway: it names only the guarded settings ${GUARDED_SETTINGS.join(', ')}`);
    }
    out.add(lower);
  }
  return out;
}

/** Refuse a guarded setting among a call's own `settings` that `allowed` does not list (ChwireConfigError). */
export function checkPerCallSettings(call: string, settings: object | undefined, allowed: PerCallSettings): void {
  if (settings === undefined || settings === null || allowed === 'any') return;
  for (const k of Object.keys(settings)) {
    const lower = k.toLowerCase();
    if (GUARDED_SETTINGS.includes(lower) && !allowed.has(lower)) {
      throw new ChwireConfigError(`setting ${k} of ${call} is refused: a call's own settings may not set ${lower} (it reaches past the call: ${WHY[lower]}); nothing was sent. `
        + `Set it in the client's settings, or allow it per call with createClient({ perCallSettings: [${JSON.stringify(lower)}] })`);
    }
  }
}

const WHY: Readonly<Record<string, string>> = {
  replace_running_query: 'it cancels a running query with the same query id, another caller\'s too',
  profile: 'it switches the user to another settings profile',
  readonly: 'it changes what the user may run',
  allow_ddl: 'it changes what the user may run',
  log_queries: 'it keeps the query out of system.query_log',
};
