// The `logger` / `logLevel` options: which lines are written and in what shape.
// Invariants: a line is a call `logger.<level>(fields, message)` — pino's `(object, message)` shape,
// which console also prints readably — so one logger object of either kind works unchanged; a
// level below `logLevel` (or a method the logger lacks) costs one comparison and writes nothing;
// no line carries a password, token, parameter value or insert value (fields are built here from
// call metadata, never from options or rows), and SQL text appears only at `debug`, cut at 1 KiB.
import { ChwireConfigError } from '../../errors.js';

/** Any object with some of these methods: `console`, a pino logger, or your own. */
export interface Logger {
  debug?(...args: never[]): unknown;
  info?(...args: never[]): unknown;
  warn?(...args: never[]): unknown;
  error?(...args: never[]): unknown;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
type LineLevel = Exclude<LogLevel, 'silent'>;

const RANK: Readonly<Record<LogLevel, number>> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** Longest SQL text a debug line carries. */
export const SQL_LOG_LIMIT = 1024;

export type LogFields = Record<string, string | number | boolean | undefined | Record<string, string | number | undefined>>;

export class Log {
  private readonly min: number;
  constructor(private readonly logger: Logger, level: LogLevel) {
    this.min = RANK[level];
  }

  /** True when a line of `level` would be written (check before building an expensive line). */
  on(level: LineLevel): boolean {
    return RANK[level] >= this.min && typeof this.logger[level] === 'function';
  }

  write(level: LineLevel, fields: LogFields, message: string): void {
    if (!this.on(level)) return;
    try {
      (this.logger[level] as (f: LogFields, m: string) => void)(fields, message);
    } catch {
      // A logger that throws must not fail the query it reports on.
    }
  }
}

/** The client's Log, or undefined when nothing can be written (no logger, or `silent`). */
export function resolveLog(logger: unknown, level: unknown): Log | undefined {
  if (level !== undefined && (typeof level !== 'string' || !(level in RANK))) {
    throw new ChwireConfigError(`option logLevel must be one of ${Object.keys(RANK).join(', ')}, got ${JSON.stringify(level)}`);
  }
  if (logger === undefined) return undefined;
  if (typeof logger !== 'object' || logger === null) throw new ChwireConfigError('option logger must be an object with debug/info/warn/error methods (console, pino, …)');
  const methods = (['debug', 'info', 'warn', 'error'] as const).filter((m) => (logger as Record<string, unknown>)[m] !== undefined);
  for (const m of methods) {
    if (typeof (logger as Record<string, unknown>)[m] !== 'function') throw new ChwireConfigError(`option logger.${m} must be a function`);
  }
  if (methods.length === 0) throw new ChwireConfigError('option logger has none of the methods debug, info, warn, error');
  if (level === 'silent') return undefined;
  return new Log(logger as Logger, (level ?? 'warn') as LogLevel);
}

/** SQL for a debug line: at most SQL_LOG_LIMIT characters, marked when cut. */
export function sqlForLog(sql: string | undefined): string | undefined {
  if (sql === undefined) return undefined;
  return sql.length <= SQL_LOG_LIMIT ? sql : `${sql.slice(0, SQL_LOG_LIMIT)}… (${sql.length} characters)`;
}
