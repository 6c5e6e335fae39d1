/**
 * What Linux says of the owner and the processes under it, from outside (/proc): descriptors,
 * inotify watches, threads, children with zombies counted apart. RSS and watches come from the
 * bench's own reader (bench/proc-stats.ts); this adds the tree walk and the counts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { inotifyWatches, residentMb } from '../proc-stats.js';

export interface ProcCounts {
  rssMb: number;
  /** Of rssMb, the pages mapped from files (bench/proc-stats.ts residentMb). */
  rssFileMb: number;
  fds: number;
  threads: number;
}

export interface TreeCounts {
  owner: ProcCounts;
  /** Inotify watches held by the owner and every process under it (the watch host holds the native ones). */
  watches: number;
  /** Live processes under the owner (the watch host, gits), zombies not counted. */
  children: number;
  zombies: number;
  /** The zombies' command names, to say whose they are. */
  zombieNames: string[];
  /** The zombies themselves, to look at again (lastingZombies). */
  zombieList: Zombie[];
  /** Descriptors and threads of the live processes under the owner, summed. */
  childFds: number;
  childThreads: number;
}

const count = (dir: string): number => {
  try {
    return readdirSync(dir).length;
  } catch {
    return 0;
  }
};

interface Stat {
  pid: number;
  ppid: number;
  state: string;
  comm: string;
}

export type Zombie = Pick<Stat, 'pid' | 'ppid' | 'comm'>;

/**
 * How long a child may stay a zombie before it counts: every child is one between its exit and
 * its parent's wait, and a thread in the middle of a task (a page return, a tick's batch) waits
 * when it is done (a 16-minute soak caught a `git` so once in 90 samples). A child its parent
 * never waits for stays one; that is what the soak counts.
 */
export const ZOMBIE_GRACE_MS = 1_000;

/** Those of `zombies` still unreaped (same pid, same parent, still Z) `graceMs` after they were seen. */
export async function lastingZombies(zombies: readonly Zombie[], graceMs: number = ZOMBIE_GRACE_MS): Promise<Zombie[]> {
  if (zombies.length === 0) return [];
  await new Promise((r) => setTimeout(r, graceMs));
  return zombies.filter((z) => {
    const now = readStat(z.pid);
    return now !== null && now.state === 'Z' && now.ppid === z.ppid;
  });
}

function readStat(pid: number): Stat | null {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = s.lastIndexOf(')');
    const f = s.slice(close + 2).split(' ');
    return { pid, ppid: Number(f[1]), state: f[0]!, comm: s.slice(s.indexOf('(') + 1, close) };
  } catch {
    return null;
  }
}

/** Every process under `root` (children, grandchildren…), read in one pass over /proc. */
export function descendants(root: number): Stat[] {
  const all: Stat[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const st = readStat(Number(name));
    if (st) all.push(st);
  }
  const byParent = new Map<number, Stat[]>();
  for (const st of all) {
    const list = byParent.get(st.ppid) ?? [];
    list.push(st);
    byParent.set(st.ppid, list);
  }
  const out: Stat[] = [];
  const queue = [root];
  while (queue.length) {
    for (const child of byParent.get(queue.shift()!) ?? []) {
      out.push(child);
      queue.push(child.pid);
    }
  }
  return out;
}

export function treeCounts(pid: number): TreeCounts {
  const resident = residentMb(pid);
  const owner: ProcCounts = { rssMb: resident.rss, rssFileMb: resident.file, fds: count(`/proc/${pid}/fd`), threads: count(`/proc/${pid}/task`) };
  let watches = inotifyWatches(pid) ?? 0;
  let children = 0;
  let childFds = 0;
  let childThreads = 0;
  const zombieList: Zombie[] = [];
  for (const c of descendants(pid)) {
    if (c.state === 'Z') {
      zombieList.push({ pid: c.pid, ppid: c.ppid, comm: c.comm });
      continue;
    }
    children++;
    childFds += count(`/proc/${c.pid}/fd`);
    childThreads += count(`/proc/${c.pid}/task`);
    watches += inotifyWatches(c.pid) ?? 0;
  }
  return { owner, watches, children, zombies: zombieList.length, zombieNames: zombieList.map((z) => z.comm), zombieList, childFds, childThreads };
}
