// The client's observability options (OBSERVE_OPTION_KEYS: logger, logLevel, tracing,
// progressInterval, slowConsumerMs), checked in one place when the client is created, and the
// Observer they make. Each option's value is checked by the module that uses it (logger.ts,
// tracing.ts, progress.ts), called from here only.
// Invariants: each option is read once, here (the client layer hands the options over and reads
// none of these); a bad value is a ChwireConfigError naming the option, thrown by createClient.
import { Observer } from './call.js';
import { resolveLog } from './logger.js';
import { DEFAULT_PROGRESS_INTERVAL, intervalOption } from './progress.js';
import { resolveTracing } from './tracing.js';

/** The client options this module checks (and the only ones it reads). */
export const OBSERVE_OPTION_KEYS = ['logger', 'logLevel', 'tracing', 'progressInterval', 'slowConsumerMs'] as const;

export type ObserveOptions = { readonly [K in (typeof OBSERVE_OPTION_KEYS)[number]]?: unknown };

/** Default `slowConsumerMs`. */
const DEFAULT_SLOW_CONSUMER_MS = 10_000;

/** The Observer of a client's calls; `database` is the client's (for spans and the channel). */
export function resolveObserver(o: ObserveOptions, database: string | undefined): Observer {
  const { logger, logLevel, tracing, progressInterval, slowConsumerMs } = o;
  return new Observer({
    log: resolveLog(logger, logLevel),
    tracing: resolveTracing(tracing),
    progressInterval: intervalOption('progressInterval', progressInterval, DEFAULT_PROGRESS_INTERVAL),
    slowConsumerMs: intervalOption('slowConsumerMs', slowConsumerMs, DEFAULT_SLOW_CONSUMER_MS),
  }, database);
}
