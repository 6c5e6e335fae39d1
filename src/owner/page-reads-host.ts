/**
 * The page's two reads that are not tools (src/tools/page-reads.ts), bound to the owner's
 * brains: the folder names the brain as a session folder would (the registry's nearest root),
 * and the path is confined from that folder. Nothing here ticks, arms or ingests.
 */
import { checkFolder } from '../brain/index.js';
import { InvalidArgumentError } from '../errors.js';
import { fileHistory, linesAround, type LinesAsk } from '../tools/page-reads.js';
import type { OwnerBrains } from './owner-brains.js';

export interface PageReads {
  lines(folder: string, body: unknown): Promise<unknown>;
  history(folder: string, body: unknown): Promise<unknown>;
}

export function pageReadsOf(owner: OwnerBrains): PageReads {
  const brainOf = (folder: string) => {
    if (!folder.startsWith('/')) throw new InvalidArgumentError(`the session folder must be an absolute path, got "${folder}"`);
    const real = checkFolder(folder);
    return { brain: owner.brains.resolve(real), anchor: real };
  };
  return {
    async lines(folder, body) {
      const { brain, anchor } = brainOf(folder);
      return linesAround(brain, anchor, ((body ?? {}) as { hits?: LinesAsk[] }).hits ?? []);
    },
    async history(folder, body) {
      const { brain, anchor } = brainOf(folder);
      return fileHistory(brain, anchor, ((body ?? {}) as { path?: string }).path ?? '');
    },
  };
}
