/**
 * Pool worker (Piscina): hash+extract batches.
 *
 *   main thread ── run(HashExtractTask) ──► [this worker] ── reads files under task.root
 *               ◄── HashExtractOutput ────┘
 *
 * Stateless: it may touch only the files of the batch it is handed; no store, no git.
 */
import { hashAndExtract } from '../src/ingest/hash-extract.js';
import type { HashExtractOutput, HashExtractTask } from './types.js';

export default async function hashExtract(task: HashExtractTask): Promise<HashExtractOutput> {
  const started = performance.now();
  const results = await hashAndExtract(task);
  return { results, workMs: performance.now() - started };
}
