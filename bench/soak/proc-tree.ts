/**
 * What Linux says of the owner and the processes under it, from outside (/proc): descriptors,
 * inotify watches, threads, children with zombies counted apart. RSS and watches come from the
 * bench's own reader (bench/proc-stats.ts); this adds the tree walk and the counts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { inotifyWatches, rssMb } from '../proc-stats.js';

export interface ProcCounts {
  rssMb: number;
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
  const owner: ProcCounts = { rssMb: rssMb(pid), fds: count(`/proc/${pid}/fd`), threads: count(`/proc/${pid}/task`) };
  let watches = inotifyWatches(pid) ?? 0;
  let children = 0;
  let childFds = 0;
  let childThreads = 0;
  const zombieNames: string[] = [];
  for (const c of descendants(pid)) {
    if (c.state === 'Z') {
      zombieNames.push(c.comm);
      continue;
    }
    children++;
    childFds += count(`/proc/${c.pid}/fd`);
    childThreads += count(`/proc/${c.pid}/task`);
    watches += inotifyWatches(c.pid) ?? 0;
  }
  return { owner, watches, children, zombies: zombieNames.length, zombieNames, childFds, childThreads };
}
