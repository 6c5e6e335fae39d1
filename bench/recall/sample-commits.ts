/**
 * Deterministic sampling of recall tasks from a repository's history. A commit qualifies when
 * it is not a merge, it changed 1–4 answer files (see answer-paths.ts), every one of them
 * already existed in its parent, its cleaned message is a task (see clean-message.ts), and
 * its change to those files is more than whitespace. The sample is the qualifying commits
 * ordered by a hash of (seed, sha), so the same seed picks the same tasks on every machine;
 * tasks come back oldest first, so a checkout moves forward through history.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { isAnswerPath } from './answer-paths.js';
import { cleanMessage } from './clean-message.js';

export const MAX_ANSWER_FILES = 4;

export interface RecallTask {
  sha: string;
  parent: string;
  task: string;
  /** Changed answer files, root-relative. */
  answer: string[];
}

export interface Sample {
  tasks: RecallTask[];
  /** Non-merge commits looked at, and how many qualified (before the whitespace check, which runs on the sample only). */
  commits: number;
  qualifying: number;
}

const REC = '\x1e';
const SEP = '\x1f';

export function git(repo: string, args: string[], maxBuffer = 512 << 20): string {
  return execFileSync('git', ['-c', 'core.quotePath=false', ...args], {
    cwd: repo,
    encoding: 'utf8',
    maxBuffer,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' },
  });
}

/** Candidates before the (costlier) whitespace check, newest first as git lists them. */
export function qualifyingCommits(repo: string): { candidates: RecallTask[]; commits: number } {
  const log = git(repo, ['log', '--no-merges', '--no-renames', '--name-status', `--format=${REC}%H${SEP}%P${SEP}%B${SEP}`, 'HEAD']);
  const candidates: RecallTask[] = [];
  let commits = 0;
  for (const record of log.split(REC)) {
    if (!record.trim()) continue;
    commits++;
    const [sha, parents, body, files] = record.split(SEP) as [string, string, string, string | undefined];
    const parentList = parents.trim().split(/\s+/).filter(Boolean);
    if (parentList.length !== 1) continue;
    let added = false;
    const answer: string[] = [];
    for (const line of (files ?? '').split('\n')) {
      const m = /^([A-Z])\d*\t(.+)$/.exec(line);
      if (!m || !isAnswerPath(m[2]!)) continue;
      if (m[1] === 'A') added = true;
      answer.push(m[2]!);
    }
    if (added || answer.length === 0 || answer.length > MAX_ANSWER_FILES) continue;
    const task = cleanMessage(body.trim());
    if (task === null) continue;
    candidates.push({ sha, parent: parentList[0]!, task, answer });
  }
  return { candidates, commits };
}

/** True when the commit's change to its answer files is only whitespace. */
function whitespaceOnly(repo: string, t: RecallTask): boolean {
  const diff = git(repo, ['diff', '-w', '--ignore-blank-lines', '--stat', t.parent, t.sha, '--', ...t.answer]);
  return diff.trim() === '';
}

export function sampleTasks(repo: string, count: number, seed: number): Sample {
  const { candidates, commits } = qualifyingCommits(repo);
  const order = new Map(candidates.map((c, i) => [c.sha, i]));
  const key = (sha: string) => createHash('sha1').update(`${seed}:${sha}`).digest('hex');
  const shuffled = [...candidates].sort((a, b) => (key(a.sha) < key(b.sha) ? -1 : 1));
  const tasks: RecallTask[] = [];
  for (const c of shuffled) {
    if (tasks.length >= count) break;
    if (!whitespaceOnly(repo, c)) tasks.push(c);
  }
  // Oldest first: git listed newest first.
  tasks.sort((a, b) => order.get(b.sha)! - order.get(a.sha)!);
  return { tasks, commits, qualifying: candidates.length };
}
