/**
 * Claude Code, through its own CLI (`claude mcp add|remove`). Its entries live in
 * `~/.claude.json` (`local`: private to you in one project, keyed by the work tree's top;
 * `user`: every project) and in the project's `.mcp.json` (`project`: shared, and held
 * "Pending approval" until approved in an interactive `claude`, so never the default).
 * Claude Code expands `${VAR}` in headers, so the token stays a reference.
 */
import { join } from 'node:path';
import { getAt, readJsonConfig } from './json-config.js';
import { gardenerSpec } from './host-context.js';
import { envPairs, httpAddArgv, specOf } from './server-spec.js';
import { SERVER_NAME, TOKEN_ENV, type HostAdapter, type HostContext, type HostEntry, type Scope, type Step } from './types.js';

/** Claude Code's own config file ($CLAUDE_CONFIG_DIR/.claude.json when that is set). */
export function claudeJsonFile(ctx: HostContext): string {
  return join(ctx.env.CLAUDE_CONFIG_DIR || ctx.userHome, '.claude.json');
}

/**
 * Whether a project (.mcp.json) server is approved: `enabledMcpjsonServers` (or
 * `enableAllProjectMcpServers`) in the user's settings (checked with Claude Code 2.1.332), the
 * project's local settings, or the older per-project record in ~/.claude.json.
 */
function approved(ctx: HostContext): boolean {
  const records = [
    readJsonConfig(join(ctx.env.CLAUDE_CONFIG_DIR || join(ctx.userHome, '.claude'), 'settings.json')),
    readJsonConfig(join(ctx.project, '.claude', 'settings.local.json')),
    getAt(readJsonConfig(claudeJsonFile(ctx)), ['projects', ctx.project]) as Record<string, unknown> | undefined,
  ];
  return records.some((r) => {
    const enabled = r?.enabledMcpjsonServers;
    return r?.enableAllProjectMcpServers === true || (Array.isArray(enabled) && enabled.includes(SERVER_NAME));
  });
}

export const claudeCode: HostAdapter = {
  name: 'claude-code',
  title: 'Claude Code',
  cli: 'claude',
  scopes: ['local', 'user', 'project'],
  defaultScope: 'local',
  http: true,
  guideFile: 'CLAUDE.md',

  find(ctx) {
    const found: HostEntry[] = [];
    const file = claudeJsonFile(ctx);
    const doc = readJsonConfig(file);
    const local = specOf(getAt(doc, ['projects', ctx.project, 'mcpServers', SERVER_NAME]));
    if (local) found.push({ scope: 'local', transport: local.transport, file, spec: local });
    const user = specOf(getAt(doc, ['mcpServers', SERVER_NAME]));
    if (user) found.push({ scope: 'user', transport: user.transport, file, spec: user });
    const mcpJson = join(ctx.project, '.mcp.json');
    const project = specOf(getAt(readJsonConfig(mcpJson), ['mcpServers', SERVER_NAME]));
    if (project) {
      const entry: HostEntry = { scope: 'project', transport: project.transport, file: mcpJson, spec: project };
      if (!approved(ctx)) entry.blocked = 'pending approval: run `claude` in the project and approve the gardener server';
      found.push(entry);
    }
    return found;
  },

  spec(ctx, _scope, transport) {
    return gardenerSpec(ctx, transport, `Bearer \${${TOKEN_ENV}}`);
  },

  add(ctx, scope, spec) {
    const argv =
      spec.transport === 'http'
        ? httpAddArgv('claude', scope, spec, SERVER_NAME)
        : ['claude', 'mcp', 'add', '--scope', scope, SERVER_NAME, ...envPairs(spec.env).flatMap((p) => ['-e', p]), '--', spec.command!, ...(spec.args ?? [])];
    return [{ kind: 'run', argv, cwd: ctx.project }];
  },

  remove(ctx, entry) {
    const steps: Step[] = [{ kind: 'run', argv: ['claude', 'mcp', 'remove', SERVER_NAME, '--scope', entry.scope], cwd: ctx.project }];
    // `claude mcp remove` leaves an empty .mcp.json behind; one that holds nothing else goes.
    if (entry.scope === 'project') steps.push({ kind: 'json-drop-if-empty', file: entry.file });
    return steps;
  },

  manual(ctx, spec, scope) {
    const entry = spec.transport === 'http' ? { type: 'http', url: spec.url, headers: spec.headers } : { type: 'stdio', command: spec.command, args: spec.args, env: spec.env ?? {} };
    const servers = { mcpServers: { [SERVER_NAME]: entry } };
    if (scope === 'project') return { file: join(ctx.project, '.mcp.json'), text: JSON.stringify(servers, null, 2) };
    const doc = scope === 'local' ? { projects: { [ctx.project]: servers } } : servers;
    return { file: claudeJsonFile(ctx), text: JSON.stringify(doc, null, 2) };
  },

  after(ctx, scope: Scope, transport) {
    const notes: string[] = [];
    if (scope === 'project') {
      notes.push(
        `Claude Code holds a project (.mcp.json) server "Pending approval": run \`claude\` in ${ctx.project} once and approve gardener, ` +
          `or add "gardener" to "enabledMcpjsonServers" in ~/.claude/settings.json (\`claude mcp list\` shows the state)`,
      );
    }
    if (transport === 'http' && scope === 'user') notes.push(`the URL names ${ctx.project}: every project will use that folder's brain over HTTP`);
    return notes;
  },
};
