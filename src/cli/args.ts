// Command-line arguments shared by the `chwire` commands: how to reach the server and the decode
// options, parsed with node:util parseArgs. Invariant: a password never comes from the command line
// (it would show in `ps` and shell history): it is read from CHWIRE_PASSWORD or from $CHWIRE_URL;
// `--password` and a `--url` that carries one are refused (usage error) with a message pointing
// to CHWIRE_PASSWORD, and the message never repeats the URL.
import type { ClientOptions } from '../client/options/config.js';
import type { DecodeOptions } from '../plan/options.js';
import { VALUE_OPTION_KEYS } from '../plan/options.js';
import { checkSettingName } from '../client/options/setting-name.js';

export class UsageError extends Error {
  override get name(): string { return 'UsageError'; }
}

/** parseArgs option specs for the connection. */
export const CONNECTION_OPTIONS = {
  url: { type: 'string' },
  user: { type: 'string' },
  database: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** parseArgs option specs for the decode options (`--int64 number`, `--rows array`, …). */
export const DECODE_OPTIONS = Object.fromEntries(
  [...VALUE_OPTION_KEYS, 'rows'].map((k) => [k, { type: 'string' }]),
) as Record<(typeof VALUE_OPTION_KEYS)[number] | 'rows', { type: 'string' }>;

export const CONNECTION_HELP = [
  '  --url URL          http(s)://host:8123 or chdb:// (default: $CHWIRE_URL, else http://localhost:8123)',
  '  --user NAME        user name (default: the URL\'s, else default); the password comes from',
  '                     $CHWIRE_PASSWORD (or $CHWIRE_URL), never from an argument: --password',
  '                     and a --url with a password are refused (they would show in ps)',
  '  --database NAME    default database',
].join('\n');

export const DECODE_HELP = [
  '  --int64 bigint|number|string   --int128 …   --decimal string|number',
  '  --datetime Date|string|number|text  --date Date|string   --time string|number',
  '  --strings string|bytes   --uuid string|bytes   --maps object|Map   --float32 exact|shortest',
  '  --rows object|array',
].join('\n');

const PASSWORD_HINT = 'a password in an argument shows in ps and in shell history; set CHWIRE_PASSWORD instead';

/** Refuses `--password` before parsing, with the way that works (parseArgs would only say "unknown option"). */
export function refusePasswordFlag(argv: readonly string[]): void {
  for (const a of argv) {
    if (a === '--') return;
    if (a === '--password' || a.startsWith('--password=')) throw new UsageError(`--password is not accepted: ${PASSWORD_HINT}`);
  }
}

/** True when a URL's user info has a non-empty password (`scheme://user:secret@host`). */
function urlHasPassword(url: string): boolean {
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)@/.exec(url);
  if (m === null) return false;
  const colon = m[1]!.indexOf(':');
  return colon >= 0 && colon < m[1]!.length - 1;
}

export function clientOptions(values: Record<string, unknown>, env: NodeJS.ProcessEnv): ClientOptions {
  // Refused rather than warned about: a warning is lost in a script's redirected stderr, the very
  // place where a password in `ps` matters (every user of the host can read it); the URL is not echoed.
  if (typeof values['url'] === 'string' && urlHasPassword(values['url'])) throw new UsageError(`--url carries a password, which is not accepted: ${PASSWORD_HINT} (and remove it from the URL), or put the whole URL in CHWIRE_URL`);
  // --setting is the operator's own (no tenant behind a command line): any setting may be given.
  const opts: ClientOptions = { url: typeof values['url'] === 'string' ? values['url'] : env['CHWIRE_URL'] ?? 'http://localhost:8123', perCallSettings: 'any' };
  if (typeof values['user'] === 'string') opts.username = values['user'];
  if (env['CHWIRE_PASSWORD'] !== undefined) opts.password = env['CHWIRE_PASSWORD'];
  if (typeof values['database'] === 'string') opts.database = values['database'];
  return opts;
}

export function decodeOptions(values: Record<string, unknown>): DecodeOptions {
  const out: Record<string, string> = {};
  for (const k of [...VALUE_OPTION_KEYS, 'rows']) {
    const v = values[k];
    if (typeof v === 'string') out[k] = v;
  }
  return out as DecodeOptions;
}

/** `name=value` pairs (repeatable options) → object; the name must be non-empty. */
export function pairs(list: readonly string[] | undefined, what: string): [string, string][] {
  return (list ?? []).map((p) => {
    const eq = p.indexOf('=');
    // The argument is not echoed: without a name it may be all value (a --param's value is a secret).
    if (eq <= 0) throw new UsageError(`${what} must look like name=value, got ${eq < 0 ? `an argument without '='` : `one with nothing before '='`}`);
    return [p.slice(0, eq), p.slice(eq + 1)];
  });
}

/** The help lines of `--setting`. */
export const SETTING_HELP = [
  '  --setting NAME=VALUE',
  '                     a server setting for this command (repeatable), as the server\'s text, e.g.',
  '                     max_threads=4, format_csv_delimiter=\';\', input_format_allow_errors_num=10',
].join('\n');

/**
 * `--setting NAME=VALUE` (repeatable) → the call's `settings`. Each name goes through the API's
 * own check (an identifier: it reaches URL parameters or a SETTINGS clause); a bad one is a usage
 * error. The value is passed as the server's text form, never echoed (it may be anything).
 */
export function settingPairs(list: readonly string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of pairs(list, '--setting')) {
    try { checkSettingName(name); } catch (e) { throw new UsageError(`--setting: ${(e as Error).message}`); }
    out[name] = value;
  }
  return out;
}
