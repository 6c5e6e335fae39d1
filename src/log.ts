/**
 * The log of the long-running process (the owner and every transport it runs): one JSON object
 * per line on stderr (journald and launchd keep stderr), with a level. It imports nothing but
 * src/errors.ts, so any room may take a `Logger`. `GARDENER_LOG` sets the lowest level
 * written (debug, info, warn, error, silent; default info).
 *
 * Plain synchronous line writes, not pino. Measured on a busy 2-core machine, 1e5 lines of
 * `info(msg, {3 fields})` to /dev/null, five runs: plain writes 2.5–7.0 µs a line, pino 9 with a
 * sync destination 2.5–5.0 µs, pino with its worker transport 2.8–5.9 µs: the same within the
 * noise, while loading pino costs ~8 MB RSS (and its transport a thread) against ~0.3 MB. The
 * owner logs lifecycle events and failures, never per tool call, so the hot path never logs.
 */
import { InvalidArgumentError } from './errors.js';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** The level named by `GARDENER_LOG`, checked once. */
export function logLevelFrom(env: NodeJS.ProcessEnv = process.env): LogLevel {
  const raw = (env.GARDENER_LOG ?? 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) {
    throw new InvalidArgumentError(`GARDENER_LOG must be one of ${LOG_LEVELS.join(', ')}, got "${env.GARDENER_LOG}"`);
  }
  return raw as LogLevel;
}

export function createLogger(level: LogLevel = 'info', write: (line: string) => void = (l) => process.stderr.write(l)): Logger {
  const min = LOG_LEVELS.indexOf(level);
  const at = (lvl: Exclude<LogLevel, 'silent'>) => (msg: string, fields?: Record<string, unknown>) => {
    if (LOG_LEVELS.indexOf(lvl) < min) return;
    write(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...fields }) + '\n');
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
