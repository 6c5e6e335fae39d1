/**
 * What a soak leaves behind: the JSON report (everything it recorded and judged), and with
 * --write-doc the soak's section of docs/reliability.md (between its two markers, the rest of
 * the file untouched; one per watch backend and runtime) and its plot docs/soak-rss-*.svg, RSS
 * and the heaps over time.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Sample } from './sampler.js';
import type { PageReturnsJson } from './owner-process.js';
import { series, type Verdicts } from './verdict.js';
import { slopePer10Min } from './judge.js';
import { ZOMBIE_GRACE_MS } from './proc-tree.js';
import { cpuLine, type CpuOfDay } from './cpu-time.js';
import { MOVES, THROWAWAY_EVERY, type WorkloadResult } from './workload.js';

/** The section's markers and plot, one of each per watch backend and runtime (a run replaces its own). */
export const docBegin = (key: string) => `<!-- soak:begin ${key} (written by \`npm run soak -- --write-doc\`) -->`;
export const docEnd = (key: string) => `<!-- soak:end ${key} -->`;
export const svgName = (key: string) => `soak-rss-${key.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.svg`;

/** The runtime a report ran on, as people name it: "Bun", or Node and its major version ("Node 20"). */
export const runtimeLabel = (c: Pick<SoakReport['config'], 'runtime' | 'runtimeVersion'>) =>
  c.runtime === 'Bun' ? 'Bun' : `Node ${c.runtimeVersion.replace(/^v/, '').split('.')[0]}`;

/** The --runtime a run's command needs to run again: as it was given (--watch fs.watch alone runs Bun). */
const runtimeOption = (c: SoakReport['config']) => (c.runtimeArg ? ` --runtime ${c.runtimeArg}` : '');

/** Which section of docs/reliability.md a run writes: its watch backend and runtime ("native, Node 24"). */
export const sectionKey = (c: Pick<SoakReport['config'], 'watchBackend' | 'runtime' | 'runtimeVersion'>) => `${c.watchBackend}, ${runtimeLabel(c)}`;

export interface SoakReport {
  config: { minutes: number; runtime: string; runtimeVersion: string; runtimeArg?: string | null; watchBackend: string; seed: number; baseFiles: number; treeSitterFiles: number; plainFiles: number; startedAt: string; machine: string; bounds: Record<string, number>; glibcTunables?: string | null };
  brains: { kind: string; id: string; files: number; watchBackend: string }[];
  idleSeekMs: number[];
  samples: Sample[];
  workload: Omit<WorkloadResult, 'probeSeekMs' | 'probeSeekAt' | 'calls'> & { probeSeeks: number; calls: number; callsFailed: number };
  alerts: { brain: string; alerts: unknown }[];
  ownerWarnings: { at: number; level: string; msg: string; brain?: string; error?: string }[];
  /** Bytes of log the owner wrote during the day (after its start), by level (absent in reports of older runs). */
  ownerLogBytes?: Record<string, number>;
  /** Where the day's CPU went (absent off Linux and in reports of older runs). */
  cpu?: CpuOfDay;
  verdicts: Verdicts;
}

const f1 = (n: number | null | undefined) => (n === null || n === undefined || !Number.isFinite(n) ? '–' : n.toFixed(1));
const f2 = (n: number | null | undefined) => (n === null || n === undefined || !Number.isFinite(n) ? '–' : n.toFixed(2));

/** RSS and the heaps over the soak, as a small standalone SVG. */
export function renderSvg(samples: readonly Sample[], warmupMs: number): string {
  const W = 720;
  const H = 300;
  const L = 56;
  const R = 16;
  const T = 24;
  const B = 40;
  const tMax = Math.max(1, ...samples.map((s) => s.t));
  const vMax = Math.ceil(Math.max(10, ...samples.map((s) => s.rssMb)) / 50) * 50;
  const x = (t: number) => L + ((W - L - R) * t) / tMax;
  const y = (v: number) => H - B - ((H - T - B) * v) / vMax;
  const line = (pick: (s: Sample) => number | null, color: string, width = 1.5) => {
    const pts = samples.flatMap((s) => {
      const v = pick(s);
      return v === null ? [] : [`${x(s.t).toFixed(1)},${y(v).toFixed(1)}`];
    });
    return pts.length ? `<polyline fill="none" stroke="${color}" stroke-width="${width}" points="${pts.join(' ')}"/>` : '';
  };
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" font-family="sans-serif" font-size="11">`);
  out.push(`<rect width="${W}" height="${H}" fill="white"/>`);
  out.push(`<rect x="${L}" y="${T}" width="${(x(Math.min(warmupMs, tMax)) - L).toFixed(1)}" height="${H - T - B}" fill="#f2f2f2"/>`);
  out.push(`<text x="${L + 4}" y="${T + 12}" fill="#888">warm-up</text>`);
  for (let v = 0; v <= vMax; v += vMax / 5) {
    out.push(`<line x1="${L}" x2="${W - R}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#e0e0e0"/>`);
    out.push(`<text x="${L - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${v.toFixed(0)}</text>`);
  }
  const minutes = tMax / 60_000;
  const step = minutes > 20 ? 5 : minutes > 6 ? 2 : 1;
  for (let m = 0; m <= minutes; m += step) {
    out.push(`<text x="${x(m * 60_000).toFixed(1)}" y="${H - B + 16}" text-anchor="middle">${m}</text>`);
  }
  out.push(`<text x="${(L + W - R) / 2}" y="${H - 6}" text-anchor="middle">minutes</text>`);
  out.push(`<text x="14" y="${(T + H - B) / 2}" text-anchor="middle" transform="rotate(-90 14 ${(T + H - B) / 2})">MB</text>`);
  out.push(line((s) => s.rssMb, '#c0392b', 2));
  out.push(line((s) => s.mainHeapMb, '#2471a3'));
  out.push(line((s) => s.poolHeapMb, '#27ae60'));
  out.push(line((s) => s.writersHeapMb, '#8e44ad'));
  const legend: [string, string][] = [['owner RSS', '#c0392b'], ['main heap', '#2471a3'], ['pool thread heap', '#27ae60'], ['store writers heap', '#8e44ad']];
  legend.forEach(([name, color], i) => {
    const lx = L + 90 + i * 140;
    out.push(`<line x1="${lx}" x2="${lx + 18}" y1="${T - 8}" y2="${T - 8}" stroke="${color}" stroke-width="2"/><text x="${lx + 22}" y="${T - 4}">${name}</text>`);
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}

export function renderDocSection(r: SoakReport): string {
  const v = r.verdicts;
  const c = r.config;
  const mem = v.memory.map((m) => `| ${m.name} | ${f2(m.slopeMbPer10Min)} | ${f1(m.earlierPeakMb)} | ${f1(m.lastThirdPeakMb)} | ${m.ok ? 'met' : '**MISSED**'} |`);
  const lev = v.levels.map((l) => `| ${l.name} | ${l.baseline} | ${l.final} | ${l.ok ? 'met' : '**MISSED**'} |`);
  const rssAll = r.samples.map((s) => s.rssMb);
  const calls = r.workload;
  const reaped = r.samples.reduce((n, s) => n + (s.zombiesReaped ?? 0), 0);
  const byTransport = (rec: Record<string, number>) => Object.entries(rec).map(([k, n]) => `${k} ${n}`).join(', ');
  const lines = [
    docBegin(sectionKey(c)),
    `## The soak: an owner through a working day (${c.watchBackend} watcher, ${runtimeLabel(c)})`,
    '',
    `\`npm run soak -- --minutes ${c.minutes}${c.watchBackend === 'fs.watch' ? ' --watch fs.watch' : ''}${runtimeOption(c)} --write-doc\` (bench/soak/): one \`gardener serve\` (${c.runtime} ${c.runtimeVersion}, watch backend ${c.watchBackend}${c.glibcTunables ? `, \`GLIBC_TUNABLES=${c.glibcTunables}\` as its service unit sets it` : ''}) in a temporary home, started ${c.startedAt} on ${c.machine}, seed ${c.seed}. ` +
      `Three brains, armed and watched: a git repository of ${c.baseFiles} files in five languages, a git repository of ${c.treeSitterFiles} files in tree-sitter languages (C, C#, Kotlin, Ruby) and a folder of ${c.plainFiles} files that is no git work tree. ` +
      `${calls.rounds} rounds: sessions came and went over the stdio proxy, the socket, Streamable HTTP and REST (opened: ${byTransport(calls.sessionsOpened)}; killed in the middle of a call: ${byTransport(calls.killedMidCall)}), ` +
      `${calls.calls} tool calls (seek, refs, impact, delegate, remember, notes) of which ${calls.callsFailed} failed; one burst a round (1, 10, 100 or 1000 files edited, added and deleted, dealt from a deck so that every stretch of the day carries the same load) on each brain in turn, with renames, a file growing past the 1 MiB per-file bound and shrinking back, branch switches, rebases and a \`git gc\` among them (in the warm-up, the big repository's first ${MOVES} rounds burst 1000 files each, one beside each of those moves), ` +
      `and a token written in each burst and looked up with seek. ` +
      (v.throwaways ? `Every ${THROWAWAY_EVERY}th round a throwaway folder (${v.throwaways.tried} in all), as an agent's worktree comes and goes: ingested through REST, asked once, deleted, and its brain removed by \`gardener brains --prune\` through the running owner. ` : '') +
      `A REST seek every 500 ms on the big brain (${calls.probeSeeks} calls) against ${r.idleSeekMs.length} before the soak, idle, at the same cadence.`,
    '',
    `Every 10 s the owner's RSS, each thread's heap (asked of the owner: \`status\` carries them), descriptors (/proc/PID/fd), inotify watches (fdinfo, the watch host's included), threads (/proc/PID/task) and children, zombies apart (${r.samples.length} samples; a zombie counts when it is still one ${ZOMBIE_GRACE_MS / 1000} s after the reading, and ${reaped} seen were reaped within that). ` +
      warmupSentence(v),
    '',
    `![The owner's RSS and heaps over the soak](${svgName(sectionKey(c))})`,
    '',
    '| memory (after the warm-up) | slope, MB / 10 min | peak before the last third, MB | peak in the last third, MB | target (≤ ' + r.config.bounds.maxSlopeMb + ', no new peak) |',
    '| --- | --- | --- | --- | --- |',
    ...mem,
    '',
    `RSS over the whole run: ${f1(Math.min(...rssAll))} to ${f1(Math.max(...rssAll))} MB.${firstWarmupLine(v)}${pageReturnsLine(r.samples)}${outsideHeapsLine(r.samples, memoryWarmup(v))}${halvesLine(r.samples, memoryWarmup(v))}${storesLine(r.samples, memoryWarmup(v))}`,
    '',
    '| count with no session open | its level (median of the first 5 quiet readings after the warm-up) | at the end | target (back to its level) |',
    '| --- | --- | --- | --- |',
    ...lev,
    '',
    `| other target | measured | |`,
    `| --- | --- | --- |`,
    `| zombie children unreaped after ${ZOMBIE_GRACE_MS / 1000} s (most at once) | ${v.zombiesMax} | ${v.zombiesMax === 0 ? 'met' : '**MISSED**'} |`,
    `| tokens lost / found late / written | ${v.tokens.lost} / ${v.tokens.late} / ${v.tokens.written} (found after ${f1((v.tokens.foundMsP50 ?? NaN) / 1000)} s median, ${f1((v.tokens.foundMsMax ?? NaN) / 1000)} s at most) | ${v.tokens.lost + v.tokens.late === 0 ? 'met' : '**MISSED**'} |`,
    `| backlog at the end | ${v.backlogEnd} | ${v.backlogEnd === 0 ? 'met' : '**MISSED**'} |`,
    `| seek p99: soak / idle | ${f1(v.seek.soakP99Ms)} ms / ${f1(v.seek.idleP99Ms)} ms = ${f2(v.seek.ratio)}x (≤ ${r.config.bounds.seekRatioMax}x) | ${v.seek.ok ? 'met' : '**MISSED**'} |`,
    `| the owner at SIGTERM | ${v.ownerExit} | ${v.ownerExit === 'exit 0' ? 'met' : '**MISSED**'} |`,
    ...(v.throwaways ? [`| throwaway folders: brain made / removed through the owner / tried | ${v.throwaways.made} / ${v.throwaways.removed} / ${v.throwaways.tried} | ${v.throwaways.removed === v.throwaways.tried ? 'met' : '**MISSED**'} |`] : []),
    '',
    `Alerts raised: ${r.alerts.map((a) => `${a.brain}: ${summarizeAlerts(a.alerts)}`).join('; ') || 'none'}. Owner warnings logged: ${r.ownerWarnings.length}${r.ownerWarnings.length ? ` (${[...new Set(r.ownerWarnings.map((w) => w.msg))].slice(0, 6).join('; ')})` : ''}.${logVolumeLine(r)}${cpuLine(r.cpu, r.config.minutes)}`,
    '',
    v.missed.length ? `Missed: ${v.missed.join('; ')}.` : 'Every target met.',
    docEnd(sectionKey(c)),
  ];
  return lines.join('\n') + '\n';
}

/**
 * What the owner's log file grows by (launchd keeps stderr in a file nothing rotates): the bytes
 * at the default level (info and above) written during the day (start and stop left out), and per day at that rate.
 */
export function logVolumeLine(r: Pick<SoakReport, 'ownerLogBytes' | 'config'>): string {
  const b = r.ownerLogBytes;
  if (!b) return '';
  const atDefault = (b.info ?? 0) + (b.warn ?? 0) + (b.error ?? 0);
  const perDay = (atDefault * 24 * 60) / r.config.minutes;
  const kb = (n: number) => (n / 1024).toFixed(1);
  return ` The owner's log at the default level (info and above), its start and stop left out: ${kb(atDefault)} KB in ${r.config.minutes} minutes, ${kb(perDay)} KB a day at that rate (debug, which the soak reads, added ${kb(b.debug ?? 0)} KB).`;
}

/** The warm-up before memory was judged (a report made before memoryWarmupMs has the one warm-up). */
const memoryWarmup = (v: Verdicts) => v.memoryWarmupMs ?? v.warmupMs;
const minutes = (ms: number) => (ms / 60_000).toFixed(1);

function warmupSentence(v: Verdicts): string {
  const levels = 'levels are read with no session open and the brains settled (backlog 0, no tick), after each round';
  const rule = '5 minutes for 30 or more, else a sixth of the run';
  if (memoryWarmup(v) === v.warmupMs) return `Memory is judged after a warm-up of ${minutes(v.warmupMs)} minutes (${rule}); ${levels}.`;
  return (
    `Memory is judged after a warm-up of ${minutes(memoryWarmup(v))} minutes (on Bun, in a run of 120 minutes or more, the hour it climbs to its working set, as its soaks measured it: bench/soak/judge.ts CLIMB_MS), ` +
    `descriptors, watches and threads after ${minutes(v.warmupMs)} minutes (${rule}); ${levels}.`
  );
}

/** What the first warm-up would have said of memory, where the runtime's is longer (information). */
function firstWarmupLine(v: Verdicts): string {
  if (!v.memoryFromFirstWarmup) return '';
  const each = v.memoryFromFirstWarmup.map((m) => `${m.name} slope ${f2(m.slopeMbPer10Min)} MB/10 min (${m.ok ? 'met' : 'missed'}; peaks ${f1(m.earlierPeakMb)} then ${f1(m.lastThirdPeakMb)} MB)`);
  return ` Judged from minute ${Number((v.warmupMs / 60_000).toFixed(1))} instead, as issue 31 first set it (information): ${each.join(', ')}.`;
}

/**
 * Where RSS went beside the judged heaps, as information: each thread's external memory
 * (ArrayBuffers, WebAssembly: a grammar's memory never shrinks) and what is left of RSS past
 * the heaps and external memory read (SQLite's caches, malloc's arenas, code, the pool's other
 * threads), as slopes after the warm-up.
 */
function outsideHeapsLine(samples: readonly Sample[], warmupMs: number): string {
  const judged = samples.filter((s) => s.t >= warmupMs && s.externalMb && s.mainHeapMb !== null);
  if (judged.length < 2) return '';
  const slope = (pick: (s: Sample) => number | null) => slopeText(judged, pick);
  const rest = (s: Sample) => s.rssMb - (s.mainHeapMb ?? 0) - (s.poolHeapMb ?? 0) - (s.writersHeapMb ?? 0) - s.externalMb!.main - (s.externalMb!.pool ?? 0) - (s.externalMb!.writers ?? 0);
  const last = judged[judged.length - 1]!;
  return (
    ` Outside the heaps (information, MB / 10 min after the warm-up): external memory of the main thread ${slope((s) => s.externalMb!.main)}, a pool thread ${slope((s) => s.externalMb!.pool)}, the store writers ${slope((s) => s.externalMb!.writers)}` +
    ` (${f1(last.externalMb!.main)}, ${f1(last.externalMb!.pool)} and ${f1(last.externalMb!.writers)} MB at the end); RSS less the heaps and external memory read ${slope(rest)} (${f1(rest(last))} MB at the end: SQLite's caches, malloc's arenas, code, the other pool threads).`
  );
}

/** One figure's least-squares slope over `samples`, in MB per 10 minutes, as the report prints it. */
const slopeText = (samples: readonly Sample[], pick: (s: Sample) => number | null) => f2(slopePer10Min(series(samples, pick)));

/**
 * The slope of RSS and of the main thread's heap in each half of the judged time, as
 * information: an owner that climbs to its working set and stays there reads apart from one that
 * grows all along (the judged slope is one line through both). A 60-minute Bun run climbed
 * 10.72 MB/10 min from minute 5 to 30 and 0.09 from 30 to 60 (docs/reliability.md).
 */
function halvesLine(samples: readonly Sample[], warmupMs: number): string {
  const judged = samples.filter((s) => s.t >= warmupMs);
  if (judged.length < 4) return '';
  const middle = (judged[0]!.t + judged[judged.length - 1]!.t) / 2;
  const halves = [judged.filter((s) => s.t < middle), judged.filter((s) => s.t >= middle)];
  const slopes = (pick: (s: Sample) => number | null) => halves.map((h) => slopeText(h, pick)).join(' then ');
  const fileBacked = judged.every((s) => s.rssFileMb !== undefined) ? `, of RSS the pages mapped from files (the runtime's code and native modules as they are touched) ${slopes((s) => s.rssFileMb ?? null)}` : '';
  return ` In each half of the judged time (information, MB / 10 min): RSS ${slopes((s) => s.rssMb)}${fileBacked}, main thread heap ${slopes((s) => s.mainHeapMb)}.`;
}

/**
 * Each brain's store on disk (store-sizes.ts), as information: brain.db at the first sample
 * after the warm-up and at the end with its slope, and the largest its WAL was.
 */
function storesLine(samples: readonly Sample[], warmupMs: number): string {
  const judged = samples.filter((s) => s.t >= warmupMs && s.stores);
  if (judged.length < 2) return '';
  const first = judged[0]!.stores!;
  const last = judged[judged.length - 1]!.stores!;
  const each = Object.keys(last).map((kind) => {
    const walMax = Math.max(...judged.map((s) => s.stores![kind]?.walMb ?? 0));
    return `${kind} ${f1(first[kind]?.dbMb)} to ${f1(last[kind]!.dbMb)} MB (${slopeText(judged, (s) => s.stores![kind]?.dbMb ?? null)} MB / 10 min; WAL at most ${f1(walMax)} MB)`;
  });
  return ` Stores on disk after the warm-up (information; brain.db, its WAL apart): ${each.join(', ')}.`;
}

/** What the threads' page returns (src/page-return.ts) came to, from the last sample that carries them. */
function pageReturnsLine(samples: readonly Sample[]): string {
  const last = samples.findLast((s) => s.pageReturns)?.pageReturns;
  if (!last) return '';
  const one = (name: string, p: PageReturnsJson | null) => (p ? `${name} ${p.count} (${Math.round(p.ms)} ms)` : `${name} –`);
  return ` Page returns by the end (src/page-return.ts; count and time in all): ${one('main thread', last.main)}, ${one('store writers', last.writers)}, ${one('a pool thread', last.pool)}.`;
}

function summarizeAlerts(alerts: unknown): string {
  const list = (alerts as { alerts?: { code?: string }[] })?.alerts;
  if (!Array.isArray(list)) return String(JSON.stringify(alerts)).slice(0, 200);
  if (list.length === 0) return 'none';
  const kinds = new Map<string, number>();
  for (const a of list) kinds.set(a.code ?? '?', (kinds.get(a.code ?? '?') ?? 0) + 1);
  return [...kinds].map(([k, n]) => `${k} ×${n}`).join(', ');
}

/** Writes the section into docs/reliability.md (replacing its last run, or at the end) and the SVG beside it. */
export function writeDoc(root: string, r: SoakReport): void {
  const docPath = join(root, 'docs', 'reliability.md');
  const section = renderDocSection(r);
  const doc = existsSync(docPath) ? readFileSync(docPath, 'utf8') : '';
  const key = sectionKey(r.config);
  const a = doc.indexOf(docBegin(key));
  const b = doc.indexOf(docEnd(key));
  const next = a !== -1 && b > a ? doc.slice(0, a) + section + doc.slice(b + docEnd(key).length + 1) : doc.replace(/\n*$/, '\n\n') + section;
  writeFileSync(docPath, next);
  writeFileSync(join(root, 'docs', svgName(key)), renderSvg(r.samples, memoryWarmup(r.verdicts)));
}
