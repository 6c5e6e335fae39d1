/**
 * Where the CPU of the soak's day went (Linux /proc): the owner's main thread (recall, every
 * transport, the dispatch loop), the owner's other threads (pool, writers, watcher, the engine's
 * helpers), the children it waited for (git), and beside them the load the soak itself makes
 * (its process and its children: the bursts' writes, git checkout, rebase and gc), with how busy
 * the machine's cores were. Read at the start and the end of the day; the report keeps the
 * differences, in seconds of CPU.
 *
 * Why: the seek bound compares the owner under load with the owner idle on a machine it shares
 * with the soak. Which side the load came from says whether a slow seek was the owner's doing.
 */
import { readFileSync } from 'node:fs';
import { statCpuSeconds } from '../proc-stats.js';

export interface CpuReading {
  /** CPU seconds (user and system) of each; the machine's two in clock ticks, read as a share. */
  ownerMain: number;
  ownerAll: number;
  ownerChildren: number;
  soakAll: number;
  soakChildren: number;
  machineBusy: number;
  machineAll: number;
}

/** CPU seconds of the day, by whose they were. */
export interface CpuOfDay {
  ownerMainS: number;
  ownerOtherThreadsS: number;
  ownerChildrenS: number;
  soakS: number;
  soakChildrenS: number;
  /** Of all the cores' time over the day, the share that was busy (0..1). */
  machineBusy: number;
}

/** The machine's busy and total ticks over all cores (/proc/stat's first line). */
function machineTicks(): { busy: number; all: number } {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  const all = cpu.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0);
  return { busy: all - idle, all };
}

/** A reading now, or null off Linux (no /proc). */
export function readCpu(ownerPid: number): CpuReading | null {
  try {
    const owner = statCpuSeconds(`/proc/${ownerPid}/stat`);
    const main = statCpuSeconds(`/proc/${ownerPid}/task/${ownerPid}/stat`);
    const soak = statCpuSeconds('/proc/self/stat');
    const m = machineTicks();
    return { ownerMain: main.own, ownerAll: owner.own, ownerChildren: owner.children, soakAll: soak.own, soakChildren: soak.children, machineBusy: m.busy, machineAll: m.all };
  } catch {
    return null;
  }
}

/** What the day used, from its two readings. */
export function cpuOfDay(start: CpuReading, end: CpuReading): CpuOfDay {
  const s = (k: keyof CpuReading) => Math.round((end[k] - start[k]) * 10) / 10;
  const all = end.machineAll - start.machineAll;
  return {
    ownerMainS: s('ownerMain'),
    ownerOtherThreadsS: Math.round((s('ownerAll') - s('ownerMain')) * 10) / 10,
    ownerChildrenS: s('ownerChildren'),
    soakS: s('soakAll'),
    soakChildrenS: s('soakChildren'),
    machineBusy: all > 0 ? Math.round(((end.machineBusy - start.machineBusy) / all) * 1000) / 1000 : 0,
  };
}

/** The report's sentence. */
export function cpuLine(c: CpuOfDay | null | undefined, minutes: number): string {
  if (!c) return '';
  const owner = c.ownerMainS + c.ownerOtherThreadsS + c.ownerChildrenS;
  const soak = c.soakS + c.soakChildrenS;
  return ` CPU over the day (${minutes} min): the owner ${owner.toFixed(0)} s (main thread ${c.ownerMainS.toFixed(0)}, its other threads ${c.ownerOtherThreadsS.toFixed(0)}, its git children ${c.ownerChildrenS.toFixed(0)}), the soak's own load ${soak.toFixed(0)} s (its process ${c.soakS.toFixed(0)}, its children, git and the stdio proxies, ${c.soakChildrenS.toFixed(0)}); the machine's cores ${(c.machineBusy * 100).toFixed(0)}% busy.`;
}
