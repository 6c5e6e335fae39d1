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
  return residentMb(pid).rss;
}

/**
 * `pid`'s resident set size now and, of it, the pages backed by files, in MB, from one read of
 * /proc/<pid>/status (VmRSS, RssFile). The file-backed pages are the runtime's binary, the native
 * modules and anything else mapped from disk, resident as the code that runs touches it: clean
 * and shared with the page cache, the kernel drops them under pressure and reads them back,
 * unlike the anonymous rest (heaps, malloc, stacks). `file` is NaN where the kernel does not say.
 */
export function residentMb(pid: number): { rss: number; file: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { rss: Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024, file: Number(/RssFile:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024 };
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
  return statCpuSeconds(`/proc/${pid}/stat`).own;
}

/**
 * User + system CPU time of a /proc stat file (a process's, or a thread's under task/), in
 * seconds: its own, and that of the children it has waited for (fields 14-17).
 */
export function statCpuSeconds(path: string): { own: number; children: number } {
  const stat = readFileSync(path, 'utf8');
  // After the command (which may hold spaces), f[0] is field 3: utime is field 14.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { own: (Number(f[11]) + Number(f[12])) / CLOCK_TICKS_PER_S, children: (Number(f[13]) + Number(f[14])) / CLOCK_TICKS_PER_S };
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
