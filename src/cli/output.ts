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
