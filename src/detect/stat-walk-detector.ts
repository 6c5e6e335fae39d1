/**
 * The stat backend, for roots git cannot speak for: a full walk that returns an inventory.
 *
 * Names are read as bytes (`readdir` with `encoding: 'buffer'`) so they stay exact. The walk
 * never descends into noise folders or the request's skip prefixes, and never follows a
 * symlink: a link is neither a file nor a folder to it. It does not read .gitignore (git's
 * rules are git's; a root without git has no such rules to honour). A folder it cannot read is
 * recorded in `unreadable` and skipped: one locked folder must not hide the rest of the root.
 * It does honour the root's `.gardenerignore` (gardener-ignore.ts): ignored folders are never
 * descended into and ignored files never listed.
 */
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { AbortedError, FolderNotFoundError } from '../errors.js';
import { decodePath, joinFsPath, toFsPath } from '../paths/path-bytes.js';
import { isSkippedDirName, makeSkipFilter } from './skip-dirs.js';
import { isOnNotesPath } from './notes-dir.js';
import { notesDirFor } from './root-config.js';
import { loadGardenerIgnore } from './gardener-ignore.js';
import { createLimiter, isGoneError, lstat, LSTAT_CONCURRENCY } from './stat-paths.js';
import type { ChangedEntry, DetectRequest, DetectResult } from './types.js';

/** Lists every regular file under `req.root`. Rejects with AbortedError on abort. */
export async function detectStat(req: DetectRequest, signal?: AbortSignal): Promise<DetectResult> {
  if (signal?.aborted) throw new AbortedError('change detection', { cause: signal.reason });
  const { root } = req;
  const limit = createLimiter(LSTAT_CONCURRENCY, signal);
  const rules = await loadGardenerIgnore(root);
  const { notesDir, configProblem } = notesDirFor(root, req.notesDir);
  const skipFilter = makeSkipFilter(req.skip, notesDir);
  const isSkipped = (rel: string) => skipFilter(rel) || rules.ignores(rel);
  const isSkippedDir = (rel: string) => skipFilter(rel) || rules.ignoresDir(rel);
  const entries: ChangedEntry[] = [];
  const unreadable: string[] = [];

  const statFile = async (rel: string): Promise<void> => {
    try {
      const st = await limit(() => lstat(joinFsPath(root, rel)));
      // Raced into something else between readdir and lstat: not a file any more.
      if (st.isFile()) entries.push({ path: rel, size: st.size, mtimeMs: st.mtimeMs, deleted: false });
    } catch (err) {
      if (err instanceof AbortedError || !isGoneError(err)) throw err;
    }
  };

  // A bare name (Bun 1.x ignores `withFileTypes` when `encoding` is 'buffer'): lstat says what it is.
  const visitUntyped = async (rel: string, name: string): Promise<void> => {
    let st;
    try {
      st = await limit(() => lstat(joinFsPath(root, rel)));
    } catch (err) {
      if (err instanceof AbortedError || !isGoneError(err)) throw err;
      return;
    }
    if (st.isDirectory()) {
      if ((!isSkippedDirName(name) || isOnNotesPath(rel, notesDir)) && !rules.ignoresDir(rel)) await walk(rel);
    } else if (st.isFile()) {
      entries.push({ path: rel, size: st.size, mtimeMs: st.mtimeMs, deleted: false });
    }
  };

  const walk = async (dirRel: string): Promise<void> => {
    const dirPath = dirRel === '' ? toFsPath(root) : joinFsPath(root, dirRel);
    let dirents;
    try {
      dirents = await limit(() => readdir(dirPath, { withFileTypes: true, encoding: 'buffer' }));
    } catch (err) {
      if (err instanceof AbortedError) throw err;
      if (dirRel === '') throw new FolderNotFoundError(root, 'cannot be read', { cause: err });
      unreadable.push(dirRel);
      return;
    }
    const work: Promise<void>[] = [];
    for (const dirent of dirents as (Dirent<Buffer> | Buffer)[]) {
      const name = decodePath(Buffer.isBuffer(dirent) ? dirent : dirent.name);
      const rel = dirRel === '' ? name : `${dirRel}/${name}`;
      if (Buffer.isBuffer(dirent)) {
        if (!isSkipped(rel)) work.push(visitUntyped(rel, name));
      } else if (dirent.isDirectory()) {
        if ((!isSkippedDirName(name) || isOnNotesPath(rel, notesDir)) && !isSkippedDir(rel)) work.push(walk(rel));
      } else if (dirent.isFile()) {
        if (!isSkipped(rel)) work.push(statFile(rel));
      }
      // Symlinks, sockets, fifos and devices are never followed and never mapped.
    }
    await Promise.all(work);
  };

  await walk('');
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  unreadable.sort();
  return {
    backend: 'stat',
    head: null,
    inventory: true,
    entries,
    dirty: [],
    fallback: null,
    gitMs: 0,
    unreadable,
    ignoreFingerprint: rules.fingerprint,
    notesDir,
    configProblem,
  };
}
