/**
 * Running a host's own CLI (`claude mcp add`, `codex mcp remove`, `gemini mcp add`): found on
 * PATH, run without a shell, bounded, its output kept for the error when it fails.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { HostCliError } from '../errors.js';

/**
 * Longest a host CLI may take to add or remove an entry. They answer in about a second (Gemini
 * loads its bundle); a minute covers a cold disk, and a hung CLI still ends.
 */
export const HOST_CLI_TIMEOUT_MS = 60_000;

/** The absolute path of `name` on PATH, or null. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** Runs `argv` (argv[0] is looked up on PATH) in `cwd`; returns stdout, throws HostCliError. */
export function runHostCli(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv, hostTitle: string): string {
  const [cli, ...args] = argv as [string, ...string[]];
  const path = findOnPath(cli, env);
  if (!path) {
    throw new HostCliError(cli, `${cli} (${hostTitle}) is not on PATH: install it, or add the entry by hand (\`gardener hosts print\` shows it)`, { missing: true });
  }
  const done = spawnSync(path, args, { cwd, env, encoding: 'utf8', timeout: HOST_CLI_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'pipe'] });
  if (done.error || done.status !== 0) {
    const said = `${done.stderr ?? ''}${done.stdout ?? ''}`.trim().split('\n').slice(-5).join(' | ');
    const why = done.error ? done.error.message : `exit ${done.status ?? done.signal}`;
    throw new HostCliError(cli, `\`${argv.join(' ')}\` failed (${why}): ${said || 'no output'}`, { cause: done.error });
  }
  return done.stdout ?? '';
}
