/**
 * An in-process Session over a real brain, for testing the dispatch seam without a transport.
 */
import { FolderProbe } from '../../src/probe/index.js';
import { Session } from '../../src/session/index.js';
import { TOOLS } from '../../src/tools/index.js';
import { Vigils, runTick, type VigilOptions } from '../../src/vigil/index.js';
import { dispatchTool, type ToolResult } from '../../src/dispatch/index.js';
import type { Brains } from '../../src/brain/index.js';
import { makeGitRepo, type GitRepo } from './git-repo.js';
import { makeTestBrains } from './brains.js';

export interface TestSession {
  session: Session;
  vigils: Vigils;
  dispatch(name: string, args?: Record<string, unknown>): Promise<ToolResult & { value: any }>;
  close(): Promise<void>;
}

/** A session whose folder probe has answered (late verbs armed when the folder is watched). */
export async function makeTestSession(brains: Brains, folder: string, vigil: VigilOptions = {}): Promise<TestSession> {
  const vigils = new Vigils({ log: () => {}, ...vigil });
  const probe = new FolderProbe({
    resolveBrain: async (f) => {
      const hit = brains.registry().resolve(f);
      return hit ? { brainId: hit.brain.id, armed: false } : null;
    },
  });
  const session = new Session({ folder, brains, vigils, probe, tools: TOOLS, log: () => {} });
  await session.ready();
  return {
    session,
    vigils,
    dispatch: (name, args = {}) =>
      dispatchTool(session.toolsByName, name, args, { session, signal: new AbortController().signal, progress: () => {} }),
    async close() {
      await session.close();
      await probe.close();
      await vigils.close();
    },
  };
}

/**
 * A git repository of `files`, mapped by a first tick, and a session over it; all removed after
 * `fn`. `tick` runs one more tick of its brain (after `fn` edits files in `dir`).
 */
export async function withMappedSession(
  files: Record<string, string>,
  fn: (s: TestSession, repo: GitRepo & { tick: () => Promise<void> }) => Promise<void>,
): Promise<void> {
  const repo = await makeGitRepo(files);
  const t = await makeTestBrains();
  const { brain } = await t.brains.ensure(repo.dir);
  await runTick(brain, { inventory: true });
  const s = await makeTestSession(t.brains, repo.dir);
  try {
    await fn(s, Object.assign(repo, { tick: async () => void (await runTick(brain)) }));
  } finally {
    await s.close();
    await t.cleanup();
    await repo.cleanup();
  }
}
