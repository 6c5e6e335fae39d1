/**
 * What every host is told to launch or reach: the absolute runtime and CLI script of the
 * `gardener` that runs now (a GUI host's short PATH cannot lose it), the variables the server
 * needs from the host, and the owner's HTTP address. The project is the git work tree's top,
 * as Claude Code keys its private per-project entries.
 */
import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkFolder } from '../brain/index.js';
import { DEFAULT_HTTP_PORT } from '../transports/http/http-listener.js';
import { readOwnerFile } from '../owner/owner-file.js';
import { runPaths } from '../owner/run-paths.js';
import type { HostContext, ServerSpec, Transport } from './types.js';

const CLI_SCRIPT = fileURLToPath(new URL('../cli/main.js', import.meta.url));

export interface ContextOptions {
  /** A folder inside the project. */
  folder: string;
  home: string;
  env?: NodeJS.ProcessEnv;
  /** @default process.execPath */
  command?: string;
  /** @default this build's dist/src/cli/main.js */
  script?: string;
}

export function hostContext(options: ContextOptions): HostContext {
  const env = options.env ?? process.env;
  const real = checkFolder(options.folder);
  const owner = readOwnerFile(runPaths(options.home, env).ownerFile);
  const homeIsCustom = Boolean(env.GARDENER_HOME || env.XDG_STATE_HOME);
  return {
    project: workTreeTop(real),
    home: options.home,
    env,
    userHome: env.HOME || homedir(),
    command: options.command ?? process.execPath,
    script: realpathSync(options.script ?? CLI_SCRIPT),
    serverEnv(passesWholeEnvironment) {
      const out: Record<string, string> = {};
      // A host started from a desktop launcher never saw the shell's GARDENER_HOME: name it.
      if (homeIsCustom) out.GARDENER_HOME = options.home;
      // The owner's socket lives under XDG_RUNTIME_DIR; a host that passes a whitelist drops it,
      // and the server then finds the owner only on its second try (through run/owner.json).
      if (!passesWholeEnvironment && env.XDG_RUNTIME_DIR) out.XDG_RUNTIME_DIR = env.XDG_RUNTIME_DIR;
      return out;
    },
    httpBase: owner?.url ?? `http://127.0.0.1:${DEFAULT_HTTP_PORT}`,
    ownerRunning: Boolean(owner?.url),
  };
}

/** The nearest folder at or above `dir` holding `.git`, else `dir`. */
function workTreeTop(dir: string): string {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, '.git'))) return at;
    if (dirname(at) === at) return dir;
  }
}

/** `<base>/mcp?folder=<folder>`, the folder readable (slashes kept) but safe in a query. */
export function mcpUrl(base: string, folder: string): string {
  const readable = folder.startsWith('${') ? folder : encodeURIComponent(folder).replace(/%2F/g, '/');
  return `${base}/mcp?folder=${readable}`;
}

/**
 * Gardener as a host runs it (stdio: this runtime, this CLI, `mcp`, with `--root` when the
 * host does not start servers in the project) or dials it (HTTP: the owner's URL and an
 * Authorization header whose value is a token reference, never the token).
 */
export function gardenerSpec(ctx: HostContext, transport: Transport, authorization: string, root?: string): ServerSpec {
  if (transport === 'http') return { transport, url: mcpUrl(ctx.httpBase, root ?? ctx.project), headers: { Authorization: authorization } };
  const env = ctx.serverEnv(true);
  return { transport, command: ctx.command, args: [ctx.script, 'mcp', ...(root === undefined ? [] : ['--root', root])], ...(Object.keys(env).length ? { env } : {}) };
}
