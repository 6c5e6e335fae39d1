/**
 * Two reads for the owner's page that no MCP tool lists: the code lines around a hit, and the
 * history of a file. They live here, beside the tools, because they hold the tools' rules and
 * nothing else (the page must see nothing an agent cannot):
 *
 * - a path is confined to the brain's roots from the session folder (src/paths/confine-path.ts,
 *   the one Session.resolvePath uses), so `..`, absolute paths elsewhere and symlinks out are
 *   refused before anything is read;
 * - only a file the map holds, or one waiting in its backlog, is read: what `.gardenerignore`
 *   keeps out of the map, skip dirs and the brain's own store are never read;
 * - a secret-bearing file is named by its path only: its lines are never read;
 * - every line is passed through the same token redaction the index applies;
 * - a file waiting in the backlog is marked pending, as the recall tools mark it;
 * - bounds: PAGE_READ_MAX_FILES files a call, PAGE_READ_MAX_BYTES a file, PAGE_LINES_AROUND
 *   lines each side of a hit, PAGE_LINE_MAX_CHARS characters a line.
 *
 * They are not tools so the tool list agents pay for stays as it is (test/tool-list-stays-lean).
 * The reads are asynchronous and bounded: a page asks for at most a screenful of hits.
 */
import { open } from 'node:fs/promises';
import type { Brain } from '../brain/index.js';
import { InvalidArgumentError } from '../errors.js';
import { HUGE_COMMIT_FILES, pathsOf, readHistoryStates, recentCommitIds } from '../history/index.js';
import { isSecretFile, redactTokens } from '../ingest/index.js';
import { confinePath } from '../paths/confine-path.js';
import { toFsPath } from '../paths/path-bytes.js';
import { listRoots, pendingAmong } from '../store/index.js';
import { freshnessOf } from './freshness.js';

/** Files one call may ask lines of: a screenful of hits. */
export const PAGE_READ_MAX_FILES = 40;
/** A file bigger than this is not read for lines (a generated or vendored file): said so instead. */
export const PAGE_READ_MAX_BYTES = 1024 * 1024;
/** Lines shown on each side of a hit. */
export const PAGE_LINES_AROUND = 3;
/** A longer line is cut (minified code would fill the page). */
export const PAGE_LINE_MAX_CHARS = 300;
/** Recent commits listed for a file. */
export const PAGE_HISTORY_COMMITS = 12;
/** Commits looked at for the files that change with it. */
export const PAGE_COCHANGE_COMMITS = 200;
/** Files listed as changing with it. */
export const PAGE_COCHANGE_FILES = 12;

export interface LinesAsk {
  path: string;
  line: number;
}

export interface LinesAnswer {
  path: string;
  line: number;
  /** The first line number of `lines`. */
  from?: number;
  lines?: string[];
  pending: boolean;
  /** Why no lines are shown (secret-bearing, not in the map, too large, gone, binary). */
  why?: string;
}

interface Resolved {
  rootId: number;
  root: string;
  rel: string;
}

function resolveIn(brain: Brain, anchor: string, path: string): Resolved {
  const { root, rel } = confinePath(anchor, brain.roots, path, "this session's brain roots");
  const row = listRoots(brain.reader).find((r) => r.path === root);
  if (!row) throw new InvalidArgumentError(`${path}: its root ${root} has not been ingested yet`);
  return { rootId: row.id, root, rel };
}

const inMap = (brain: Brain, rootId: number, rel: string) =>
  brain.reader.prepare('SELECT 1 AS x FROM files WHERE root_id = ? AND path = ?').get(rootId, rel) !== undefined;

/** The lines around each asked hit, read from disk under the tools' rules. */
export async function linesAround(brain: Brain, anchor: string, asks: readonly LinesAsk[]): Promise<{ files: LinesAnswer[] }> {
  if (!Array.isArray(asks) || asks.length > PAGE_READ_MAX_FILES) throw new InvalidArgumentError(`hits: give from 0 to ${PAGE_READ_MAX_FILES} {path, line}`);
  const out: LinesAnswer[] = [];
  for (const ask of asks) {
    if (typeof ask?.path !== 'string' || !Number.isInteger(ask.line) || ask.line < 1) throw new InvalidArgumentError('hits: each is {path: string, line: a whole number from 1}');
    const r = resolveIn(brain, anchor, ask.path);
    const pending = pendingAmong(brain.reader, r.rootId, [r.rel]).size > 0;
    const base = { path: r.rel, line: ask.line, pending };
    if (isSecretFile(r.rel)) {
      out.push({ ...base, why: 'secret-bearing file: shown by its path only' });
      continue;
    }
    if (!pending && !inMap(brain, r.rootId, r.rel)) {
      out.push({ ...base, why: 'not in the map' });
      continue;
    }
    out.push({ ...base, ...(await readAround(`${r.root}/${r.rel}`, ask.line)) });
  }
  return { files: out };
}

async function readAround(file: string, line: number): Promise<{ from?: number; lines?: string[]; why?: string }> {
  let fh;
  try {
    fh = await open(toFsPath(file), 'r');
  } catch {
    return { why: 'gone from disk' };
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) return { why: 'not a regular file' };
    if (st.size > PAGE_READ_MAX_BYTES) return { why: `larger than ${PAGE_READ_MAX_BYTES / 1024} KiB: not read` };
    const buf = Buffer.alloc(st.size);
    await fh.read(buf, 0, st.size, 0);
    if (buf.includes(0)) return { why: 'binary' };
    const all = buf.toString('utf8').split('\n');
    const from = Math.max(1, line - PAGE_LINES_AROUND);
    const to = Math.min(all.length, line + PAGE_LINES_AROUND);
    const lines = all.slice(from - 1, to).map((l) => {
      const text = redactTokens(l.replace(/\r$/, ''));
      return text.length > PAGE_LINE_MAX_CHARS ? `${text.slice(0, PAGE_LINE_MAX_CHARS)}…` : text;
    });
    return { from, lines };
  } finally {
    await fh.close();
  }
}

/** A file's recent commits and the files that change with it, from the brain's stored history. */
export function fileHistory(brain: Brain, anchor: string, path: string) {
  if (typeof path !== 'string' || path === '') throw new InvalidArgumentError('path: give a file path');
  const db = brain.reader;
  const r = resolveIn(brain, anchor, path);
  const state = readHistoryStates(db).find((s) => s.rootId === r.rootId);
  const ids = recentCommitIds(db, r.rootId, r.rel, PAGE_COCHANGE_COMMITS);
  const commit = db.prepare('SELECT sha, time, files FROM history_commits WHERE id = ?');
  const commits = ids.slice(0, PAGE_HISTORY_COMMITS).map((id) => {
    const c = commit.get<{ sha: string; time: number; files: number }>(id)!;
    return { sha: c.sha, at: new Date(c.time * 1000).toISOString(), files: c.files };
  });
  const together = new Map<string, number>();
  for (const id of ids) {
    const paths = pathsOf(db, id);
    if (paths.length > HUGE_COMMIT_FILES) continue;
    for (const p of paths) if (p !== r.rel) together.set(p, (together.get(p) ?? 0) + 1);
  }
  const changes_with = [...together]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, PAGE_COCHANGE_FILES)
    .map(([p, commits]) => ({ path: p, commits }));
  return {
    path: r.rel,
    history: state ? { status: state.status, commits: state.commits, note: state.note } : { status: 'none', commits: 0, note: null },
    touched_by: ids.length,
    commits,
    changes_with,
    freshness: freshnessOf(brain, [r.rel]),
  };
}
