/**
 * The in-process SessionHost of `gardener mcp` without an owner (transports/session-host.ts),
 * loaded only after `initialize` has been answered: each session gets its own brains, vigils and
 * folder probe, and closing it closes them.
 */
import { Brains, type BrainsOptions } from '../../brain/index.js';
import { FolderProbe } from '../../probe/index.js';
import { Session } from '../../session/index.js';
import { readVigil } from '../../store/index.js';
import { TOOLS } from '../../tools/index.js';
import { Vigils, type VigilOptions } from '../../vigil/index.js';
import type { SessionHost, SessionParts } from '../session-host.js';

export interface StdioSessionOptions {
  brains?: BrainsOptions;
  vigil?: VigilOptions;
}

export function inProcessHost(options: StdioSessionOptions = {}): SessionHost {
  return { openSession: (folder, onToolsChanged) => openInProcessSession(folder, onToolsChanged, options) };
}

function openInProcessSession(folder: string, onToolsChanged: () => void, options: StdioSessionOptions): SessionParts {
  const brains = new Brains(options.brains);
  const vigils = new Vigils(options.vigil);
  const probe = new FolderProbe({
    resolveBrain: async (folder) => {
      const hit = brains.registry().resolve(folder);
      if (!hit) return null;
      const brain = brains.open(hit.brain.id, hit.brain.roots);
      return { brainId: brain.id, armed: readVigil(brain.reader).armed };
    },
  });
  const session = new Session({ folder, brains, vigils, probe, tools: TOOLS, onToolsChanged });
  return {
    session,
    async close() {
      await session.close();
      await probe.close();
      await vigils.close();
      await brains.close();
    },
  };
}
