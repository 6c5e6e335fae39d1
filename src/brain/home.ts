/**
 * Where Gardener keeps its state: `$GARDENER_HOME`, else `$XDG_STATE_HOME/gardener` (Linux,
 * defaulting to ~/.local/state), or `~/Library/Application Support/gardener` on macOS.
 */
import { homedir, platform } from 'node:os';
import { join, resolve } from 'node:path';

export function resolveHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.GARDENER_HOME) return resolve(env.GARDENER_HOME);
  if (platform() === 'darwin') return join(homedir(), 'Library', 'Application Support', 'gardener');
  const state = env.XDG_STATE_HOME || join(homedir(), '.local', 'state');
  return join(state, 'gardener');
}

export function brainDir(home: string, id: string): string {
  return join(home, 'brains', id);
}

export function brainFile(home: string, id: string): string {
  return join(brainDir(home, id), 'brain.db');
}
