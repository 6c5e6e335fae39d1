/**
 * Codex, through its own CLI (`codex mcp add|remove`, which edit `$CODEX_HOME/config.toml`,
 * default `~/.codex`, keeping its comments). Codex passes an MCP server only a whitelist of
 * environment variables (HOME, PATH, ...): without GARDENER_HOME the server looks in the default
 * home (and that home's owner, so in-process), and without XDG_RUNTIME_DIR it dials the socket
 * where the owner is not before finding it through run/owner.json. So
 * install passes both as values (`--env`); the manual form is `env_vars = [...]`. Over HTTP the
 * token is read from a variable (`--bearer-token-env-var`). Gardener reads config.toml with a
 * TOML parser and never writes it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'smol-toml';
import { HostConfigError } from '../errors.js';
import { mcpUrl } from './host-context.js';
import { envPairs, specOf } from './server-spec.js';
import { SERVER_NAME, TOKEN_ENV, type HostAdapter, type HostContext, type HostEntry } from './types.js';

export function codexConfigFile(ctx: HostContext): string {
  return join(ctx.env.CODEX_HOME || join(ctx.userHome, '.codex'), 'config.toml');
}

function readToml(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new HostConfigError(file, (err as Error).message, { cause: err });
  }
  try {
    return parse(text) as Record<string, unknown>;
  } catch (err) {
    throw new HostConfigError(file, `not valid TOML (${(err as Error).message.split('\n')[0]})`, { cause: err });
  }
}

export const codex: HostAdapter = {
  name: 'codex',
  title: 'Codex',
  cli: 'codex',
  scopes: ['user'],
  defaultScope: 'user',
  http: true,
  guideFile: 'AGENTS.md',

  find(ctx) {
    const file = codexConfigFile(ctx);
    const servers = readToml(file).mcp_servers as Record<string, unknown> | undefined;
    const spec = specOf(servers?.[SERVER_NAME]);
    const found: HostEntry[] = [];
    if (spec) found.push({ scope: 'user', transport: spec.transport, file, spec });
    return found;
  },

  spec(ctx, _scope, transport) {
    if (transport === 'http') return { transport, url: mcpUrl(ctx.httpBase, ctx.project), bearerTokenEnv: TOKEN_ENV };
    const env = ctx.serverEnv(false);
    return { transport, command: ctx.command, args: [ctx.script, 'mcp'], ...(Object.keys(env).length ? { env } : {}) };
  },

  add(ctx, _scope, spec) {
    const argv =
      spec.transport === 'http'
        ? ['codex', 'mcp', 'add', SERVER_NAME, '--url', spec.url!, '--bearer-token-env-var', spec.bearerTokenEnv!]
        : ['codex', 'mcp', 'add', SERVER_NAME, ...envPairs(spec.env).flatMap((p) => ['--env', p]), '--', spec.command!, ...(spec.args ?? [])];
    return [{ kind: 'run', argv, cwd: ctx.project }];
  },

  remove(ctx) {
    return [{ kind: 'run', argv: ['codex', 'mcp', 'remove', SERVER_NAME], cwd: ctx.project }];
  },

  manual(ctx, spec) {
    const entry = spec.transport === 'http' ? { url: spec.url, bearer_token_env_var: spec.bearerTokenEnv } : { command: spec.command, args: spec.args, ...(spec.env ? { env: spec.env } : {}) };
    return { file: codexConfigFile(ctx), text: stringify({ mcp_servers: { [SERVER_NAME]: entry } }) };
  },

  after(ctx, _scope, transport) {
    return transport === 'http' ? [`the URL names ${ctx.project}: Codex keeps one entry for every project (stdio follows the folder Codex starts in)`] : [];
  },
};
