/**
 * Where the bench process's resident memory lives, taken right after the bursts and the
 * skeleton (where its peak is reached): each thread's V8 heap as V8 reports it (the main
 * thread, a pool thread, the store writer), their external memory (WebAssembly: the
 * tree-sitter grammars of the pool thread), the code mapped from files (the runtime's binary
 * and libraries, /proc's RssFile) and the rest: malloc (SQLite's page caches and FTS5's
 * pending terms, file buffers), thread stacks, V8's compiled WebAssembly. Each heap is
 * its physical size, garbage not yet collected included, because that is what RSS holds.
 * On Bun each figure is JavaScriptCore's for its thread (`bun:jsc`'s heapStats, src/bun-heap.ts:
 * `node:v8` answers there with the whole process on every thread): the heap's capacity and live
 * size, and as external what JSC counts beside its cells (WebAssembly memories, the storage of
 * large strings and buffers); the rest is mimalloc, JIT code and stacks.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Brain, Brains } from '../src/brain/index.js';
import { threadHeap, type ThreadHeap } from '../workers/types.js';

export interface MemoryBreakdown {
  /** All in MB. */
  rssMb: number;
  /** RSS mapped from files (the runtime's binary, libraries, ICU data); null off Linux. */
  fileMb: number | null;
  main: ThreadMb;
  pool: ThreadMb;
  writer: ThreadMb;
  /** RSS that is none of the above (malloc, stacks, compiled code outside the heaps). */
  otherMb: number;
}

export interface ThreadMb {
  heapMb: number;
  usedMb: number;
  externalMb: number;
}

const MB = 1 << 20;
const inMb = (h: ThreadHeap): ThreadMb => ({ heapMb: h.heap / MB, usedMb: h.used / MB, externalMb: h.external / MB });

function statusMb(field: string): number | null {
  if (!existsSync('/proc/self/status')) return null;
  const m = new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) / 1024 : null;
}

export async function measureMemoryBreakdown(brains: Brains, brain: Brain): Promise<MemoryBreakdown> {
  const [pool, writer] = await Promise.all([brains.pool.heapStats(), brain.writer.heapStats()]);
  const main = threadHeap();
  const rssMb = statusMb('VmRSS') ?? process.memoryUsage().rss / MB;
  const fileMb = statusMb('RssFile');
  const threads = [main, pool, writer].map(inMb);
  const accounted = threads.reduce((sum, t) => sum + t.heapMb + t.externalMb, fileMb ?? 0);
  return { rssMb, fileMb, main: threads[0]!, pool: threads[1]!, writer: threads[2]!, otherMb: Math.max(0, rssMb - accounted) };
}
