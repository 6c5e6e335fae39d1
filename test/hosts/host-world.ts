/**
 * A private world for the real host CLIs: a temp HOME (their configs, trust files and caches
 * land there, never in the user's), a Gardener home with one brain over a real git repository,
 * and the host CLIs that scripts/install-host-clis.mjs put in .host-clis/ first on PATH.
 * Every command is bounded; nothing needs a model, an account or the network.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeGitRepo, makeTempDir, type GitRepo } from '../helpers/git-repo.js';
import { CLI } from '../helpers/mcp-client.js';

/** Longest one host CLI command may take (Gemini loads a large bundle; a busy 2-core machine). */
export const HOST_COMMAND_TIMEOUT_MS = 90_000;

export const HOST_BIN = process.env.GARDENER_HOST_CLIS_BIN ?? fileURLToPath(new URL('../../../.host-clis/node_modules/.bin', import.meta.url));

export interface HostWorld {
  repo: GitRepo;
  home: string;
  gardenerHome: string;
  env: NodeJS.ProcessEnv;
  /** Runs the real gardener CLI in the repository. */
  gardener(args: string[], extraEnv?: NodeJS.ProcessEnv): { code: number | null; stdout: string; stderr: string };
  /** Runs a host CLI (claude, gemini, codex) in the repository. */
  host(cli: string, args: string[], extraEnv?: NodeJS.ProcessEnv): { code: number | null; stdout: string; stderr: string };
  cleanup(): Promise<void>;
}

export async function makeHostWorld(): Promise<HostWorld> {
  for (const cli of ['claude', 'gemini', 'codex']) {
    if (!existsSync(join(HOST_BIN, cli))) throw new Error(`${cli} is not in ${HOST_BIN}: run \`npm run test:hosts\` (it installs the host CLIs)`);
  }
  const home = await makeTempDir('gardener-host-home-');
  const repo = await makeGitRepo({ 'src/parse.ts': 'export function parseConfig(text: string) { return text; }\n' });
  const gardenerHome = join(home.dir, 'gardener-home');
  const env: NodeJS.ProcessEnv = {
    PATH: [HOST_BIN, dirname(process.execPath), process.env.PATH].join(delimiter),
    HOME: home.dir,
    GARDENER_HOME: gardenerHome,
    GARDENER_LOG: 'warn',
    TERM: 'dumb',
    // No update checks, telemetry or other traffic from the hosts.
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    GEMINI_TELEMETRY_ENABLED: 'false',
    NO_COLOR: '1',
  };
  const run = (command: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}) => {
    const r = spawnSync(command, args, { cwd: repo.dir, env: { ...env, ...extraEnv }, encoding: 'utf8', timeout: HOST_COMMAND_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'pipe'] });
    if (r.error) throw new Error(`${command} ${args.join(' ')}: ${r.error.message}\n${r.stdout}\n${r.stderr}`);
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const world: HostWorld = {
    repo,
    home: home.dir,
    gardenerHome,
    env,
    gardener: (args, extraEnv) => run(process.execPath, [CLI, ...args], extraEnv),
    host: (cli, args, extraEnv) => run(join(HOST_BIN, cli), args, extraEnv),
    cleanup: async () => {
      await repo.cleanup();
      await home.cleanup();
    },
  };
  const init = world.gardener(['init', repo.dir, '--json']);
  if (init.code !== 0) throw new Error(`gardener init failed: ${init.stderr}`);
  return world;
}
