/**
 * Where a task's repository is on this machine: under the folder the user gives, as
 * `owner+name/repo` or `owner+name` (a mirror's layout), `owner/name`, or `name`, matched
 * without regard to case (`burntsushi/ripgrep` is `BurntSushi+ripgrep`). A work tree or a bare
 * git directory both do: the eval clones it.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

function childNamed(dir: string, name: string): string | null {
  if (!existsSync(dir)) return null;
  const lower = name.toLowerCase();
  const hit = readdirSync(dir).find((e) => e.toLowerCase() === lower);
  return hit === undefined ? null : join(dir, hit);
}

const isGitDir = (p: string) => existsSync(join(p, 'HEAD')) || existsSync(join(p, '.git'));

export function repoDir(root: string, repo: string): string | null {
  const [owner, name] = repo.split('/') as [string, string];
  const tries: (string | null)[] = [];
  const flat = childNamed(root, `${owner}+${name}`);
  if (flat) tries.push(childNamed(flat, 'repo'), flat);
  const nested = childNamed(root, owner);
  if (nested) tries.push(childNamed(nested, name));
  tries.push(childNamed(root, name));
  return tries.find((p): p is string => p !== null && isGitDir(p)) ?? null;
}
