/**
 * `gardener open [dir]`: a one-time login URL for the owner's page, printed as the last line
 * (and opened in the desktop's browser when there is one, unless `--no-browser`).
 *
 * It asks the running owner for a code over HTTP with the home's bearer token; the code is good
 * once, for a minute, and the browser trades it for a session cookie. With no owner it says so
 * and how to start one: it does not start an owner itself (an owner started by a command that
 * then exits would outlive the terminal it was asked from, unseen; `gardener service install`
 * is the way to have one always). With a folder, the folder's brain is opened in the owner first
 * (a `north` call through REST), so the page shows it.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { resolveHome } from '../../brain/home.js';
import { OwnerNotRunningError } from '../../errors.js';
import { readOwnerFile } from '../../owner/owner-file.js';
import { runPaths } from '../../owner/run-paths.js';
import { readToken } from '../../owner/token.js';
import { printJson, printLine } from '../output.js';

export async function open(dir: string | undefined, opts: { browser?: boolean; json?: boolean }): Promise<void> {
  const home = resolveHome();
  const paths = runPaths(home);
  const info = readOwnerFile(paths.ownerFile);
  if (!info?.url) throw new OwnerNotRunningError(home);
  const token = readToken(paths.tokenFile);
  const auth = { authorization: `Bearer ${token}` };
  let warning: string | null = null;
  if (dir !== undefined) {
    const folder = resolve(dir);
    const r = await fetch(`${info.url}/api/tools/north`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json', 'x-gardener-folder': folder }, body: '{}' }).catch(() => null);
    if (r && !r.ok) warning = ((await r.json().catch(() => null)) as { error?: { message?: string } } | null)?.error?.message ?? `HTTP ${r.status}`;
  }
  const res = await fetch(`${info.url}/api/page/login`, { method: 'POST', headers: auth }).catch(() => null);
  if (!res || !res.ok) throw new OwnerNotRunningError(home);
  const { code, expires_in_s } = (await res.json()) as { code: string; expires_in_s: number };
  const url = `${info.url}/login?code=${code}`;
  if (opts.json) {
    printJson({ url, expires_in_s, ...(warning ? { warning } : {}) });
    return;
  }
  if (warning) printLine(`note: ${warning}`);
  const opened = opts.browser !== false && openBrowser(url);
  printLine(opened ? `opened in your browser; the link works once, within ${expires_in_s} s:` : `open this link in a browser on this machine (it works once, within ${expires_in_s} s):`);
  printLine(url);
}

/** Hands the URL to the desktop's opener when there is a desktop; false when there is none. */
function openBrowser(url: string): boolean {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? null : process.env.DISPLAY || process.env.WAYLAND_DISPLAY ? 'xdg-open' : null;
  if (!cmd) return false;
  try {
    const child = spawn(cmd, [url], { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}
