/**
 * A scratch Gardener home for the benches and evals that call tools in-process: a temp folder
 * with the home in it, the brains, vigils and folder probe a Session needs, and one session,
 * all closed and the folder removed by `close()`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Brains } from '../src/brain/index.js';
import type { ToolContext } from '../src/dispatch/index.js';
import { FolderProbe } from '../src/probe/index.js';
import { Session } from '../src/session/index.js';
import { TOOLS } from '../src/tools/index.js';
import { Vigils } from '../src/vigil/index.js';

export class ScratchHome {
  /** The temp folder: the home is `home/` in it, the rest is the caller's. */
  readonly dir: string;
  readonly brains: Brains;
  readonly vigils = new Vigils({ log: () => {} });
  readonly probe = new FolderProbe({ resolveBrain: async () => null });
  #session: Session | undefined;

  constructor(prefix: string) {
    this.dir = mkdtempSync(join(tmpdir(), prefix));
    this.brains = new Brains({ home: join(this.dir, 'home'), maxThreads: 2 });
  }

  /** The one session, on `folder` (made on the first call), and a tool context for it. */
  session(folder: string): { session: Session; ctx: ToolContext } {
    this.#session ??= new Session({ folder, brains: this.brains, vigils: this.vigils, probe: this.probe, tools: TOOLS, log: () => {} });
    return { session: this.#session, ctx: { session: this.#session, signal: new AbortController().signal, progress: () => {} } };
  }

  async close(): Promise<void> {
    await this.#session?.close();
    await this.probe.close();
    await this.vigils.close();
    await this.brains.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
