/**
 * What Linux says of another process (/proc): its resident memory (RSS, and PSS for sums
 * over processes) and CPU time. The bench
 * measures the owner, its proxies and the watch host from outside with these.
 */
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

/** Linux clock ticks per second in /proc/<pid>/stat (USER_HZ, 100 on every mainstream build). */
const CLOCK_TICKS_PER_S = 100;

/** Resident set size of `pid` now, in MB. */
export function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

/**
 * Of `pid`'s RSS, the pages backed by files, in MB (/proc/<pid>/status RssFile): the runtime's
 * binary, the native modules and anything else mapped from disk, resident as the code that runs
 * touches it. Clean and shared with the page cache: the kernel drops them under pressure and
 * reads them back, unlike the anonymous rest (heaps, malloc, stacks).
 */
export function rssFileMb(pid: number): number {
  return Number(/RssFile:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
}

/**
 * Proportional set size of `pid` now, in MB: its resident pages, each shared page divided by
 * the processes that map it (/proc/<pid>/smaps_rollup). Summed over processes it counts a page
 * they share once, where summed RSS counts the runtime's binary once a process.
 */
export function pssMb(pid: number): number {
  return Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))![1]) / 1024;
}

/** User + system CPU time `pid` has used so far, in seconds. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / CLOCK_TICKS_PER_S;
}

/** Inotify watches a process holds (the `inotify wd:` lines of its inotify descriptors). */
export function inotifyWatches(pid: number): number | null {
  try {
    let n = 0;
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      if (target !== 'anon_inode:inotify') continue;
      n += readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8').split('\n').filter((l) => l.startsWith('inotify wd:')).length;
    }
    return n;
  } catch {
    return null;
  }
}
