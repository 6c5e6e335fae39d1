/**
 * Everything a stdio session needs beyond the handshake, loaded only after `initialize` has
 * been answered: the brains, the vigils, the folder probe and the session with its tools.
 */
import { Brains, type BrainsOptions } from '../../brain/index.js';
import { FolderProbe } from '../../probe/index.js';
import { Session } from '../../session/index.js';
import { readVigil } from '../../store/index.js';
import { TOOLS } from '../../tools/index.js';
import { Vigils, type VigilOptions } from '../../vigil/index.js';

export interface StdioSessionParts {
  session: Session;
  close(): Promise<void>;
}

export interface StdioSessionOptions {
  folder: string;
  onToolsChanged: () => void;
  brains?: BrainsOptions;
  vigil?: VigilOptions;
}

export function createStdioSession(options: StdioSessionOptions): StdioSessionParts {
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
  const session = new Session({ folder: options.folder, brains, vigils, probe, tools: TOOLS, onToolsChanged: options.onToolsChanged });
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
