/**
 * Running a child so that file modes bind it, wherever the clone lives.
 *
 * Root reads every file whatever its mode, so a test about an unreadable file must not run its
 * subject as plain root. Dropping to another user (`nobody`) breaks as soon as the clone sits
 * in a private folder (a container's /root, a CI workspace of mode 0700): that user cannot even
 * load dist/src/cli/main.js. So the child keeps uid 0 and loses only the two capabilities that
 * let root ignore modes (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH), through util-linux `setpriv`:
 * root's own 0000 files are then really unreadable, and everything else is as before.
 *
 *   const drop = unprivilegedCommand();
 *   if ('skip' in drop) return t.skip(drop.skip);          // says why, never silently
 *   spawnSync(drop.command, [...drop.args, process.execPath, CLI, ...]);
 *
 * Not root: the command runs as it is (modes already bind an ordinary user).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The capabilities that let root read and search whatever the mode says. */
const READ_ALL_CAPS = '-dac_override,-dac_read_search';

export type UnprivilegedCommand = { command: string; args: string[] } | { skip: string };

let cached: UnprivilegedCommand | undefined;

/**
 * How to run a program so that a 0000 file is unreadable to it: a command and the arguments
 * that go before the program, or why that cannot be done on this machine.
 */
export function unprivilegedCommand(): UnprivilegedCommand {
  if (cached) return cached;
  if (process.platform === 'win32') return (cached = { skip: 'file modes do not bind on Windows' });
  if (process.getuid?.() !== 0) return (cached = { command: 'env', args: ['--'] });
  const drop = { command: 'setpriv', args: [`--inh-caps=${READ_ALL_CAPS}`, `--bounding-set=${READ_ALL_CAPS}`, '--'] };
  // Prove it once: a 0000 file must really be unreadable through the drop.
  const dir = mkdtempSync(join(tmpdir(), 'gardener-caps-'));
  try {
    const locked = join(dir, 'locked');
    writeFileSync(locked, 'secret');
    chmodSync(locked, 0o000);
    const r = spawnSync(drop.command, [...drop.args, 'cat', locked], { encoding: 'utf8' });
    if (r.error) return (cached = { skip: `running as root and setpriv (util-linux) cannot run here: ${r.error.message}` });
    if (r.status === 0) return (cached = { skip: 'running as root and dropping CAP_DAC_OVERRIDE/CAP_DAC_READ_SEARCH did not make a 0000 file unreadable' });
    if (!/Permission denied/.test(r.stderr)) return (cached = { skip: `running as root and setpriv failed: ${r.stderr.trim()}` });
    return (cached = drop);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
