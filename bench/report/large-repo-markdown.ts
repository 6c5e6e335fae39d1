/**
 * The "Large repositories" section of docs/benchmarks.md, rendered from the JSON of
 * `gardener bench --large-repo --json` (bench/large-repo-report.ts). The doc script fills it
 * only when it is given such a run (`--from-large run.json`); otherwise it keeps the section
 * the page already has, between the two markers, so a normal bench run never drops the
 * numbers of the last large run (nor invents any).
 */
import type { LargeRepoJson, RepoJson } from '../large-repo-report.js';
import { GROUPED } from './number-format.js';
import type { BenchTarget } from './shape.js';

export const LARGE_START = '<!-- large-repo:start -->';
export const LARGE_END = '<!-- large-repo:end -->';

const { fmt, valueText } = GROUPED;
const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
const table = (header: readonly string[], rows: readonly (readonly string[])[], align: readonly string[]) => [row(header), row(align), ...rows.map(row)].join('\n');
const n = (x: number) => x.toLocaleString('en-US');

/** The section (markers included) for one large-repo run. */
export function renderLargeRepoSection(json: LargeRepoJson): string {
  if (json.kind !== 'large-repo') throw new Error('update-bench-doc: --from-large needs the JSON of `gardener bench --large-repo --json`');
  const { large: l, small: s, machine: m } = json;
  const status = (t: BenchTarget) => (t.status === 'met' ? '✅ met' : t.status === 'missed' ? '❌ missed' : 'not measured');
  const side = (what: string, f: (r: RepoJson) => string) => [what, f(l), f(s)];
  const lines = [
    LARGE_START,
    '## Large repositories',
    '',
    `\`gardener bench --large-repo --base-files ${l.files} --runs ${json.runs}\` (not in CI): the same generated`,
    `kind of repository at ${n(l.files)} files, beside ${n(s.files)} files in the same run. Fresh brains; medians of ${json.runs} runs.`,
    `Every file is read once just before the init (${fmt(l.warm_contents_ms / 1000)} s at ${n(l.files)} files), so the init finds the contents in the page cache, as right after a clone.`,
    `${m.runtime} with ${m.sqlite_driver}, ${m.cpus} CPUs, ${m.pool_threads} pool thread${m.pool_threads === 1 ? '' : 's'}, git ${m.git_version}; ${json.date}.`,
    '',
    table(
      ['', `${n(l.files)} files`, `${n(s.files)} files`],
      [
        side('init (first full ingest, own process)', (r) => `**${fmt(r.init_ms / 1000)} s**`),
        side('init per file', (r) => `${r.init_ms_per_file.toFixed(3)} ms`),
        side('… detection (its git)', (r) => `${fmt(r.init_detect_ms)} ms (${fmt(r.init_git_ms)} ms)`),
        side('… drain (writer commits)', (r) => `${fmt(r.init_drain_ms)} ms (${fmt(r.init_commit_ms)} ms)`),
        side('… pool read+hash+extract, summed', (r) => `${fmt(r.init_pool_work_ms)} ms`),
        side('init process peak RSS', (r) => `${fmt(r.peak_rss_after_init_mb)} MB`),
        side('store (db + WAL)', (r) => `${fmt(r.store_mb)} MB`),
        side('idle tick', (r) => `${fmt(r.idle_tick_ms)} ms`),
        side('bare `git status`', (r) => `${fmt(r.git_status_ms)} ms`),
        side('idle / git status', (r) => `${r.idle_ratio.toFixed(2)}×`),
        side("idle tick, the detector's own index on / off (in turns)", (r) => `${fmt(r.idle_own_index_ms)} / ${fmt(r.idle_plain_index_ms)} ms (git status ${fmt(r.idle_lever_git_status_ms)} ms)`),
        side(`${l.burst_files}-file burst`, (r) => `**${fmt(r.burst_ms)} ms** (detect ${fmt(r.burst_detect_ms)}, drain ${fmt(r.burst_drain_ms)})`),
      ],
      [':--', '--:', '--:'],
    ),
    '',
    l.watch_start_ms === null
      ? `The live watcher was not measured: ${l.watch_not_measured ?? 'unknown reason'}.`
      : `The live watcher on ${n(l.files)} files is ready ${fmt(l.watch_start_ms)} ms after it starts (its host's spawn included), holding ${l.watch_inotify_watches ?? '?'} inotify watches (one per folder), host RSS ${l.watch_host_rss_mb === null ? "?" : fmt(l.watch_host_rss_mb)} MB.`,
    '',
    `A bare \`git status --porcelain -uall\` of ${n(l.files)} files (optional locks off, as the detector runs it), by the state of git's untracked cache:`,
    '',
    table(['untracked cache', 'git status'], l.untracked_cache.map((u) => [u.state, `${fmt(u.git_status_ms)} ms`]), [':--', '--:']),
    '',
    table(['target', 'measured', ''], json.targets.map((t) => [t.target, valueText(t), status(t)]), [':--', '--:', ':--']),
    '',
    LARGE_END,
    '',
  ];
  return lines.join('\n');
}

/** The section an existing page has (markers included), or '' when it has none. */
export function keptLargeRepoSection(doc: string): string {
  const start = doc.indexOf(LARGE_START);
  const end = doc.indexOf(LARGE_END);
  if (start < 0 || end < start) return '';
  return doc.slice(start, end + LARGE_END.length) + '\n\n';
}
