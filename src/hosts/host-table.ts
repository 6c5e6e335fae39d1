/** The hosts Gardener knows, in the order `gardener hosts` lists them: the one table. */
import { InvalidArgumentError } from '../errors.js';
import { claudeCode } from './claude-code.js';
import { codex } from './codex.js';
import { gemini } from './gemini.js';
import { JSON_FILE_HOSTS } from './json-file-hosts.js';
import type { HostAdapter } from './types.js';

export const HOSTS: readonly HostAdapter[] = [claudeCode, codex, gemini, ...JSON_FILE_HOSTS];

/** The host named `name`, or bad input that lists the known names. */
export function findHost(name: string): HostAdapter {
  const host = HOSTS.find((h) => h.name === name);
  if (!host) throw new InvalidArgumentError(`unknown host "${name}": known hosts are ${HOSTS.map((h) => h.name).join(', ')}`);
  return host;
}
