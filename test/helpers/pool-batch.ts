/**
 * A pool thread fed as a drain feeds it, for the tests that look at the thread afterwards: the
 * bench's tree-sitter sources written under a root, and a batch whose results go out on a channel
 * of their own (src/vigil/tick.ts), read back here.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { WorkerPool } from '../../src/pool/index.js';
import { makeTempDir } from './git-repo.js';
import type { BacklogItem, FileResult } from '../../workers/types.js';
import { generateTreeSitterSource, TREE_SITTER_EXTENSION, type TreeSitterBenchLanguage } from '../../bench/fixtures/tree-sitter-sources.js';

/** Writes one file of `lang` per entry under `root` (`src/<lang>/unit_<n>.<ext>`); returns their backlog items (root 1). */
export function writeTreeSitterFiles(root: string, files: readonly { lang: TreeSitterBenchLanguage; seed: number }[]): BacklogItem[] {
  return files.map(({ lang, seed }, i) => {
    const path = `src/${lang}/unit_${i}.${TREE_SITTER_EXTENSION[lang]}`;
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), generateTreeSitterSource(lang, seed, i));
    return { id: i + 1, rootId: 1, path, knownHash: null };
  });
}

/** One batch of `root`'s items through the pool, as a drain runs it; its results. */
export async function deliverBatch(pool: WorkerPool, root: string, items: readonly BacklogItem[]): Promise<FileResult[]> {
  const { port1, port2 } = new MessageChannel();
  const delivered = new Promise<FileResult[]>((resolve) => port2.once('message', resolve));
  try {
    await pool.hashExtractTo({ roots: { 1: root }, items: [...items], maxIndexBytes: 1 << 20 }, port1);
    return await delivered;
  } finally {
    port2.close();
  }
}

/** A pool of one thread and a temporary root for it, both ended after `work`, whether it throws or not. */
export async function withOnePoolThread<T>(prefix: string, work: (pool: WorkerPool, root: string) => Promise<T>): Promise<T> {
  const temp = await makeTempDir(prefix);
  const pool = new WorkerPool({ maxThreads: 1 });
  try {
    return await work(pool, temp.dir);
  } finally {
    await pool.close();
    await temp.cleanup();
  }
}
