// The official `log` option over chwire's logger: a LoggerClass of the user's, or, as
// @clickhouse/client 1.x does without one, a console logger (DefaultLogger) at level WARN, so a
// failed call is written to the console by default. Runtime-neutral (console only).
// Invariant: the line a logger receives is chwire's own (its fields as `args`, its error as
// `err`): chwire's lines never carry a password, a token or a parameter value.
import { ChwireConfigError } from '../errors.js';
import type { Logger, LogLevel } from '../client/observe/logger.js';

const LEVELS_BY_NAME = { TRACE: 0, DEBUG: 1, INFO: 2, WARN: 3, ERROR: 4, OFF: 127 } as const;
/** The official log levels (`ClickHouseLogLevel`): a TypeScript enum there, so its numbers map back to the names too. */
export const ClickHouseLogLevel = { ...LEVELS_BY_NAME, 0: 'TRACE', 1: 'DEBUG', 2: 'INFO', 3: 'WARN', 4: 'ERROR', 127: 'OFF' } as const;
export type ClickHouseLogLevel = (typeof LEVELS_BY_NAME)[keyof typeof LEVELS_BY_NAME];

/** A log line as the official client's Logger receives it. */
export interface LogParams { module: string; message: string; args?: Record<string, unknown> }
export interface WarnLogParams extends LogParams { err?: Error }
export interface ErrorLogParams extends LogParams { err: Error }
export interface OfficialLogger {
  trace(p: LogParams): void;
  debug(p: LogParams): void;
  info(p: LogParams): void;
  warn(p: WarnLogParams): void;
  error(p: ErrorLogParams): void;
}

export interface LogOption { LoggerClass?: new () => OfficialLogger; level?: ClickHouseLogLevel }

function line(level: string, p: LogParams & { err?: Error }): unknown[] {
  const out: unknown[] = [`[${new Date().toISOString()}][${level}][@clickhouse/client][${p.module}] ${p.message}`];
  if (p.args !== undefined) out.push('\nArguments:', p.args);
  if (p.err !== undefined) out.push('\nCaused by:', p.err);
  return out;
}

/** The logger used without a LoggerClass: lines to the console, as the official DefaultLogger writes them. */
export class DefaultLogger implements OfficialLogger {
  trace(p: LogParams): void { console.debug(...line('TRACE', p)); }
  debug(p: LogParams): void { console.debug(...line('DEBUG', p)); }
  info(p: LogParams): void { console.info(...line('INFO', p)); }
  warn(p: WarnLogParams): void { console.warn(...line('WARN', p)); }
  error(p: ErrorLogParams): void { console.error(...line('ERROR', p)); }
}

const LEVELS: Readonly<Record<number, LogLevel>> = { 0: 'debug', 1: 'debug', 2: 'info', 3: 'warn', 4: 'error', 127: 'silent' };

/** The official `log` option (absent: the console at WARN) as a chwire logger and level. */
export function loggerOf(log: LogOption | undefined): { logger: Logger; level: LogLevel; target: OfficialLogger } {
  const level = LEVELS[log?.level ?? ClickHouseLogLevel.WARN];
  if (level === undefined) throw new ChwireConfigError(`option log.level must be a ClickHouseLogLevel, got ${String(log?.level)}`);
  const target = log?.LoggerClass !== undefined ? new log.LoggerClass() : new DefaultLogger();
  const entry = (fields: Record<string, unknown>, message: string): LogParams & { err?: Error } => {
    const err = fields['error'];
    return { module: 'chwire', message, args: fields, ...(err instanceof Error ? { err } : {}) };
  };
  return {
    level,
    target,
    logger: {
      debug: (fields: Record<string, unknown>, message: string) => target.debug(entry(fields, message)),
      info: (fields: Record<string, unknown>, message: string) => target.info(entry(fields, message)),
      warn: (fields: Record<string, unknown>, message: string) => target.warn(entry(fields, message)),
      error: (fields: Record<string, unknown>, message: string) => { const l = entry(fields, message); target.error({ ...l, err: l.err ?? new Error(message) }); },
    } as unknown as Logger,
  };
}
