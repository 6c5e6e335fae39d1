/**
 * A folder that comes and goes, as an agent's worktree or a checkout in a temp folder does: a
 * small project is written, ingested through REST (the owner makes and opens its brain, its
 * writer starts), asked once, then deleted, and `gardener brains --prune` removes its brain
 * through the running owner. Over weeks an owner sees many; each must leave nothing behind: no
 * registry entry, no store, and (judged with the other levels) no descriptor or thread.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CLI, type OwnerProcess } from './owner-process.js';
import { restCall } from './sessions.js';

/** Files of a throwaway project. */
const THROWAWAY_FILES = 30;

export interface ThrowawayOutcome {
  /** Its brain was made and answered. */
  made: boolean;
  /** Its brain was removed by the owner and no registry entry is left but the soak's own. */
  removed: boolean;
  /** Why not, when either failed. */
  why?: string;
}

export async function throwawayBrain(owner: OwnerProcess, home: string, env: NodeJS.ProcessEnv, dir: string, keep: ReadonlySet<string>, round: number): Promise<ThrowawayOutcome> {
  mkdirSync(join(dir, 'src'), { recursive: true });
  for (let i = 0; i < THROWAWAY_FILES; i++) {
    writeFileSync(join(dir, 'src', `part${i}.ts`), `export function throwaway${round}Part${i}(n: number): number {\n  return n + ${i};\n}\n`);
  }
  const ingested = await restCall(owner, dir, 'ingest', {});
  const found = ingested.ok ? await restCall(owner, dir, 'seek', { query: `throwaway${round}Part7`, scope: 'code' }) : null;
  rmSync(dir, { recursive: true, force: true });
  if (!ingested.ok) return { made: false, removed: false, why: `ingest of a throwaway folder failed: ${ingested.text.slice(0, 200)}` };
  if (!found?.ok || !found.text.includes(`throwaway${round}Part7`)) return { made: false, removed: false, why: `a throwaway brain did not answer: ${found?.text.slice(0, 200)}` };
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'brains', '--prune', '--json'], { env, encoding: 'utf8' });
    const r = JSON.parse(stdout) as { removed: string[]; by_owner_pid?: number };
    const left = (JSON.parse(readFileSync(join(home, 'registry.json'), 'utf8')) as { brains: { id: string }[] }).brains.filter((b) => !keep.has(b.id));
    if (r.by_owner_pid !== owner.pid || r.removed.length !== 1 || left.length > 0) {
      return { made: true, removed: false, why: `prune through the owner: ${stdout.trim().slice(0, 200)}; left in the registry: ${left.map((b) => b.id).join(', ') || 'none'}` };
    }
    return { made: true, removed: true };
  } catch (err) {
    return { made: true, removed: false, why: `gardener brains --prune failed: ${(err as Error).message.slice(0, 300)}` };
  }
}
