/** How the CLI prints: JSON for scripts, short text for people, errors on stderr. */
import { GardenerError, InvalidArgumentError } from '../errors.js';

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

export function printLine(line = ''): void {
  process.stdout.write(line + '\n');
}

/** Prints an error for a person and returns the exit code it deserves. */
export function reportError(err: unknown): number {
  if (err instanceof GardenerError) {
    process.stderr.write(`gardener: ${err.message} [${err.code}]\n`);
    return err.exitCode;
  }
  process.stderr.write(`gardener: unexpected error: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  return 1;
}

/** Parses a positive integer option, naming the option and the value on failure. */
export function positiveInt(name: string, value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(String(value).trim()) || !Number.isSafeInteger(n) || n < 1) {
    throw new InvalidArgumentError(`${name} must be a positive integer, got "${value}"`);
  }
  return n;
}

/** From this many ms a person reads seconds (`57.4 s`) rather than `57357 ms`. */
const SECONDS_FROM_MS = 10_000;

/**
 * A duration for a person: one decimal under 10 ms, whole ms under 10 s, then seconds with one
 * decimal. Every duration the CLI prints as text goes through here (a float sum printed raw
 * reads `1179.6999999999998 ms`).
 */
export function formatDuration(ms: number): string {
  const tenths = Math.round(ms * 10) / 10;
  if (tenths < 10) return `${tenths} ms`;
  const whole = Math.round(ms);
  if (whole < SECONDS_FROM_MS) return `${whole} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}
