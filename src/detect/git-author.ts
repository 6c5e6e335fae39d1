/**
 * Who writes a team note: `user.name <user.email>` from the root's git config, as git would
 * sign a commit there. Run off the main thread (the store writer asks before it writes a note
 * file); no git, no config or a slow git means no author, never a failed note.
 */
import { runGit } from './run-git.js';

/** Bound on each `git config` asked, in ms: a config read is instant, a hanging git is not worth a note. */
const GIT_AUTHOR_TIMEOUT_MS = 5_000;

export async function gitAuthor(root: string, gitBinary?: string): Promise<string | undefined> {
  const ask = async (key: string): Promise<string> => {
    try {
      const out = await runGit(['config', '--get', key], { cwd: root, gitBinary, gitTimeoutMs: GIT_AUTHOR_TIMEOUT_MS });
      return out.code === 0 ? out.stdout.toString('utf8').trim() : '';
    } catch {
      return '';
    }
  };
  const [name, email] = await Promise.all([ask('user.name'), ask('user.email')]);
  if (!name && !email) return undefined;
  return email ? `${name || email} <${email}>`.replace(/[\r\n]/g, ' ') : name.replace(/[\r\n]/g, ' ');
}
