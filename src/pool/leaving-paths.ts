/**
 * Paths git's ignore rules now cover, between the detection that found them and the drain that
 * takes them out of the map (src/detect/git-ignored.ts). Detection queues such a path like a
 * deleted one, but the file is still there: a hash+extract batch would read it and map it
 * again. So the pool, which runs both, remembers what each root's last detection found
 * ignored and tells the batch which of its items leave without being read.
 *
 * Kept in memory, per root, by the one pool of a process: a path found ignored and not drained
 * before the process ended is read once more by the next process's drain, and leaves at the
 * next inventory. A path a later detection lists again (no longer ignored) is forgotten here.
 */
import type { DetectResult } from '../detect/index.js';
import type { HashExtractTask } from '../../workers/types.js';

export class LeavingPaths {
  /** Root path → root-relative paths found ignored and not yet drained. */
  #byRoot = new Map<string, Set<string>>();

  /** What one detection of `root` said: ignored paths join, paths it lists as present leave. */
  record(root: string, result: DetectResult): void {
    let set = this.#byRoot.get(root);
    if (set) for (const e of result.entries) if (!e.deleted) set.delete(e.path);
    if (result.ignored?.length) {
      set ??= new Set();
      for (const rel of result.ignored) set.add(rel);
      this.#byRoot.set(root, set);
    }
    if (set?.size === 0) this.#byRoot.delete(root);
  }

  /** The ids of the batch's items that leave unread; each is forgotten here as it is handed out. */
  take(task: HashExtractTask): number[] | undefined {
    if (this.#byRoot.size === 0) return undefined;
    const ids: number[] = [];
    for (const item of task.items) {
      const root = task.roots[item.rootId];
      const set = root === undefined ? undefined : this.#byRoot.get(root);
      if (!set?.delete(item.path)) continue;
      ids.push(item.id);
      if (set.size === 0) this.#byRoot.delete(root!);
    }
    return ids.length ? ids : undefined;
  }

  /** A batch that failed: its items that were to leave are remembered again, for the retry. */
  giveBack(task: HashExtractTask, ids: readonly number[] | undefined): void {
    if (!ids?.length) return;
    const leave = new Set(ids);
    for (const item of task.items) {
      const root = task.roots[item.rootId];
      if (!leave.has(item.id) || root === undefined) continue;
      let set = this.#byRoot.get(root);
      if (!set) this.#byRoot.set(root, (set = new Set()));
      set.add(item.path);
    }
  }
}
