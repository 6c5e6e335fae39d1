/**
 * Pool worker (Piscina): change detection for one ingest root.
 *
 *   main thread ── run(DetectRequest, {signal}) ──► [this worker] ── spawns git / walks the root
 *               ◄── DetectResult ─────────────────┘
 *
 * Stateless: it runs git (asynchronously, bounded, killed on abort) and stats files under
 * the root it is given. It never opens the store.
 */
import { detectChanges } from '../src/detect/detect-changes.js';
import type { DetectRequest, DetectResult } from './types.js';

export default async function detect(req: DetectRequest): Promise<DetectResult> {
  return detectChanges(req, AbortSignal.timeout(req.timeoutMs ?? 60_000));
}
